# Smoothing with partial prior information (Ravana, Park & Moffat, SIGIR 2009),
# spec sections 4.1-4.2.

#' Smoothed scores with partial prior information
#'
#' Ravana, Park and Moffat's (2009) smoothing: each system's scores on the
#' new topics \eqn{Q_c} are pulled towards the system's mean score on its
#' own prior topics \eqn{Q(s)},
#' \deqn{SAP_{s,q}(\lambda) = \lambda \, AP_{s,q} + (1 - \lambda)\, MAP_{s,Q(s)},}{SAP[s,q] = lambda AP[s,q] + (1 - lambda) MAP[s, Q(s)],}
#' so the smoothed mean is \eqn{SMAP_s = \lambda MAP_{s,Q_c} + (1-\lambda)
#' MAP_{s,Q(s)}}. The prior topics may differ from system to system; only
#' the new topics must be common to all systems. A system without prior
#' scores keeps its new scores (\eqn{\lambda = 1} for it). Any per-topic
#' measure can be smoothed, e.g. standardized AP from
#' [standardize_scores()].
#'
#' @section Reconstruction:
#' Ravana, Park and Moffat (2009) give the symbols but not the equation in
#' a usable form; irtopics rebuilds it from the symbols and checks it
#' against the poster's text (\eqn{\lambda = 0} uses the prior only,
#' \eqn{\lambda = 1} the new topics only, and at \eqn{\lambda = 0.8} the
#' prior gets a quarter of the weight of the new scores).
#'
#' @param new An [ir_scores][as_ir_scores] object or numeric matrix: every system's scores
#'   on the new topics \eqn{Q_c}, no NA.
#' @param prior The prior information, matched to `new` by system name:
#'   either a score matrix (systems x prior topics) where `NA` marks a topic
#'   a system was not evaluated on, so different systems may have different
#'   prior topics; or a named numeric vector of prior mean scores. Systems
#'   of `new` that are missing from `prior`, or have only `NA`, have no
#'   prior.
#' @param lambda The weight of the new scores, a number in \[0, 1\].
#' @return An `ir_smoothed` object: a list with `scores`, the smoothed
#'   per-topic [ir_scores][as_ir_scores] (same shape as `new`); `means`, a data frame
#'   `system, new_mean, prior_mean, prior_topics, lambda, smoothed_mean`
#'   (`lambda` is the weight actually used: 1 for a system without prior);
#'   and `lambda`. `print()` shows the best `n` systems by smoothed mean;
#'   `summary()` how far smoothing moved the means and how many systems had
#'   a prior (an [irtopics_summary]); `as.data.frame()` returns `means`.
#' @param x,object An `ir_smoothed` object.
#' @param n Number of systems to print.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Ravana, S. D., Park, L. A. F., Moffat, A. (2009). System
#'   scoring using partial prior information. SIGIR 2009, 788-789.
#' @seealso [smoothing_experiment()].
#' @examples
#' ap <- rbind(s1 = c(.30, .50, .20, .40, .60, .10), s2 = c(.20, .40, .30, .10, .50, .30),
#'             s3 = c(.10, .20, .40, .50, .32, .20), s4 = c(.40, .10, .10, .20, .40, .05))
#' colnames(ap) <- paste0("t", 1:6)
#' prior <- ap[, 1:4]
#' prior[c("s1", "s2"), c("t3", "t4")] <- NA   # s1, s2 were evaluated on t1, t2
#' prior[c("s3", "s4"), c("t1", "t2")] <- NA   # s3, s4 on t3, t4
#' sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.8)
#' sm$means$smoothed_mean                      # .36 .38 .298 .21
#' @export
smooth_scores <- function(new, prior, lambda) {
  N <- check_scores(new, allow_na = FALSE, min_systems = 1L, min_topics = 1L, arg = "new")
  measure <- attr(N, "measure") %||% "score"
  attr(N, "measure") <- NULL
  check_number(lambda, "lambda", min = 0, max = 1)
  systems <- rownames(N)

  if (is.numeric(prior) && is.null(dim(prior))) {
    if (is.null(names(prior)) || anyNA(names(prior))) {
      stop_irtopics("{.arg prior} as a vector of prior means must be named by system.")
    }
    if (anyDuplicated(names(prior))) {
      stop_irtopics("{.arg prior} must name each system once; {.val {names(prior)[duplicated(names(prior))][1]}} is repeated.")
    }
    if (any(!is.finite(prior) & !is.na(prior))) {
      stop_irtopics("{.arg prior} must contain finite means.", kind = "data")
    }
    hit <- match(systems, names(prior))
    prior_mean <- unname(prior[hit])
    prior_topics <- rep(NA_integer_, length(systems))
  } else {
    Q <- check_scores(prior, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "prior")
    hit <- match(systems, rownames(Q))
    prior_topics <- ifelse(is.na(hit), 0L, rowSums(!is.na(Q))[hit])
    prior_mean <- ifelse(prior_topics > 0, rowMeans(Q, na.rm = TRUE)[hit], NA_real_)
    prior_mean <- unname(prior_mean)
    prior_topics <- unname(as.integer(prior_topics))
  }
  if (all(is.na(hit))) {
    stop_irtopics(c("{.arg prior} shares no system name with {.arg new}.",
                    i = "Systems are matched by row name."))
  }
  has_prior <- !is.na(prior_mean)
  lam <- ifelse(has_prior, lambda, 1)
  pm <- ifelse(has_prior, prior_mean, 0)
  S <- N * lam + pm * (1 - lam)
  means <- data.frame(system = systems, new_mean = unname(rowMeans(N)), prior_mean = prior_mean,
                      prior_topics = prior_topics, lambda = lam,
                      smoothed_mean = unname(rowMeans(S)), stringsAsFactors = FALSE)
  new_ir_smoothed(list(scores = new_ir_scores(S, paste0("smoothed_", measure)), means = means,
                       lambda = lambda, measure = measure))
}

