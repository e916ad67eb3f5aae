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
