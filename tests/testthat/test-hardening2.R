# Hardening, round 2 (issue 12): no crash, no hang, no silently wrong number
# from any input or calling pattern. One block per class of the issue; every
# fixture is made here.

h2_run <- function() read_run(te_data("results.test"))
h2_qrels <- function() te_data("qrels.test")

# Bytes written as they are (no encoding translation).
h2_bytes <- function(bytes, ext = ".txt") {
  f <- tempfile(fileext = ext)
  writeBin(if (is.raw(bytes)) bytes else charToRaw(bytes), f)
  f
}

h2_gzip <- function(lines) {
  f <- tempfile(fileext = ".gz")
  con <- gzfile(f, "wb")
  writeLines(lines, con)
  close(con)
  f
}

# 1. Modified ir_run objects ----------------------------------------------------

test_that("a modified ir_run is refused with a classed error, never evaluated or crashed", {
  run <- h2_run()
  n <- length(run$score)
  edits <- list(
    longer_score = function(r) { r$score <- c(r$score, 1); r },
    shorter_score = function(r) { r$score <- r$score[-1]; r },
    topic_code_0 = function(r) { r$topic_code[1] <- 0L; r },
    topic_code_big = function(r) { r$topic_code[2] <- 99L; r },
    topic_code_na = function(r) { r$topic_code[2] <- NA; r },
    offset_past_end = function(r) { r$offset[5] <- 100000000L; r },
    offset_decreasing = function(r) { r$offset[3] <- r$offset[2] - 1L; r },
    offset_last = function(r) { r$offset[n + 1] <- r$offset[n + 1] + 1L; r },
    docno_character = function(r) { r$docno <- as.data.frame(run)$docno; r },
    docno_shorter = function(r) { r$docno <- r$docno[-1]; r },
    topics_na = function(r) { r$topics[1] <- NA; r },
    system_empty = function(r) { r$system <- ""; r },
    score_character = function(r) { r$score <- as.character(r$score); r }
  )
  for (nm in names(edits)) {
    bad <- edits[[nm]](run)
    expect_error(evaluate(bad, h2_qrels(), "AP"), class = "irtopics_error_data", info = nm)
    expect_error(as.data.frame(bad), class = "irtopics_error_data", info = nm)
    expect_error(return_orders(bad, h2_qrels()), class = "irtopics_error_data", info = nm)
  }
  # Unmodified runs (and a double topic_code that is still whole) still work.
  ok <- run
  ok$topic_code <- as.double(ok$topic_code)
  expect_equal(evaluate(ok, h2_qrels(), "AP")$AP, evaluate(run, h2_qrels(), "AP")$AP)
})

test_that("the glue checks what reaches C++ even when R's checks are bypassed", {
  run <- h2_run()
  q <- qrels_pointer(h2_qrels(), 1L)
  mem <- validate_ir_run(run)
  call_eval <- function(m, depth = 1000, cutoff = 0) {
    # one measure, AP (by name, with its parameters as named fields)
    fields <- measure_fields(measure_spec("AP")$builtin)
    fields$cutoff <- cutoff
    cpp_evaluate(q$ptr, NULL, list(m), fields, 0.25, depth, numeric(), FALSE, FALSE, NULL, NULL, 1L)
  }
  expect_null(call_eval(mem)$error)
  bad <- list(
    within(mem, offset[3] <- 10000000L), within(mem, topic_code[1] <- 0L),
    within(mem, score <- c(score, 1)), within(mem, docno <- letters),
    within(mem, offset <- as.double(offset)), within(mem, name <- character())
  )
  for (b in bad) expect_identical(call_eval(b)$error$kind, "data")
  expect_identical(call_eval(mem, depth = 1e300)$error$kind, "data")
  expect_identical(call_eval(mem, cutoff = 3e9)$error$kind, "measure")
  expect_error(cpp_docnos(run$docno, run$offset[-1]), "offsets")
  expect_error(cpp_docnos(run$docno, c(0L, 10L, 5L)), "offsets")
  expect_error(cpp_qrels_table(new.env()), "pointer")
  # A qrels pointer restored from a saved session is NULL: an error, not a crash.
  stale <- unserialize(serialize(q$ptr, NULL))
  expect_error(cpp_qrels_table(stale), "pointer")
  expect_error(cpp_qrels_info(stale, TRUE), "pointer")
  expect_error(call_eval(mem, depth = 1000)$error, NA)
})

