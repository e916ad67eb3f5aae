# read_labels(): label files in other layouts, with classed errors naming
# file and line.

label_file <- function(lines, ext = ".txt") {
  f <- withr::local_tempfile(fileext = ext, .local_envir = parent.frame())
  writeLines(lines, f)
  f
}

test_that("TREC qrels read as read_qrels() reads them", {
  path <- file.path(agreement_dir(), "qrels.rel_level")
  a <- read_labels(path)
  b <- read_qrels(path)
  expect_s3_class(a, "ir_qrels")
  key <- function(d) d[order(d$topic, d$docno), c("topic", "docno", "rel")]
  expect_equal(key(as.data.frame(a)), key(as.data.frame(b)), ignore_attr = TRUE)
})

test_that("a header, a separator, extra columns and scores cut into grades", {
  f <- label_file(c("query_id\tdoc_id\tscore\trationale", "q1\td1\t2.7\tvery relevant, says the model",
                    "", "q1\td2\t0.2\tno", "q2\td1\t1.5\tpartly"))
  x <- read_labels(f, columns = c(topic = "query_id", docno = "doc_id", rel = "score"), header = TRUE,
                   sep = "\t", breaks = c(0.5, 1.5, 2.5))
  expect_equal(x$topic, c("q1", "q1", "q2"))
  expect_equal(x$docno, c("d1", "d2", "d1"))
  expect_equal(x$rel, c(3L, 0L, 2L))  # a score on a break counts as reaching it
  g <- label_file(c("q1 llm d1 2 0.93", "q1 llm d2 0 0.99"))
  y <- read_labels(g, columns = c(topic = 1, docno = 3, rel = 4))
  expect_equal(y$rel, c(2L, 0L))
  z <- read_labels(g, columns = c(rel = 5, topic = 1, docno = 3), breaks = 0.95)
  expect_equal(z$rel, c(0L, 1L))
  gz <- withr::local_tempfile(fileext = ".gz")
  con <- gzfile(gz, "w")
  writeLines(c("q1 0 d1 1", "q1 0 d2 0"), con)
  close(con)
  expect_equal(read_labels(gz)$rel, c(1L, 0L))
})

test_that("bad lines are errors naming the file and the line", {
  f <- label_file(c("q1 0 d1 1", "q1 0 d2", "q1 0 d3 1"))
  e <- expect_error(read_labels(f), class = "irtopics_error_parse")
  expect_equal(e$line, 2L)
  expect_match(conditionMessage(e), "Line 2: 3 fields")
  f <- label_file(c("q1 0 d1 1", "", "q1 0 d2 0.7"))
  e <- expect_error(read_labels(f), class = "irtopics_error_parse")
  expect_equal(e$line, 3L)
  expect_match(conditionMessage(e), "breaks")
  f <- label_file(c("q1 0 d1 x"))
  expect_error(read_labels(f), class = "irtopics_error_parse", regexp = "not a number")
  f <- label_file(c("q1 0 d1 1", "q1 0 d1 0"))
  e <- expect_error(read_labels(f), class = "irtopics_error_duplicate")
  expect_equal(e$line, 2L)
  f <- label_file(c("a,b,c", "q1,d1,1"))
  expect_error(read_labels(f, columns = c(topic = "a", docno = "b", rel = "z"), header = TRUE, sep = ","),
               class = "irtopics_error_parse", regexp = "no field")
  f <- label_file(c("q1,,1"))
  expect_error(read_labels(f, columns = c(topic = 1, docno = 2, rel = 3), sep = ","),
               class = "irtopics_error_parse", regexp = "empty")
  expect_error(read_labels(label_file(c("", "  "))), class = "irtopics_error_file")
  expect_error(read_labels("no/such/file"), class = "irtopics_error_file")
  expect_error(read_labels(f, columns = c(topic = 1, docno = 2)), class = "irtopics_error_argument")
  expect_error(read_labels(f, columns = c(topic = "a", docno = "b", rel = "c")), class = "irtopics_error_argument")
  expect_error(read_labels(f, sep = ",,"), class = "irtopics_error_argument")
  expect_error(read_labels(f, breaks = c(2, 1)), class = "irtopics_error_argument")
})

# A label file of raw bytes (any encoding, NUL bytes, CR line ends).
label_bytes <- function(bytes, ext = ".txt") {
  f <- withr::local_tempfile(fileext = ext, .local_envir = parent.frame())
  writeBin(bytes, f)
  f
}

