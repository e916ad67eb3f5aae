# Zero-one-inflated margins (R/calibration-inflated.R), the candidates on
# scores with atoms, recentring on the scores' mean
# (R/calibration-distribution.R), and the ties of the pseudo-observations
# (R/calibration-model.R).

# 100 scores, 18 of them exactly 0 (the share of nDCG@20 zeros on the Web
# tracks 2010-13), the rest from a beta distribution.
zero_heavy <- function(seed = 3, n = 100, zeros = 18, ones = 0) {
  withr::with_seed(seed, {
    x <- stats::rbeta(n, 1.2, 3)
    at <- sample(n, zeros + ones)
    x[at[seq_len(zeros)]] <- 0
    x[at[zeros + seq_len(ones)]] <- 1
    x
  })
}

test_that("a zero-heavy system gets a mass at 0 equal to its share of zeros, and its mean", {
  for (seed in 1:3) {
    x <- zero_heavy(seed)
    m <- fit_margin(x)
    expect_match(m$family, "^zi_", info = seed)
    expect_identical(m$parameters$p0, 0.18)
    expect_identical(m$parameters$p1, 0)
    # the recentring moves only the continuous part: the mass stays the share
    expect_equal(pmargin(0, m), 0.18)
    expect_lte(abs(m$mean - mean(x)), 0.001)
    # without the inflated families (the defect of issue 29): the chosen kernel
    # puts a few percent on [0, 0.001] and its expected value is too high
    plain <- fit_margin(x, atom_share = 1, mean_tol = Inf)
    expect_false(startsWith(plain$family, "zi_"))
    expect_lt(pmargin(0.001, plain), 0.06)
    expect_gt(plain$mean - mean(x), 0.02)
  }
})

test_that("the inflated likelihood is the masses' plus the base family's on the other scores", {
  x <- zero_heavy(5, zeros = 20, ones = 12)
  n0 <- sum(x == 0)
  n1 <- sum(x == 1)
  inner <- x[x > 0 & x < 1]
  m <- fit_margin(x, families = "zi_beta", mean_tol = Inf)
  base <- fit_margin(inner, families = "beta", mean_tol = Inf)
  p0 <- n0 / 100
  p1 <- n1 / 100
  ll <- n0 * log(p0) + n1 * log(p1) + length(inner) * log(1 - p0 - p1) + base$loglik
  expect_equal(m$loglik, ll, tolerance = 1e-12)
  expect_identical(m$df, 4)
  expect_equal(m$parameters$shape1, base$parameters$shape1)
  # distribution functions: jumps at 0 and 1, the base scaled between
  expect_equal(pmargin(0, m), p0)
  expect_equal(pmargin(0.3, m), p0 + (1 - p0 - p1) * stats::pbeta(0.3, base$parameters$shape1,
                                                                  base$parameters$shape2))
  expect_equal(pmargin(c(1 - 1e-12, 1), m), c(1 - p1, 1), tolerance = 1e-9)
  expect_equal(dmargin(0.4, m), (1 - p0 - p1) * stats::dbeta(0.4, base$parameters$shape1, base$parameters$shape2))
  expect_identical(qmargin(c(0, 0.1, p0, 1 - p1 + 1e-9, 1), m), c(0, 0, 0, 1, 1))
  u <- c(0.25, 0.5, 0.8)
  expect_equal(qmargin(u, m), stats::qbeta((u - p0) / (1 - p0 - p1), base$parameters$shape1,
                                           base$parameters$shape2), tolerance = 1e-10)
  expect_equal(m$mean, p1 + (1 - p0 - p1) * base$mean, tolerance = 1e-12)
  # with atom_share above both shares the family is no candidate
  expect_error(fit_margin(x, families = "zi_beta", atom_share = 0.5), class = "irtopics_error_data")
  expect_false(any(startsWith(fit_margin(x, atom_share = 0.5)$candidates$family, "zi_")))
})