# 2. Forked workers ----------------------------------------------------------------

# Runs `expr` in a forked child and returns its value, or fails the test when
# the child does not finish within `timeout` seconds (it is then killed), so a
# regression fails instead of hanging the suite.
in_fork <- function(expr, timeout = 60) {
  job <- parallel::mcparallel(expr, silent = TRUE)
  res <- parallel::mccollect(job, wait = FALSE, timeout = timeout)
  if (is.null(res)) {
    tools::pskill(job$pid, tools::SIGKILL)
    parallel::mccollect(job, wait = FALSE, timeout = 5)
    fail(sprintf("the forked child did not finish within %d s (deadlock?)", timeout))
    return(NULL)
  }
  res[[1]]
}

test_that("forked children of a process that used 2 threads run single-threaded instead of hanging", {
  skip_on_os("windows")
  skip_on_cran()
  runs <- data.frame(system = rep(c("a", "b", "c"), each = 3), topic = "1",
                     docno = rep(c("d1", "d2", "x"), 3), score = c(3:1, 1:3, c(2, 3, 1)))
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  # The parent opens an OpenMP region of 2 threads (3 runs, 2 workers).
  parent <- evaluate(runs, qrels, "AP", n_threads = 2)$AP
  expect_identical(irtopics_state$omp_pid, Sys.getpid())
  expect_identical(resolve_threads(2), 2L)
  expect_identical(in_fork(resolve_threads(2)), 1L)
  expect_equal(in_fork(evaluate(runs, qrels, "AP", n_threads = 2)$AP), parent)
  orders <- return_orders(runs, qrels, n_threads = 2)
  expect_equal(in_fork(return_orders(runs, qrels, n_threads = 2)), orders)
  m <- matrix(c(.1, .5, .3, .2, .4, .6, .7, .2, .1, .3, .3, .8), 3,
              dimnames = list(c("a", "b", "c"), 1:4))
  err <- swap_error_rates(m, sizes = 2, trials = 20, seed = 1, n_threads = 2)
  expect_equal(in_fork(swap_error_rates(m, sizes = 2, trials = 20, seed = 1, n_threads = 2)), err)
  # The C++ guard alone, bypassing resolve_threads(): the child still finishes.
  q <- qrels_pointer(qrels, 1L)
  mem <- run_source(runs, "tag")$runs
  child <- in_fork(cpp_evaluate(q$ptr, NULL, mem, measure_fields(measure_spec("AP")$builtin), 0.25, 1000,
                                numeric(), FALSE, FALSE, NULL, NULL, 2L))
  expect_equal(vapply(child$runs, function(r) r$values[1, 1], 0), unname(parent[, 1]))
  # parallel::mclapply, the pattern of the issue.
  res <- in_fork(parallel::mclapply(1:2, function(i) evaluate(runs, qrels, "AP", n_threads = 2)$AP,
                                    mc.cores = 2))
  expect_equal(res[[2]], parent)
})

# 3. n_threads bounds ------------------------------------------------------------

test_that("n_threads is a whole number, capped at the cores, in every function", {
  expect_identical(resolve_threads(400), thread_cap())
  expect_identical(resolve_threads(1e5), thread_cap())
  expect_true(thread_cap() >= 2L)
  for (bad in list(1e10, 2.5, 0, NA, "2", c(1, 2), Inf)) {
    expect_error(resolve_threads(bad), class = "irtopics_error_argument")
  }
  withr::local_options(irtopics.n_threads = 1e10)
  expect_error(resolve_threads(NULL), class = "irtopics_error_argument")
  m <- matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3))
  expect_error(swap_error_rates(m, n_threads = 1e10), class = "irtopics_error_argument")
  withr::local_options(irtopics.n_threads = 1L)
  expect_s3_class(swap_error_rates(m, sizes = 1, trials = 5, seed = 1, n_threads = 100000),
                  "swap_error_rates")
})

# 4. gzip: early NUL, bounded growth, classed allocation failures ------------------

