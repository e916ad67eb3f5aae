# Intervals of test calibration's rates (R/calibration-run.R) that include
# the fitted model's own uncertainty, not only the Monte Carlo error of the
# trials. The rates of test_calibration() are those of the model fitted to
# the collection; a different sample of topics would have given another
# model and other rates. On a known model (a Tawn copula, 3,000 topics)
# the fitted model's sign-test rate at 100 topics was .388 against a true
# .358: the fitting error, not the simulation, dominated. We estimate the
# fitting error by refitting the model on subsamples of the topics
# (Shao & Wu 1989's delete-d jackknife with d = n/2, "half-sampling") and
# rerunning the trials under each refit.

# The stream of refit r (1-based): a setting number that no grid of
# settings reaches (2^20 + r), trial 0; its stream_seed() fixes the
# refit's subsample, the refit's tie-breaking and its trials.
refit_stream <- function(r) trial_stream(2^20 + r, 0)

# The rates of `refits` models, each fitted to half of every collection's
# topics (without replacement) and run for `refit_trials` trials: a matrix,
# rows the rows of the main table (same order), columns the refits; NULL
# when refits is 0.
calibration_refits <- function(model, spec, n_topics, delta, closest, refits, refit_trials, B, sign_tol, seed,
                               n_threads, alphas, call) {
  if (refits == 0) return(list(rates = NULL))
  cols <- model$collections
  n <- vapply(cols, function(col) ncol(col$scores), 1L)
  m <- floor(n / 2)
  if (any(m < 3L)) {
    stop_irtopics(c("{.arg refits} needs at least 6 topics per collection (the refits use half of them).",
                    x = "A collection has {min(n)} topic{?s}."), call = call)
  }
  rates <- NULL
  for (r in seq_len(refits)) {
    rs <- stream_seed(seed, refit_stream(r))
    mats <- with_seed(rs, lapply(cols, function(col) {
      x <- col$scores[, sort(sample.int(ncol(col$scores), floor(ncol(col$scores) / 2))), drop = FALSE]
      # a system whose half is constant has no margin: it sits this refit out
      x <- x[apply(x, 1L, function(v) max(v) > min(v)), , drop = FALSE]
      attr(x, "measure") <- NULL
      unclass_scores(x)
    }))
    refit <- tryCatch(
      simulation_model(mats, type = model$type, support = model$support, margins = model$margin_families,
                       copulas = model$copula_families,
                       drop_bottom = 0, duplicate_tol = 0, ties = model$ties %||% "random",
                       atom_share = model$atom_share %||% 0.1, mean_tol = model$mean_tol %||% 0.001, seed = rs,
                       n_threads = n_threads),
      irtopics_error = function(e) {
        stop_irtopics(c("Can't refit the model on half of the topics (refit {r}).", x = conditionMessage(e)),
                      kind = "data", parent = e, call = call)
      })
    refit$measure <- model$measure
    tab <- calibration_run(refit, spec, n_topics, delta, closest, refit_trials, B, sign_tol, rs, n_threads,
                           alphas, keep_trials = FALSE, call = call)$table
    key <- paste(tab$test, tab$n_topics, tab$delta, tab$alpha, tab$alternative, tab$error)
    if (r == 1L) keys <- key
    if (!identical(key, keys)) stop_irtopics("The refits' tables differ in their rows.", kind = "internal")
    rates <- cbind(rates, tab$rate)
  }
  colnames(rates) <- paste0("refit", seq_len(refits))
  list(rates = rates, keys = keys, n = n, m = m, trials = refit_trials)
}

# A plain numeric matrix with dimnames (an ir_scores subset keeps its class).
unclass_scores <- function(x) matrix(as.double(x), nrow(x), ncol(x), dimnames = dimnames(x))

# The table with the interval columns: `model_se` (the refits' estimate of
# the fitted model's error; NA without refits) and the normal interval
# `conf.low`, `conf.high` of level `level` around the rate with standard
# error sqrt(se^2 + model_se^2) (se alone without refits), kept in [0, 1].
# The refits' spread contains their own Monte Carlo error, which is taken
# out: model_se^2 = k (S^2 - mean of r (1 - r) / refit_trials), k = m /
# (n - m) the delete-d jackknife's factor (1 for an even number of topics).
calibration_intervals <- function(table, refit, level = 0.95) {
  z <- stats::qnorm(1 - (1 - level) / 2)
  rates <- refit$rates
  if (is.null(rates)) {
    table$model_se <- NA_real_
    total <- table$se
  } else {
    key <- paste(table$test, table$n_topics, table$delta, table$alpha, table$alternative, table$error)
    if (!identical(key, refit$keys)) stop_irtopics("The refits' rows are not the table's.", kind = "internal")
    k <- mean(refit$m / (refit$n - refit$m))
    mc <- rowMeans(rates * (1 - rates)) / refit$trials
    spread <- apply(rates, 1L, stats::var)
    table$model_se <- sqrt(k * pmax(spread - mc, 0))
    total <- sqrt(table$se^2 + table$model_se^2)
  }
  table$conf.low <- pmax(table$rate - z * total, 0)
  table$conf.high <- pmin(table$rate + z * total, 1)
  table
}

# Can the refits estimate the model's term? Over the cells print() shows
# (two-sided Type I and power at the user's `alpha`): how many got a model
# term of 0 (the refits' spread within their own Monte Carlo error), and
# of how many; NA without refits.
calibration_model_terms <- function(table, refits, alpha) {
  if (refits == 0) return(c(zero = NA_real_, cells = NA_real_))
  cells <- table$alpha %in% alpha & table$alternative == "two.sided" & table$error %in% c("type1", "power")
  c(zero = as.double(sum(table$model_se[cells] == 0)), cells = as.double(sum(cells)))
}

# The refits are too few to estimate the model's term when there are fewer
# than 10 (the relative standard error of R refits' variance, sqrt(2 / (R -
# 1)), is then above 47%: 82% with 4) or when it came out 0 in more than
# half of the cells shown. Then: a sentence saying so and what to set
# (refits at least 20; 4 times the refit trials, which halves their Monte
# Carlo error, when the term was mostly 0); NULL otherwise.
calibration_refits_advice <- function(x) {
  refits <- x$refits %||% 0
  zero <- x$model_term_zero %||% NA_real_
  cells <- x$model_term_cells %||% NA_real_
  if (refits == 0 || is.na(zero)) return(NULL)
  mostly_zero <- zero > cells / 2
  if (refits >= 10 && !mostly_zero) return(NULL)
  trials <- if (mostly_zero) min(4 * x$refit_trials, 2^31 - 1) else x$refit_trials
  set <- sprintf("refits = %s", format(max(20, refits)))
  if (trials != x$refit_trials) set <- sprintf("%s and refit_trials = %s", set, format(trials, big.mark = ","))
  sprintf(paste("The model's term is 0 in %s of %s cells (the refits' spread within their own Monte Carlo error):",
                "%s of %s trials are too few to estimate it%s. Set %s."),
          format(zero), format(cells), plural(refits, "refit"), format(x$refit_trials, big.mark = ","),
          if (refits < 10) sprintf(" (the spread of %d refits is uncertain by %.0f%%)", as.integer(refits),
                                   100 * sqrt(2 / (refits - 1))) else "", set)
}
