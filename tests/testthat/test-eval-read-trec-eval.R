# read_trec_eval(): the reader of write_trec_eval() files and trec_eval -q
# output, against evaluate() and trec_eval's own expected outputs.

# The values of an evaluation as printed (4 decimals, counts whole).
printed <- function(res) {
  for (nm in names(res)) {
    x <- res[[nm]]
    v <- unclass(x)
    count <- identical(attr(x, "aggregate"), "sum")
    ok <- !is.na(v)
    v[ok] <- as.numeric(if (count) sprintf("%d", as.integer(round(v[ok]))) else sprintf("%.4f", v[ok]))
    res[[nm]][] <- v
  }
  res
}

test_that("write_trec_eval() then read_trec_eval() gives the same evaluation, values to the printed digits", {
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = "all_trec")
  f <- tempfile()
  write_trec_eval(res, f)
  back <- read_trec_eval(f, depth = 1000)
  expect_identical(back, printed(res))
  # the rounding is real: the test would fail against the unrounded values
  expect_false(identical(unclass(back$AP), unclass(res$AP)))
  # gzip, and the settings the file does not hold
  g <- tempfile(fileext = ".gz")
  write_trec_eval(res, g)
  expect_identical(read_trec_eval(g, depth = 1000), back)
  expect_identical(attr(read_trec_eval(f), "depth"), NA_real_)
})

test_that("several systems, missing topics, custom and judged-only measures round trip", {
  runs <- file.path(tempdir(), c("full.txt", "trunc.txt"))
  file.copy(te_data(c("results.test", "results.trunc")), runs, overwrite = TRUE)
  first <- function(grades, n_rel) as.numeric(isTRUE(grades[1] >= 1))
  res <- evaluate(runs, te_data("qrels.test"), name = "file",
                  measures = list("map", "gm_map", "num_q", "ERR@20", "nDCG(judged_only=True)@10", first = first))
  expect_true(anyNA(res$AP))  # trunc lacks topics
  f <- tempfile()
  write_trec_eval(res, f)
  expect_identical(read_trec_eval(f, depth = 1000), printed(res))
  z <- evaluate(runs, te_data("qrels.test"), name = "file", measures = c("P@5", "NumRet"), missing = "zero",
                judged_only = TRUE, depth = 100)
  write_trec_eval(z, f, overwrite = TRUE)
  expect_identical(read_trec_eval(f, depth = 100, missing = "zero", judged_only = TRUE), printed(z))
})

test_that("read_trec_eval() of trec_eval's own -q output equals evaluate() of the same files", {
  for (case in list(list("out.test.aq", "results.test", "qrels.test"),
                    list("out.test.aqc", "results.trunc", "qrels.test", missing = "zero"),
                    list("out.test.aql", "results.test", "qrels.rel_level", relevance_level = 2))) {
    back <- suppressWarnings(read_trec_eval(te_expected(case[[1]])))
    res <- do.call(evaluate, c(list(te_data(case[[2]]), te_data(case[[3]]), measures = "all_trec"), case[-(1:3)]))
    # every all_trec measure, and trec_eval's rbp / rbp_resid (read as printed)
    expect_identical(setdiff(names(back), names(res)), c("RBP(p=0.9)", "RBP_resid(p=0.9)"))
    expect_identical(names(res), intersect(names(back), names(res)))
    for (nm in names(res)) {
      expect_identical(back[[nm]], printed(res)[[nm]], label = paste(case[[1]], nm))
    }
    expect_identical(rownames(back$AP), "STANDARD")
  }
})

test_that("a file of several trec_eval runs, one after the other, is one evaluation", {
  a <- readLines(te_expected("out.test.aq"))
  b <- sub("STANDARD$", "OTHER", readLines(te_expected("out.test.aqc")))
  f <- tmp_file(c(a, b))
  back <- read_trec_eval(f)
  expect_identical(rownames(back$AP), c("STANDARD", "OTHER"))
  expect_identical(unclass(back["OTHER", ]$AP), unclass(read_trec_eval(te_expected("out.test.aqc"))$AP),
                   ignore_attr = TRUE)
  expect_equal(unname(back$AP["STANDARD", "301"]), 0.0324)  # out.test.aq's map for topic 301
  expect_equal(unname(back$NumQ[1, ]), c(1, 1, 1))
})

