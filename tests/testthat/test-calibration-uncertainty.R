# Intervals with the model's uncertainty (R/calibration-uncertainty.R):
# refits of the model on half of the topics, their combination with the
# Monte Carlo error, reproducibility, and coverage on a known model.

small_refit_cal <- function(seed = 4, n_threads = 1L, refits = 3) {
  # (3 refits are too few to estimate the model's term: the warning is tested below)
  withCallingHandlers(
    test_calibration(cal_model(), tests = c("t", "wilcoxon", "sign"), n_topics = 10, delta = NULL, trials = 300,
                     seed = seed, refits = refits, refit_trials = 200, n_threads = n_threads, progress = FALSE),
    irtopics_warning_refits = function(w) invokeRestart("muffleWarning"))
}

test_that("refits: the interval combines the refits' spread (less their Monte Carlo error) with the se", {
  cal <- small_refit_cal()
  tab <- cal$table
  R <- cal$refit_rates
  expect_identical(dim(R), c(nrow(tab), 3L))
  # by hand: 50 topics, halves of 25, so the delete-d factor is 1
  mc <- rowMeans(R * (1 - R)) / 200
  model_se <- sqrt(pmax(apply(R, 1, var) - mc, 0))
  expect_equal(tab$model_se, model_se)
  half <- qnorm(0.975) * sqrt(tab$se^2 + model_se^2)
  expect_equal(tab$conf.low, pmax(tab$rate - half, 0))
  expect_equal(tab$conf.high, pmin(tab$rate + half, 1))
  # wider than the Monte Carlo interval where the refits disagree beyond their own error
  mc_only <- test_calibration(cal_model(), tests = c("t", "wilcoxon", "sign"), n_topics = 10, delta = NULL,
                              trials = 300, seed = 4, progress = FALSE)$table
  expect_identical(mc_only$rate, tab$rate)
  expect_true(all(is.na(mc_only$model_se)))
  expect_equal(mc_only$conf.high, pmin(mc_only$rate + qnorm(0.975) * mc_only$se, 1))
  expect_true(all(tab$conf.high - tab$conf.low >= mc_only$conf.high - mc_only$conf.low - 1e-12))
  expect_gt(sum(tab$model_se > 0), nrow(tab) / 4)
})

test_that("a refit is simulation_model() on half of the topics, seeded from the call's seed", {
  cal <- small_refit_cal()
  col <- cal_model()$collections[[1]]
  rs <- stream_seed(4, refit_stream(2))
  keep <- with_seed(rs, sort(sample.int(50, 25)))
  x <- col$scores[, keep]
  x <- x[apply(x, 1, function(v) max(v) > min(v)), ]
  x <- matrix(as.double(x), nrow(x), dimnames = dimnames(x))
  refit <- simulation_model(list(collection = x), type = "continuous", drop_bottom = 0, duplicate_tol = 0,
                            seed = rs)
  direct <- test_calibration(refit, tests = c("t", "wilcoxon", "sign"), n_topics = 10, delta = NULL, trials = 200,
                             seed = rs, progress = FALSE)$table
  expect_identical(cal$refit_rates[, 2], direct$rate)
})

test_that("a refit fits the model's own candidate margin families, not the default (issue 42)", {
  x <- cal_model()$collections[[1]]$scores
  model <- simulation_model(x, margins = "beta", copulas = "basic", drop_bottom = 0, seed = 1)
  expect_identical(model$margin_families, "beta")
  asked <- list()
  fit <- simulation_model
  local_namespace_value("simulation_model", function(...) {
    asked[[length(asked) + 1L]] <<- list(...)$margins
    fit(...)
  })
  # (2 refits are too few to estimate the model's term: its warning is not the subject here)
  expect_warning(test_calibration(model, tests = "t", n_topics = 10, delta = NULL, trials = 20, seed = 1,
                                  refits = 2, refit_trials = 10, progress = FALSE),
                 class = "irtopics_warning_refits")
  expect_identical(asked, list("beta", "beta"))
})

test_that("refits are reproducible: the same for 1 or 2 threads, another seed differs", {
  a <- small_refit_cal(n_threads = 1L)
  b <- small_refit_cal(n_threads = 2L)
  expect_identical(a$table, b$table)
  expect_identical(a$refit_rates, b$refit_rates)
  expect_false(identical(a$refit_rates, small_refit_cal(seed = 5)$refit_rates))
  expect_error(small_refit_cal(refits = 1), class = "irtopics_error_argument")
})

