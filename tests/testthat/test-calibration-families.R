# The candidate families of fit_margin() (R/calibration-families.R): each
# family's density, CDF and quantiles against textbook formulas written here
# (and other packages when installed), maximum likelihood against optim() /
# MASS::fitdistr(), bandwidths against a direct cross-validation.

smooth_scores <- function(n = 60, seed = 1) {
  withr::with_seed(seed, stats::rbeta(n, 2, 5))
}

test_that("truncnorm: density, CDF and quantiles are the truncated normal's", {
  x <- smooth_scores()
  m <- fit_margin(x, families = "truncnorm")
  mu <- m$parameters$mean
  s <- m$parameters$sd
  Z <- pnorm((1 - mu) / s) - pnorm(-mu / s)
  y <- c(0, 0.01, 0.2, 0.5, 0.93, 1)
  expect_equal(dmargin(y, m), dnorm((y - mu) / s) / s / Z, tolerance = 1e-10)
  expect_equal(pmargin(y, m), (pnorm((y - mu) / s) - pnorm(-mu / s)) / Z, tolerance = 1e-10)
  p <- c(0.001, 0.1, 0.5, 0.9, 0.999)
  expect_equal(qmargin(p, m), mu + s * qnorm(pnorm(-mu / s) + p * Z), tolerance = 1e-9)
  a <- -mu / s
  b <- (1 - mu) / s
  expect_equal(m$mean, mu + s * (dnorm(a) - dnorm(b)) / Z, tolerance = 1e-10)
  skip_if_not_installed("truncnorm")
  expect_equal(dmargin(y, m), truncnorm::dtruncnorm(y, 0, 1, mu, s), tolerance = 1e-9)
  expect_equal(pmargin(y, m), truncnorm::ptruncnorm(y, 0, 1, mu, s), tolerance = 1e-9)
  expect_equal(qmargin(p, m), truncnorm::qtruncnorm(p, 0, 1, mu, s), tolerance = 1e-6)
  expect_equal(m$var, truncnorm::vtruncnorm(0, 1, mu, s), tolerance = 1e-8)
})

test_that("truncnorm: the MLE matches optim() on the same likelihood", {
  x <- smooth_scores(80, seed = 2)
  m <- fit_margin(x, families = "truncnorm")
  nll <- function(p) {
    s <- exp(p[2])
    -sum(log(dnorm((x - p[1]) / s) / s / (pnorm((1 - p[1]) / s) - pnorm(-p[1] / s))))
  }
  ref <- optim(c(0.5, log(0.3)), nll, control = list(reltol = 1e-14, maxit = 5000))
  expect_gt(exp(ref$par[2]), 0.05)  # the optimum is inside the constraint
  expect_equal(m$loglik, -ref$value, tolerance = 1e-4 / abs(ref$value))
  expect_equal(m$parameters$mean, ref$par[1], tolerance = 1e-3)
})

test_that("beta: d/p/q are dbeta/pbeta/qbeta, and the MLE matches MASS::fitdistr()", {
  x <- smooth_scores(100, seed = 3)
  m <- fit_margin(x, families = "beta")
  a <- m$parameters$shape1
  b <- m$parameters$shape2
  y <- c(0, 0.1, 0.4, 0.8, 1)
  expect_equal(dmargin(y, m), dbeta(y, a, b))
  expect_equal(pmargin(y, m), pbeta(y, a, b))
  p <- c(0.01, 0.3, 0.7, 0.99)
  expect_equal(qmargin(p, m), qbeta(p, a, b))
  expect_equal(m$mean, a / (a + b))
  expect_equal(m$var, a * b / ((a + b)^2 * (a + b + 1)))
  ref <- suppressWarnings(MASS::fitdistr(x, "beta", start = list(shape1 = 1.5, shape2 = 3), lower = c(1, 1)))
  expect_lt(abs(m$loglik - ref$loglik), 1e-4)
  expect_equal(c(a, b), unname(ref$estimate), tolerance = 1e-3)
})

test_that("beta: shapes stay at least 1 (bounded density) on U-shaped data", {
  x <- withr::with_seed(4, c(rbeta(40, 0.3, 0.3), 0, 1))
  m <- fit_margin(x, families = "beta")
  expect_gte(m$parameters$shape1, 1)
  expect_gte(m$parameters$shape2, 1)
  xc <- pmin(pmax(x, 1e-6), 1 - 1e-6)
  expect_equal(m$loglik, sum(dbeta(xc, m$parameters$shape1, m$parameters$shape2, log = TRUE)))
})