test_that("bad lines are classed parse errors naming the file and the line", {
  ok <- c("map                   \t301\t0.5000", "runid                 \tall\tA", "map                   \tall\t0.5000")
  f <- tmp_file(c(ok[1], "map 302", ok[2:3]))
  err <- expect_error(read_trec_eval(f), "Line 2", class = "irtopics_error_parse")
  expect_identical(err$line, 2L)
  expect_identical(err$file, f)
  expect_error(read_trec_eval(tmp_file(c(ok[1], "map\t302\tabc", ok[2:3]))), "Line 2.*not a number",
               class = "irtopics_error_parse")
  expect_error(read_trec_eval(tmp_file(c(ok[1], ok[1], ok[2:3]))), "Line 2.*twice", class = "irtopics_error_parse")
  expect_error(read_trec_eval(tmp_file(c(ok[1], "runid\t301\tA", ok[2:3]))), "Line 2", class = "irtopics_error_parse")
  # a second runid line starts the next run (one that answered no topic)
  expect_warning(two <- read_trec_eval(tmp_file(c(ok[1], ok[2], ok[2], ok[3]))), class = "irtopics_warning_names")
  expect_identical(rownames(two$AP), c("A", "A_1"))
  expect_identical(unname(unclass(two$AP)[, 1]), c(0.5, NA))
  # no per-topic lines (trec_eval without -q): an evaluation needs them
  expect_error(read_trec_eval(te_expected("out.test")), "per-topic", class = "irtopics_error_data")
  expect_error(read_trec_eval(tempfile()), class = "irtopics_error_file")
  expect_error(read_trec_eval(tmp_file(c("", " "))), "no trec_eval lines", class = "irtopics_error_file")
  expect_error(read_trec_eval(tmp_file(ok), depth = -1), class = "irtopics_error_argument")
  # a measure under two names
  expect_error(read_trec_eval(tmp_file(c(ok[1], "AP\t302\t0.1", ok[2:3]))), "two names", class = "irtopics_error_data")
})

test_that("gm_map without map is left out with a warning; -nan is read as NaN", {
  f <- tmp_file(c("P_5\t301\t0.2000", "runid\tall\tA", "gm_map\tall\t0.1000", "P_5\tall\t0.2000"))
  expect_warning(back <- read_trec_eval(f), "gm_map", class = "irtopics_warning_data")
  expect_identical(names(back), "P@5")
  back <- read_trec_eval(tmp_file(c("11pt_avg\t301\t  -nan", "11pt_avg\t302\t0.5000", "runid\tall\tA")))
  expect_identical(unname(back$`11pt_avg`[1, ]), c(NaN, 0.5))
})

test_that("what trec_eval's format cannot hold is refused at write time, and leaves no file", {
  run <- data.frame(system = rep(c("BM25 + RM3", "b"), each = 2), topic = "1", docno = c("d1", "d2"),
                    score = 2:1)
  qrels <- data.frame(topic = c("1", "1", "all"), docno = c("d1", "d2", "d1"), rel = 1L)
  f <- withr::local_tempfile()
  # a system name with white space (accepted from a data frame) made a runid
  # line of 5 fields that read_trec_eval() refused
  res <- evaluate(run, qrels, c("AP", "num_q"))
  expect_error(write_trec_eval(res, f), "system .*BM25 \\+ RM3.*white-space", class = "irtopics_error_data")
  expect_false(file.exists(f))
  # the topic "all": its lines read as a summary (a phantom run, the topic lost)
  run$system <- rep(c("a", "b"), each = 2)
  run$topic[c(2, 4)] <- "all"
  run$docno <- "d1"
  res <- evaluate(run, qrels, c("AP", "num_q"))
  expect_error(write_trec_eval(res, f), "topic .*all", class = "irtopics_error_data")
  expect_false(file.exists(f))
  # a custom measure whose name has white space, or that reads as text
  run$topic <- "1"
  run$docno <- c("d1", "d2")
  one <- function(grades, n_rel) 1
  expect_error(write_trec_eval(evaluate(run, qrels, list("my measure" = one)), f), "measure",
               class = "irtopics_error_data")
  expect_error(write_trec_eval(evaluate(run, qrels, list(runid = one)), f), "runid", class = "irtopics_error_data")
  expect_false(file.exists(f))
})

test_that("a system that answered no topic round trips as a row of NA; summed values keep their fraction", {
  qrels <- data.frame(topic = c("1", "1", "3"), docno = c("d1", "d2", "d1"), rel = 1L)
  run <- data.frame(system = c("a", "a", "none", "z"), topic = c("1", "3", "9", "1"), docno = "d1", score = 1)
  # 'none' answered only topic 9, which the qrels lack: all NA under missing = "drop"
  half <- custom_measure("half", function(grades, n_rel) 0.5, aggregate = "sum")
  res <- suppressWarnings(evaluate(run, qrels, list("AP", "num_q", "num_ret", "gm_map", half)))
  expect_true(all(is.na(res$AP["none", ])))
  f <- withr::local_tempfile()
  write_trec_eval(res, f)
  lines <- readLines(f)
  # before: "NA" summary lines, which the reader refused
  expect_false(any(grepl("\\bNA\\b", lines)))
  expect_true(any(grepl("^num_q +\tall\t0$", lines)))
  back <- read_trec_eval(f, depth = 1000)
  expect_identical(rownames(back$AP), c("a", "none", "z"))
  p <- printed(res)
  for (m in c("AP", "NumQ", "NumRet", "gm_map")) expect_identical(back[[m]], p[[m]], label = m)
  # a summed custom measure's 0.5 per topic was written "0" (rounded)
  expect_equal(unname(unclass(back$half)["a", ]), c(0.5, 0.5))
  # the system without topics first and last
  for (ord in list(c("none", "a", "z"), c("a", "z", "none"))) {
    sub <- res[ord, ]
    write_trec_eval(sub, f, overwrite = TRUE)
    expect_identical(rownames(read_trec_eval(f, depth = 1000)$AP), ord)
  }
})

