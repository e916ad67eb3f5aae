test_that("write_run() round-trips through read_run() (plain and gzip), scores to the bit", {
  run <- read_run(te_data("results.test"))
  for (ext in c(".txt", ".gz")) {
    f <- tempfile(fileext = ext)
    expect_identical(write_run(run, f), path.expand(f))
    back <- read_run(f)
    a <- as.data.frame(run)
    b <- as.data.frame(back)
    a <- a[order(a$topic, a$docno), ]
    b <- b[order(b$topic, b$docno), ]
    rownames(a) <- rownames(b) <- NULL
    expect_identical(b, a)
    expect_identical(evaluate(f, te_data("qrels.test"), measures = c("AP", "P@10", "nDCG")),
                     evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("AP", "P@10", "nDCG")))
  }
  expect_identical(readBin(f, "raw", 2), as.raw(c(0x1f, 0x8b)))  # the .gz file is gzip
  # awkward doubles: every one parses back identical, ties stay ties
  set.seed(3)
  s <- c(runif(200) * 10^sample(-300:300, 200, TRUE), 1 / 3, 0.1 + 0.2, -0, 5e-324, .Machine$double.xmax,
         Inf, -Inf, rep(0.5, 5))
  df <- data.frame(system = "x", topic = "7", docno = sprintf("d%03d", seq_along(s)), score = s)
  f <- tempfile()
  write_run(df, f)
  back <- as.data.frame(read_run(f))
  expect_identical(back$score[match(df$docno, back$docno)], s)
  lines <- readLines(f)
  expect_identical(lines[1], "7 Q0 d206 1 inf x")
  expect_match(lines[length(lines)], "^7 Q0 d207 [0-9]+ -inf x$")
  # ties (0.5) in trec_eval order: docno descending
  tied <- sub("^7 Q0 (d[0-9]+) .*", "\\1", lines[grepl(" 0.5 x$", lines)])
  expect_identical(tied, sort(tied, decreasing = TRUE))
})

test_that("write_qrels() round-trips through read_qrels()", {
  q <- read_qrels(te_data("qrels.rel_level"))
  f <- tempfile(fileext = ".gz")
  write_qrels(q, f)
  back <- read_qrels(f)
  expect_identical(unclass_qrels(back), unclass_qrels(q))
  # ir_measures / pandas column names
  g <- tempfile()
  write_qrels(data.frame(query_id = c(1, 2), doc_id = c("a", "b"), relevance = c(2L, -1L)), g)
  expect_identical(readLines(g), c("1 0 a 2", "2 0 b -1"))
})

test_that("write_trec_eval() prints trec_eval -q output byte for byte (out.test.aq)", {
  exp <- readLines(te_expected("out.test.aq"))
  name <- sub("[[:space:]].*", "", exp)
  keep <- !(name %in% c("relstring", "rbp", "rbp_resid"))
  meas <- setdiff(unique(name[keep]), "runid")
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = meas)
  f <- tempfile()
  write_trec_eval(res, f)
  got <- readLines(f)
  # trec_eval's order of measures within a topic is its own; compare as sets per topic, and in full
  expect_identical(sort(got), sort(exp[keep]))
  expect_identical(length(got), sum(keep))
  # the summary only (trec_eval without -q)
  g <- tempfile()
  write_trec_eval(res, g, per_topic = FALSE)
  expect_identical(sort(readLines(g)), sort(exp[keep & grepl("\tall\t", exp)]))
})

test_that("write_trec_eval() names each parameter set as trec_eval does, and the names read back distinct", {
  meas <- c("SetF", "SetF(beta=0.5)", "SetF(beta=2)", "utility", "utility(2,-1,0,0)", "RBP(p=0.5)", "rbp")
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = meas)
  f <- tempfile()
  write_trec_eval(res, f)
  back <- read_trec_eval_output(f)
  written <- unique(back$measure[back$measure != "runid"])
  expect_identical(written, c("set_F", "set_F_0.5", "set_F_2", "utility", "utility_2,-1,0,0", "rbp_p=0.5", "rbp"))
  # each name read back stands for the measure that was written
  expect_identical(measure_name(written), measure_name(meas))
  # trec_eval -q -m utility.2,-1,0,0 prints these lines (out.test.meas_params)
  exp <- readLines(te_expected("out.test.meas_params"))
  got <- readLines(f)
  expect_identical(got[startsWith(got, "utility_2,-1,0,0")], exp[startsWith(exp, "utility_2,-1,0,0")])
  expect_identical(trec_eval_measure_name(c("SetF(beta=1)", "utility(1,-1,0,0)", "RBP(p=0.8)")),
                   c("set_F", "utility", "rbp_p=0.8"))
})