test_that("the simulator draws the atoms: its share of exact zeros and ones, its mean", {
  x <- zero_heavy(7, zeros = 20, ones = 12)
  for (f in c("zi_truncnorm", "zi_beta", "zi_normal_kernel", "zi_beta_kernel")) {
    m <- fit_margin(x, families = f)
    u <- (seq_len(1e5) - 0.5) / 1e5
    draws <- cpp_margin_quantile(m$knots, m$cdf, FALSE, 1, 1, u)
    expect_equal(mean(draws == 0), pmargin(0, m), tolerance = 1e-4, info = f)
    expect_equal(mean(draws == 1), 1 - pmargin(1 - 1e-9, m), tolerance = 1e-4, info = f)
    expect_equal(mean(draws), m$mean, tolerance = 1e-5, info = f)
    expect_lte(abs(m$mean - mean(x)), 0.001)
    # a power design's transform of it reaches its target exactly too
    target <- m$mean + 0.05
    ex <- cpp_transform_exponents(list(m$knots), list(m$cdf), FALSE, 0L, target, 1e-9)
    moved <- cpp_margin_quantile(m$knots, m$cdf, FALSE, ex[1], ex[2], u)
    expect_equal(mean(moved), target, tolerance = 1e-4, info = f)
    expect_equal(transform_margin(m, target)$mean, target, tolerance = 1e-6, info = f)
  }
})

test_that("on scores with a modelled atom the continuous families are no candidates", {
  x <- zero_heavy(2)
  m <- fit_margin(x)
  cand <- m$candidates
  plain <- !startsWith(cand$family, "zi_")
  expect_true(all(is.na(cand$aic[plain])))
  expect_match(cand$note[plain], "not a candidate: 18% of the scores are exactly 0 \\(atom_share = 0.1\\)")
  expect_true(all(is.finite(cand$aic[!plain])))
  # below the share they are, and the inflated ones are not
  low <- fit_margin(x, atom_share = 0.2)
  expect_false(any(startsWith(low$candidates$family, "zi_")))
  expect_true(all(is.finite(low$candidates$aic)))
})

test_that("recentring keeps the mass at 0 and moves the rest to the mean; d, p, q stay consistent", {
  x <- zero_heavy(3, zeros = 20, ones = 12)
  for (f in c("zi_normal_kernel", "zi_beta_kernel", "normal_kernel", "beta_kernel")) {
    m <- fit_margin(x, families = f, atom_share = if (startsWith(f, "zi_")) 0.1 else 1)
    raw <- fit_margin(x, families = f, atom_share = if (startsWith(f, "zi_")) 0.1 else 1, mean_tol = Inf)
    expect_gt(abs(raw$mean - mean(x)), 0.001)           # the fit alone misses the mean
    expect_false(is.null(m$recentre))
    expect_equal(m$mean, mean(x), tolerance = 1e-6, info = f)
    p0 <- m$parameters$p0 %||% 0
    p1 <- m$parameters$p1 %||% 0
    expect_equal(pmargin(0, m), p0, info = f)
    expect_equal(1 - pmargin(1 - 1e-12, m), p1, tolerance = 1e-9, info = f)
    # p is the integral of d (plus the mass at 0), q inverts p, the moments are the numeric ones
    d <- function(y) dmargin(y, m)
    expect_equal(integrate(d, 0, 1, rel.tol = 1e-10)$value, 1 - p0 - p1, tolerance = 1e-6, info = f)
    expect_equal(pmargin(0.3, m), p0 + integrate(d, 0, 0.3, rel.tol = 1e-10)$value, tolerance = 1e-6, info = f)
    u <- p0 + (1 - p0 - p1) * c(0.05, 0.5, 0.95)
    expect_equal(pmargin(qmargin(u, m), m), u, tolerance = 1e-8, info = f)
    expect_equal(integrate(function(y) y * d(y), 0, 1, rel.tol = 1e-10)$value + p1, m$mean, tolerance = 1e-5,
                 info = f)
  }
})

