#' Plot the distribution of Kendall's tau in a smoothing experiment
#'
#' Figures 2 and 3 of Ravana, Park and Moffat (2009): one box per
#' \eqn{\lambda} showing the distribution of Kendall's tau between the
#' smoothed ordering and the all-topics ordering over the trials. The
#' baseline (the mean over \eqn{Q_a \cup Q_c} for all systems), which has no
#' \eqn{\lambda}, is drawn across the plot rather than as a box beside the
#' \eqn{\lambda}s (the paper's figures put it there): its median as a dashed
#' line and its quartiles as a grey band. Built on the current ggplot2 theme
#' (see [irtopics_figures]).
#'
#' @param object An `ir_smoothing` object from [smoothing_experiment()].
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_smoothing
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ggplot2::autoplot(smoothing_experiment(ap, trials = 200, seed = 1))
#' @export
autoplot.ir_smoothing <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_smoothing")
  df <- as.data.frame(object)
  base <- df[is.na(df$lambda) & !is.na(df$tau), , drop = FALSE]
  df <- df[!is.na(df$lambda) & !is.na(df$tau), , drop = FALSE]
  # lambda is the axis: the baseline (no lambda) is a band across it, its
  # median dashed and its quartiles shaded, not a category among the lambdas
  df$lambda <- factor(format(df$lambda, drop0trailing = TRUE),
                      levels = format(object$lambdas, drop0trailing = TRUE))
  q <- stats::quantile(base$tau, c(0.25, 0.5, 0.75), names = FALSE)
  band <- if (nrow(base)) {
    list(ggplot2::annotate("rect", xmin = -Inf, xmax = Inf, ymin = q[1], ymax = q[3], fill = "grey50",
                           alpha = 0.2),
         ggplot2::geom_hline(yintercept = q[2], linetype = "dashed", colour = "grey30"))
  }
  note <- if (nrow(base)) {
    wrap_text(sprintf("Dashed: median of the baseline (all systems, %d topics); band: its quartiles.",
                      2L * as.integer(object$topics_per_set %||% NA)), 50L)
  }
  ggplot2::ggplot(df, ggplot2::aes(x = .data$lambda, y = .data$tau)) +
    band +
    ggplot2::geom_boxplot(outlier.size = 0.5, fill = NA) +
    ggplot2::labs(x = expression(lambda), y = expression(paste("Kendall's ", tau, " with all topics"))) +
    plot_labels(title = sprintf("Smoothed %s%s, %s trials", if (object$standardize) "standardized " else "",
                                object$measure, format(object$trials, big.mark = ",")),
                note = note) +
    title_theme()
}

# The experiment ------------------------------------------------------------------

#' The smoothing experiment of Ravana, Park and Moffat (2009)
#'
#' Repeats the protocol of Ravana, Park and Moffat's (2009) poster `trials` times. Each
#' trial draws three disjoint sets of `topics_per_set` topics
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
#' The random draws are made in R from `seed`; the trials run in C++
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
#' @param trials Number of trials, i.e. repetitions of the protocol (the
#'   poster used 10,000).
#' @param standardize Standardize the scores within each cell (the poster's
#'   second run, Figure 3).
#' @param seed An integer seed for the draws, or `NULL` to use the current
#'   random number stream.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @param reps Deprecated: the former name of `trials` (it warns once per
#'   session, with class `irtopics_warning_deprecated`).
#' @return An `ir_smoothing` object: a list with `tau`, a `trials` x
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
#' ex <- smoothing_experiment(ap, trials = 200, seed = 1)
#' ex
#' ggplot2::autoplot(ex)
#' @export
smoothing_experiment <- function(scores, topics_per_set = 25, lambdas = c(0, 0.5, 0.8, 1),
                                 trials = 10000, standardize = FALSE, seed = NULL,
                                 n_threads = irtopics_threads(), progress = NULL, reps = NULL) {
  if (!is.null(reps)) {
    if (!missing(trials)) {
      stop_irtopics("Give {.arg trials} only: {.arg reps} is its deprecated name.")
    }
    warn_deprecated("reps", "trials", "smoothing_experiment")
    trials <- reps
  }
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
  check_number(trials, "trials", min = 1, max = .Machine$integer.max, integer = TRUE)
  check_flag(standardize)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  topics_per_set <- as.integer(topics_per_set)
  trials <- as.integer(trials)

  reference <- if (standardize) rowMeans(unclass(standardize_scores(P))) else rowMeans(P)
  if (stats::sd(reference) == 0) {
    warn_irtopics("All systems have the same reference score; every tau is NA.", kind = "data")
  }
  # Per trial: its draws (3k topics, m systems) and 2 copies of its taus.
  plan <- plan_chunks(trials, "smoothing trials", min_size = 250L, pieces = 40L,
                      bytes_per_item = 4 * (3 * topics_per_set + nrow(P)) + 16 * (length(lambdas) + 1),
                      arg = "trials")
  draws <- smoothing_draws(nrow(P), ncol(P), topics_per_set, trials, seed)
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

  new_smoothing(tau, lambdas, list(topics_per_set = topics_per_set, trials = trials,
                                   standardize = standardize, seed = seed, measure = measure,
                                   n_systems = nrow(P), n_topics = ncol(P), n_x = n_x))
}

# All random draws of the experiment, made here in R (with `seed`): for each
# trial (a column) 3k distinct 0-based topic indices (Q_a, Q_b, Q_c) and
# a 0-based permutation of the systems whose first floor(m/2) form S_x. The
# draws of one trial are made together, topics first.
smoothing_draws <- function(n_systems, n_topics, topics_per_set, trials, seed = NULL) {
  with_seed(seed, {
    topics <- matrix(0L, 3L * topics_per_set, trials)
    systems <- matrix(0L, n_systems, trials)
    for (r in seq_len(trials)) {
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
    sprintf("# %s trials, 3 x %d topics, systems split %d / %d; Kendall's tau-b vs all %d topics",
            format(x$trials, big.mark = ","), x$topics_per_set, x$n_x, x$n_systems - x$n_x, x$n_topics),
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
#' @return A data frame with one row per trial and ordering: `trial`,
#'   `ordering` (`"lambda=0"`, ..., `"baseline"`), `lambda` (`NA` for the
#'   baseline) and `tau`.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(as.data.frame(smoothing_experiment(ap, trials = 20, seed = 1)))
#' @export
as.data.frame.ir_smoothing <- function(x, row.names = NULL, optional = FALSE, ...) {
  trials <- nrow(x$tau)
  data.frame(trial = rep(seq_len(trials), times = ncol(x$tau)),
             ordering = rep(colnames(x$tau), each = trials),
             lambda = rep(c(x$lambdas, NA_real_), each = trials),
             tau = as.vector(x$tau), stringsAsFactors = FALSE)
}
