# The kernel families of fit_margin() (R/calibration-kernels.R): the
# truncated Gaussian kernel against stats::density(), Chen's beta kernel
# against direct sums of dbeta() (and its C++ sums), the Wang-van Ryzin
# kernel against a direct cross-validation.

test_that("normal_kernel: stats::density() renormalised on [0, 1], with its bandwidth rule", {
  x <- beta_sample(70, seed = 5)
  m <- fit_margin(x, families = "normal_kernel", mean_tol = Inf)
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
  x <- beta_sample(40, seed = 6)
  for (rule in c("lscv", "reference")) {
    m <- fit_margin(x, families = "beta_kernel", beta_bandwidth = rule, mean_tol = Inf)
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
  x <- beta_sample(30, seed = 7)
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

test_that("discrete_kernel: Wang-van Ryzin pmf and a direct least-squares cross-validation", {
  s <- score_support("P@10")
  x <- withr::with_seed(10, rbinom(40, 10, 0.3) / 10)
  m <- fit_margin(x, type = "discrete", support = s, families = "discrete_kernel", mean_tol = Inf)
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

test_that("beta_kernel: the C++ sums are the direct sums of dbeta", {
  x <- c(0, 1e-4, beta_sample(30, seed = 14), 0.97, 1)
  sc <- irtopics:::bk_scores(x)
  for (b in c(0.001, 0.02, 0.4)) {
    direct <- function(y) vapply(y, function(v) sum(dbeta(sc$x, v / b + 1, (1 - v) / b + 1)), 0)
    q <- irtopics:::bk_quadrature(irtopics:::bk_breaks)
    f <- irtopics:::bk_node_sums(sc, b, q)$f
    ref <- direct(q$y)
    keep <- ref > 1e-250
    expect_lt(max(abs(f[keep] / ref[keep] - 1)), 1e-11)
    at <- irtopics:::bk_score_sums(sc, b)
    expect_equal(at$sum, direct(sc$x), tolerance = 1e-12)
    expect_equal(at$own, dbeta(sc$x, sc$x / b + 1, (1 - sc$x) / b + 1), tolerance = 1e-12)
  }
})

test_that("beta_kernel: the C++ bandwidth search is optimize() on bk_cv(), to the bit (issue 26)", {
  # cpp_bk_lscv() runs the grid and Brent's steps in C++ with R's lbeta():
  # the same points, criterion values and bandwidth as the search in R
  ap <- margin_matrix("ap")
  samples <- c(list(beta_sample(60, seed = 2), c(rep(0, 8), beta_sample(40, seed = 3)),
                    c(0, 1e-4, beta_sample(30, seed = 14), 0.97, 1), c(0.1, 0.2, 0.2, 0.9), seq(0, 1, by = 0.1)),
               lapply(c(1, 12, 40, 77, 129), function(i) ap[i, ]))
  for (x in samples) expect_identical(bk_bandwidth(x, "lscv"), bk_bandwidth_r(x))
})

test_that("kernel sums run in blocks with the whole matrix's numbers to the bit (issue 29: memory)", {
  # fit_margin(runif(1e5)) asked 74.5 GB for the normal kernel's n x n
  # matrix; the sums now run in row blocks of irtopics.kernel_block_bytes.
  x <- withr::with_seed(3, rbeta(700, 2, 5))
  u <- withr::with_seed(4, runif(900))
  s <- (0:200) / 200
  xd <- withr::with_seed(5, rbinom(300, 200, 0.3) / 200)
  run <- function() {
    m <- fit_margin(x, families = "normal_kernel")
    md <- fit_margin(xd, type = "discrete", support = s, families = "discrete_kernel")
    list(m$candidates, m$table, qmargin(u, m), pmargin(u, m), dmargin(u, m), md$candidates, md$table,
         qmargin(u, md))
  }
  whole <- run()
  # by default these sums fit one block; blocks of 1 KB (128 doubles) make hundreds
  expect_identical(length(row_blocks(700, 700)), 1L)
  withr::local_options(irtopics.kernel_block_bytes = 1024)
  expect_identical(length(row_blocks(700, 700)), 700L)
  expect_identical(length(row_blocks(201, 300)), 201L)
  expect_identical(unlist(row_blocks(1000, 10)), 1:1000)
  expect_identical(run(), whole)
  # the sums against the whole matrices, written out
  h <- 0.05
  K <- stats::dnorm(outer(x, x, "-") / h)
  got <- nk_loglik_df(x, h, 0.9)
  expect_identical(got, list(loglik = sum(log(rowMeans(K) / h / 0.9)), df = sum(stats::dnorm(0) / rowSums(K))))
  # the C++ sums (each pair once) against the matrix in blocks, with ties
  xt <- c(x, x[1:50], 0, 0, 1)
  expect_identical(cpp_nk_self_sums(xt, 0.03), nk_self_sums_r(xt, 0.03))
  W <- dk_weights(0:3 * 20, 0:200, 0.4)
  expect_identical(dk_col_sums(0:3 * 20, 1:4, 200, 0.4), colSums(1:4 * W))
  expect_identical(dk_row_sums(0:3 * 20, 200, 0.4), rowSums(W))
})

test_that("normal_kernel: the C++ means at any points are rowMeans() of the R matrices to the bit (issue 43)", {
  # nk_cdf() and d() sum in C++ (qmargin()'s Newton steps asked 2e8 kernel
  # values of outer()): the same numbers as the matrices in row blocks
  x <- c(withr::with_seed(7, rbeta(500, 2, 5)), 0, 0, 1, 0.5, 0.5)
  q <- c(withr::with_seed(8, runif(300)), 0, 1, 0.5)
  pts <- list(x = x, w = NULL, n = length(x))
  h <- 0.04
  shifts <- list(numeric(), stats::pnorm(-x / h), stats::pnorm((1 - x) / h, lower.tail = FALSE))
  for (kind in 0:2) {
    expect_identical(nk_point_means(pts, h, q, shifts[[kind + 1L]], kind),
                     nk_point_means_r(pts, h, q, shifts[[kind + 1L]], kind))
  }
  # weighted (binned) points: the weighted means
  bp <- bin_scores(x, nk_bin_grid(64))
  expect_equal(nk_point_means(bp, h, q, numeric(), 0L), nk_point_means_r(bp, h, q, numeric(), 0L), tolerance = 1e-13)
  expect_equal(sum(bp$w), length(x))
  expect_equal(sum(bp$w * bp$x), sum(x))
})

test_that("the kernels' quadratic sums can be interrupted (minutes of C++ at 40,000 scores)", {
  skip_if_no_interrupts()
  set.seed(3)
  x <- stats::runif(4e4)
  sc <- bk_scores(x)
  b <- 0.05
  calls <- list(
    lscv = function() {
      q <- bk_cv_quadrature
      cpp_bk_lscv(sc$lx, sc$l1x, sc$x, bk_cv_grid, 0.01, q$y, q$w, q$centre, q$half, q$offset)
    },
    scores = function() cpp_bk_score_sums(sc$lx, sc$l1x, sc$x, b, bk_lbeta(sc$x, b)),
    normal = function() cpp_nk_self_sums(x, 0.02)
  )
  for (nm in names(calls)) {
    res <- with_interrupt_in(calls[[nm]](), polls = 2L)
    expect_true(res$interrupted, label = nm)
    expect_identical(res$raised, 1L, label = nm)
  }
  # and through fit_margin() itself
  res <- with_interrupt_in(fit_margin(x, families = "beta_kernel"), polls = 2L)
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
})