test_that("a gzip file of NULs is refused as soon as the first bytes are inflated", {
  f <- tempfile(fileext = ".gz")
  con <- gzfile(f, "wb")
  zeros <- raw(2^20)
  for (i in 1:32) writeBin(zeros, con)  # 32 MB of NULs, 32 KB on disk
  close(con)
  err <- expect_error(read_run(f), class = "irtopics_error_parse")
  expect_identical(as.numeric(err$line), 1)
  expect_match(conditionMessage(err), "NUL byte")
  # The line is counted: NULs after two good lines are on line 3.
  g <- tempfile(fileext = ".gz")
  con <- gzfile(g, "wb")
  writeLines(c("1 0 d1 1", "1 0 d2 0"), con)
  writeBin(zeros, con)
  close(con)
  err <- expect_error(read_qrels(g), class = "irtopics_error_parse")
  expect_identical(as.numeric(err$line), 3)
})

test_that("a gzip file of blanks is read without a multiple of its size in memory", {
  # 8 MB of spaces then one run line: read (no NUL), the line is the only one.
  f <- tempfile(fileext = ".gz")
  con <- gzfile(f, "wb")
  writeBin(charToRaw(strrep(" ", 2^20)), con)
  for (i in 1:7) writeBin(charToRaw(strrep(" ", 2^20)), con)
  writeLines("\n1 Q0 d1 1 2 tag", con)
  close(con)
  r <- read_run(f)
  expect_identical(as.data.frame(r)$docno, "d1")
  expect_identical(r$line, 2L)
})

test_that("a file too large for memory is a classed error, not std::bad_alloc", {
  skip_on_os(c("windows", "mac"))
  skip_if(grepl("asan", Sys.getenv("LD_PRELOAD")), "ASan reports huge allocations itself")
  # With overcommit_memory 1 a huge allocation succeeds and the sparse file
  # would really be read: only with the default heuristic (0) or 2.
  mode <- tryCatch(readLines("/proc/sys/vm/overcommit_memory"), error = function(e) "?")
  skip_if(!mode %in% c("0", "2"), "memory overcommit is not refused here")
  skip_if(Sys.which("truncate") == "", "no truncate")
  f <- tempfile()
  on.exit(unlink(f))
  # A sparse file of 8 TB (no disk space used): far more than RAM and swap.
  skip_if(system2("truncate", c("-s", "8T", f), stderr = FALSE) != 0 ||
            is.na(file.size(f)) || file.size(f) < 2^43, "no sparse files here")
  err <- expect_error(read_run(f), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "not enough memory")
  expect_error(evaluate(f, good_qrels(), "AP"), class = "irtopics_error_file")
})

# 5. Numeric ids in data frames ---------------------------------------------------

test_that("numeric ids are written without scientific notation or loss", {
  run <- data.frame(system = "s", topic = 1, docno = c(100000, 7, 200000, 300000),
                    score = 4:1)
  qrels <- data.frame(topic = 1, docno = c(100000, 200000), rel = 1L)
  # AP = (1/1 + 2/3) / 2, as with the ids as strings.
  ap <- evaluate(run, qrels, "AP")$AP
  expect_equal(ap[1, 1], (1 + 2 / 3) / 2)
  run_chr <- transform(run, docno = as.character(c(100000L, 7L, 200000L, 300000L)))
  expect_equal(unname(ap), unname(evaluate(run_chr, qrels, "AP")$AP))
  expect_identical(as_id_strings(c(1e5, 123456789012, -0, 2^53), "x", "y"),
                   c("100000", "123456789012", "0", "9007199254740992"))
  expect_identical(as_id_strings(factor(c("b", "a")), "x", "y"), c("b", "a"))
  for (bad in list(c(1.5, 2), c(1, NaN), c(1, Inf), 2^60)) {
    expect_error(evaluate(transform(run[seq_along(bad), ], docno = bad), qrels, "AP"),
                 class = "irtopics_error_data")
  }
  expect_error(evaluate(run, transform(qrels, docno = c(1.5, 2)), "AP"), class = "irtopics_error_data")
  expect_error(evaluate(run, transform(qrels, topic = list(1, 2)), "AP"), class = "irtopics_error_data")
  qm <- data.frame(query = c(100000, 100001), topic = 1)
  run_q <- data.frame(system = "s", topic = "100000", docno = c("100000", "7"), score = 2:1)
  expect_identical(colnames(evaluate(run_q, qrels, "AP", query_map = qm)$AP), "100000")
})