test_that("too few refits to estimate the model's term: a classed warning, fields and a print line saying what to set", {
  expect_warning(cal <- test_calibration(cal_model(), tests = c("t", "wilcoxon", "sign"), n_topics = 10, delta = NULL,
                                         trials = 300, seed = 4, refits = 3, refit_trials = 200, progress = FALSE),
                 class = "irtopics_warning_refits", regexp = "3 refits of 200 trials are too few")
  tab <- cal$table
  cells <- tab$alpha == 0.05 & tab$alternative == "two.sided" & tab$error %in% c("type1", "power")
  expect_identical(cal$model_term_cells, 3)
  expect_identical(cal$model_term_zero, as.double(sum(tab$model_se[cells] == 0)))
  expect_match(format(cal)[3], "The model's term is 0 in [0-3] of 3 cells")
  expect_match(format(cal)[3], "uncertain by 100%). Set refits = 20", fixed = TRUE)
  # the advice: at least 20 refits, and 4 times the refit trials when the term came out 0 in most cells
  advice <- function(refits, zero) {
    calibration_refits_advice(list(refits = refits, refit_trials = 500, model_term_zero = zero, model_term_cells = 9))
  }
  expect_match(advice(20, 5), "0 in 5 of 9 cells .*20 refits of 500 trials are too few to estimate it\\. Set refits = 20 and refit_trials = 2,000\\.$")
  expect_match(advice(4, 2), "uncertain by 82%\\)\\. Set refits = 20\\.$")
  expect_null(advice(20, 4))
  expect_null(advice(10, 0))
  # without refits: no model term, no warning, no line
  plain <- expect_no_warning(test_calibration(cal_model(), tests = "t", n_topics = 10, delta = NULL, trials = 100,
                                              seed = 1, progress = FALSE))
  expect_true(is.na(plain$model_term_zero))
  expect_null(calibration_refits_advice(plain))
})

test_that("print, summary and the plots say which interval they show", {
  cal <- small_refit_cal()
  expect_match(format(cal)[2], "model's fitting error \\(3 refits on half the topics, 200 trials each\\)")
  expect_true(any(grepl("95% interval with the model's uncertainty (3 refits):", format(cal), fixed = TRUE)))
  expect_match(summary(cal)$title[2], "3 refits")
  expect_true(all(c("model_se", "conf.low", "conf.high") %in% names(summary(cal)$table)))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(cal))
  ribbons <- which(vapply(b$plot$layers, function(l) inherits(l$geom, "GeomRibbon"), NA))
  expect_length(ribbons, 2L)
  # the light band is the table's model interval, the dark one the Monte Carlo one
  tab <- cal$table[cal$table$error == "type1" & cal$table$alternative == "two.sided", ]
  light <- b$data[[ribbons[1]]]
  expect_equal(sort(light$ymax), sort(tab$conf.high))
  dark <- b$data[[ribbons[2]]]
  expect_equal(sort(dark$ymax), sort(pmin(tab$rate + qnorm(0.975) * tab$se, 1)))
  expect_match(b$plot$labels$subtitle, "3 refits")
  plain <- test_calibration(cal_model(), tests = "t", n_topics = 10, delta = NULL, trials = 100, seed = 1,
                            progress = FALSE)
  expect_match(format(plain)[2], "Monte Carlo error only")
  pb <- ggplot2::ggplot_build(ggplot2::autoplot(plain))
  expect_length(which(vapply(pb$plot$layers, function(l) inherits(l$geom, "GeomRibbon"), NA)), 1L)
  expect_match(pb$plot$labels$subtitle, "Monte Carlo only")
})

test_that("on a known model the interval with the model's error covers the true rate", {
  # the truth: 4 systems of one margin each, a Gaussian copula with
  # correlation 0.6 between every pair (a valid joint distribution), and
  # the rates of that model; the data: 40 topics drawn from it
  truth <- cal_model()
  col <- truth$collections[[1]]
  sys <- col$systems[1:4]
  col$systems <- sys
  col$margins <- col$margins[sys]
  col$scores <- col$scores[sys, ]
  col$pobs <- col$pobs[, sys]
  col$copulas <- col$copulas[col$copulas$system1 %in% sys & col$copulas$system2 %in% sys, ]
  col$copulas$family <- 1L
  col$copulas$par <- 0.6
  col$copulas$par2 <- 0
  truth$collections[[1]] <- col
  true_rates <- test_calibration(truth, tests = c("t", "sign"), n_topics = 20, delta = NULL, trials = 20000,
                                 seed = 1, progress = FALSE)$table
  z <- withr::with_seed(11, matrix(rnorm(40 * 4), 40) %*% chol(matrix(0.6, 4, 4) + diag(0.4, 4)))
  sample <- t(vapply(1:4, function(k) qmargin(pnorm(z[, k]), col$margins[[k]]), numeric(40)))
  dimnames(sample) <- list(sys, paste0("t", 1:40))
  fit <- simulation_model(sample, type = "continuous", drop_bottom = 0, seed = 2)
  cal <- test_calibration(fit, tests = c("t", "sign"), n_topics = 20, delta = NULL, trials = 2000, seed = 3,
                          refits = 10, refit_trials = 1000, progress = FALSE)
  key <- function(t) paste(t$test, t$alpha, t$alternative)
  sel <- cal$table$alpha %in% c(0.01, 0.05, 0.1) & cal$table$alternative == "two.sided"
  got <- cal$table[sel, ]
  truth_rate <- true_rates$rate[match(key(got), key(true_rates))]
  expect_true(all(got$conf.low <= truth_rate & truth_rate <= got$conf.high),
              info = paste(capture.output(print(cbind(got[, c("test", "alpha", "rate", "conf.low", "conf.high")],
                                                      truth = truth_rate))), collapse = "\n"))
  expect_true(all(got$conf.high - got$conf.low > 2 * qnorm(0.975) * got$se - 1e-12))
})
