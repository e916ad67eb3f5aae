# broom conventions (R/utils-tidy.R): tidy() and glance() on the generics
# package's generics, registered without importing generics or broom.

test_that("every class with as.data.frame() has tidy() and glance() registered (a new class can't be forgotten)", {
  # Registrations come from NAMESPACE: a class added without regenerating it fails here.
  s3 <- getNamespaceInfo(asNamespace("irtopics"), "S3methods")
  registered <- function(generic) sort(unique(s3[s3[, 1] == generic & startsWith(s3[, 2], "ir_"), 2]))
  with_df <- registered("as.data.frame")
  expect_gt(length(with_df), 0L)
  expect_identical(irtopics:::tidy_classes(), with_df)
  expect_identical(registered("tidy"), with_df)
  expect_identical(registered("glance"), with_df)
  tidy_rows <- s3[s3[, 1] %in% c("tidy", "glance"), , drop = FALSE]
  expect_true(all(tidy_rows[, 4] == "generics"))
  expect_setequal(tidy_rows[, 3], c("tidy_irtopics", "glance_irtopics"))
})

test_that("tidy() is the tidy long table and glance() one row, for every result", {
  skip_if_not_installed("generics")
  fx <- class_fixtures()
  for (cls in irtopics:::tidy_classes()) {
    x <- fx[[cls]]
    td <- generics::tidy(x)
    ref <- as.data.frame(x)
    rownames(ref) <- NULL
    expect_identical(td, ref, info = cls)
    gl <- generics::glance(x)
    expect_true(is.data.frame(gl), info = cls)
    expect_identical(nrow(gl), 1L, info = cls)
  }
  cmp <- fx$ir_comparison
  expect_true(all(c("estimate", "conf.low", "conf.high", "statistic", "p.value") %in% names(generics::tidy(cmp))))
  g <- generics::glance(cmp)
  expect_identical(g$alpha, cmp$alpha)
  s <- generics::glance(fx$ir_scores)
  expect_identical(c(s$n_systems, s$n_topics), dim(fx$ir_scores))
  expect_equal(s$mean, mean(fx$ir_scores))
})

test_that("data.table conversion keeps the systems", {
  skip_if_not_installed("data.table")
  fx <- class_fixtures()
  x <- fx$ir_scores
  dt <- data.table::as.data.table(x)
  expect_s3_class(dt, "data.table")
  expect_identical(as.data.frame(dt), as.data.frame(x))
  expect_setequal(unique(dt$system), rownames(x))
  ev <- fx$ir_evaluation
  dte <- data.table::as.data.table(ev)
  expect_identical(as.data.frame(dte), as.data.frame(ev))
})
