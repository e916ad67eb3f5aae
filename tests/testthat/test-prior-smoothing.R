test_that("autoplot of smoothed scores draws new, prior and smoothed means", {
  ap <- spec_smoothing_matrix()
  prior <- ap[, 1:4]
  prior[c("s1", "s2"), c("t3", "t4")] <- NA
  prior[c("s3", "s4"), c("t1", "t2")] <- NA
  prior["s4", ] <- NA
  sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.8)
  p <- ggplot2::autoplot(sm)
  seg <- ggplot2::layer_data(p, 1)
  expect_equal(sort(seg$x), sort(sm$means$new_mean))
  expect_equal(sort(seg$xend), sort(sm$means$smoothed_mean))
  pts <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(pts), 4 * 3 - 1)   # s4 has no prior point
  expect_equal(sort(pts$x), sort(c(sm$means$new_mean, sm$means$prior_mean[1:3], sm$means$smoothed_mean)))
})

test_that("smooth_scores reproduces the worked example of spec 4.4", {
  ap <- spec_smoothing_matrix()
  prior <- spec_prior(ap)
  full <- rowMeans(ap)
  expected <- list(`0` = c(.40, .30, .45, .15), `0.5` = c(.375, .35, .355, .1875),
                   `0.8` = c(.36, .38, .298, .21), `1` = c(.35, .40, .26, .225))
  taus <- c(`0` = 1 / 3, `0.5` = 2 / 3, `0.8` = 2 / 3, `1` = 2 / 3)
  for (l in names(expected)) {
    sm <- smooth_scores(ap[, 5:6], prior, lambda = as.numeric(l))
    expect_s3_class(sm, "ir_smoothed")
    expect_equal(sm$means$smoothed_mean, expected[[l]], tolerance = 1e-12)
    expect_equal(kendall_tau(sm$means$smoothed_mean, full), unname(taus[l]), tolerance = 1e-10)
    expect_equal(cor(sm$means$smoothed_mean, full, method = "kendall"), unname(taus[l]), tolerance = 1e-10)
  }
  sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.8)
  expect_equal(sm$means$prior_mean, c(.40, .30, .45, .15))
  expect_equal(sm$means$new_mean, c(.35, .40, .26, .225))
  expect_equal(sm$means$prior_topics, c(2L, 2L, 2L, 2L))
  # Per-topic smoothed scores: lambda * AP + (1 - lambda) * prior mean.
  expect_equal(unclass(sm$scores)[, 1], 0.8 * ap[, 5] + 0.2 * c(.40, .30, .45, .15), ignore_attr = TRUE)
  expect_equal(attr(sm$scores, "measure"), "smoothed_score")
  baseline <- rowMeans(ap[, c(1, 2, 5, 6)])
  expect_equal(unname(baseline), c(.375, .35, .205, .2375))
  expect_equal(kendall_tau(baseline, full), 2 / 3, tolerance = 1e-10)
})

test_that("standardized smoothing reproduces spec 4.4", {
  ap <- spec_smoothing_matrix()
  new <- standardize_scores(ap[, 5:6])                    # Q_c over all systems
  pa <- standardize_scores(ap[c("s1", "s2"), 1:2])        # Q_a over S_x
  pb <- standardize_scores(ap[c("s3", "s4"), 3:4])        # Q_b over S_y
  prior <- c(mean_scores(pa), mean_scores(pb))
  sm <- smooth_scores(new, prior, lambda = 0.8)
  expect_equal(sm$means$smoothed_mean, c(0.62008165, 0.6627413428, 0.4583320388, 0.2401639952),
               tolerance = 1e-8)
})

