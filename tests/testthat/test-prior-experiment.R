test_that("autoplot of a smoothing experiment draws one box per lambda and the baseline across", {
  ap <- real_scores("robust2004_ap.csv")
  ex <- smoothing_experiment(ap, trials = 60, seed = 2)
  p <- ggplot2::autoplot(ex)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  # the baseline is not a category on the lambda axis (issue 25): the axis
  # has the lambdas only
  expect_identical(b$layout$panel_params[[1]]$x$get_labels(), c("0", "0.5", "0.8", "1"))
  box <- ggplot2::layer_data(p, 3)
  expect_equal(nrow(box), 4L)
  expect_equal(box$middle, unname(apply(ex$tau[, 1:4], 2, median)))
  # the baseline: its median dashed, its quartiles a band, across the plot
  base <- ex$tau[, "baseline"]
  expect_equal(ggplot2::layer_data(p, 2)$yintercept, median(base))
  band <- ggplot2::layer_data(p, 1)
  expect_equal(c(band$ymin, band$ymax), unname(quantile(base, c(0.25, 0.75))))
  expect_equal(as.numeric(c(band$xmin, band$xmax)), c(-Inf, Inf))
  # one series: no legend; the caption says what the band is
  expect_length(b$plot$scales$scales, 2L)
  expect_match(p$labels$caption, "baseline")
  expect_true(is.expression(p$labels$x))
})

test_that("the smoothing-experiment figure follows the user's theme and fits a column and a page", {
  ex <- smoothing_experiment(real_scores("robust2004_ap.csv"), trials = 20, seed = 1)
  make <- function() ggplot2::autoplot(ex)
  expect_follows_user_theme(make)
  expect_figure_ready(make())
  expect_figure_ready(make(), width = 7, height = 4.5)
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(ggplot2::autoplot(ex), "baseline", class = "irtopics_message_layout")
})

test_that("smoothing_experiment agrees with a base-R loop on the same draws", {
  ap <- real_scores("robust2004_ap.csv")
  m <- unclass(ap)
  attr(m, "measure") <- NULL
  for (standardize in c(FALSE, TRUE)) {
    ex <- smoothing_experiment(ap, trials = 12, seed = 42, standardize = standardize)
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
  a <- smoothing_experiment(ap, trials = 300, seed = 9, n_threads = 1)
  b <- smoothing_experiment(ap, trials = 300, seed = 9, n_threads = 2)
  expect_identical(a$tau, b$tau)
  sa <- smoothing_experiment(ap, trials = 300, seed = 9, n_threads = 1, standardize = TRUE)
  sb <- smoothing_experiment(ap, trials = 300, seed = 9, n_threads = 2, standardize = TRUE)
  expect_identical(sa$tau, sb$tau)
  # The seed leaves the user's stream alone.
  set.seed(1)
  before <- runif(1)
  set.seed(1)
  invisible(smoothing_experiment(ap, trials = 5, seed = 123))
  expect_equal(runif(1), before)
  # Without a seed the current stream is used.
  set.seed(5)
  c1 <- smoothing_experiment(ap, trials = 5)
  set.seed(5)
  c2 <- smoothing_experiment(ap, trials = 5)
  expect_identical(c1$tau, c2$tau)
})

test_that("a future plan gives the same results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  ap <- real_scores("robust2004_ap.csv")
  seq_res <- smoothing_experiment(ap, trials = 600, seed = 11)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  fut_res <- smoothing_experiment(ap, trials = 600, seed = 11)
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
  seq_res <- smoothing_experiment(ap, trials = 600, seed = 5, n_threads = 2)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  # A hang becomes a failure: SIGINT after 60 s stops the wait.
  res <- with_interrupt_after(60, smoothing_experiment(ap, trials = 600, seed = 5, n_threads = 2))
  expect_false(res$interrupted)
  expect_identical(res$value$tau, seq_res$tau)
})

test_that("smoothing_experiment results have the documented shape", {
  ap <- real_scores("robust2004_ap.csv")
  ex <- smoothing_experiment(ap, trials = 40, seed = 1, lambdas = c(0.2, 1))
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
  expect_error(smoothing_experiment(ap, topics_per_set = 84, trials = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = c(0, 1.5), trials = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = -0.1, trials = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, lambdas = c(.5, .5), trials = 2), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, trials = 0), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, trials = 2, seed = 1.5), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, trials = 2, n_threads = 0), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap, trials = 2, standardize = NA), class = "irtopics_error_argument")
  expect_error(smoothing_experiment(ap[1, , drop = FALSE], trials = 2), class = "irtopics_error_argument")
  bad <- ap
  bad[3, 4] <- NA
  expect_error(smoothing_experiment(bad, trials = 2), class = "irtopics_error_data")
})

test_that("`reps` is a deprecated alias of `trials`: same numbers, one classed warning", {
  ap <- real_scores("robust2004_ap.csv")
  ref <- smoothing_experiment(ap, trials = 30, seed = 4)
  expect_identical(ref$trials, 30L)
  rm(list = ls(irtopics_state, pattern = "^deprecated"), envir = irtopics_state)
  expect_warning(old <- smoothing_experiment(ap, reps = 30, seed = 4), "trials",
                 class = "irtopics_warning_deprecated")
  expect_identical(old$tau, ref$tau)
  # once per session
  expect_no_warning(smoothing_experiment(ap, reps = 30, seed = 4))
  expect_error(smoothing_experiment(ap, trials = 30, reps = 30), "reps", class = "irtopics_error_argument")
  expect_named(as.data.frame(ref), c("trial", "ordering", "lambda", "tau"))
})