# Per-topic files of other evaluators (issue 41): tot, ir_measures, JSON lines.

# An evaluation of two systems with a topic missing for one, and its lines.
other_formats_eval <- function() {
  runs <- file.path(tempdir(), c("full.txt", "trunc.txt"))
  file.copy(te_data(c("results.test", "results.trunc")), runs, overwrite = TRUE)
  evaluate(runs, te_data("qrels.test"), name = "file", measures = c("map", "P_10", "ndcg_cut_10", "num_rel_ret"))
}
# The evaluation's lines as "system measure topic value" with the values
# as printed (4 decimals) and one `all` line per system and measure.
other_formats_lines <- function(res) {
  d <- as.data.frame(res, na.rm = TRUE)
  d$value <- sprintf("%.4f", d$value)
  all <- unique(d[c("system", "measure")])
  all$topic <- "all"
  all$value <- "0.5000"
  rbind(d, all[names(d)])
}

test_that("tot, ir_measures and JSON lines files read into the evaluation write_trec_eval() gives back", {
  res <- other_formats_eval()
  expect_true(anyNA(res$AP))
  f <- tempfile()
  write_trec_eval(res, f)
  want <- read_trec_eval(f, depth = 1000)
  d <- other_formats_lines(res)
  tot <- tmp_file(paste(d$system, d$measure, d$topic, d$value, sep = "\t"))
  irm <- tmp_file(paste(d$system, d$topic, d$measure, d$value))
  jsonl <- tmp_file(sprintf('{"run_id": "%s", "topic_id": "%s", "measure": "%s", "value": %s}',
                            d$system, d$topic, d$measure, d$value))
  for (case in list(list(tot, "tot"), list(irm, "ir_measures"), list(jsonl, "jsonl"))) {
    got <- read_trec_eval(case[[1]], depth = 1000, format = case[[2]])
    expect_identical(got, want, label = case[[2]])
    # the layout is told apart without `format` (the topic column holds "all")
    expect_identical(read_trec_eval(case[[1]], depth = 1000), want, label = case[[2]])
  }
  # a header line naming the columns is skipped
  tot_h <- tmp_file(c("run_id\tmeasure\ttopic_id\tvalue", readLines(tot)))
  expect_identical(read_trec_eval(tot_h, depth = 1000, format = "tot"), want)
})

test_that("without summary lines, tot and ir_measures are told apart by the registry's measure names", {
  a <- tmp_file(c("runA P_10 301 0.5", "runA P_10 302 0.25", "runB map 301 0.125"))
  b <- tmp_file(c("runA 301 P_10 0.5", "runA 302 P_10 0.25", "runB 301 map 0.125"))
  ra <- read_trec_eval(a)
  expect_identical(ra, read_trec_eval(b))
  expect_identical(ra, read_trec_eval(a, format = "tot"))
  expect_identical(rownames(ra$`P@10`), c("runA", "runB"))
  expect_equal(unname(ra$`P@10`["runA", ]), c(0.5, 0.25))
  expect_identical(unname(ra$AP["runA", ]), c(NA_real_, NA_real_))
  # measures the registry does not know (a RAG evaluator's) keep their names,
  # but then the columns cannot be told apart: `format` is asked for
  rag <- tmp_file(c("r1 nugget_score 2024-145 0.5", "r1 nugget_score 2024-146 0.75"))
  err <- expect_error(read_trec_eval(rag), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "format", fixed = TRUE)
  got <- read_trec_eval(rag, format = "tot")
  expect_identical(names(got), "nugget_score")
  expect_equal(unname(got$nugget_score["r1", c("2024-145", "2024-146")]), c(0.5, 0.75))
  # swapped columns read with the wrong format give wrong names, not numbers:
  # ir_measures lines read as tot name measures by topic ids
  expect_identical(names(read_trec_eval(b, format = "tot")), c("301", "302"))
})

