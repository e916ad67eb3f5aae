test_that("read_scores reads topic-in-rows matrices with and without a topic column", {
  ap <- read_scores(extdata("score-matrices", "robust2004_ap.csv"), measure = "AP")
  expect_s3_class(ap, "ir_scores")
  expect_equal(dim(ap), c(110L, 249L))
  expect_equal(colnames(ap)[1:2], c("301", "302"))
  expect_equal(rownames(ap)[1], "sys1")
  expect_equal(attr(ap, "measure"), "AP")
  raw <- utils::read.csv(extdata("score-matrices", "robust2004_ap.csv"))
  expect_equal(unname(ap["sys2", "301"]), raw$sys2[1])

  a8 <- read_scores(extdata("score-matrices", "adhoc8_ap.csv"), measure = "AP")
  expect_equal(dim(a8), c(129L, 50L))
  expect_equal(colnames(a8)[1:2], c("t1", "t2"))
})

test_that("print, format and summary describe the matrix", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  expect_match(format(ap)[1], "<ir_scores> AP: 40 systems x 50 topics, mean 0\\.")
  expect_identical(capture.output(print(ap)), format(ap))
  expect_false(any(grepl("0 more", format(ap[1:3, ]))))
  expect_output(print(ap), "more systems")
  s <- summary(ap)
  expect_equal(s$table$mean[1], max(rowMeans(ap)))
  expect_output(print(s), "Per-system summary of AP")
})

test_that("autoplot draws one sorted line per system", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  p <- ggplot2::autoplot(ap, systems = c("sys1", "sys2"))
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p)
  expect_equal(length(unique(d$group)), 2L)
  first <- d[d$group == 1, ]
  expect_false(is.unsorted(first$y))
  expect_error(ggplot2::autoplot(ap, systems = "nope"), class = "irtopics_error_argument")
})

test_that("read_scores() never shifts, renames or invents data", {
  f <- tempfile(fileext = ".csv")
  # a line with one extra field: an error naming the line (read.csv would
  # take the first column as row names and shift every system)
  writeLines(c("topic,a,b", "401,0.1,0.2", "402,0.3,0.4,0.5", "403,0.5,0.6"), f)
  err <- expect_error(read_scores(f), "line 3 has 4 fields", class = "irtopics_error_parse")
  expect_identical(err$line, 3L)
  # write.csv() with the topic ids as row names: an unnamed first column
  g <- tempfile(fileext = ".csv")
  utils::write.csv(data.frame(a = c(.1, .2), b = c(.3, .4), row.names = c("401", "402")), g)
  x <- read_scores(g)
  expect_identical(rownames(x), c("a", "b"))
  expect_identical(colnames(x), c("401", "402"))
  expect_identical(unname(x["b", ]), c(.3, .4))
  # ids exactly as written
  writeLines(c("topic,run1,run2", "001,0.1,0.2", "010,0.3,0.4"), f)
  expect_identical(colnames(read_scores(f)), c("001", "010"))
  # a malformed score names its physical line (blank lines counted)
  writeLines(c("topic,a", "401,0.1", "", "402,abc"), f)
  err <- expect_error(read_scores(f), "Line 4 has", class = "irtopics_error_parse")
  expect_identical(err$line, 4L)
  writeLines(c("topic,a", "401,0x1A"), f)
  expect_error(read_scores(f), "Line 2", class = "irtopics_error_parse")
  # an unnamed system column
  writeLines(c("topic,a,", "401,0.1,0.2"), f)
  expect_error(read_scores(f), "has no system name", class = "irtopics_error_parse")
})

test_that("a byte that is not UTF-8 in the header or a topic id is a parse error naming its line (issue 29)", {
  f <- withr::local_tempfile(fileext = ".csv")
  latin1 <- function(...) writeBin(unlist(lapply(list(...), function(x) if (is.raw(x)) x else charToRaw(x))), f)
  latin1("topic,sys", as.raw(0xe9), ",b\n1,0.5,0.2\n2,0.1,0.3\n")
  err <- expect_error(read_scores(f), class = "irtopics_error_parse", regexp = "not valid UTF-8")
  expect_identical(err$line, 1L)
  expect_match(conditionMessage(err), "\\xe9", fixed = TRUE)
  latin1("topic,a,b\n1,0.5,0.2\n\n2", as.raw(0xe9), ",0.1,0.3\n")
  err <- expect_error(read_scores(f), class = "irtopics_error_parse", regexp = "topic id is not valid UTF-8")
  expect_identical(err$line, 4L)
  # the first column taken as topics by write.csv()'s unnamed header
  latin1("\"\",a\n\"x", as.raw(0xfc), "\",0.5\n")
  expect_error(read_scores(f), class = "irtopics_error_parse")
  # UTF-8 names are read as written
  latin1("topic,sys\u00e9,b\n1,0.5,0.2\n")
  s <- read_scores(f)
  expect_identical(rownames(s), c("sys\u00e9", "b"))
  expect_true(validUTF8(rownames(s)[1]))
})
