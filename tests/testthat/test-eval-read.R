# Inputs that broke the C++ readers under the libFuzzer targets of tools/cpp
# (see CONTRIBUTING.md, "Hardening"), replayed through the R interface. The C++ copies of these
# inputs live in tools/cpp/regressions/.

test_that("a large grade in many topics is refused, not allocated (fuzz_qrels out-of-memory)", {
  # Grade 1e6 is accepted, but each topic's grade count table then holds 1e6
  # counts (8 MB): 300 such topics in a 5 KB file took 2.4 GB. The tables of
  # all topics together are now bounded (2^24 counts), so 40 topics fail.
  lines <- sprintf("t%d 0 d 1000000", 1:40)
  f <- tmp_file(lines)
  err <- expect_error(read_qrels(f), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "too large for this many topics")
  expect_match(conditionMessage(err), "[Ll]ine 17")
  # The same judgements from a data frame (the QrelsBuilder path).
  qrels_df <- data.frame(topic = sprintf("t%d", 1:40), docno = "d", rel = 1000000L)
  run_df <- data.frame(system = "s", topic = "t1", docno = "d", score = 1)
  expect_error(evaluate(run_df, qrels_df, "nDCG"), class = "irtopics_error_data")
  # A few topics at the largest grade still work.
  ok <- read_qrels(tmp_file(lines[1:3]))
  expect_equal(ok$rel, rep(1000000L, 3))
})

test_that("a score or grade with two signs is refused (found in review)", {
  # "+-5" was read as -5 (the '+' was skipped, then the number parsed with
  # its '-'); trec_eval's atof() reads it as 0. Both readers now refuse it.
  run <- tmp_file(c("1 Q0 d1 1 2 t", "1 Q0 d2 2 +-5 t"))
  err <- expect_error(read_run(run), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "[Ll]ine 2")
  qrels <- tmp_file(c("1 0 d1 1", "1 0 d2 +-1"))
  expect_error(read_qrels(qrels), class = "irtopics_error_parse")
  # One sign is fine.
  expect_equal(read_qrels(tmp_file(c("1 0 d1 +1", "1 0 d2 -1")))$rel, c(1L, -1L))
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
  expect_named(call_eval(mem), "runs")
  bad <- list(
    within(mem, offset[3] <- 10000000L), within(mem, topic_code[1] <- 0L),
    within(mem, score <- c(score, 1)), within(mem, docno <- letters),
    within(mem, offset <- as.double(offset)), within(mem, name <- character())
  )
  for (b in bad) expect_error(call_eval(b), "run 1", class = "irtopics_error_data")
  expect_error(call_eval(mem, depth = 1e300), "depth", class = "irtopics_error_data")
  expect_error(call_eval(mem, cutoff = 3e9), class = "irtopics_error_measure")
  expect_error(cpp_docnos(run$docno, run$offset[-1]), "[Oo]ffsets", class = "irtopics_error_argument")
  expect_error(cpp_docnos(run$docno, c(0L, 10L, 5L)), "[Oo]ffsets", class = "irtopics_error_argument")
  expect_error(cpp_qrels_table(new.env()), "pointer", class = "irtopics_error_argument")
  # A qrels pointer restored from a saved session is NULL: an error, not a crash.
  stale <- unserialize(serialize(q$ptr, NULL))
  expect_error(cpp_qrels_table(stale), "pointer", class = "irtopics_error_argument")
  expect_error(cpp_qrels_info(stale, TRUE), "pointer", class = "irtopics_error_argument")
  # a direct call names the cpp_*() wrapper (no exported function on the stack)
  err <- expect_error(cpp_qrels_info(stale, TRUE), class = "irtopics_error_argument")
  expect_identical(as.character(err$call[[1]]), "cpp_qrels_info")
  expect_error(call_eval(mem, depth = 1000), NA)
})

