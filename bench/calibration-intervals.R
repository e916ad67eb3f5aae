# Coverage of test_calibration()'s intervals on the error rates, with a
# known model: Monte Carlo only (refits = 0) and with the model's fitting
# error (refits = 4 and 20).
#
# The truth: 6 systems of TREC-5 AP (the 1st, 3rd, ..., 11th best of the 14
# best, kept by simulation_model()), each with the margin fitted to it, and
# a Gaussian copula with correlation 0.6 between every pair (a valid joint
# distribution); its Type I rates come from test_calibration() with
# `truth_trials` trials. A data set is 50 topics drawn from the truth; the
# user's steps follow: simulation_model() on them (all copula families,
# continuous margins), then test_calibration(trials = 2000, refits = 20,
# refit_trials = 500) for the t, Wilcoxon and sign tests at 25 and 50
# topics. The intervals with 4 refits are those of the first 4 of the 20
# (refit r has the same stream whatever the number of refits), and the
# Monte Carlo ones those of the same run, so the three share their trials.
# A cell is a test, topic-set size and alpha (0.01, 0.05; two-sided); it
# covers when its 95% interval holds the true rate.
#
# Usage, from the package root:
#   Rscript bench/calibration-intervals.R [sets] [truth_trials]   (defaults 40 and 50000)
# pkgload::load_all() is enough: coverage, not speed.

args <- commandArgs(TRUE)
sets <- if (length(args) >= 1) as.integer(args[1]) else 40L
truth_trials <- if (length(args) >= 2) as.integer(args[2]) else 50000L
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE)
t0 <- proc.time()[["elapsed"]]

ap <- read_scores(system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics"), measure = "AP")
fitted <- simulation_model(ap[order(-rowMeans(ap))[1:14], ], seed = 5)
# the fitted collection restricted to `sys`, every pair's copula Gaussian with correlation 0.6
gaussian_truth <- function(col, sys) {
  pairs <- col$copulas$system1 %in% sys & col$copulas$system2 %in% sys
  within(col, {
    systems <- sys
    margins <- margins[sys]
    scores <- scores[sys, ]
    pobs <- pobs[, sys]
    copulas <- copulas[pairs, ]
    copulas[c("family", "par", "par2")] <- list(1L, 0.6, 0)
  })
}
truth <- fitted
col <- gaussian_truth(fitted$collections[[1]], fitted$collections[[1]]$systems[c(1, 3, 5, 7, 9, 11)])
sys <- col$systems
truth$collections[[1]] <- col
tests <- c("t", "wilcoxon", "sign")
sizes <- c(25, 50)
true_tab <- test_calibration(truth, tests = tests, n_topics = sizes, delta = NULL, trials = truth_trials, seed = 1,
                             progress = FALSE)$table
key <- function(t) paste(t$test, t$n_topics, t$alpha, t$alternative)
cells <- function(t) t$alpha %in% c(0.01, 0.05) & t$alternative == "two.sided"
cat(sprintf("truth: %d trials per size (%.0f s)\n", truth_trials, proc.time()[["elapsed"]] - t0))

rho <- matrix(0.6, 6, 6) + diag(0.4, 6)
res <- lapply(seq_len(sets), function(k) {
  z <- withr::with_seed(k, matrix(stats::rnorm(50 * 6), 50) %*% chol(rho))
  sample <- t(vapply(1:6, function(j) qmargin(stats::pnorm(z[, j]), col$margins[[j]]), numeric(50)))
  dimnames(sample) <- list(sys, paste0("t", 1:50))
  fit <- simulation_model(sample, type = "continuous", drop_bottom = 0, seed = k)
  cal <- suppressWarnings(test_calibration(fit, tests = tests, n_topics = sizes, delta = NULL, trials = 2000,
                                           seed = k, refits = 20, refit_trials = 500, progress = FALSE))
  main <- cal$table
  main$model_se <- NULL
  refit <- function(r) {
    list(rates = cal$refit_rates[, seq_len(r), drop = FALSE], keys = key_rows(main), n = 50, m = 25, trials = 500)
  }
  key_rows <- function(t) paste(t$test, t$n_topics, t$delta, t$alpha, t$alternative, t$error)
  tabs <- list(mc = calibration_intervals(main, list(rates = NULL)), refits4 = calibration_intervals(main, refit(4)),
               refits20 = calibration_intervals(main, refit(20)))
  sel <- cells(main)
  true_rate <- true_tab$rate[match(key(main[sel, ]), key(true_tab))]
  out <- do.call(cbind, lapply(tabs, function(t) {
    cbind(cover = t$conf.low[sel] <= true_rate & true_rate <= t$conf.high[sel], width = t$conf.high[sel] - t$conf.low[sel],
          zero = if (is.null(t$model_se)) NA else t$model_se[sel] == 0)
  }))
  colnames(out) <- paste(rep(names(tabs), each = 3), c("cover", "width", "zero"), sep = "_")
  data.frame(set = k, test = main$test[sel], n_topics = main$n_topics[sel], alpha = main$alpha[sel],
             rate = main$rate[sel], truth = true_rate, out)
})
all <- do.call(rbind, res)
by_cell <- stats::aggregate(all[, grep("_(cover|width|zero)$", names(all))], all[c("test", "n_topics", "alpha")], mean)
options(width = 200)
print(format(by_cell, digits = 2), row.names = FALSE)
cat("\nover all cells:\n")
print(round(colMeans(all[, grep("_(cover|width|zero)$", names(all))]), 3))
cat(sprintf("\n%d data sets, %d cells each; %.0f s\n", sets, sum(cells(true_tab)), proc.time()[["elapsed"]] - t0))