test_that("ids in any encoding read as read_qrels() reads them, and match its ids", {
  # a Latin-1 docno: read_labels() stopped with base R's "input string 1 is invalid UTF-8"
  b <- c(charToRaw("q1 0 caf"), as.raw(0xe9), charToRaw(" 1\nq1 0 d2 0\n"))
  f <- label_bytes(b)
  a <- read_labels(f)
  q <- read_qrels(f)
  expect_identical(a$docno, q$docno)
  expect_identical(charToRaw(a$docno[1]), c(charToRaw("caf"), as.raw(0xe9)))
  # the two sets pair on that document
  agr <- compare_qrels(q, a, B = 0)
  expect_equal(agr$counts$n_both, 2)
  # a Windows-1252 byte in an unselected rationale column: a false "1 field, at least 3 needed"
  g <- label_bytes(c(charToRaw("q1\td1\t2\tgood "), as.raw(0x93), charToRaw("quote"), as.raw(0x94),
                     charToRaw("\nq1\td2\t0\tno\n")))
  x <- read_labels(g, columns = c(topic = 1, docno = 2, rel = 3), sep = "\t")
  expect_equal(x$docno, c("d1", "d2"))
  expect_equal(x$rel, c(2L, 0L))
  # a header with such bytes; UTF-8 ids stay UTF-8 bytes
  h <- label_bytes(c(charToRaw("qid\tdoc\tscore\tnote"), as.raw(0xe9), charToRaw("\nq1\td\xc3\xa9\t1\tx\n")))
  y <- read_labels(h, columns = c(topic = "qid", docno = "doc", rel = "score"), header = TRUE, sep = "\t")
  expect_identical(charToRaw(y$docno), charToRaw("d\xc3\xa9"))
})

test_that("NUL bytes, hexadecimal labels and CRLF/CR line ends: errors name the line, or read as lines", {
  # a NUL byte: readLines() cut the line short without a word
  f <- label_bytes(c(charToRaw("q1 0 d1 1\nq1 0 d2 1"), as.raw(0), charToRaw("0\n")))
  e <- expect_error(read_labels(f), class = "irtopics_error_parse")
  expect_equal(e$line, 2L)
  expect_match(conditionMessage(e), "NUL")
  # as.numeric() read "0x1" as 1
  e <- expect_error(read_labels(label_file(c("q1 0 d1 1", "q1 0 d2 0x1"))), "not a number",
                    class = "irtopics_error_parse")
  expect_equal(e$line, 2L)
  expect_error(read_labels(label_file("q1 0 d1 Inf")), "not a number", class = "irtopics_error_parse")
  # CRLF and CR-only line ends are line ends; line numbers count them
  crlf <- label_bytes(charToRaw("q1 0 d1 1\r\nq1 0 d2 0\r\n"))
  expect_equal(read_labels(crlf)$rel, c(1L, 0L))
  cr <- label_bytes(charToRaw("q1 0 d1 1\rq1 0 d2 0\rq1 0 d3 x\r"))
  e <- expect_error(read_labels(cr), "not a number", class = "irtopics_error_parse")
  expect_equal(e$line, 3L)
  # a gzip file cut short: R's gzfile() returned the lines before the cut
  gz <- withr::local_tempfile(fileext = ".gz")
  con <- gzfile(gz, "w")
  writeLines(sprintf("q1 0 d%d %d", 1:3000, 1:3000 %% 4), con)
  close(con)
  b <- readBin(gz, "raw", 1e6)
  writeBin(b[seq_len(length(b) %/% 2)], gz)
  expect_error(read_labels(gz), "truncated", class = "irtopics_error_file")
  # an empty file, a BOM, a header not on line 1
  expect_error(read_labels(label_bytes(raw())), "empty", class = "irtopics_error_file")
  bom <- label_bytes(c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw("q1 0 d1 1\n")))
  expect_equal(read_labels(bom)$topic, "q1")
  hdr <- label_file(c("", "a b c", "q1 d1 1"))
  e <- expect_error(read_labels(hdr, columns = c(topic = "a", docno = "b", rel = "z"), header = TRUE),
                    "no field", class = "irtopics_error_parse")
  expect_equal(e$line, 2L)
})
