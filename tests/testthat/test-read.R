test_that("read_qrels reads plain and gzip files", {
  q <- read_qrels(te_data("qrels.test"))
  expect_s3_class(q, "ir_qrels")
  ref <- utils::read.table(te_data("qrels.test"), colClasses = c("character", "NULL", "character", "integer"),
                           col.names = c("topic", "iter", "docno", "rel"))
  expect_equal(q$docno, ref$docno)
  expect_equal(q$rel, ref$rel)
  expect_equal(q$topic, ref$topic)
  gz <- tempfile(fileext = ".gz")
  con <- gzfile(gz, "w"); writeLines(readLines(te_data("qrels.test")), con); close(con)
  expect_equal(as.data.frame(read_qrels(gz))$docno, ref$docno)
  expect_output(print(q), "<ir_qrels> .* judgements of 3 topics")
})

test_that("read_run keeps docnos out of R strings and round-trips", {
  run <- read_run(te_data("results.test"))
  expect_s3_class(run, "ir_run")
  expect_type(run$docno, "raw")
  expect_equal(run$system, "STANDARD")
  df <- as.data.frame(run)
  ref <- utils::read.table(te_data("results.test"), colClasses = c("character", "NULL", "character", "NULL", "numeric", "NULL"))
  expect_equal(df$docno, ref$V3)
  expect_equal(df$score, ref$V5)
  expect_equal(df$topic, ref$V1)
  expect_equal(read_run(te_data("results.test"), name = "file")$system, "results")
  expect_output(print(run), "STANDARD: 1,500 lines, 3 topics")
  gz <- tempfile(fileext = ".gz")
  con <- gzfile(gz, "w"); writeLines(readLines(te_data("results.test")), con); close(con)
  expect_equal(as.data.frame(read_run(gz))$docno, ref$V3)
})

test_that("read_runs reads a directory; duplicate tags are made unique with a warning", {
  dir <- withr::local_tempdir()
  file.copy(te_data("results.test"), file.path(dir, "a.txt"))
  file.copy(te_data("results.trunc"), file.path(dir, "b.txt"))
  expect_warning(runs <- read_runs(dir), class = "irtopics_warning_names")
  expect_named(runs, c("STANDARD", "STANDARD_1"))
  runs <- read_runs(dir, name = "file")
  expect_named(runs, c("a", "b"))
  expect_output(print(runs), "<ir_runs> 2 runs")
  expect_error(read_runs(file.path(dir, "nope")), class = "irtopics_error_file")
})

test_that("malformed run lines give classed errors naming file and line", {
  f <- tmp_file(c("1 Q0 d1 1 0.5 tag", "1 Q0 d2 2 0.4"))
  err <- expect_error(evaluate(f, good_qrels(), "AP"), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), basename(f), fixed = TRUE)
  expect_match(conditionMessage(err), "Line 2: expected 6 fields")
  expect_equal(err$file, f)
  expect_equal(err$line, 2)
  f <- tmp_file(c("1 Q0 d1 1 0.5 tag", "1 Q0 d2 2 abc tag"))
  err <- expect_error(read_run(f), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "Line 2: the score \\(5th field\\) must be a number, not 'abc'")
  f <- tmp_file(c("1 Q0 d1 1 nan tag"))
  expect_error(read_run(f), class = "irtopics_error_parse")
})

test_that("malformed qrels lines give classed errors naming file and line", {
  f <- tmp_file(c("1 0 d1 1", "1 0 d2"))
  err <- expect_error(read_qrels(f), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "Line 2: expected 4 fields")
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 x"))
  err <- expect_error(evaluate(te_data("results.test"), f, "AP"), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "Line 2: the relevance grade \\(4th field\\) must be an integer, not 'x'")
  f <- tmp_file(c("1 0 d1 1.5"))
  expect_error(read_qrels(f), class = "irtopics_error_parse")
  f <- tmp_file(c("1 0 d1 1 extra"))
  expect_error(read_qrels(f), class = "irtopics_error_parse")
})

test_that("absurdly large grades are refused instead of allocating per-grade arrays", {
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 2147483647"))
  err <- expect_error(read_qrels(f), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "Line 2: the relevance grade 2147483647 is larger than 1000000")
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 1000000"))
  expect_equal(max(read_qrels(f)$rel), 1000000L)
  df <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 5000000L))
  expect_error(evaluate(data.frame(topic = "1", docno = "d1", score = 1), df, "nDCG"),
               class = "irtopics_error")
  expect_error(gain_vector(c("2000000" = 1)), class = "irtopics_error_argument")
})