test_that("JSON lines: key spellings, numbers as topic ids, escapes, null as NaN, extra keys ignored", {
  f <- tmp_file(c('{"run": "A", "topic": 301, "metric": "P_10", "value": 0.5, "judge": "llm"}',
                  '  {"value": 1e-1, "measure": "P_10", "topic_id": "302", "run_id": "A"}  ',
                  '',
                  '{"run_id": "B \\u00e9\\"x", "query_id": "301", "measure": "P_10", "value": null}'))
  got <- read_trec_eval(f)
  expect_identical(rownames(got$`P@10`), c("A", "B \u00e9\"x"))
  expect_equal(unname(got$`P@10`["A", ]), c(0.5, 0.1))
  expect_identical(unname(got$`P@10`[2, "301"]), NaN)
})

test_that("bad lines of the other formats are classed parse errors naming the file and the line", {
  line_of <- function(lines, format = "auto") {
    f <- tmp_file(lines)
    err <- expect_error(read_trec_eval(f, format = format), class = "irtopics_error_parse")
    expect_identical(err$file, f)
    err$line
  }
  ok <- "runA P_10 301 0.5"
  expect_identical(line_of(c(ok, "runA P_10 302", ok), "tot"), 2L)
  expect_identical(line_of(c(ok, "", "runA P_10 302 abc"), "tot"), 3L)
  expect_identical(line_of(c(ok, "runA P_10 301 0.25"), "tot"), 2L)  # twice
  expect_identical(line_of(c(ok, "runA runid all A"), "tot"), 2L)
  expect_identical(line_of(c("P_10 301 0.5", ok), "trec_eval"), 2L)
  expect_identical(line_of("a b c d e"), 1L)
  js <- '{"run_id": "A", "topic_id": "301", "measure": "P_10", "value": 0.5}'
  expect_identical(line_of(c(js, '{"run_id": "A", "topic_id": "302", "measure": "P_10"}')), 2L)
  expect_identical(line_of(c(js, '{"run_id": "A", "topic_id": "302", "measure": "P_10", "value": "0.5"}')), 2L)
  expect_identical(line_of(c(js, '{"run_id": "A", "topic_id": {"id": 1}, "measure": "P_10", "value": 1}')), 2L)
  expect_identical(line_of(c(js, '{"run_id": "A", "topic_id": "302", "measure": "P_10", "value": 1} {}')), 2L)
  expect_identical(line_of(c(js, '{"run_id": "A", "topic_id": "302", "measure": "P_10", "value": NaN}')), 2L)
  expect_identical(line_of(c(js, js)), 2L)  # twice
  expect_identical(line_of(js, "tot"), 1L)
  expect_error(read_trec_eval(tmp_file(ok), format = "csv"), class = "irtopics_error_argument")
})

test_that("ir_measures' own -q output and JSON lines (no run column) read as one run", {
  res <- other_formats_eval()["full", ]
  d <- other_formats_lines(res)
  want <- read_trec_eval(tmp_file(paste(d$system, d$measure, d$topic, d$value)), format = "tot")
  rownames_run1 <- function(x) {
    for (nm in names(x)) rownames(x[[nm]]) <- "run1"
    x
  }
  # `topic measure value`, the summary lines under topic `all`
  tsv <- tmp_file(paste(d$topic, d$measure, d$value, sep = "\t"))
  expect_identical(read_trec_eval(tsv, format = "ir_measures"), rownames_run1(want))
  expect_identical(read_trec_eval(tsv), rownames_run1(want))
  # ir_measures' --output jsonl: query_id, measure, value
  js <- tmp_file(sprintf('{"query_id": "%s", "measure": "%s", "value": %s}', d$topic, d$measure, d$value))
  expect_identical(read_trec_eval(js), rownames_run1(want))
  # without summary lines: measure names in the second column only
  per_topic <- d$topic != "all"
  tsv2 <- tmp_file(paste(d$topic, d$measure, d$value)[per_topic])
  expect_identical(read_trec_eval(tsv2), rownames_run1(want))
  # a trec_eval file stays a trec_eval file (runid and `all` in its second column)
  f <- tempfile()
  write_trec_eval(res, f)
  expect_identical(rownames(read_trec_eval(f)$AP), "full")
  # a run named on some lines only, and a mix of 3 and 4 fields, are errors at the line
  mixed <- c('{"query_id": "301", "measure": "P_10", "value": 0.5}',
             '{"run_id": "A", "query_id": "302", "measure": "P_10", "value": 0.5}')
  err <- expect_error(read_trec_eval(tmp_file(mixed)), class = "irtopics_error_parse")
  expect_identical(err$line, 1L)
  err <- expect_error(read_trec_eval(tmp_file(c("301 P_10 0.5", "A 302 P_10 0.5")), format = "ir_measures"),
                      class = "irtopics_error_parse")
  expect_identical(err$line, 2L)
})
