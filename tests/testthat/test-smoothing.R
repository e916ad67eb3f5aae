# Spec 4.4: Q_a = {t1,t2}, Q_b = {t3,t4}, Q_c = {t5,t6}; S_x = {s1,s2}, S_y = {s3,s4}.
spec_prior <- function(ap) {
  prior <- ap[, 1:4]
  prior[c("s1", "s2"), c("t3", "t4")] <- NA
  prior[c("s3", "s4"), c("t1", "t2")] <- NA
  prior
}

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

# A straightforward base-R version of one repetition (spec 4.2).
reference_rep <- function(m, reference, topics, systems, k, lambdas, standardize) {
  qa <- topics[1:k]
  qb <- topics[k + 1:k]
  qc <- topics[2 * k + 1:k]
  n_x <- nrow(m) %/% 2
  sx <- systems[seq_len(n_x)]
  sy <- setdiff(seq_len(nrow(m)), sx)
  std <- function(x, ref_rows) {
    out <- x
    for (j in seq_len(ncol(x))) {
      r <- x[ref_rows, j]
      s <- if (length(r) > 1) sd(r) else 0
      out[, j] <- if (s > 0) pnorm(x[, j], mean(r), s) else 0.5
    }
    out
  }
  all_rows <- seq_len(nrow(m))
  new <- if (standardize) std(m[, qc, drop = FALSE], all_rows) else m[, qc, drop = FALSE]
  pa <- if (standardize) std(m[, qa, drop = FALSE], sx) else m[, qa, drop = FALSE]
  pb <- if (standardize) std(m[, qb, drop = FALSE], sy) else m[, qb, drop = FALSE]
  base_a <- if (standardize) std(m[, qa, drop = FALSE], all_rows) else m[, qa, drop = FALSE]
  prior <- numeric(nrow(m))
  prior[sx] <- rowMeans(pa[sx, , drop = FALSE])
  prior[sy] <- rowMeans(pb[sy, , drop = FALSE])
  nm <- rowMeans(new)
  out <- vapply(lambdas, function(l) cor(l * nm + (1 - l) * prior, reference, method = "kendall"), 0)
  c(out, cor(rowMeans(cbind(base_a, new)), reference, method = "kendall"))
}

test_that("smoothing_experiment agrees with a base-R loop on the same draws", {
  ap <- real_scores("robust2004_ap.csv")
  m <- unclass(ap)
  attr(m, "measure") <- NULL
  for (standardize in c(FALSE, TRUE)) {
    ex <- smoothing_experiment(ap, reps = 12, seed = 42, standardize = standardize)
    draws <- smoothing_draws(nrow(m), ncol(m), 25L, 12L, seed = 42)
    reference <- if (standardize) rowMeans(unclass(standardize_scores(ap))) else rowMeans(m)
    for (r in 1:12) {
      expected <- reference_rep(m, reference, draws$topics[, r] + 1L, draws$systems[, r] + 1L,
                                25L, c(0, .5, .8, 1), standardize)
      expect_equal(unname(ex$tau[r, ]), expected, tolerance = 1e-12)
    }
  }
})

test_that("draws are valid: disjoint topic sets and a system permutation", {
  d <- smoothing_draws(10L, 30L, 5L, 50L, seed = 3)
  expect_equal(dim(d$topics), c(15L, 50L))
  expect_true(all(apply(d$topics, 2, function(x) !anyDuplicated(x) && all(x >= 0 & x < 30))))
  expect_true(all(apply(d$systems, 2, function(x) identical(sort(x), 0:9))))
})

test_that("results are identical for 1 and 2 threads and reproducible from the seed", {
  ap <- real_scores("robust2004_ap.csv")
  a <- smoothing_experiment(ap, reps = 300, seed = 9, n_threads = 1)
  b <- smoothing_experiment(ap, reps = 300, seed = 9, n_threads = 2)
  expect_identical(a$tau, b$tau)
  sa <- smoothing_experiment(ap, reps = 300, seed = 9, n_threads = 1, standardize = TRUE)
  sb <- smoothing_experiment(ap, reps = 300, seed = 9, n_threads = 2, standardize = TRUE)
  expect_identical(sa$tau, sb$tau)
  # The seed leaves the user's stream alone.
  set.seed(1)
  before <- runif(1)
  set.seed(1)
  invisible(smoothing_experiment(ap, reps = 5, seed = 123))
  expect_equal(runif(1), before)
  # Without a seed the current stream is used.
  set.seed(5)
  c1 <- smoothing_experiment(ap, reps = 5)
  set.seed(5)
  c2 <- smoothing_experiment(ap, reps = 5)
  expect_identical(c1$tau, c2$tau)
})

test_that("a future plan gives the same results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  ap <- real_scores("robust2004_ap.csv")
  seq_res <- smoothing_experiment(ap, reps = 600, seed = 11)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  fut_res <- smoothing_experiment(ap, reps = 600, seed = 11)
  expect_identical(fut_res$tau, seq_res$tau)
})

test_that("forked futures work after the parent used several OpenMP threads", {
  # libgomp's thread pool does not survive fork(): a forked worker that opened
  # a 2-thread region would wait forever, so futures run 1 thread each.
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  skip_if_no_interrupts()
  ap <- real_scores("robust2004_ap.csv")
  seq_res <- smoothing_experiment(ap, reps = 600, seed = 5, n_threads = 2)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  # A hang becomes a failure: SIGINT after 60 s stops the wait.
  res <- with_interrupt_after(60, smoothing_experiment(ap, reps = 600, seed = 5, n_threads = 2))
  expect_false(res$interrupted)
  expect_identical(res$value$tau, seq_res$tau)
})

test_that("smoothing_experiment results have the documented shape", {
  ap <- real_scores("robust2004_ap.csv")
  ex <- smoothing_experiment(ap, reps = 40, seed = 1, lambdas = c(0.2, 1))
  expect_s3_class(ex, "ir_smoothing")
  expect_equal(colnames(ex$tau), c("lambda=0.2", "lambda=1", "baseline"))
  expect_equal(dim(ex$tau), c(40L, 3L))
  expect_true(all(ex$tau > -1 & ex$tau <= 1))
  expect_equal(ex$summary$mean, unname(colMeans(ex$tau)))
  expect_equal(ex$summary$median, unname(apply(ex$tau, 2, median)))
  expect_equal(ex$best_lambda, c(0.2, 1)[which.max(colMeans(ex$tau)[1:2])])
  df <- as.data.frame(ex)
  expect_equal(nrow(df), 120L)
  expect_equal(df$tau[df$ordering == "baseline"], unname(ex$tau[, "baseline"]))
  expect_true(all(is.na(df$lambda[df$ordering == "baseline"])))
  expect_equal(summary(ex)$table$ordering, colnames(ex$tau))
  expect_output(print(ex), "Best lambda")
})

test_that("smoothing_experiment rejects bad arguments", {
  ap <- real_scores("robust2004_ap.csv")
  expect_error(smoothing_experiment(ap, topics_per_set = 84, reps = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = c(0, 1.5), reps = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = -0.1, reps = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = c(.5, .5), reps = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, reps = 0), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, reps = 2, seed = 1.5), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, reps = 2, n_threads = 0), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, reps = 2, standardize = NA), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap[1, , drop = FALSE], reps = 2), class = "irtopics_error_argument")
  bad <- ap
  bad[3, 4] <- NA
  expect_error(smoothing_experiment(bad, reps = 2), class = "irtopics_error_data")
})
