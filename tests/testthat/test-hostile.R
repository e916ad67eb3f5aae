# Hostile inputs: each must give the trec_eval result or a classed error
# naming file and line, never a crash, a hang or a silently changed number.

all_measures <- c("AP", "P@10", "R-Prec", "nDCG", "nDCG@10", "Bpref", "RR", "R@100", "NumRet",
                  "NumRelRet")

# Writes `bytes` (a raw vector or a string) to a new file, gzip-compressed
# when `gzip` is TRUE.
write_bytes <- function(bytes, ext = ".txt", gzip = FALSE) {
  if (is.character(bytes)) bytes <- charToRaw(bytes)
  f <- tempfile(fileext = if (gzip) ".gz" else ext)
  con <- if (gzip) gzfile(f, "wb") else file(f, "wb")
  writeBin(bytes, con)
  close(con)
  f
}

# The lines of a file joined with another line end, or prefixed.
rewrite_lines <- function(path, eol = "\n", prefix = raw(), gzip = FALSE) {
  lines <- readLines(path)
  write_bytes(c(prefix, charToRaw(paste0(lines, eol, collapse = ""))), gzip = gzip)
}

bom <- as.raw(c(0xef, 0xbb, 0xbf))

expect_same_evaluation <- function(run, qrels, ref_run = te_data("results.test"),
                                   ref_qrels = te_data("qrels.test"), measures = all_measures) {
  ref <- evaluate(ref_run, ref_qrels, measures)
  got <- evaluate(run, qrels, measures)
  for (m in measures) expect_identical(unclass(got[[m]]), unclass(ref[[m]]), label = m)
}

expect_input_error <- function(expr, class, file, line, pattern) {
  err <- expect_error(expr, class = class)
  expect_identical(basename(err$file), basename(file))
  expect_identical(as.numeric(err$line), as.numeric(line))
  expect_match(conditionMessage(err), pattern, fixed = TRUE)
  invisible(err)
}

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

test_that("query maps and score files with a byte order mark read as without", {
  withr::local_locale(c(LC_CTYPE = "C"))  # R itself drops a BOM only in UTF-8 locales
  map <- write_bytes(c(bom, charToRaw("301 301 first\n302 302\n303 303\n")))
  q <- read_query_map(map)
  expect_identical(q$query, c("301", "302", "303"))
  ro <- return_orders(te_data("results.test"), te_data("qrels.test"), query_map = map)
  ro_ref <- return_orders(te_data("results.test"), te_data("qrels.test"))
  expect_identical(unname(ro$orders), unname(ro_ref$orders))
  csv <- write_bytes(c(bom, charToRaw("topic,a,b\n1,0.5,0.25\n2,0.1,0.2\n")), ext = ".csv")
  s <- read_scores(csv)
  expect_identical(dimnames(s), list(c("a", "b"), c("1", "2")))
  expect_equal(s["b", "2"], 0.2)
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

test_that("-0 ties with 0 and the tie is broken by docno, descending", {
  # trec_eval: equal scores, so "b" (the larger docno) ranks first.
  run <- tmp_file(c("1 Q0 a 1 0 tag", "1 Q0 b 2 -0 tag"))
  qrels <- tmp_file(c("1 0 a 0", "1 0 b 1"))
  res <- evaluate(run, qrels, c("AP", "P@1"))
  expect_equal(res$AP[1, 1], 1)
  expect_equal(res$`P@1`[1, 1], 1)
  df <- data.frame(system = "s", topic = "1", docno = c("a", "b"), score = c(0, -0))
  expect_equal(evaluate(df, qrels, "AP")$AP[1, 1], 1)
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

test_that("inf, -inf, -0 and exponent scores give trec_eval 10.0's printed values", {
  # trec_eval -q -m map -m P.5 -m recip_rank on these files printed
  # map 0.7333, P_5 0.6000, recip_rank 1.0000. By hand: order b (inf), a, f
  # (1e-3), then the tie d (0) / c (-0) by docno descending, e (-inf);
  # relevant b, f, c, e at ranks 1, 3, 5, 6: AP = (1 + 2/3 + 3/5 + 4/6) / 4.
  run <- tmp_file(c("1 Q0 a 1 0.5 t", "1 Q0 b 2 inf t", "1 Q0 c 3 -0 t", "1 Q0 d 4 0 t",
                    "1 Q0 e 5 -inf t", "1 Q0 f 6 1e-3 t"))
  qrels <- tmp_file(c("1 0 a 0", "1 0 b 1", "1 0 c 1", "1 0 d 0", "1 0 e 1", "1 0 f 1"))
  res <- evaluate(run, qrels, c("AP", "P@5", "RR"))
  expect_identical(sprintf("%.4f", c(res$AP[1, 1], res$`P@5`[1, 1], res$RR[1, 1])),
                   c("0.7333", "0.6000", "1.0000"))
  expect_equal(res$AP[1, 1], (1 + 2 / 3 + 3 / 5 + 4 / 6) / 4)
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

test_that("grades must be integers of int range; -1 is unjudged and +2 is 2", {
  for (bad in c("1.5", "1e0", "x", "2147483648", "-2147483649", "+-1")) {
    f <- tmp_file(c("1 0 d1 1", sprintf("1 0 d2 %s", bad)))
    expect_input_error(read_qrels(f), "irtopics_error_parse", f, 2,
                       sprintf("the relevance grade (4th field) must be an integer, not '%s'", bad))
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

# 10. Directories -------------------------------------------------------------

runs_dir <- function() {
  dir <- withr::local_tempdir(.local_envir = parent.frame())
  file.copy(te_data("results.test"), file.path(dir, "input.a.txt"))
  file.copy(te_data("results.trunc"), file.path(dir, "input.b.txt"))
  dir
}

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

test_that("a FIFO among the runs is refused at once instead of waiting for a writer", {
  skip_on_os("windows")
  skip_if(Sys.which("mkfifo") == "")
  dir <- runs_dir()
  fifo <- file.path(dir, "input.c.txt")
  system2("mkfifo", fifo)
  err <- expect_error(evaluate(dir, te_data("qrels.test"), "AP"), class = "irtopics_error_file")
  expect_identical(basename(err$file), "input.c.txt")
  expect_match(conditionMessage(err), "not a regular file")
})

# 11. Odd bytes in ids --------------------------------------------------------

test_that("topic ids and docnos with non-ASCII bytes just work", {
  topic <- "caf\xc3\xa9"
  latin1 <- "d\xe9j\xe0"  # not valid UTF-8
  run <- write_bytes(paste0(topic, " Q0 ", latin1, " 1 2 t\n", topic, " Q0 x 2 1 t\n"))
  qrels <- write_bytes(paste0(topic, " 0 ", latin1, " 0\n", topic, " 0 x 1\n"))
  res <- evaluate(run, qrels, "AP")
  expect_identical(charToRaw(colnames(res$AP)), charToRaw(topic))
  expect_equal(res$AP[1, 1], 1 / 2)
  expect_identical(charToRaw(as.data.frame(read_run(run))$docno[1]), charToRaw(latin1))
  # Byte order for non-numeric ids, as strcmp.
  expect_identical(order_topics(c(topic, "cafe", "Z")), c("Z", "cafe", topic))
})