new_ir_smoothed <- function(x) {
  new_result(x, "ir_smoothed", fields = c(scores = "scores", means = "data.frame", lambda = "numeric",
                                          measure = "string"))
}

#' @rdname smooth_scores
#' @export
format.ir_smoothed <- function(x, ..., n = 10L) {
  m <- x$means[order(-x$means$smoothed_mean, x$means$system), , drop = FALSE]
  shown <- utils::head(m, n)
  c(sprintf("<ir_smoothed> %s smoothed with lambda = %s: %s x %s (%d without prior)",
            x$measure, format(x$lambda), plural(nrow(x$means), "system"),
            plural(ncol(x$scores), "new topic"), sum(is.na(x$means$prior_mean))),
    printed_lines(print(shown, digits = 4, row.names = FALSE)),
    more_line(system = nrow(m) - nrow(shown)))
}

#' @rdname smooth_scores
#' @export
print.ir_smoothed <- function(x, ..., n = 10L) print_formatted(x, n = n)

#' @rdname smooth_scores
#' @export
summary.ir_smoothed <- function(object, ...) {
  m <- object$means
  shift <- m$smoothed_mean - m$new_mean
  has <- !is.na(m$prior_mean)
  new_summary("ir_smoothed", sprintf("Smoothing of %s with lambda = %s:", object$measure, format(object$lambda)),
              data.frame(systems = nrow(m), with_prior = sum(has),
                         mean_shift = mean(shift), max_abs_shift = max(abs(shift)),
                         rank_changes = sum(rank(-m$new_mean, ties.method = "first") !=
                                              rank(-m$smoothed_mean, ties.method = "first"))))
}

#' @rdname smooth_scores
#' @export
as.data.frame.ir_smoothed <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$means
}

# The experiment ------------------------------------------------------------------

