extdata <- function(...) system.file("extdata", ..., package = "irtopics")

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

test_that("subsetting keeps the class; base functions see a matrix", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  sub <- ap[1:3, 1:25]
  expect_s3_class(sub, "ir_scores")
  expect_equal(dim(sub), c(3L, 25L))
  expect_equal(attr(sub, "measure"), "AP")
  expect_false(is_ir_scores(ap[1, ]))
  expect_equal(rowMeans(ap), mean_scores(ap))
  expect_true(is.matrix(ap))
})

test_that("as.data.frame gives the long form", {
  m <- matrix(c(.2, .4, .1, .5, .3, NA), nrow = 2,
              dimnames = list(c("A", "B"), c("401", "402", "403")))
  x <- as_ir_scores(m, "AP")
  df <- as.data.frame(x)
  expect_named(df, c("system", "topic", "measure", "value"))
  expect_equal(nrow(df), 6L)
  expect_equal(df$system, c("A", "A", "A", "B", "B", "B"))
  expect_equal(df$value[df$system == "B" & df$topic == "402"], .5)
  expect_equal(nrow(as.data.frame(x, na.rm = TRUE)), 5L)
  # missing topics are left out of means ("drop" semantics)
  expect_equal(unname(mean_scores(x)), c(mean(c(.2, .1, .3)), mean(c(.4, .5))))
})

test_that("gmap reproduces the spec's worked example (section 2.5)", {
  ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
  expect_equal(gmap(ap), 0.0316370627, tolerance = 1e-9)
  expect_equal(gmap(ap, method = "floor"), 0.03164378155, tolerance = 1e-9)
  expect_equal(gmap(ap, eps = 1e-4, method = "replace0"), 0.04644671938, tolerance = 1e-9)
  x <- as_ir_scores(rbind(a = ap, b = rev(ap) / 2), "AP")
  expect_equal(unname(gmean_scores(x)[1]), 0.0316370627, tolerance = 1e-9)
  expect_equal(unname(gmean_scores(x, method = "floor")[2]),
               exp(mean(log(pmax(ap / 2, 1e-5)))))
  expect_error(gmap(c(-1, 2)), class = "irtopics_error_data")
  expect_error(gmap(ap, method = "nope"))
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

test_that("bad inputs give classed errors", {
  expect_error(read_scores(tempfile()), class = "irtopics_error_file")
  bad <- tempfile(fileext = ".csv")
  writeLines(c("topic,a,b", "1,0.1,0.2", "2,0.3,x"), bad)
  expect_error(read_scores(bad), class = "irtopics_error_parse")
  expect_error(read_scores(bad), "Line 3")
  expect_error(as_ir_scores("a"), class = "irtopics_error_argument")
  expect_error(as_ir_scores(matrix(1:4, 2, dimnames = list(c("a", "a"), NULL))),
               class = "irtopics_error_argument")
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

test_that("empty matrices are classed errors in analyses, and empty ir_scores can be built", {
  expect_error(cronbach_alpha(matrix(numeric(0), 0, 3)), class = "irtopics_error_argument")
  expect_error(gawm(matrix(numeric(0), 3, 0)), class = "irtopics_error_argument")
  expect_error(mean_scores(matrix(numeric(0), 0, 0)), class = "irtopics_error_argument")
  e <- as_ir_scores(matrix(numeric(0), 0, 2))
  expect_s3_class(e, "ir_scores")
  expect_equal(dim(e), c(0L, 2L))
  expect_equal(colnames(e), c("t1", "t2"))
})

test_that("seeds must be whole numbers in R's integer range", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  expect_error(swap_error_rates(ap, sizes = 5, trials = 2, seed = 1e10), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 5, trials = 2, seed = 1.5), class = "irtopics_error_argument")
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