test_that("a system without prior keeps lambda = 1", {
  ap <- spec_smoothing_matrix()
  prior <- spec_prior(ap)
  prior["s4", ] <- NA
  sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.5)
  expect_equal(sm$means$lambda, c(.5, .5, .5, 1))
  expect_equal(sm$means$smoothed_mean[4], mean(ap["s4", 5:6]))
  expect_true(is.na(sm$means$prior_mean[4]))
  expect_equal(sm$means$prior_topics[4], 0L)
  # The same when the system is absent from the prior.
  sm2 <- smooth_scores(ap[, 5:6], spec_prior(ap)[1:3, ], lambda = 0.5)
  expect_equal(sm2$means$smoothed_mean, sm$means$smoothed_mean)
  expect_equal(unclass(sm2$scores)["s4", ], ap["s4", 5:6])
  # Prior as a named vector of means; a system missing from it has no prior.
  sm3 <- smooth_scores(ap[, 5:6], c(s1 = .4, s2 = .3, s3 = .45), lambda = 0.5)
  expect_equal(sm3$means$smoothed_mean, sm$means$smoothed_mean)
  expect_output(print(sm3), "1 without prior")
  expect_equal(as.data.frame(sm3), sm3$means)
})

test_that("smooth_scores rejects bad arguments", {
  ap <- spec_smoothing_matrix()
  prior <- spec_prior(ap)
  expect_error(smooth_scores(ap[, 5:6], prior, lambda = 1.2), class = "irtopics_error_argument")
  expect_error(smooth_scores(ap[, 5:6], prior, lambda = -0.1), class = "irtopics_error_argument")
  expect_error(smooth_scores(ap[, 5:6], prior, lambda = NA), class = "irtopics_error_argument")
  bad <- ap[, 5:6]
  bad[1, 1] <- NA
  expect_error(smooth_scores(bad, prior, lambda = .5), class = "irtopics_error_data")
  unnamed <- prior
  rownames(unnamed) <- paste0("x", 1:4)
  expect_error(smooth_scores(ap[, 5:6], unnamed, lambda = .5), class = "irtopics_error_argument")
  expect_error(smooth_scores(ap[, 5:6], c(.1, .2, .3, .4), lambda = .5), class = "irtopics_error_argument")
  # a repeated system name used to take the first value silently
  expect_error(smooth_scores(ap[, 5:6], c(s1 = .4, s1 = .1, s2 = .3), lambda = .5),
               class = "irtopics_error_argument")
})

test_that("the C++ repetition reproduces spec 4.4 with fixed draws", {
  ap <- spec_smoothing_matrix()
  full <- rowMeans(ap)
  taus <- cpp_smoothing_taus(ap, full, matrix(0:5, ncol = 1), matrix(0:3, ncol = 1), 2L, 2L,
                             c(0, .5, .8, 1), FALSE, 1L)
  expect_equal(drop(taus), c(1 / 3, 2 / 3, 2 / 3, 2 / 3, 2 / 3), tolerance = 1e-12)
  # Standardized: lambda = 0.8 ordering of spec 4.4 against a given reference.
  ref <- c(0.5, 0.4, 0.3, 0.2)
  st <- cpp_smoothing_taus(ap, ref, matrix(0:5, ncol = 1), matrix(0:3, ncol = 1), 2L, 2L,
                           0.8, TRUE, 1L)
  smap <- c(0.62008165, 0.6627413428, 0.4583320388, 0.2401639952)
  expect_equal(st[1, 1], cor(smap, ref, method = "kendall"))
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("the smoothing figure follows the user's theme, fits a column and writes lambda as a symbol", {
  ap <- real_scores("robust2004_ap.csv")
  for (n in c(2L, 17L, 110L)) {
    prior <- ap[seq_len(n), 1:100]
    half <- seq_len(ceiling(n / 2))
    prior[half, 1:50] <- NA
    prior[-half, 51:100] <- NA
    sm <- smooth_scores(ap[seq_len(n), 201:249], prior, lambda = 0.8)
    make <- function() ggplot2::autoplot(sm)
    expect_follows_user_theme(make)
    p <- make()
    expect_figure_ready(p)
    expect_figure_ready(p, width = 7, height = 4.5)
    # the title says lambda with the Greek letter (plotmath), as the other figures
    expect_true(is.language(p$labels$title))
    expect_match(paste(deparse(p$labels$title), collapse = ""), "lambda == \"0.8\"", fixed = TRUE)
    th <- ggplot2::theme_get() + p$theme
    expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
    # 110 rows are too close for names: left out, and the caption says so
    blank <- inherits(ggplot2::calc_element("axis.text.y.left", th), "element_blank")
    expect_identical(blank, n > 25L)
    if (n > 25L) expect_match(p$labels$caption, "110 systems")
  }
})