test_that("every margin's expected value is its scores' mean within mean_tol (shipped matrices)", {
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  files <- c("adhoc3.csv", "adhoc5_ap.csv", "adhoc6_ap.csv", "adhoc7_ap.csv", "adhoc8_ap.csv", "enterprise2006.csv",
             "genomics2004.csv", "robust2003.csv", "robust2004_ap.csv", "terabyte2006_ap.csv", "web2004.csv")
  long <- identical(Sys.getenv("IRTOPICS_LONG_TESTS"), "true")
  worst <- 0
  for (f in files) {
    m <- suppressMessages(read_scores(file.path(dir, f)))
    # every system with IRTOPICS_LONG_TESTS=true; else the most zero-heavy
    # system and two others
    rows <- if (long) seq_len(nrow(m)) else unique(c(which.max(rowMeans(m == 0, na.rm = TRUE)), 1L, nrow(m)))
    for (s in rows) {
      x <- m[s, ]
      x <- x[!is.na(x)]
      if (length(unique(x)) < 2L) next
      fm <- fit_margin(x)
      worst <- max(worst, abs(fm$mean - mean(x)))
      expect_lte(abs(fm$mean - mean(x)), 0.001 + 1e-9)
    }
  }
  # discrete margins too (P@10)
  p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")
  for (s in c(1, 50, 120)) {
    d <- fit_margin(p10[s, ], type = "discrete", support = score_support("P@10"))
    expect_lte(abs(d$mean - mean(p10[s, ])), 0.001 + 1e-9)
    expect_equal(sum(d$pmf * d$support), d$mean)
  }
  # the Genomics 2004 systems with 18% and 80% zeros are modelled with their mass at 0
  g <- suppressMessages(read_scores(file.path(dir, "genomics2004.csv")))
  for (s in c("sys14", "sys8")) {
    fm <- fit_margin(g[s, ])
    expect_match(fm$family, "^zi_")
    expect_equal(pmargin(0, fm), mean(g[s, ] == 0))
    expect_lte(abs(fm$mean - mean(g[s, ])), 0.001 + 1e-9)
  }
})

test_that("ties: average ranks need no seed; random ones depend on it", {
  m <- matrix(c(0, 0, 0, 0.2, 0.5, 0.1, 0.7, 0, 0.3, 0.9, 0.4, 0, 0, 0.6, 0.8, 0.2, 0.1, 0, 0.5, 0.3), 4, 5,
              byrow = TRUE, dimnames = list(paste0("s", 1:4), paste0("t", 1:5)))
  a1 <- simulation_model(m, ties = "average", drop_bottom = 0, copulas = "basic", seed = 1)
  a2 <- simulation_model(m, ties = "average", drop_bottom = 0, copulas = "basic", seed = 2)
  expect_identical(a1$ties, "average")
  expect_identical(a1$collections[[1]]$pobs, a2$collections[[1]]$pobs)
  expect_equal(unname(a1$collections[[1]]$pobs[, "s1"]), c(2, 2, 2, 4, 5) / 6)   # hand: three zeros share rank 2
  r1 <- simulation_model(m, drop_bottom = 0, copulas = "basic", seed = 1)
  r2 <- simulation_model(m, drop_bottom = 0, copulas = "basic", seed = 2)
  expect_identical(r1$ties, "random")
  expect_setequal(unname(r1$collections[[1]]$pobs[1:3, "s1"]), (1:3) / 6)
  expect_false(identical(r1$collections[[1]]$pobs, r2$collections[[1]]$pobs))
  expect_error(simulation_model(m, ties = "first"), class = "irtopics_error_argument")
  # the margins' settings pass through to fit_margin()
  raw <- simulation_model(m, drop_bottom = 0, copulas = "basic", seed = 1, mean_tol = Inf, atom_share = 1)
  expect_true(all(vapply(raw$collections[[1]]$margins, function(mg) is.null(mg$recentre), NA)))
  expect_false(any(startsWith(as.data.frame(raw)$family, "zi_")))
  expect_identical(c(raw$mean_tol, raw$atom_share), c(Inf, 1))
  expect_true(all(abs(as.data.frame(r1)$mean - rowMeans(m)) <= 0.001 + 1e-9))
})
