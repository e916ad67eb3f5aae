# Binned kernel estimates (R/calibration-binned.R, issue 43): above
# kernel_exact_max scores the kernel families sum over a grid of weighted
# points; their numbers are within the stated bounds of the exact ones, and
# their quantiles invert their CDF.

binned_pair <- function(x, family, ...) {
  list(exact = fit_margin(x, families = family, mean_tol = Inf, kernel_exact_max = Inf, ...),
       binned = fit_margin(x, families = family, mean_tol = Inf, kernel_exact_max = 1000, ...))
}

test_that("the threshold: exact at or below kernel_exact_max, binned above, the bins said in the parameters", {
  x <- beta_sample(300, seed = 11)
  for (family in c("normal_kernel", "beta_kernel")) {
    exact <- fit_margin(x, families = family)
    expect_identical(fit_margin(x, families = family, kernel_exact_max = 300), exact)
    expect_null(exact$parameters$bins)
    withr::with_options(list(irtopics.kernel_exact_max = 299, irtopics.kernel_bins = 512), {
      binned <- fit_margin(x, families = family)
    })
    expect_identical(binned$parameters$bins, 512L)
    expect_gt(binned$parameters$bin_error, 0)
    expect_identical(fit_margin(x, families = family, kernel_exact_max = 299, kernel_bins = 512), binned)
  }
  expect_error(fit_margin(x, kernel_exact_max = -1), class = "irtopics_error_argument")
  expect_error(fit_margin(x, kernel_bins = 10), class = "irtopics_error_argument")
  expect_error(fit_margin(x, kernel_bins = 100.5), class = "irtopics_error_argument")
})

test_that("normal_kernel binned: density, CDF and likelihood within the stated bounds of the exact sums", {
  x <- withr::with_seed(21, c(rbeta(2000, 2, 6), rbeta(1000, 8, 2)))
  fits <- binned_pair(x, "normal_kernel")
  e <- fits$exact
  b <- fits$binned
  h <- e$parameters$bandwidth
  expect_identical(b$parameters$bandwidth, h)
  M <- b$parameters$bins
  bound <- b$parameters$bin_error
  expect_equal(bound, (1 / M)^2 * dnorm(0) / (8 * h^3))
  y <- seq(0, 1, by = 0.005)
  raw <- function(m) dmargin(y, m) * m$parameters$mass
  gap <- max(abs(raw(b) - raw(e)))
  expect_lte(gap, bound)
  expect_gt(gap, 0)
  cdf_raw <- function(m) pmargin(y, m) * m$parameters$mass
  expect_lte(max(abs(cdf_raw(b) - cdf_raw(e))), (1 / M)^2 * dnorm(1) / (8 * h^2))
  expect_lte(abs(b$parameters$mass - e$parameters$mass), 2 * (1 / M)^2 * dnorm(1) / (8 * h^2))
  # the sums at the scores: twice the density's bound per score
  at <- rowMeans(outer(x, x, function(a, c) dnorm(a, c, h)))
  ll_bound <- sum(2 * bound / (at - 2 * bound)) + length(x) * abs(log(b$parameters$mass / e$parameters$mass))
  expect_lte(abs(b$loglik - e$loglik), ll_bound)
  expect_lt(abs(b$df - e$df) / e$df, 1e-3)
})

test_that("beta_kernel binned: the estimate within the stated bound of the exact sums, at the same bandwidth", {
  x <- withr::with_seed(22, c(rbeta(2500, 2, 6), rep(0, 200), runif(300)))
  fits <- binned_pair(x, "beta_kernel", beta_bandwidth = "reference")
  e <- fits$exact
  b <- fits$binned
  bw <- e$parameters$bandwidth
  expect_identical(b$parameters$bandwidth, bw)
  bound <- b$parameters$bin_error
  expect_equal(bound, ((asin(sqrt(1 - 1e-6)) - asin(sqrt(1e-6))) / 4096)^2 / (2 * bw))
  # the bound is relative to the height of the kernels' peak at y
  y <- c(seq(0, 0.01, by = 0.0005), seq(0.01, 0.99, by = 0.005), seq(0.99, 1, by = 0.0005))
  peak <- dbeta(pmin(pmax(y, 1e-12), 1 - 1e-12), y / bw + 1, (1 - y) / bw + 1)
  raw <- function(m) dmargin(y, m) * m$parameters$mass
  gap <- abs(raw(b) - raw(e))
  expect_true(all(gap <= bound * peak))
  expect_gt(max(gap), 0)
  expect_lt(abs(b$parameters$mass / e$parameters$mass - 1), 1e-4)
  expect_lt(abs(b$loglik - e$loglik) / abs(e$loglik), 1e-4)
  expect_lt(abs(b$df / e$df - 1), 1e-3)
  q <- seq(0.001, 0.999, by = 0.001)
  expect_lt(max(abs(pmargin(q, b) - pmargin(q, e))), 1e-4)
})

test_that("beta_kernel binned: the cross-validated bandwidth near the exact one", {
  x <- withr::with_seed(23, rbeta(3000, 2, 5))
  fits <- binned_pair(x, "beta_kernel")
  # the search's tolerance is 0.01 in log bandwidth; the criterion is flat near its minimum
  expect_lt(abs(log(fits$binned$parameters$bandwidth / fits$exact$parameters$bandwidth)), 0.05)
  expect_lt(max(abs(fits$binned$cdf - fits$exact$cdf)), 2e-3)
})

test_that("binned margins: qmargin() inverts pmargin(), monotone quantiles", {
  x <- withr::with_seed(24, c(rbeta(2500, 2, 6), runif(500)))
  u <- withr::with_seed(25, sort(runif(3000)))
  for (family in c("normal_kernel", "beta_kernel")) {
    m <- fit_margin(x, families = family, kernel_exact_max = 1000)
    expect_false(is.null(m$parameters$bins))
    v <- seq(0.01, 0.99, by = 0.01)
    expect_lt(max(abs(qmargin(pmargin(v, m), m) - v)), 1e-8, label = family)
    q <- qmargin(u, m)
    expect_true(all(diff(q) >= 0), label = family)
    expect_lt(max(abs(pmargin(q, m) - u)), 1e-10, label = family)
    expect_identical(qmargin(c(0, 1), m), c(0, 1))
  }
})

test_that("binned fits take time linear in the scores: the kernel evaluations do not grow with them", {
  # the beta kernel's kernel values (bk_counter()): the binned fit's depend
  # on the grid's points, not on the scores (an exact fit's grow as n^2)
  count <- function(n, exact_max = 1000) {
    x <- withr::with_seed(26, rbeta(n, 2, 5))
    bk_counter(reset = TRUE)
    fit_margin(x, families = "beta_kernel", kernel_exact_max = exact_max)
    bk_counter()[["values"]]
  }
  # (a search may take another Brent step, and the tails occupy more bins)
  expect_lt(count(40000) / count(20000), 1.3)
  # exact: the sums at the scores grow as n^2
  expect_gt(count(1600, Inf) / count(800, Inf), 3)
})

test_that("fit_margin() shows a progress bar when it bins", {
  bars <- record_progress_bars()
  x <- beta_sample(400, seed = 12)
  fit_margin(x, progress = TRUE)
  expect_identical(bars$labels, character())
  fit_margin(x, kernel_exact_max = 100, progress = TRUE)
  expect_identical(bars$labels, "fitting a margin to 400 scores")
  bars$labels <- character()
  fit_margin(x, kernel_exact_max = 100, progress = FALSE)
  expect_identical(bars$labels, character())
})