# 6. Bytes after the end of a gzip stream ----------------------------------------

test_that("concatenated gzip members are all read; other trailing bytes are an error", {
  a <- h2_gzip("1 Q0 d1 1 2 tag")
  b <- h2_gzip("2 Q0 d3 1 2 tag")
  both <- h2_bytes(c(readBin(a, "raw", 1e4), readBin(b, "raw", 1e4)), ".gz")
  expect_identical(as.data.frame(read_run(both))$topic, c("1", "2"))
  expect_equal(ncol(evaluate(both, good_qrels(), "AP", missing = "zero")$AP), 2)
  # A plain run appended to a gzip file.
  plain <- h2_bytes(c(readBin(a, "raw", 1e4), charToRaw("2 Q0 d3 1 2 tag\n")), ".gz")
  err <- expect_error(read_run(plain), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "after the end of its gzip data")
  expect_error(evaluate(plain, good_qrels(), "AP"), class = "irtopics_error_file")
  qgz <- h2_gzip("1 0 d1 1")
  expect_error(read_qrels(h2_bytes(c(readBin(qgz, "raw", 1e4), as.raw(c(1, 2, 3))), ".gz")),
               class = "irtopics_error_file")
  # Zero padding after the last member is ignored, as gzip -d does.
  padded <- h2_bytes(c(readBin(a, "raw", 1e4), raw(100)), ".gz")
  expect_identical(as.data.frame(read_run(padded))$docno, "d1")
  # A second member cut short is a truncated stream.
  cut <- h2_bytes(c(readBin(a, "raw", 1e4), utils::head(readBin(b, "raw", 1e4), 15)), ".gz")
  expect_error(read_run(cut), class = "irtopics_error_file")
})

# 7. Relevance levels and grades beyond the integer range ----------------------------

test_that("relevance_level and data-frame grades outside the integer range are refused", {
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  for (lvl in list(Inf, 3e9, 1e300, -1, 0, NA, 1.5)) {
    expect_error(evaluate(run, qrels, "NumRel", relevance_level = lvl), class = "irtopics_error_argument")
    expect_error(return_orders(run, qrels, relevance_level = lvl), class = "irtopics_error_argument")
  }
  # The largest level is allowed and judges nothing relevant.
  expect_equal(evaluate(run, qrels, "NumRel", relevance_level = .Machine$integer.max,
                        missing = "zero")$NumRel[1, 1], 0)
  for (g in list(3e9, Inf, -Inf, -2147483648, NaN, 1e6 + 1)) {
    q <- qrels
    q$rel[1] <- g
    err <- expect_error(evaluate(run, q, "NumRel"), class = "irtopics_error_parse")
    expect_identical(err$row, 1L)
  }
  q <- qrels
  q$rel <- c(-.Machine$integer.max, 1e6)
  expect_equal(evaluate(run, q, "NumRel")$NumRel[1, 1], 1)
})

# 8. Empty system names, several run tags ------------------------------------------

test_that("empty system names are errors and a run file holds one run tag", {
  run <- data.frame(system = c("", "", "b"), topic = "1", docno = c("d1", "d2", "d1"), score = 3:1)
  expect_error(evaluate(run, good_qrels(), "AP"), class = "irtopics_error_data")
  run$system[1:2] <- NA
  expect_error(evaluate(run, good_qrels(), "AP"), class = "irtopics_error_data")
  f <- tmp_file(c("1 Q0 d1 1 2 runA", "1 Q0 d2 2 1 runA", "2 Q0 d3 1 2 runB"))
  for (call in list(function() read_run(f), function() evaluate(f, good_qrels(), "AP"),
                    function() return_orders(f, good_qrels()))) {
    err <- expect_error(call(), class = "irtopics_error_parse")
    expect_identical(as.numeric(err$line), 3)
    expect_match(conditionMessage(err), "run tag 'runB' differs from the first line's 'runA'")
  }
  # Tags only have to be equal byte for byte; extra fields do not matter.
  expect_equal(length(read_run(tmp_file(c("1 Q0 d1 1 2 runA x", "1 Q0 d2 2 1 runA y")))$score), 2)
})

# 9. Encodings and message safety -----------------------------------------------------