test_that("normal_kernel: stats::density() renormalised on [0, 1], with its bandwidth rule", {
  x <- smooth_scores(70, seed = 5)
  m <- fit_margin(x, families = "normal_kernel")
  h <- m$parameters$bandwidth
  expect_identical(m$parameters$rule, "SJ")
  expect_equal(h, bw.SJ(x))
  mass <- mean(pnorm((1 - x) / h) - pnorm(-x / h))
  expect_equal(m$parameters$mass, mass)
  dens <- density(x, bw = h, kernel = "gaussian", from = 0, to = 1, n = 4097)
  y <- seq(0.05, 0.95, by = 0.05)
  expect_equal(dmargin(y, m), approx(dens$x, dens$y, y)$y / mass, tolerance = 2e-3)
  # exact: the mean of the kernels
  expect_equal(dmargin(y, m), vapply(y, function(v) mean(dnorm(v, x, h)), 0) / mass, tolerance = 1e-12)
  expect_equal(pmargin(y, m), vapply(y, function(v) mean(pnorm(v, x, h) - pnorm(0, x, h)), 0) / mass,
               tolerance = 1e-12)
  # effective degrees of freedom: a point's own kernel over the estimate there
  K <- outer(x, x, function(a, b) dnorm(a, b, h))
  expect_equal(m$df, mean(dnorm(0, 0, h) / rowMeans(K)))
  expect_equal(m$loglik, sum(log(rowMeans(K) / mass)))
})

test_that("normal_kernel: Sheather-Jones falls back to bw.nrd0, then to the sd rule, on ties", {
  h_sd <- function(x) 0.9 * sd(x) * length(x)^(-1 / 5)
  # many ties at 0: bw.SJ() collapses to spikes at the observed values, and
  # so does bw.nrd0() (IQR 0)
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"))
  x <- as.vector(unclass(ap[which.max(rowMeans(ap == 0)), ]))
  expect_gt(mean(x == 0), 0.5)
  expect_lt(bw.SJ(x), h_sd(x) / 10)
  expect_lt(bw.nrd0(x), h_sd(x) / 10)
  m <- fit_margin(x, families = "normal_kernel")
  expect_identical(m$parameters$rule, "sd")
  expect_equal(m$parameters$bandwidth, h_sd(x))
  # ties short of half the scores: bw.nrd0
  x <- c(rep(0, 12), withr::with_seed(3, runif(28)))
  m <- fit_margin(x, families = "normal_kernel")
  sj <- tryCatch(bw.SJ(x), error = function(e) NA, warning = function(w) NA)
  expect_identical(m$parameters$rule, if (is.na(sj) || sj < h_sd(x) / 10) "nrd0" else "SJ")
  expect_equal(m$parameters$bandwidth, if (m$parameters$rule == "SJ") sj else bw.nrd0(x))
})

test_that("beta_kernel: Chen's estimator as a direct sum of dbeta, renormalised", {
  x <- smooth_scores(40, seed = 6)
  for (rule in c("lscv", "reference")) {
    m <- fit_margin(x, families = "beta_kernel", beta_bandwidth = rule)
    b <- m$parameters$bandwidth
    if (rule == "reference") expect_equal(b, sd(x) * length(x)^(-2 / 5))
    fraw <- function(y) vapply(y, function(v) mean(dbeta(x, v / b + 1, (1 - v) / b + 1)), 0)
    C <- integrate(fraw, 0, 1, rel.tol = 1e-10)$value
    expect_equal(m$parameters$mass, C, tolerance = 1e-8)
    y <- c(0, 0.02, 0.3, 0.6, 0.99, 1)
    expect_equal(dmargin(y, m), fraw(y) / C, tolerance = 1e-8)
    expect_equal(pmargin(0.3, m), integrate(fraw, 0, 0.3, rel.tol = 1e-10)$value / C, tolerance = 1e-8)
    self <- dbeta(x, x / b + 1, (1 - x) / b + 1)
    expect_equal(m$df, sum(self / (length(x) * fraw(x))), tolerance = 1e-10)
    expect_equal(m$loglik, sum(log(fraw(x) / C)), tolerance = 1e-8)
  }
})

test_that("beta_kernel: LSCV picks the bandwidth minimising a direct cross-validation", {
  x <- smooth_scores(30, seed = 7)
  n <- length(x)
  m <- fit_margin(x, families = "beta_kernel")
  cv <- function(b) {
    fraw <- function(y) vapply(y, function(v) mean(dbeta(x, v / b + 1, (1 - v) / b + 1)), 0)
    C <- integrate(fraw, 0, 1, rel.tol = 1e-8)$value
    mi <- vapply(x, function(xi) integrate(function(y) dbeta(xi, y / b + 1, (1 - y) / b + 1), 0, 1,
                                           rel.tol = 1e-8)$value, 0)
    loo <- vapply(seq_len(n), function(i) {
      sum(dbeta(x[-i], x[i] / b + 1, (1 - x[i]) / b + 1)) / sum(mi[-i])
    }, 0)
    integrate(function(y) (fraw(y) / C)^2, 0, 1, rel.tol = 1e-8)$value - 2 * mean(loo)
  }
  b <- m$parameters$bandwidth
  # a local minimum: no better at 20% either side
  expect_lte(cv(b), cv(b * 1.2) + 1e-6)
  expect_lte(cv(b), cv(b / 1.2) + 1e-6)
})