test_that("forked children of a process that used 2 threads run single-threaded instead of hanging", {
  skip_on_os("windows")
  skip_on_cran()
  runs <- data.frame(system = rep(c("a", "b", "c"), each = 3), topic = "1",
                     docno = rep(c("d1", "d2", "x"), 3), score = c(3:1, 1:3, c(2, 3, 1)))
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  # Small inputs run on one thread unless this option says otherwise.
  withr::local_options(irtopics.eval_thread_bytes = 0)
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

# 1. CRLF ---------------------------------------------------------------------

test_that("CRLF line ends give the same results and docnos as LF", {
  run <- rewrite_lines(te_data("results.test"), "\r\n")
  qrels <- rewrite_lines(te_data("qrels.test"), "\r\n")
  expect_true(grepl("\r\n", rawToChar(readBin(run, "raw", 200)), fixed = TRUE))
  expect_same_evaluation(run, qrels)
  expect_identical(as.data.frame(read_run(run)), as.data.frame(read_run(te_data("results.test"))))
  expect_identical(unclass_qrels(read_qrels(qrels)), unclass_qrels(read_qrels(te_data("qrels.test"))))
})

test_that("CR-only line ends are refused instead of read as one line", {
  f <- write_bytes("1 Q0 d1 1 0.5 tag\r1 Q0 d2 2 0.4 tag\r")
  expect_input_error(read_run(f), "irtopics_error_parse", f, 1, "carriage return between fields")
  f <- write_bytes("1 0 d1 1\r1 0 d2 0\r")
  expect_input_error(read_qrels(f), "irtopics_error_parse", f, 1, "carriage return between fields")
  # CRLF qrels are fine.
  expect_equal(read_qrels(write_bytes("1 0 d1 1\r\n1 0 d2 0\r\n"))$rel, c(1L, 0L))
  # A carriage return before the line end is only white space, extra fields or not.
  f <- write_bytes("1 Q0 d1 1 0.5 tag extra\r\n1 Q0 d2 2 0.4 tag\r\n")
  expect_equal(read_run(f)$score, c(0.5, 0.4))
})

# 2. White space --------------------------------------------------------------

test_that("tabs, repeated, leading and trailing white space split fields like one space", {
  clean <- tmp_file(c("1 Q0 d1 1 0.5 tag", "1 Q0 d2 2 0.4 tag", "1 Q0 d3 3 0.3 tag", "2 Q0 d3 1 1 tag"))
  mixed <- write_bytes(paste0("1\tQ0  d1 1\t\t0.5 tag  \n", "  1 Q0\td2 2 0.4\ttag\t\n",
                              "\v1 Q0 d3 3 0.3\ftag \r\n", "\n  \t\n", "2 Q0 d3 1 1 tag"))
  q_clean <- good_qrels()
  q_mixed <- write_bytes("  1 0\td1 1\n1\t\t0  d2 0 \t\n\n2 0 d3\t2")
  expect_same_evaluation(mixed, q_mixed, clean, q_clean, c("AP", "P@10", "NumRet", "NumRelRet"))
  expect_identical(as.data.frame(read_run(mixed)), as.data.frame(read_run(clean)))
  expect_identical(unclass_qrels(read_qrels(q_mixed)), unclass_qrels(read_qrels(q_clean)))
})

# 3. Byte order mark ----------------------------------------------------------

test_that("a UTF-8 byte order mark is skipped in runs and qrels, plain or gzip", {
  for (gz in c(FALSE, TRUE)) {
    run <- rewrite_lines(te_data("results.test"), prefix = bom, gzip = gz)
    qrels <- rewrite_lines(te_data("qrels.test"), prefix = bom, gzip = gz)
    expect_same_evaluation(run, qrels)
    expect_identical(read_run(run)$topics, c("301", "302", "303"))
    expect_identical(unique(read_qrels(qrels)$topic), c("301", "302", "303"))
  }
  # A file holding only a byte order mark holds no lines.
  err <- expect_error(read_run(write_bytes(bom)), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "holds no run lines")
})

# 4. Comment lines ------------------------------------------------------------

test_that("lines starting with '#' are refused in runs and qrels, short or not", {
  hint <- "comment lines are not part of the run format (the line starts with '#')"
  f <- tmp_file(c("1 Q0 d1 1 0.5 tag", "1 Q0 d2 2 0.4 tag", "# produced by my system"))
  expect_input_error(read_run(f), "irtopics_error_parse", f, 3, paste("Line 3:", hint))
  f <- tmp_file(c("#1 Q0 d9 1 9 tag", "1 Q0 d1 1 0.5 tag"))
  expect_input_error(evaluate(f, good_qrels(), "AP"), "irtopics_error_parse", f, 1, hint)
  f <- tmp_file(c("1 Q0 d1 1 0.5 tag", "  # Q0 d9 1 9 tag"))
  expect_input_error(read_run(f), "irtopics_error_parse", f, 2, hint)
  hint <- "comment lines are not part of the qrels format (the line starts with '#')"
  f <- tmp_file(c("# judged by NIST", "1 0 d1 1"))
  expect_input_error(read_qrels(f), "irtopics_error_parse", f, 1, hint)
  f <- tmp_file(c("1 0 d1 1", "#1 0 d2 1"))
  expect_input_error(evaluate(te_data("results.test"), f, "AP"), "irtopics_error_parse", f, 2, hint)
  # '#' inside a field is an ordinary byte.
  f <- tmp_file(c("1 Q0 d#1 1 0.5 tag#1"))
  expect_identical(as.data.frame(read_run(f))$docno, "d#1")
})

# 5. Long docnos and lines ----------------------------------------------------

test_that("10 kB and 100 kB docnos are read, evaluated and round-trip exactly", {
  for (len in c(1e4, 1e5)) {
    long <- strrep("x", len)
    run <- tmp_file(sprintf("1 Q0 %s %d %s tag", c("short1", long, "short2"), 1:3, c("3", "2", "1")))
    qrels <- tmp_file(c(paste("1 0", long, "1"), "1 0 other 1", "1 0 short1 0"))
    # Relevant at rank 2 of 2 relevant documents: AP = (1/2) / 2.
    res <- evaluate(run, qrels, c("AP", "P@2"))
    expect_equal(res$AP[1, 1], 0.25)
    expect_equal(res$`P@2`[1, 1], 0.5)
    df <- as.data.frame(read_run(run))
    expect_identical(df$docno, c("short1", long, "short2"))
    expect_identical(read_qrels(qrels)$docno[1], long)
    ro <- return_orders(run, qrels)
    expect_identical(ro$orders[["1"]][long, 1], 2L)
    expect_identical(ro$orders[["1"]]["other", 1], 1001L)
  }
})

# 6. Compressed and binary files ----------------------------------------------

test_that("truncated gzip files are classed file errors, for runs and qrels", {
  for (src in c("results.test", "qrels.test")) {
    gz <- rewrite_lines(te_data(src), gzip = TRUE)
    bytes <- readBin(gz, "raw", file.size(gz))
    for (cut in c(5L, length(bytes) %/% 2L, length(bytes) - 4L)) {
      part <- write_bytes(bytes[seq_len(cut)], gzip = FALSE)
      reader <- if (src == "results.test") read_run else read_qrels
      err <- expect_error(reader(part), class = "irtopics_error_file")
      expect_identical(err$file, part)
      expect_match(conditionMessage(err), "truncated")
    }
  }
  part <- write_bytes(bytes[1:5])
  expect_error(evaluate(te_data("results.test"), part, "AP"), class = "irtopics_error_file")
})

test_that("magic bytes, not the name, decide: plain text named .gz reads as text", {
  run <- tempfile(fileext = ".gz")
  qrels <- tempfile(fileext = ".gz")
  file.copy(te_data("results.test"), run)
  file.copy(te_data("qrels.test"), qrels)
  expect_same_evaluation(run, qrels)
})

test_that("a NUL byte is a parse error naming its line (binary or compressed files)", {
  hint <- "the line holds a NUL byte (is this a binary or compressed file?)"
  head <- charToRaw("1 Q0 d1 1 0.5 tag\n1 Q0 d2 2 0.4 tag\n")
  bz2 <- write_bytes(c(head, charToRaw("BZh91AY&SY"), as.raw(c(0x1f, 0x00, 0x3c, 0x0a))))
  expect_input_error(read_run(bz2), "irtopics_error_parse", bz2, 3, hint)
  expect_input_error(evaluate(bz2, good_qrels(), "AP"), "irtopics_error_parse", bz2, 3, hint)
  zip <- write_bytes(c(charToRaw("PK"), as.raw(c(0x03, 0x04, 0x14, 0x00, 0x00, 0x00))))
  expect_input_error(read_qrels(zip), "irtopics_error_parse", zip, 1, hint)
  set.seed(42)
  noise <- as.raw(sample(0:255, 200, replace = TRUE))
  noise[150] <- as.raw(0)
  line <- 1 + sum(noise[seq_len(which(noise == as.raw(0))[1] - 1)] == as.raw(0x0a))
  f <- write_bytes(noise)
  expect_input_error(read_run(f), "irtopics_error_parse", f, line, hint)
  expect_input_error(read_qrels(f), "irtopics_error_parse", f, line, hint)
  gz <- write_bytes(noise, gzip = TRUE)
  expect_input_error(evaluate(te_data("results.test"), gz, "AP"), "irtopics_error_parse", gz, line, hint)
})

# 7. Scores -------------------------------------------------------------------

test_that("score spellings: exponents, signs, bare dots and -0 are numbers", {
  s <- c("1e-3", "1E-3", "+0.5", ".5", "5.", "-0", "+1e+2")
  f <- tmp_file(sprintf("1 Q0 d%d %d %s tag", seq_along(s), seq_along(s), s))
  expect_identical(read_run(f)$score, c(0.001, 0.001, 0.5, 0.5, 5, 0, 100))
})

test_that("infinite scores are read as +-Inf and ranked first and last", {
  run <- tmp_file(c("1 Q0 d1 1 1 t", "1 Q0 d2 2 inf t", "1 Q0 d3 3 -inf t", "1 Q0 d4 4 0.5 t",
                    "1 Q0 d5 5 Infinity t", "1 Q0 d6 6 -INFINITY t", "1 Q0 d7 7 +Inf t"))
  expect_identical(read_run(run)$score, c(1, Inf, -Inf, 0.5, Inf, -Inf, Inf))
  # Order: d7, d5, d2 (Inf, docno descending), d1, d4, d6, d3 (-Inf, descending).
  qrels <- tmp_file(c("1 0 d2 1", "1 0 d3 1", "1 0 d4 0"))
  res <- evaluate(run, qrels, c("AP", "P@3", "P@5"))
  expect_equal(res$AP[1, 1], (1 / 3 + 2 / 7) / 2)
  expect_equal(res$`P@3`[1, 1], 1 / 3)
  expect_equal(res$`P@5`[1, 1], 1 / 5)
  # A data frame with the same scores gives the same numbers.
  df <- as.data.frame(read_run(run))
  expect_identical(unclass(evaluate(df, qrels, c("AP", "P@3"))$AP), unclass(res$AP))
})

test_that("NaN, hex, overflowing and comma scores are parse errors", {
  for (bad in c("nan", "NaN", "-nan")) {
    f <- tmp_file(c("1 Q0 d1 1 1 t", sprintf("1 Q0 d2 2 %s t", bad)))
    expect_input_error(read_run(f), "irtopics_error_parse", f, 2,
                       sprintf("the score (5th field) must be a number, not '%s'", bad))
  }
  for (bad in c("0x1p3", "1,5", "+-1", "1e", "infinit")) {
    f <- tmp_file(sprintf("1 Q0 d1 1 %s t", bad))
    expect_input_error(evaluate(f, good_qrels(), "AP"), "irtopics_error_parse", f, 1,
                       sprintf("must be a number, not '%s'", bad))
  }
  f <- tmp_file("1 Q0 d1 1 1e400 t")
  expect_input_error(read_run(f), "irtopics_error_parse", f, 1, "'1e400' is out of the range of a double")
})

test_that("in-memory runs accept +-Inf and refuse NA and NaN naming the row", {
  qrels <- tmp_file(c("1 0 a 1", "1 0 b 0", "1 0 c 1"))
  df <- data.frame(system = "s", topic = "1", docno = c("a", "b", "c"), score = c(-Inf, Inf, 0))
  expect_equal(evaluate(df, qrels, "AP")$AP[1, 1], (1 / 2 + 2 / 3) / 2)
  for (bad in c(NA, NaN)) {
    df$score[3] <- bad
    err <- expect_error(evaluate(df, qrels, "AP"), class = "irtopics_error_data")
    expect_identical(err$row, 3L)
    expect_match(conditionMessage(err), paste("Row 3 holds", format(bad)), fixed = TRUE)
  }
  run <- read_run(tmp_file(c("1 Q0 a 1 1 t", "1 Q0 b 2 0.5 t")))
  run$score[2] <- NaN
  err <- expect_error(return_orders(run, qrels), class = "irtopics_error_data")
  expect_identical(err$row, 2L)
  df$score <- as.character(df$score)
  expect_error(evaluate(df, qrels, "AP"), class = "irtopics_error_data")
})

# 8. Grades -------------------------------------------------------------------

test_that("grades must be numbers in range; -1 is unjudged and +2 is 2", {
  # (a grade with a fraction, "1.5" or "1e0", is a fractional grade:
  # test-eval-fractional.R)
  for (bad in c("x", "+-1", "nan", "inf", "0.5.1", "1,5")) {
    f <- tmp_file(c("1 0 d1 1", sprintf("1 0 d2 %s", bad)))
    expect_input_error(read_qrels(f), "irtopics_error_parse", f, 2,
                       sprintf("the relevance grade (4th field) must be an integer or a finite decimal number, not '%s'", bad))
  }
  for (bad in c("2147483648", "-2147483649", "1000001", "1e7")) {
    f <- tmp_file(c("1 0 d1 1", sprintf("1 0 d2 %s", bad)))
    expect_input_error(read_qrels(f), "irtopics_error_parse", f, 2,
                       sprintf("the relevance grade %s is outside the accepted range -2147483647 to 1000000", bad))
  }
  f <- tmp_file(c("1 0 d1 -1", "1 0 d2 +2", "1 0 d3 0"))
  expect_identical(read_qrels(f)$rel, c(-1L, 2L, 0L))
  run <- tmp_file(c("1 Q0 d1 1 3 t", "1 Q0 d2 2 2 t", "1 Q0 d3 3 1 t"))
  res <- evaluate(run, f, c("NumRel", "AP", "Bpref"))
  expect_equal(res$NumRel[1, 1], 1)
  expect_equal(res$AP[1, 1], 1 / 2)
  # d1 is unjudged, so Bpref (judged documents only) sees d2 first.
  expect_equal(res$Bpref[1, 1], 1)
})

# 9. Empty files --------------------------------------------------------------

test_that("0-byte files are 'empty' and blank ones 'hold no lines', plain or gzip", {
  for (gz in c(FALSE, TRUE)) {
    empty <- write_bytes(raw(), gzip = gz)
    blank <- write_bytes(" \n\t\r\n\n", gzip = gz)
    err <- expect_error(read_run(empty), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "is empty")
    expect_identical(err$file, empty)
    err <- expect_error(read_qrels(empty), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "is empty")
    expect_identical(err$file, empty)
    err <- expect_error(evaluate(empty, good_qrels(), "AP"), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "is empty")
    expect_identical(err$file, empty)
    err <- expect_error(evaluate(te_data("results.test"), empty, "AP"), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "is empty")
    err <- expect_error(read_run(blank), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "holds no run lines")
    err <- expect_error(evaluate(blank, good_qrels(), "AP"), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "holds no run lines")
    err <- expect_error(read_qrels(blank), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "holds no qrels lines")
    err <- expect_error(evaluate(te_data("results.test"), blank, "AP"), class = "irtopics_error_file")
    expect_match(conditionMessage(err), "holds no qrels lines")
  }
})

test_that("a non-run file in a directory is a parse error naming it; pattern selects the runs", {
  dir <- runs_dir()
  listed <- evaluate(file.path(dir, c("input.a.txt", "input.b.txt")), te_data("qrels.test"), all_measures,
                     name = "file")
  writeLines(c("Runs of the test collection.", "Evaluate them with trec_eval."),
             file.path(dir, "README.txt"))
  readme <- file.path(dir, "README.txt")
  expect_input_error(evaluate(dir, te_data("qrels.test"), "AP"), "irtopics_error_parse", readme, 1,
                     "Line 1: expected 6 fields")
  expect_input_error(read_runs(dir), "irtopics_error_parse", readme, 1, "Line 1: expected 6 fields")
  res <- evaluate(dir, te_data("qrels.test"), all_measures, name = "file", pattern = "^input\\.")
  for (m in all_measures) expect_identical(unclass(res[[m]]), unclass(listed[[m]]), label = m)
  expect_named(read_runs(dir, name = "file", pattern = "^input\\."), c("input.a", "input.b"))
  expect_error(return_orders(dir, te_data("qrels.test")), class = "irtopics_error_parse")
  ro <- return_orders(dir, te_data("qrels.test"), name = "file", pattern = "^input\\.")
  ro_listed <- return_orders(file.path(dir, c("input.a.txt", "input.b.txt")), te_data("qrels.test"),
                             name = "file")
  expect_identical(ro$orders, ro_listed$orders)
  err <- expect_error(read_runs(dir, pattern = "^run\\."), class = "irtopics_error_file")
  expect_match(conditionMessage(err), "holds no files matching")
  expect_error(read_runs(dir, pattern = "(("), class = "irtopics_error_argument")
  expect_error(read_runs(dir, pattern = c("a", "b")), class = "irtopics_error_argument")
  expect_error(evaluate(file.path(dir, "input.a.txt"), te_data("qrels.test"), pattern = "^input"),
               class = "irtopics_error_argument")
})

test_that("hidden files and subdirectories of a run directory are skipped", {
  dir <- runs_dir()
  ref <- evaluate(dir, te_data("qrels.test"), all_measures, name = "file")
  writeBin(as.raw(c(0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0)), file.path(dir, ".DS_Store"))
  dir.create(file.path(dir, "old"))
  writeLines("not a run", file.path(dir, "old", "notes.txt"))
  res <- evaluate(dir, te_data("qrels.test"), all_measures, name = "file")
  for (m in all_measures) expect_identical(unclass(res[[m]]), unclass(ref[[m]]), label = m)
  expect_length(read_runs(dir, name = "file"), 2L)
})

# The measure registry (src/measure_table.h): one list, names across the glue --------

test_that("measures reach C++ by name; unknown names, codes and parameters are refused", {
  q <- qrels_pointer(te_data("qrels.test"), 1L)
  mem <- validate_ir_run(read_run(te_data("results.test")))
  call_eval <- function(fields) {
    cpp_evaluate(q$ptr, NULL, list(mem), fields, 0.25, 1000, numeric(), FALSE, FALSE, NULL, NULL, 1L)
  }
  ap <- measure_fields(measure_spec("AP")$builtin)
  expect_named(call_eval(ap), "runs")
  unknown <- within(ap, measure <- "NoSuchMeasure")
  expect_error(call_eval(unknown), "NoSuchMeasure.*unknown measure", class = "irtopics_error_measure")
  # the old interface (an integer code, 37L past the end) is refused, not scored NA
  expect_error(call_eval(37L), class = "irtopics_error_measure")
  expect_error(call_eval(within(ap, rel <- NULL)), class = "irtopics_error_measure")
  # a record's parameter rules hold in C++ too
  p10 <- measure_fields(measure_spec("P@10")$builtin)
  expect_error(call_eval(within(p10, cutoff <- 0)), "needs a cut-off", class = "irtopics_error_measure")
  expect_error(call_eval(within(measure_fields(measure_spec("Bpref")$builtin), cutoff <- 5)),
               "takes no cut-off", class = "irtopics_error_measure")
  expect_error(cpp_empty_values(q$ptr, unknown, 0.25, 1000, numeric()), class = "irtopics_error_measure")
  # ERR@k and ERR are one record; AP@k and AP two kernels of one record
  v <- hand_eval(c("ERR@2", "AP@2", "AP"))
  expect_equal(v[["ERR@2"]], 3 / 16)
  expect_equal(v[["AP@2"]], 1 / 3)
})

test_that("constructors refuse malformed fields with irtopics_error_internal", {
  ns <- asNamespace("irtopics")
  fx <- class_fixtures()
  a <- unclass(fx$ir_anova)
  expect_s3_class(ns$new_ir_anova(a), "ir_anova")
  bad <- a
  bad$table <- "not a table"
  expect_error(ns$new_ir_anova(bad), class = "irtopics_error_internal")
  expect_error(ns$new_ir_anova(a[names(a) != "residual_df"]), "residual_df", class = "irtopics_error_internal")
  e <- unclass(fx$ir_swap_error_rates)
  expect_error(ns$new_ir_swap_error_rates(error = "x", sets = NULL, measure = "MAP", aggregate = "mean",
                                          sizes = 3, trials = 2, fuzz = 0.05, seed = 1, n_topics = 6,
                                          n_systems = 3),
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_swap_error_rates(error = e$error, sets = NULL, measure = c("a", "b"), aggregate = "mean",
                                          sizes = 3, trials = 2, fuzz = 0.05, seed = 1, n_topics = 6,
                                          n_systems = 3),
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_runs(list(1)), class = "irtopics_error_internal")
  expect_error(ns$new_ir_evaluation(list(AP = matrix(1))), class = "irtopics_error_internal")
  expect_error(ns$new_ir_qrels(data.frame(topic = 1, docno = "d", rel = 1)), "topic",
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_scores(matrix(1, dimnames = list("s", "t")), measure = 2),
               class = "irtopics_error_internal")
  expect_error(ns$new_summary("ir_anova", "title", table = 1:3), class = "irtopics_error_internal")
})

test_that("ir_runs has one shape: a list of ir_run named by system", {
  te <- system.file("extdata", "trec_eval-test", package = "irtopics")
  one <- read_run(file.path(te, "results.test"))
  runs <- irtopics:::new_ir_runs(list(one))
  expect_identical(names(runs), one$system)
  expect_identical(runs, read_runs(te, pattern = "^results\\.test$"))
  expect_identical(as.data.frame(summary(one)), as.data.frame(summary(runs)))
})
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
  expect_match(conditionMessage(err),
               "Line 2: the relevance grade \\(4th field\\) must be an integer or a finite decimal number, not 'x'")
  # (1.5 is a fractional grade: test-eval-fractional.R)
  f <- tmp_file(c("1 0 d1 1.5.0"))
  expect_error(read_qrels(f), class = "irtopics_error_parse")
  f <- tmp_file(c("1 0 d1 1 extra"))
  expect_error(read_qrels(f), class = "irtopics_error_parse")
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

test_that("data-frame runs and qrels accept ranx / ir_measures column names", {
  run <- as.data.frame(read_run(te_data("results.test")))
  qrels <- unclass_qrels(read_qrels(te_data("qrels.test")))
  ref <- evaluate(run, qrels, measures = c("AP", "nDCG@10"))
  run2 <- data.frame(query_id = run$topic, doc_id = run$docno, score = run$score)
  qrels2 <- data.frame(q_id = qrels$topic, doc_id = qrels$docno, relevance = qrels$rel)
  res <- evaluate(run2, qrels2, measures = c("AP", "nDCG@10"))
  expect_identical(unclass(res$AP)[, ], unclass(ref$AP)[, ])
  expect_identical(rownames(res$AP), "run")
  run3 <- data.frame(run_id = run$system, qid = run$topic, docid = run$docno, score = run$score)
  expect_identical(evaluate(run3, qrels2, measures = "AP")$AP, ref$AP)
})