test_that("duplicate docnos are errors, in runs and in qrels", {
  f <- tmp_file(c("1 Q0 d1 1 0.5 tag", "1 Q0 d2 2 0.4 tag", "2 Q0 d1 1 0.5 tag", "1 Q0 d1 3 0.1 tag"))
  err <- expect_error(evaluate(f, good_qrels(), "AP"), class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "Line 4: document 'd1' is retrieved twice for topic '1' \\(first on line 1\\)")
  f <- tmp_file(c("1 0 d1 1", "2 0 d1 1", "1 0 d1 0"))
  err <- expect_error(read_qrels(f), class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "Line 3: document 'd1' is judged twice for topic '1'")
  expect_error(evaluate(data.frame(system = "s", topic = "1", docno = c("a", "a"), score = 1:2),
                        good_qrels(), "AP"), class = "irtopics_error_duplicate")
})

test_that("missing, empty and blank files give classed errors", {
  expect_error(read_run(tempfile()), class = "irtopics_error_file")
  expect_error(evaluate(tempfile(), good_qrels(), "AP"), class = "irtopics_error_file")
  expect_error(evaluate(te_data("results.test"), tempfile(), "AP"), class = "irtopics_error_file")
  empty <- tempfile(); file.create(empty)
  expect_error(read_run(empty), class = "irtopics_error_file")
  expect_error(read_qrels(empty), class = "irtopics_error_file")
  blank <- tmp_file(c("", "   "))
  err <- expect_error(read_run(blank), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "holds no run lines")
  expect_error(read_qrels(blank), class = "irtopics_error_file")
  expect_error(read_run(tempdir()), class = "irtopics_error_file")
})

test_that("bad arguments give classed errors", {
  expect_error(evaluate(42, good_qrels(), "AP"), class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), 42, "AP"), class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "AP", relevance_level = 0),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "AP", n_threads = 0),
               class = "irtopics_error_argument")
  expect_error(evaluate(data.frame(system = "s", topic = "1", docno = "a"), good_qrels(), "AP"),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), data.frame(topic = "1", docno = "a", rel = 0.5), "AP"),
               class = "irtopics_error_parse")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c(3, 9)),
               class = "irtopics_error_argument")
  expect_error(evaluate(data.frame(system = "s", topic = NA, docno = "a", score = 1), good_qrels(), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(data.frame(system = "s", topic = "1", docno = NA, score = 1), good_qrels(), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(te_data("results.test"), data.frame(topic = "1", docno = NA, rel = 1L), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c("1.5" = 3)),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c("1" = 3, "1" = 4)),
               class = "irtopics_error_argument")
})

test_that("scores are parsed to the same doubles as R's parser", {
  s <- c("1", "-0", "0.5", ".25", "5.", "+3.5", "1e-3", "-2.5E+2", "12.345678901234", "0.1",
         "123456789012345678", "3.14159265358979323846", "0.000001234")
  f <- tmp_file(sprintf("1 Q0 d%d 0 %s tag", seq_along(s), s))
  run <- read_run(f)
  expect_identical(run$score, as.numeric(s))
  expect_identical(1 / run$score[2], -Inf)   # -0 stays negative zero
  for (bad in c("1,5", "0x1p3", "nan", "-nan", "1e999", "--1", "+-1", ".", "1.2.3")) {
    f <- tmp_file(sprintf("1 Q0 d1 0 %s tag", bad))
    expect_error(read_run(f), class = "irtopics_error_parse", label = bad)
  }
})

test_that("name = 'file' keeps TREC run ids (input.<runid>) and files are read in byte order", {
  dir <- withr::local_tempdir()
  # TREC's own names: no extension, the run id after "input."
  file.copy(te_data("results.test"), file.path(dir, "input.CnQst2"))
  file.copy(te_data("results.trunc"), file.path(dir, "input.Brkly26.gz"))
  file.copy(te_data("results.test"), file.path(dir, "input.acsys8.txt"))
  runs <- read_runs(dir, name = "file")
  # byte order (upper case before lower case in every locale), run ids kept
  expect_named(runs, c("input.Brkly26", "input.CnQst2", "input.acsys8"))
  res <- evaluate(dir, te_data("qrels.test"), measures = "AP", name = "file")
  expect_identical(rownames(res$AP), c("input.Brkly26", "input.CnQst2", "input.acsys8"))
  expect_identical(irtopics:::run_file_name(c("a/input.x.v2", "b/run.TXT", "c/run.res.gz", "d/input.gz")),
                   c("input.x", "run", "run", "input"))
})