test_that("every continuous family: density integrates to 1, mean and quantiles agree", {
  x <- smooth_scores(50, seed = 8)
  for (f in c("truncnorm", "beta", "normal_kernel", "beta_kernel")) {
    m <- fit_margin(x, families = f)
    f1 <- function(y) dmargin(y, m)
    expect_equal(integrate(f1, 0, 1, rel.tol = 1e-10)$value, 1, tolerance = 1e-7, info = f)
    expect_equal(integrate(function(y) y * f1(y), 0, 1, rel.tol = 1e-10)$value, m$mean, tolerance = 1e-7,
                 info = f)
    ex2 <- integrate(function(y) y^2 * f1(y), 0, 1, rel.tol = 1e-10)$value
    expect_equal(m$var, ex2 - m$mean^2, tolerance = 1e-6, info = f)
    y <- c(0.01, 0.1, 0.3, 0.5, 0.7, 0.95)
    expect_equal(qmargin(pmargin(y, m), m), y, tolerance = 1e-8, info = f)
    p <- c(0.001, 0.05, 0.5, 0.9, 0.999)
    expect_equal(pmargin(qmargin(p, m), m), p, tolerance = 1e-8, info = f)
    expect_identical(qmargin(c(0, 1), m), c(0, 1), info = f)
  }
})

test_that("beta_binomial: the pmf is choose(K,k) B(k+a, K-k+b) / B(a,b), MLE as optim()", {
  s <- score_support("P@10")
  x <- withr::with_seed(9, rbinom(80, 10, rbeta(80, 3, 2)) / 10)
  m <- fit_margin(x, type = "discrete", support = s, families = "beta_binomial")
  a <- m$parameters$shape1
  b <- m$parameters$shape2
  k <- 0:10
  ref <- choose(10, k) * beta(k + a, 10 - k + b) / beta(a, b)
  expect_equal(dmargin(s, m), ref, tolerance = 1e-12)
  expect_equal(pmargin(s, m), cumsum(ref), tolerance = 1e-12)
  expect_equal(m$mean, sum(s * ref), tolerance = 1e-12)
  kx <- round(x * 10)
  nll <- function(p) -sum(log(choose(10, kx) * beta(kx + p[1], 10 - kx + p[2]) / beta(p[1], p[2])))
  opt <- optim(c(2, 2), nll, method = "L-BFGS-B", lower = c(1, 1), control = list(factr = 1))
  expect_lt(abs(m$loglik + opt$value), 1e-4)
  skip_if_not_installed("extraDistr")
  expect_equal(dmargin(s, m), extraDistr::dbbinom(k, 10, a, b), tolerance = 1e-10)
})

test_that("discrete_kernel: Wang-van Ryzin pmf and a direct least-squares cross-validation", {
  s <- score_support("P@10")
  x <- withr::with_seed(10, rbinom(40, 10, 0.3) / 10)
  m <- fit_margin(x, type = "discrete", support = s, families = "discrete_kernel")
  cand <- m$candidates
  lambda <- cand$bandwidth[1]
  expect_equal(cand$bandwidth[-1], Filter(function(l) l < 1, lambda * c(2, 5, 10)))
  kx <- round(x * 10)
  n <- length(kx)
  W <- function(l) {
    D <- abs(outer(0:10, 0:10, "-"))
    ifelse(D == 0, 1 - l, (1 - l) / 2 * l^D)
  }
  pmf_of <- function(k, l) {
    raw <- colMeans(W(l)[k + 1, , drop = FALSE])
    raw / sum(raw)
  }
  cv <- function(l) {
    loo <- vapply(seq_len(n), function(i) pmf_of(kx[-i], l)[kx[i] + 1], 0)
    sum(pmf_of(kx, l)^2) - 2 * mean(loo)
  }
  grid <- seq(0, 0.99, by = 0.01)
  expect_lte(cv(lambda), min(vapply(grid, cv, 0)) + 1e-12)
  chosen <- which(cand$chosen)
  l <- cand$bandwidth[chosen]
  if (identical(m$family, "discrete_kernel")) expect_equal(dmargin(s, m), pmf_of(kx, l), tolerance = 1e-12)
  for (i in seq_len(nrow(cand))) {
    l <- cand$bandwidth[i]
    p <- pmf_of(kx, l)
    raw <- colMeans(W(l)[kx + 1, , drop = FALSE])
    expect_equal(cand$loglik[i], sum(log(p[kx + 1])), tolerance = 1e-12)
    expect_equal(cand$df[i], mean((1 - l) / raw[kx + 1]), tolerance = 1e-12)
  }
})