test_that("writers refuse existing files without overwrite and unwritable paths", {
  run <- read_run(te_data("results.test"))
  f <- tempfile()
  write_run(run, f)
  expect_error(write_run(run, f), "exists", class = "irtopics_error_file")
  expect_silent(write_run(run, f, overwrite = TRUE))
  expect_error(write_qrels(read_qrels(te_data("qrels.test")), f), "overwrite", class = "irtopics_error_file")
  expect_error(write_run(run, file.path(tempfile(), "no", "run.txt")), "does not exist",
               class = "irtopics_error_file")
  expect_error(write_run(run, tempdir()), "directory", class = "irtopics_error_file")
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = "AP")
  expect_error(write_trec_eval(res, f), "exists", class = "irtopics_error_file")
  expect_error(write_trec_eval(list(), tempfile()), class = "irtopics_error_argument")
  expect_error(write_run(data.frame(system = "a", topic = 1, docno = "has space", score = 1), tempfile()),
               "white space", class = "irtopics_error_data")
  expect_error(write_run(data.frame(system = c("a", "b"), topic = 1, docno = c("x", "y"), score = 1), tempfile()),
               "2 systems", class = "irtopics_error_argument")
})

test_that("writers write ids in full and refuse what would not read back as written", {
  # numeric docnos: 100000 must be written "100000" (R prints 1e+05)
  qrels <- data.frame(topic = 1, docno = c(100000, 200000, 300000), rel = c(1L, 0L, 1L))
  run <- data.frame(topic = 1, docno = c(100000, 200000, 300000), score = c(3, 2, 1))
  fq <- tempfile()
  fr <- tempfile()
  write_qrels(qrels, fq)
  write_run(run, fr, tag = "r")
  expect_identical(readLines(fq), c("1 0 100000 1", "1 0 200000 0", "1 0 300000 1"))
  expect_identical(readLines(fr)[1], "1 Q0 100000 1 3 r")
  back <- as.data.frame(read_qrels(fq))
  expect_identical(back$docno, c("100000", "200000", "300000"))
  # the written files evaluate as the data frames do: AP (1 + 2/3) / 2
  ap_files <- evaluate(fr, fq, measures = "AP")$AP[1, 1]
  ap_frames <- evaluate(cbind(run, system = "r"), qrels, measures = "AP")$AP[1, 1]
  expect_equal(ap_files, (1 + 2 / 3) / 2)
  expect_identical(ap_files, ap_frames)
  # grades the readers refuse are refused when written, not written as "NA"
  big <- data.frame(topic = "1", docno = "d1", rel = 3e9)
  expect_error(write_qrels(big, tempfile()), "finite grades", class = "irtopics_error_parse")
  # fractions of ids, NA ids
  expect_error(write_run(data.frame(topic = 1.5, docno = "d", score = 1), tempfile()), class = "irtopics_error_data")
  expect_error(write_qrels(data.frame(topic = NA, docno = "d", rel = 1L), tempfile()), class = "irtopics_error_data")
  # empty: refused, never a garbage line
  expect_error(write_qrels(qrels[0, ], tempfile()), "no lines", class = "irtopics_error_data")
  expect_error(write_run(run[0, ], tempfile()), "no lines", class = "irtopics_error_data")
  # a topic starting with "#" reads as a comment line
  hash <- data.frame(topic = "#1", docno = "d1", rel = 1L)
  expect_error(write_qrels(hash, tempfile()), "comment", class = "irtopics_error_data")
  expect_error(write_run(data.frame(topic = "#1", docno = "d1", score = 1), tempfile()), "comment",
               class = "irtopics_error_data")
})

test_that("a run read, written and read again is identical", {
  run <- read_run(te_data("results.test"))
  f <- tempfile(fileext = ".gz")
  write_run(run, f)
  by_line <- function(d) { d <- d[order(d$topic, d$docno, method = "radix"), ]; rownames(d) <- NULL; d }
  expect_identical(by_line(as.data.frame(read_run(f))), by_line(as.data.frame(run)))
  expect_identical(evaluate(f, te_data("qrels.test"), c("AP", "nDCG")),
                   evaluate(te_data("results.test"), te_data("qrels.test"), c("AP", "nDCG")))
  q <- read_qrels(te_data("qrels.test"))
  g <- tempfile()
  write_qrels(q, g)
  expect_identical(as.data.frame(read_qrels(g)), as.data.frame(q))
})

test_that("write_trec_eval() refuses an empty selection instead of writing nothing (issue 29)", {
  res <- four_system_evaluation()
  f <- withr::local_tempfile()
  for (empty in list(res[0, ], res[, 0], res[0, 0], res[character(), ])) {
    expect_error(write_trec_eval(empty, f), class = "irtopics_error_data", regexp = "nothing to compute")
    expect_false(file.exists(f))
  }
  expect_error(write_trec_eval(res[0], f), class = "irtopics_error_data", regexp = "no measure")
  expect_false(file.exists(f))
  write_trec_eval(res[1, ], f)
  expect_true(any(grepl("^runid\\s+all\\s+alpha$", readLines(f))))
})

test_that("write_run() refuses a tag that is not one string before anything else (issue 29)", {
  run <- data.frame(topic = c("1", "1"), docno = c("d1", "d2"), score = c(2, 1))
  f <- withr::local_tempfile()
  for (bad in list(c("a", "b"), NA, NA_character_, 1, character(), list("a"), TRUE)) {
    expect_error(write_run(run, f, tag = bad), class = "irtopics_error_argument", regexp = "`tag` must be one string")
    expect_false(file.exists(f))
  }
  # a system column with NA and no tag
  expect_error(write_run(transform(run, system = NA_character_), f), class = "irtopics_error_data")
  write_run(run, f, tag = "mine")
  expect_identical(unique(as.data.frame(read_run(f))$system), "mine")
})