#' The smoothing experiment of Ravana, Park and Moffat (2009)
#'
#' Repeats the protocol of Ravana, Park and Moffat's (2009) poster `reps` times. Each
#' repetition draws three disjoint sets of `topics_per_set` topics
#' \eqn{Q_a, Q_b, Q_c} and splits the systems at random into halves
#' \eqn{S_x, S_y}; \eqn{S_x} has prior scores on \eqn{Q_a}, \eqn{S_y} on
#' \eqn{Q_b}, and every system has scores on \eqn{Q_c}. Systems are ordered
#' by the smoothed mean \eqn{SMAP(\lambda)} for each \eqn{\lambda} in
#' `lambdas`, and, as a baseline, by the mean over \eqn{Q_a \cup Q_c} for
#' all systems (twice the topics, all systems). Each ordering is compared
#' with the reference ordering, the mean over all topics and all systems, by
#' Kendall's tau-b.
#'
#' With `standardize = TRUE` the scores are standardized
#' ([standardize_scores()]) within the cell in which each topic is used:
#' \eqn{Q_c} topics (and the baseline) over all systems, \eqn{Q_a} topics
#' over \eqn{S_x}, \eqn{Q_b} topics over \eqn{S_y}. The reference ordering is
#' then the mean standardized score over all topics, standardized over all
#' systems.
#'
#' The random draws are made in R from `seed`; the repetitions run in C++
#' (OpenMP, `n_threads`) in chunks, with a progress bar, or as futures when a
#' parallel [future::plan()] is set. The results do not depend on
#' `n_threads` or on the plan.
#'
#' @section Reconstruction:
#' The protocol is the poster's. Its smoothing equation is rebuilt from the
#' poster's symbols (see [smooth_scores()]); the reference ordering of the
#' standardized run is not stated in the poster and is assumed to be the
#' mean standardized score over all topics and systems. With an odd number of
#' systems, \eqn{S_x} has one system fewer than \eqn{S_y}.
#'
#' @param scores An [ir_scores][as_ir_scores] object or numeric matrix (systems x topics),
#'   no NA, at least two systems and `3 * topics_per_set` topics (the
#'   poster: AP of 110 systems on the 249 TREC 2004 Robust topics).
#' @param topics_per_set Size of each of the topic sets \eqn{Q_a, Q_b,
#'   Q_c}.
#' @param lambdas The smoothing weights to compare, each in \[0, 1\].
#' @param reps Number of repetitions (the poster used 10,000).
#' @param standardize Standardize the scores within each cell (the poster's
#'   second run, Figure 3).
#' @param seed An integer seed for the draws, or `NULL` to use the current
#'   random number stream.
#' @inheritParams irtopics_threads
#' @return An `ir_smoothing` object: a list with `tau`, a `reps` x
#'   `(length(lambdas) + 1)` matrix of Kendall's tau-b (columns `lambda=...`
#'   and `baseline`); `summary`, a data frame per ordering (`ordering,
#'   lambda, mean, sd, q05, q25, median, q75, q95`); `best_lambda`, the
#'   \eqn{\lambda} with the largest mean tau; and the parameters. `print()`
#'   shows the summary per ordering; `summary()` returns an
#'   [irtopics_summary] of the `summary` data frame (and `$best_lambda`);
#'   [as.data.frame()][as.data.frame.ir_smoothing] and
#'   [autoplot()][autoplot.ir_smoothing] have their own pages.
#' @param x,object For the methods, an `ir_smoothing` object.
#' @param ... Unused.
#' @references Ravana, S. D., Park, L. A. F., Moffat, A. (2009). System
#'   scoring using partial prior information. SIGIR 2009, 788-789.
#' @seealso [smooth_scores()], [standardize_scores()],
#'   `vignette("smoothing", package = "irtopics")`.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ex <- smoothing_experiment(ap, reps = 200, seed = 1)
#' ex
#' ggplot2::autoplot(ex)
#' @export
smoothing_experiment <- function(scores, topics_per_set = 25, lambdas = c(0, 0.5, 0.8, 1),
                                 reps = 10000, standardize = FALSE, seed = NULL,
                                 n_threads = irtopics_threads()) {
  P <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 3L)
  measure <- attr(P, "measure") %||% "score"
  attr(P, "measure") <- NULL
  check_number(topics_per_set, "topics_per_set", min = 1, integer = TRUE)
  if (3 * topics_per_set > ncol(P)) {
    stop_irtopics(c("Can't draw three disjoint sets of {topics_per_set} topics from {ncol(P)} topics.",
                    i = "{.arg topics_per_set} must be at most {ncol(P) %/% 3}."))
  }
  if (!is.numeric(lambdas) || !length(lambdas) || anyNA(lambdas) || any(lambdas < 0 | lambdas > 1)) {
    stop_irtopics("{.arg lambdas} must be numbers in [0, 1].")
  }
  if (anyDuplicated(lambdas)) stop_irtopics("{.arg lambdas} must not repeat a value.")
  check_number(reps, "reps", min = 1, max = .Machine$integer.max, integer = TRUE)
  check_flag(standardize)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  topics_per_set <- as.integer(topics_per_set)
  reps <- as.integer(reps)

  reference <- if (standardize) rowMeans(unclass(standardize_scores(P))) else rowMeans(P)
  if (stats::sd(reference) == 0) {
    warn_irtopics("All systems have the same reference score; every tau is NA.", kind = "data")
  }
  # Per repetition: its draws (3k topics, m systems) and 2 copies of its taus.
  plan <- plan_chunks(reps, "smoothing repetitions", min_size = 250L, pieces = 40L,
                      bytes_per_item = 4 * (3 * topics_per_set + nrow(P)) + 16 * (length(lambdas) + 1),
                      arg = "reps")
  draws <- smoothing_draws(nrow(P), ncol(P), topics_per_set, reps, seed)
  n_x <- nrow(P) %/% 2L
  lambdas <- as.double(lambdas)

  parts <- with_progress_measure(measure, run_chunks(plan, function(idx, threads) {
    cpp_smoothing_taus(P, as.double(reference), draws$topics[, idx, drop = FALSE],
                       draws$systems[, idx, drop = FALSE], topics_per_set, n_x, lambdas,
                       standardize, threads)
  }, n_threads = n_threads))
  tau <- do.call(rbind, parts)
  tau[is.nan(tau)] <- NA_real_
  colnames(tau) <- c(paste0("lambda=", as.character(lambdas)), "baseline")

  new_smoothing(tau, lambdas, list(topics_per_set = topics_per_set, reps = reps,
                                   standardize = standardize, seed = seed, measure = measure,
                                   n_systems = nrow(P), n_topics = ncol(P), n_x = n_x))
}

