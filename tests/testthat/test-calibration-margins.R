# Fitted score distributions (R/calibration-margins.R): choice by AIC, the
# table for the simulator, transform_margin(), real data, bad input, plots.

margin_matrix <- function(which) {
  read_scores(system.file("extdata", "score-matrices", paste0("adhoc8_", which, ".csv"), package = "irtopics"),
              measure = if (which == "ap") "AP" else "P@10")
}

# The simulator's quantile: linear interpolation of the tabulated CDF
# (continuous), or the smallest knot whose CDF reaches u (discrete).
table_quantile <- function(tab, u) {
  if (tab$discrete) return(tab$knots[findInterval(u, tab$cdf, left.open = TRUE) + 1L])
  k <- findInterval(u, tab$cdf, left.open = TRUE)
  k <- pmin(pmax(k, 1L), length(tab$cdf) - 1L)
  f0 <- tab$cdf[k]
  f1 <- tab$cdf[k + 1L]
  tab$knots[k] + (u - f0) / (f1 - f0) * (tab$knots[k + 1L] - tab$knots[k])
}

test_that("the chosen family has the lowest AIC, and the fields are those of the chosen fit", {
  ap <- margin_matrix("ap")
  for (i in c(2, 10, 40)) {
    m <- fit_margin(ap[i, ])
    cand <- m$candidates
    expect_identical(names(cand), c("family", "bandwidth", "loglik", "df", "aic", "chosen", "note"))
    expect_equal(cand$aic, -2 * cand$loglik + 2 * cand$df)
    expect_identical(which(cand$chosen), which.min(cand$aic))
    expect_identical(m$family, cand$family[cand$chosen])
    expect_identical(c(m$loglik, m$df, m$aic), unlist(cand[cand$chosen, c("loglik", "df", "aic")], use.names = FALSE))
    expect_identical(m$parameters, m$candidate_parameters[[which(cand$chosen)]])
    expect_identical(m$data, as.vector(unclass(ap[i, ])))
  }
})

test_that("the table: 4097 knots on [0, 1] (continuous) or the support (discrete), quantiles as qmargin()", {
  ap <- margin_matrix("ap")
  p10 <- margin_matrix("p10")
  u <- seq(0.0005, 0.9995, length.out = 999)
  for (i in c(3, 20, 77)) {
    m <- fit_margin(ap[i, ])
    tab <- irtopics:::margin_table(m)
    expect_identical(names(tab), c("knots", "cdf", "discrete"))
    expect_identical(tab$knots, seq(0, 1, length.out = 4097))
    expect_identical(tab$cdf[c(1, 4097)], c(0, 1))
    expect_false(is.unsorted(tab$cdf))
    expect_lt(max(abs(table_quantile(tab, u) - qmargin(u, m))), 1e-3)
    # the table is the exact CDF at the knots
    expect_equal(tab$cdf[c(100, 2000, 4000)], pmargin(tab$knots[c(100, 2000, 4000)], m), tolerance = 1e-12)
    d <- fit_margin(p10[i, ], type = "discrete", support = score_support("P@10"))
    tab <- irtopics:::margin_table(d)
    expect_identical(tab$knots, (0:10) / 10)
    expect_true(tab$discrete)
    expect_equal(tab$cdf, cumsum(dmargin(tab$knots, d)))
    expect_identical(table_quantile(tab, u), qmargin(u, d))
  }
})

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

test_that("transform_margin() is fast enough for 10,000 transformations", {
  m <- fit_margin(margin_matrix("ap")[8, ])
  targets <- seq(0.1, 0.6, length.out = 20)
  el <- system.time(for (v in targets) transform_margin(m, v))[["elapsed"]]
  expect_lt(el / length(targets), 0.05)  # generous: a few ms each in practice
})

