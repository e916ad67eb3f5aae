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
  expect_error(read_trec_eval(tmp_file(c(ok[1], ok[2], ok[2], ok[3]))), "Line 3.*runid", class = "irtopics_error_parse")
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