test_that("messages show ids escaped and cut, whatever their bytes", {
  # A terminal escape sequence and a Latin-1 byte in a duplicated docno.
  f <- h2_bytes("1 Q0 d\033[31m 1 2 t\n1 Q0 d\033[31m 2 1 t\n")
  err <- expect_error(evaluate(f, good_qrels(), "AP"), class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "d\\x1b[31m", fixed = TRUE)
  expect_false(grepl("\033", conditionMessage(err), fixed = TRUE))
  g <- h2_bytes(as.raw(c(charToRaw("1 0 d"), 0xe9, charToRaw(" 1\n1 0 d"), 0xe9, charToRaw(" 1\n"))))
  err <- expect_error(read_qrels(g), class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "d\\xe9", fixed = TRUE)
  expect_identical(as.numeric(err$line), 2)
  # A long id is cut in the message.
  long <- strrep("x", 1e6)
  h <- tmp_file(c(paste("1 0", long, "1"), paste("1 0", long, "1")))
  err <- expect_error(read_qrels(h), class = "irtopics_error_duplicate")
  expect_lt(nchar(conditionMessage(err)), 500)
  # A bad score field with a C1 control and invalid UTF-8.
  s <- h2_bytes(as.raw(c(charToRaw("1 Q0 d1 1 1"), 0x9b, 0xff, charToRaw(" t\n"))))
  err <- expect_error(read_run(s), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "\\x9b\\xff", fixed = TRUE)
  expect_identical(show_bytes(c("a\033b", "caf\xe9", "é")), c("a\\x1bb", "caf\\xe9", "é"))
})

test_that("Latin-1 and UTF-8 strings that R considers equal match, and Latin-1 ids evaluate", {
  ids <- c("caf\xe9", "na\xefve")
  Encoding(ids) <- "latin1"
  utf8 <- enc2utf8(ids)
  run <- data.frame(system = "s", topic = ids, docno = c("d1", "d2"), score = 2:1,
                    stringsAsFactors = FALSE)
  qrels <- data.frame(topic = utf8, docno = c("d1", "d2"), rel = 1L, stringsAsFactors = FALSE)
  res <- evaluate(run, qrels, "AP")$AP
  expect_equal(unname(res[1, ]), c(1, 1))
  expect_setequal(colnames(res), utf8)
  # Docnos too.
  run2 <- data.frame(system = "s", topic = "1", docno = ids, score = 2:1, stringsAsFactors = FALSE)
  qrels2 <- data.frame(topic = "1", docno = utf8, rel = 1L, stringsAsFactors = FALSE)
  expect_equal(evaluate(run2, qrels2, "AP")$AP[1, 1], 1)
  # Latin-1 bytes in files (read as bytes on both sides) evaluate and print.
  rf <- h2_bytes(as.raw(c(charToRaw("caf"), 0xe9, charToRaw(" Q0 d1 1 2 t\n"))))
  qf <- h2_bytes(as.raw(c(charToRaw("caf"), 0xe9, charToRaw(" 0 d1 1\n"))))
  res <- evaluate(rf, qf, "AP")
  expect_equal(res$AP[1, 1], 1)
  expect_output(print(res))
})

# 10. Integer-like arguments -------------------------------------------------------

test_that("depths, cut-offs, counts and trials beyond the integer range are classed errors", {
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  for (d in list(3e9, 1e300, 0, 2.5, NA, "10", c(5, 10))) {
    expect_error(evaluate(run, qrels, "AP", depth = d), class = "irtopics_error_argument")
    expect_error(return_orders(run, qrels, depth = d), class = "irtopics_error_argument")
  }
  expect_equal(evaluate(run, qrels, "AP", depth = Inf)$AP[1, 1], 1)
  expect_error(return_orders(run, qrels, depth = Inf), class = "irtopics_error_argument")
  for (m in list("P@99999999999999999999", list(x = "P@99999999999999999999"), "nDCG@3000000000",
                 "ndcg_cut_3000000000")) {
    expect_error(evaluate(run, qrels, m), class = "irtopics_error_measure")
  }
  expect_equal(evaluate(run, qrels, "P@2147483647")[[1]][1, 1], 1 / 2147483647)
  m <- matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3))
  for (t in list(1e10, 0, 2.5)) {
    expect_error(swap_error_rates(m, trials = t), class = "irtopics_error_argument")
  }
  expect_error(swap_error_rates(m, sizes = 1, trials = 5, seed = 3e9), class = "irtopics_error_argument")
  expect_identical(check_whole(5), 5L)
  expect_identical(check_whole(Inf, allow_inf = TRUE), Inf)
  expect_error(check_whole(.Machine$integer.max + 1), class = "irtopics_error_argument")
  expect_error(check_number(3e9, "x", integer = TRUE), class = "irtopics_error_argument")
})