test_that("transform_margin() refuses a mean it cannot attain, naming it and the range", {
  m <- fit_margin(margin_matrix("ap")[5, ])
  d <- fit_margin(margin_matrix("p10")[5, ], type = "discrete", support = score_support("P@10"))
  for (mg in list(m, d)) {
    for (bad in c(0, 1, -0.1, 1.5)) {
      expect_error(transform_margin(mg, bad), class = "irtopics_error_argument")
    }
  }
  expect_error(transform_margin(m, 1), "`mean` must be strictly between")
  expect_error(transform_margin(m, NA_real_), class = "irtopics_error_argument")
  expect_error(transform_margin(list(), 0.3), class = "irtopics_error_argument")
  # a pmf with no mass above 0.3: means from 0.3 up are not attainable
  x <- c(0, 0, 0.1, 0.2, 0.3, 0.1, 0.2)
  k <- fit_margin(x, type = "discrete", support = score_support("P@10"), families = "discrete_kernel")
  top <- max(k$support[dmargin(k$support, k) > 0])
  expect_error(transform_margin(k, top), class = "irtopics_error_argument")
})

test_that("every system of adhoc8 AP and P@10 gets a margin", {
  ap <- margin_matrix("ap")
  p10 <- margin_matrix("p10")
  fams <- vapply(seq_len(nrow(ap)), function(i) fit_margin(ap[i, ])$family, "")
  expect_true(all(fams %in% c("truncnorm", "beta", "normal_kernel", "beta_kernel")))
  s <- score_support("P@10")
  dm <- lapply(seq_len(nrow(p10)), function(i) fit_margin(p10[i, ], type = "discrete", support = s))
  expect_true(all(vapply(dm, function(d) d$family %in% c("beta_binomial", "discrete_kernel"), TRUE)))
  expect_true(all(vapply(dm, function(d) abs(sum(dmargin(s, d)) - 1) < 1e-12, TRUE)))
})

test_that("score_support(): P@k and RR", {
  expect_identical(score_support("P@10"), (0:10) / 10)
  expect_identical(score_support("p_5"), (0:5) / 5)
  rr <- score_support("RR", depth = 1000)
  expect_length(rr, 1001)
  expect_identical(rr, sort(c(0, 1 / (1:1000))))
  expect_identical(score_support("RR@3"), c(0, 1 / 3, 1 / 2, 1))
  expect_error(score_support("AP"), class = "irtopics_error_measure")
  expect_error(score_support("P@0"), class = "irtopics_error_argument")
  expect_error(score_support("RR", depth = 0), class = "irtopics_error_argument")
  expect_error(score_support(10), class = "irtopics_error_argument")
})

test_that("RR margins on a support of 1001 values", {
  rr <- withr::with_seed(11, 1 / sample(c(1:20, rep(1, 10), rep(2, 5)), 40, replace = TRUE))
  rr[1:5] <- 0
  d <- fit_margin(rr, type = "discrete", support = score_support("RR", depth = 1000))
  expect_equal(sum(dmargin(d$support, d)), 1)
  expect_identical(d$knots, score_support("RR", depth = 1000))
  t <- transform_margin(d, d$mean * 0.8)
  expect_lt(abs(t$mean - d$mean * 0.8), 1e-6)
})

test_that("bad input: classed errors naming the argument", {
  s <- score_support("P@10")
  expect_error(fit_margin(c(0.1, NA, 0.3, 0.4)), class = "irtopics_error_data")
  expect_error(fit_margin(c(0.1, NA, 0.3, 0.4)), "`x`")
  expect_error(fit_margin(c(0.1, 1.2, 0.3)), class = "irtopics_error_data")
  expect_error(fit_margin(c(0.1, -0.2, 0.3)), "Score 2 is -0.2")
  expect_error(fit_margin(c(0.1, 0.3)), class = "irtopics_error_data")
  expect_error(fit_margin(rep(0.2, 10)), class = "irtopics_error_data")
  expect_error(fit_margin(rep(0, 10)), "constant scores")
  expect_error(fit_margin("a"), class = "irtopics_error_data")
  expect_error(fit_margin(c(0.1, 0.2, 0.3), type = "discrete"), class = "irtopics_error_argument")
  expect_error(fit_margin(c(0.1, 0.2, 0.3), type = "discrete"), "`support` is required")
  expect_error(fit_margin(c(0.1, 0.25, 0.3), type = "discrete", support = s), class = "irtopics_error_data")
  expect_error(fit_margin(c(0.1, 0.25, 0.3), type = "discrete", support = s), "Score 2 is 0.25")
  expect_silent(fit_margin(c(0.1, 0.20004, 0.3), type = "discrete", support = s))
  expect_error(fit_margin(c(0.1, 0.2, 0.3), support = s), class = "irtopics_error_argument")
  expect_error(fit_margin(c(0.1, 0.2, 0.3), type = "other"), class = "irtopics_error_argument")
  expect_error(fit_margin(c(0.1, 0.2, 0.3), families = "beta_binomial"), class = "irtopics_error_argument")
  expect_error(fit_margin(c(0.1, 0.2, 0.3), type = "discrete", support = c(0, NA)),
               class = "irtopics_error_argument")
  m <- fit_margin(c(0.1, 0.2, 0.35, 0.5))
  expect_error(qmargin(1.5, m), class = "irtopics_error_argument")
  expect_error(dmargin("a", m), class = "irtopics_error_argument")
  expect_error(pmargin(0.5, list()), class = "irtopics_error_argument")
})

