test_that("kendall_tau equals cor(method = 'kendall') with and without ties", {
  set.seed(42)
  for (i in 1:50) {
    n <- sample(2:60, 1)
    x <- sample(1:8, n, replace = TRUE) / 8
    y <- sample(1:8, n, replace = TRUE) / 8 + (i %% 2) * runif(n)
    ref <- suppressWarnings(cor(x, y, method = "kendall"))
    expect_equal(kendall_tau(x, y), ref, tolerance = 1e-12)
  }
  x <- rnorm(200); y <- x + rnorm(200)
  expect_equal(kendall_tau(x, y), cor(x, y, method = "kendall"), tolerance = 1e-12)
})

test_that("tau-a and tau-b follow the spec's worked example (section 2.5)", {
  ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
  pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)
  expect_equal(kendall_tau(-pred, ap, type = "a"), 0.8333333333, tolerance = 1e-9)
  expect_equal(kendall_tau(-pred, ap), 0.8397191228, tolerance = 1e-9)
})

test_that("degenerate inputs give NA and bad inputs classed errors", {
  expect_identical(kendall_tau(1, 2), NA_real_)
  expect_identical(kendall_tau(c(1, 1, 1), c(1, 2, 3)), NA_real_)
  expect_error(kendall_tau(1:3, 1:2), class = "irtopics_error_argument")
  expect_error(kendall_tau(c(1, NA), 1:2), class = "irtopics_error_data")
})