# All random draws of the experiment, made here in R (with `seed`): for each
# repetition (a column) 3k distinct 0-based topic indices (Q_a, Q_b, Q_c) and
# a 0-based permutation of the systems whose first floor(m/2) form S_x. The
# draws of one repetition are made together, topics first.
smoothing_draws <- function(n_systems, n_topics, topics_per_set, reps, seed = NULL) {
  with_seed(seed, {
    topics <- matrix(0L, 3L * topics_per_set, reps)
    systems <- matrix(0L, n_systems, reps)
    for (r in seq_len(reps)) {
      topics[, r] <- sample.int(n_topics, 3L * topics_per_set) - 1L
      systems[, r] <- sample.int(n_systems) - 1L
    }
    list(topics = topics, systems = systems)
  })
}

new_smoothing <- function(tau, lambdas, params) {
  qs <- function(v, p) unname(stats::quantile(v, p, na.rm = TRUE, names = FALSE))
  summ <- data.frame(
    ordering = colnames(tau),
    lambda = c(lambdas, NA_real_),
    mean = colMeans(tau, na.rm = TRUE),
    sd = apply(tau, 2, stats::sd, na.rm = TRUE),
    q05 = apply(tau, 2, qs, 0.05), q25 = apply(tau, 2, qs, 0.25),
    median = apply(tau, 2, stats::median, na.rm = TRUE),
    q75 = apply(tau, 2, qs, 0.75), q95 = apply(tau, 2, qs, 0.95),
    stringsAsFactors = FALSE, row.names = NULL
  )
  sm <- summ[seq_along(lambdas), , drop = FALSE]
  best <- if (all(is.na(sm$mean))) NA_real_ else sm$lambda[which.max(sm$mean)]
  new_ir_smoothing(c(list(tau = tau, summary = summ, best_lambda = best, lambdas = lambdas), params))
}

new_ir_smoothing <- function(x) {
  new_result(x, "ir_smoothing", fields = c(tau = "matrix", summary = "data.frame", best_lambda = "number",
                                           lambdas = "numeric"))
}

#' @rdname smoothing_experiment
#' @export
format.ir_smoothing <- function(x, ...) {
  summ <- x$summary[, c("ordering", "mean", "sd", "q05", "median", "q95")]
  c(sprintf("<ir_smoothing> Smoothing experiment on %s%s: %d systems x %d topics",
            if (x$standardize) "standardized " else "", x$measure, x$n_systems, x$n_topics),
    sprintf("# %s repetitions, 3 x %d topics, systems split %d / %d; Kendall's tau-b vs all %d topics",
            format(x$reps, big.mark = ","), x$topics_per_set, x$n_x, x$n_systems - x$n_x, x$n_topics),
    "", printed_lines(print(summ, digits = 4, row.names = FALSE)),
    "", sprintf("Best lambda (largest mean tau): %s", format(x$best_lambda)))
}

#' @rdname smoothing_experiment
#' @export
print.ir_smoothing <- function(x, ...) print_formatted(x, ...)

#' @rdname smoothing_experiment
#' @export
summary.ir_smoothing <- function(object, ...) {
  new_summary("ir_smoothing", sprintf("Kendall's tau per ordering; best lambda (largest mean tau): %s",
                                      format(object$best_lambda)),
              object$summary, best_lambda = object$best_lambda)
}

#' Long form of a smoothing experiment
#'
#' @param x An `ir_smoothing` object from [smoothing_experiment()].
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @return A data frame with one row per repetition and ordering: `rep`,
#'   `ordering` (`"lambda=0"`, ..., `"baseline"`), `lambda` (`NA` for the
#'   baseline) and `tau`.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(as.data.frame(smoothing_experiment(ap, reps = 20, seed = 1)))
#' @export
as.data.frame.ir_smoothing <- function(x, row.names = NULL, optional = FALSE, ...) {
  reps <- nrow(x$tau)
  data.frame(rep = rep(seq_len(reps), times = ncol(x$tau)),
             ordering = rep(colnames(x$tau), each = reps),
             lambda = rep(c(x$lambdas, NA_real_), each = reps),
             tau = as.vector(x$tau), stringsAsFactors = FALSE)
}