test_that("print, summary, as.data.frame", {
  m <- fit_margin(margin_matrix("ap")[4, ])
  out <- format(m)
  expect_match(out[1], "<ir_margin> continuous margin of 50 scores: ", fixed = TRUE)
  expect_true(any(grepl("^parameters: ", out)))
  expect_true(any(grepl(sprintf("mean %s", format(signif(m$mean, 6))), out, fixed = TRUE)))
  expect_true(any(grepl("truncnorm", out)) && any(grepl("beta_kernel", out)))
  expect_identical(as.data.frame(m), m$candidates)
  s <- summary(m)
  expect_identical(s$table$family, m$family)
  expect_equal(s$table$mean, m$mean)
  t <- transform_margin(m, 0.4)
  expect_true(any(grepl("^transform: a = ", format(t))))
})

test_that("autoplot(): histogram with fitted density and the other candidates (continuous)", {
  m <- fit_margin(margin_matrix("ap")[12, ])
  p <- ggplot2::autoplot(m)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  expect_length(b$data, 3L)
  hist <- b$data[[1]]
  expect_equal(sum(hist$y * (hist$xmax - hist$xmin)), 1)
  expect_equal(sum(hist$count), m$n)
  chosen <- b$data[[3]]
  expect_equal(chosen$y, dmargin(chosen$x, m), tolerance = 1e-12)
  others <- b$data[[2]]
  expect_identical(length(unique(others$colour)), sum(is.finite(m$candidates$aic)) - 1L)
  expect_true(all(others$linetype == "dashed"))
  expect_true(all(chosen$linetype == "solid"))
  expect_false(any(chosen$colour %in% others$colour))
  expect_error(ggplot2::autoplot(m, bins = 10), class = "irtopics_error_argument")
})

test_that("autoplot(): observed proportions and fitted pmf (discrete)", {
  p10 <- margin_matrix("p10")
  d <- fit_margin(p10[12, ], type = "discrete", support = score_support("P@10"))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(d))
  expect_length(b$data, 3L)
  bars <- b$data[[1]]
  expect_equal(bars$y, tabulate(round(d$data * 10) + 1, 11) / d$n)
  pts <- b$data[[3]]
  expect_equal(pts$y, dmargin(d$support, d))
  expect_equal(pts$x, d$support)
})

test_that("autoplot(): an uneven support (RR) draws the observed proportions as thin bars", {
  rr <- withr::with_seed(11, 1 / sample(c(1:20, rep(1, 10), rep(2, 5)), 40, replace = TRUE))
  rr[1:5] <- 0
  d <- fit_margin(rr, type = "discrete", support = score_support("RR", depth = 1000))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(d))
  bars <- b$data[[1]]
  seen <- table(rr)
  expect_equal(sort(bars$ymax), sort(as.vector(seen) / 40))
  expect_equal(sort((bars$xmin + bars$xmax) / 2), sort(as.numeric(names(seen))))
  expect_equal(b$data[[3]]$y, dmargin(d$support, d))
})