# 11. gmap and nDCG gains ------------------------------------------------------------

test_that("geometric means are never negative and gains must be finite", {
  expect_identical(gmap(c(0, 0, 0)), 0)
  expect_gte(gmap(c(0, 0, 1e-300)), 0)
  expect_identical(unname(gmean_scores(matrix(0, 2, 3))), c(0, 0))
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 2L))
  for (g in list(c("1" = Inf), c("2" = 1e308), c("1" = NaN), c("1" = -Inf))) {
    expect_error(evaluate(run, qrels, "nDCG", gains = g), class = "irtopics_error_argument")
  }
  big <- evaluate(run, qrels, "nDCG", gains = c("1" = 1e200, "2" = 3e200))$nDCG[1, 1]
  ref <- (1 + 3 / log2(3)) / (3 + 1 / log2(3))
  expect_equal(big, ref)
})

# 12. Interrupts do not leak R memory ----------------------------------------------

test_that("interrupting read_qrels() and as.data.frame() of a run leaks no R memory", {
  skip_if_no_interrupts()
  skip_on_covr()
  dir <- withr::local_tempdir()
  n <- 4e5
  q <- file.path(dir, "q.txt")
  writeLines(sprintf("%d 0 DOC-%08d %d", rep(1:100, each = n / 100), seq_len(n), seq_len(n) %% 3), q)
  r <- file.path(dir, "r.txt")
  writeLines(sprintf("%d Q0 DOC-%08d %d %d tag", rep(1:100, each = n / 100), seq_len(n), seq_len(n),
                     n - seq_len(n)), r)
  run <- read_run(r)
  used <- function() sum(gc()[, 2])
  t_q <- system.time(read_qrels(q))[["elapsed"]]
  t_d <- system.time(as.data.frame(run))[["elapsed"]]
  before <- used()
  for (i in 1:6) {
    with_interrupt_after(t_q * i / 7, read_qrels(q))
    with_interrupt_after(t_d * i / 7, as.data.frame(run))
  }
  # Each leaked call used to keep its vectors (about 35 MB here) for good.
  expect_lt(used() - before, 10)
})

# 13. Topic overlap -------------------------------------------------------------------

test_that("no topic in common is an error with ids of both sides; partial overlap warns", {
  run <- data.frame(system = "s", topic = c("q301", "q302"), docno = "d1", score = 1)
  qrels <- data.frame(topic = c("301", "302"), docno = "d1", rel = 1L)
  err <- expect_error(evaluate(run, qrels, "AP"), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "\"q301\", \"q302\"", fixed = TRUE)
  expect_match(conditionMessage(err), "\"301\", \"302\"", fixed = TRUE)
  expect_error(evaluate(run, qrels, "AP", missing = "zero"), class = "irtopics_error_data")
  expect_error(return_orders(run, qrels), class = "irtopics_error_data")
  run$topic[2] <- "302"
  w <- expect_warning(res <- evaluate(run, qrels, "AP"), class = "irtopics_warning_unknown_topics")
  expect_match(conditionMessage(w), "1 topic of the runs is not in the qrels")
  expect_identical(colnames(res$AP), "302")
})

test_that("empty ir_scores print, summarise and convert", {
  m <- as_ir_scores(matrix(numeric(), 0, 0), measure = "AP")
  expect_output(print(m), "0 systems x 0 topics, mean NA")
  expect_identical(nrow(as.data.frame(m)), 0L)
  expect_named(as.data.frame(m), c("system", "topic", "measure", "value"))
  e <- as_ir_scores(matrix(numeric(), 2, 0, dimnames = list(c("a", "b"), NULL)), measure = "AP")
  expect_output(print(e), "2 systems x 0 topics")
  expect_error(mean_scores(e), class = "irtopics_error_argument")  # nothing to average
  expect_identical(unname(mean_scores(as_ir_scores(matrix(c(NA, 1), 2, 1)))), c(NA_real_, 1))
  expect_no_warning(s <- summary(e))
  expect_output(print(s), "over 0 topics")
  ev <- structure(list(AP = e), class = c("ir_evaluation", "list"), missing = "drop")
  expect_output(print(ev), "2 systems x 0 topics")
})

