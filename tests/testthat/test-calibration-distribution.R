# The distribution of a margin (R/calibration-distribution.R): d/p/q
# consistent with each other and with draws, and transform_margin().

test_that("qmargin(runif()) follows pmargin (Kolmogorov-Smirnov)", {
  ap <- margin_matrix("ap")
  for (i in c(5, 60)) {
    m <- fit_margin(ap[i, ])
    draws <- qmargin(withr::with_seed(i, runif(1e4)), m)
    expect_gt(suppressWarnings(ks.test(draws, function(q) pmargin(q, m))$p.value), 0.001)
    # and the discrete margins: the frequencies of the support values
    p10 <- margin_matrix("p10")
    d <- fit_margin(p10[i, ], type = "discrete", support = score_support("P@10"))
    k <- qmargin(withr::with_seed(i, runif(1e4)), d)
    obs <- tabulate(round(k * 10) + 1, 11)
    pr <- dmargin(d$support, d)
    keep <- pr > 0
    expect_gt(suppressWarnings(chisq.test(obs[keep], p = pr[keep] / sum(pr[keep]))$p.value), 0.001)
  }
})

test_that("discrete margins: pmf sums to 1, quantiles invert the CDF, values off the support have 0", {
  p10 <- margin_matrix("p10")
  d <- fit_margin(p10[7, ], type = "discrete", support = score_support("P@10"))
  pr <- dmargin(d$support, d)
  expect_equal(sum(pr), 1)
  expect_equal(d$mean, sum(d$support * pr))
  expect_equal(d$var, sum(d$support^2 * pr) - d$mean^2)
  expect_identical(dmargin(c(0.05, 0.3 + 1e-5, NA), d), c(0, pr[4], NA))
  at <- d$support[pr > 0]
  expect_equal(qmargin(pmargin(at, d), d), at)
  expect_identical(pmargin(c(-1, 0.35, 2), d), c(0, sum(pr[1:4]), 1))
})

test_that("transform_margin() hits the mean: up and down, continuous and discrete", {
  ap <- margin_matrix("ap")
  p10 <- margin_matrix("p10")
  m <- fit_margin(ap[5, ])
  d <- fit_margin(p10[5, ], type = "discrete", support = score_support("P@10"))
  for (mg in list(m, d)) {
    for (target in c(mg$mean / 2, mg$mean + (1 - mg$mean) / 2, 0.05, 0.9)) {
      t <- transform_margin(mg, target)
      expect_s3_class(t, "ir_margin")
      expect_lt(abs(t$mean - target), 1e-6)
      tab <- irtopics:::margin_table(t)
      if (mg$discrete) {
        expect_equal(sum(tab$knots * diff(c(0, tab$cdf))), t$mean, tolerance = 1e-12)
        expect_equal(sum(dmargin(t$support, t) * t$support), target, tolerance = 1e-6)
      } else {
        # the mean of the piecewise-linear table, and of the exact transformed density
        expect_lt(abs(sum(diff(tab$knots) * (2 - tab$cdf[-1] - tab$cdf[-4097])) / 2 - target), 1e-6)
        ex <- integrate(function(y) y * dmargin(y, t), 0, 1, rel.tol = 1e-10, subdivisions = 500)$value
        expect_lt(abs(ex - target), 1e-5)
        expect_equal(integrate(function(y) dmargin(y, t), 0, 1, rel.tol = 1e-10, subdivisions = 500)$value, 1,
                     tolerance = 1e-6)
        expect_lt(max(abs(table_quantile(tab, c(0.1, 0.5, 0.9)) - qmargin(c(0.1, 0.5, 0.9), t))), 1e-3)
      }
      tr <- t$transform
      up <- target > mg$mean
      expect_identical(if (up) tr$b else tr$a, 1)
      expect_gte(if (up) tr$a else tr$b, 1)
      q <- c(0.1, 0.3, 0.6)
      expected <- if (up) pmargin(q, mg)^tr$a else 1 - (1 - pmargin(q, mg))^tr$b
      expect_equal(pmargin(q, t), expected, tolerance = 1e-12)
      expect_equal(pmargin(qmargin(c(0.2, 0.7), t), t), c(0.2, 0.7), tolerance = if (mg$discrete) 1 else 1e-8)
      expect_identical(t$family, paste(mg$family, "(transformed)"))
      expect_identical(t$base_cdf, mg$base_cdf)
      # transforming again starts from the fitted distribution
      expect_equal(transform_margin(t, target)$transform, tr)
    }
  }
})

test_that("transform_margin()'s error past the reach of the transformation names the attainable range", {
  # a margin whose survival function is 1e-310 (F = 1 in double) on the last
  # knots but the last: F^a stays near 1 there up to a = e^700, so a mean
  # between that reach and the upper limit cannot be bracketed
  m <- fit_margin(margin_matrix("ap")[5, ])
  k <- 4000:4096
  m$base_sf[k] <- 1e-310
  m$base_cdf[k] <- 1
  x <- m$knots
  w <- (c(diff(x), 0) + c(0, diff(x))) / 2
  mean_at <- function(f) x[length(x)] - sum(w * f)
  hi <- mean_at(as.double(m$base_sf <= 0))
  lo <- mean_at(as.double(m$base_cdf > 0))
  reach <- mean_at(exp(exp(700) * ifelse(m$base_cdf > 0.5, log1p(-m$base_sf), log(m$base_cdf))))
  expect_lt(reach, hi)
  err <- expect_error(transform_margin(m, (reach + hi) / 2), class = "irtopics_error_argument")
  expect_match(conditionMessage(err),
               sprintf("attainable range (%s, %s)", signif(lo, 6), signif(hi, 6)), fixed = TRUE)
})


test_that("transform_margin() refuses a mean it cannot attain, naming it and the range", {
  m <- fit_margin(margin_matrix("ap")[5, ])
  d <- fit_margin(margin_matrix("p10")[5, ], type = "discrete", support = score_support("P@10"))
  for (mg in list(m, d)) {
    for (bad in c(0, 1, -0.1, 1.5)) {
      expect_error(transform_margin(mg, bad), class = "irtopics_error_argument")
    }
  }
  expect_error(transform_margin(m, 1), "`mean` must be strictly between", class = "irtopics_error_argument")
  expect_error(transform_margin(m, NA_real_), class = "irtopics_error_argument")
  expect_error(transform_margin(list(), 0.3), class = "irtopics_error_argument")
  # a pmf with no mass above 0.3: means from 0.3 up are not attainable
  x <- c(0, 0, 0.1, 0.2, 0.3, 0.1, 0.2)
  k <- fit_margin(x, type = "discrete", support = score_support("P@10"), families = "discrete_kernel")
  top <- max(k$support[dmargin(k$support, k) > 0])
  expect_error(transform_margin(k, top), class = "irtopics_error_argument")
})

test_that("d/p/q refuse bad arguments", {
  m <- fit_margin(c(0.1, 0.2, 0.35, 0.5))
  expect_error(qmargin(1.5, m), class = "irtopics_error_argument")
  expect_error(dmargin("a", m), class = "irtopics_error_argument")
  expect_error(pmargin(0.5, list()), class = "irtopics_error_argument")
  expect_identical(pmargin(c(NA, 0, 1), m), c(NA, 0, 1))
})