# 14. Score matrices and seeds ------------------------------------------------------

test_that("edited names and huge values of score matrices give classed errors", {
  m <- as_ir_scores(matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3)))
  dup <- m
  rownames(dup) <- c("a", "a")
  na <- m
  rownames(na) <- c("a", NA)
  empty <- m
  rownames(empty) <- c("a", "")
  huge <- m
  huge[1, 1] <- 1e308
  for (x in list(dup, na, empty, huge)) {
    expect_error(check_scores(x), class = "irtopics_error_data")
    expect_error(swap_error_rates(x, sizes = 1, trials = 5, seed = 1), class = "irtopics_error_data")
    expect_error(cronbach_alpha(x), class = "irtopics_error_data")
  }
  nonames <- m
  dimnames(nonames) <- NULL
  expect_identical(rownames(check_scores(nonames)), c("sys1", "sys2"))
  expect_error(check_scores(matrix(1:4, 2, dimnames = list(c("a", "a"), NULL))), class = "irtopics_error")
})

test_that("a seed fixes the RNG kind and leaves the user's kind and state alone", {
  m <- matrix(c(.1, .5, .3, .2, .4, .6, .7, .2, .1, .3, .3, .8), 3,
              dimnames = list(c("a", "b", "c"), 1:4))
  ref <- swap_error_rates(m, sizes = 2, trials = 30, seed = 42)
  old_kind <- RNGkind()
  withr::defer(do.call(RNGkind, as.list(old_kind)))
  suppressWarnings(RNGkind("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  set.seed(7)
  state <- .Random.seed
  expect_equal(swap_error_rates(m, sizes = 2, trials = 30, seed = 42), ref)
  expect_identical(RNGkind(), c("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  expect_identical(.Random.seed, state)
  expect_identical(with_seed(1, sample.int(1000, 3)),
                   local({ withr::local_seed(1, .rng_kind = "Mersenne-Twister", .rng_sample_kind = "Rejection",
                                             .rng_normal_kind = "Inversion"); sample.int(1000, 3) }))
})

# 15. Devices, FIFOs and /proc files ---------------------------------------------------

test_that("devices, FIFOs and /proc files are reported for what they are", {
  skip_on_os("windows")
  err <- expect_error(read_run("/dev/null"), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "is a device, not a regular file")
  expect_error(read_qrels("/dev/zero"), "is a device", class = "irtopics_error_file")
  expect_error(evaluate(te_data("results.test"), "/dev/null", "AP"), "device", class = "irtopics_error_file")
  fifo <- tempfile()
  skip_if(system2("mkfifo", fifo) != 0, "no mkfifo")
  on.exit(unlink(fifo))
  expect_error(read_run(fifo), "FIFO", class = "irtopics_error_file")
  expect_error(read_scores(fifo), "FIFO", class = "irtopics_error_file")
  empty <- tempfile()
  file.create(empty)
  expect_error(read_run(empty), "is empty", class = "irtopics_error_file")
  # /proc files report size 0 but have content: read, and refused for what it is.
  skip_if_not(file.exists("/proc/self/status"))
  err <- expect_error(read_run("/proc/self/status"), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "expected 6 fields")
})

test_that("numeric topic arguments and topic columns are never written as 1e+05", {
  expect_identical(as_ids(c(100000, 2.5, -0, NA)), c("100000", "2.5", "0", NA))
  run <- data.frame(system = c("a", "b"), topic = "100000", docno = "d1", score = 1)
  qrels <- data.frame(topic = "100000", docno = "d1", rel = 1L)
  ro <- return_orders(run, qrels, topics = 100000)
  expect_identical(names(ro$orders), "100000")
  f <- tempfile(fileext = ".csv")
  writeLines(c("topic,a,b", "100000,0.1,0.2", "200000,0.3,0.4"), f)
  expect_identical(colnames(read_scores(f)), c("100000", "200000"))
})
