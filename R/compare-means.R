# Confidence intervals on the mean score of each system (issue 28): the t
# interval and the bootstrap over topics (percentile and BCa, Efron 1987;
# endpoints interpolated on the normal scale between order statistics as in
# Davison & Hinkley 1997, eq. 5.8), the class ir_mean_intervals and its
# methods. means_table() and the comparison report show them
# (R/compare-report.R).

#' Confidence intervals on mean scores
#'
#' Per system and measure, the mean score over topics with a confidence
#' interval, for reports that say how uncertain each mean is.
#'
#' Intervals (`interval`):
#' * `"t"`: \eqn{\bar x \pm t_{n-1, 1-a/2}\, s / \sqrt n} over the \eqn{n}
#'   topics the system answered, as [stats::t.test()]; assumes the topics
#'   are a random sample and the mean close to normal (the central limit
#'   theorem; fine for 25+ topics of most measures). Scores that are all
#'   equal give a zero-width interval (where `t.test()` refuses).
#' * `"percentile"`: the bootstrap over topics: `B` resamples of the topics
#'   with replacement, the \eqn{a/2} and \eqn{1 - a/2} quantiles of the
#'   resampled means. Assumes only that topics are a random sample; it
#'   undercovers with few topics (see `bench/README.md`).
#' * `"bca"`: the bias-corrected and accelerated bootstrap interval (Efron
#'   1987) from the same resamples: bias correction
#'   \eqn{w = \Phi^{-1}(\#\{t^* < \bar x\} / B)}, acceleration
#'   \eqn{a = \sum L_i^3 / (6 (\sum L_i^2)^{3/2})} with the influence values
#'   of the mean, \eqn{L_i = x_i - \bar x} (equal to the jackknife's), and the
#'   quantiles \eqn{\Phi(w + (w + z)/(1 - a (w + z)))}. `NA` when every
#'   resample lies on one side of the mean.
#'
#' The statistic is each measure's aggregate (see [measure_info()]): the
#' mean for most measures; for a geometric mean (`gm_map`, `gm_bpref`) the
#' intervals are those of the mean of \eqn{\log\max(x, 10^{-5})}, taken
#' back by \eqn{\exp} (so the estimate is trec_eval's `gm_map`, and the t
#' interval's `std.error` is the delta method's, the geometric mean times
#' that of the mean log); for a sum (the counts), \eqn{n} times those of the
#' mean. A comparison's ([compare_systems()]) measures are means, the
#' statistic its tests compare.
#'
#' Coverage at 95% on four real matrices taken as populations of topics
#' (`bench/README.md`, section 19): t 0.91 to 0.95, BCa 0.885 to 0.95 and
#' percentile 0.87 to 0.95, the bootstrap ones undercovering most with 10
#' topics; from 25 topics all are within 0.03 of 95%.
#'
#' Bootstrap quantiles are read from the sorted resampled means as
#' `boot::boot.ci()` reads them: the order statistic \eqn{(B + 1) p} when it
#' is whole, else interpolated between its neighbours on the normal scale
#' (Davison & Hinkley 1997, eq. 5.8); beyond the first or last order
#' statistic the extreme one is used, with a warning of class
#' `irtopics_warning_extreme` naming the systems (choose `B` >= 1000 for 95%
#' BCa intervals). A resampled mean within \eqn{10^{-12}} (relative) of the
#' observed one counts as equal to it in \eqn{w}, so that rounding does not
#' decide the bias correction; `boot.ci()` compares exactly. Resamples are
#' drawn in R with the call's seed (`B` rows of topic indices, as
#' `boot::boot()` draws them after `set.seed(seed)`), so the results are the
#' same for any chunking and any [future::plan()]; they are computed in R
#' (no threads). Systems with unanswered topics (`NA`, from
#' `evaluate(missing = "drop")`): their mean is over the topics they
#' answered, in the data and in each resample; a system that answered no
#' topic is an error (`irtopics_error_data`, naming it), as in
#' [compare_systems()].
#'
#' @param x An `ir_evaluation` ([evaluate()]), an `ir_scores` or numeric
#'   matrix (systems x topics), or an `ir_comparison` ([compare_systems()]).
#' @param conf Confidence level.
#' @param interval `"t"`, `"percentile"` or `"bca"` (see Details).
#' @param B Bootstrap resamples (`"percentile"`, `"bca"`).
#' @param seed `NULL` or a whole number: the seed of the resamples.
#' @inheritParams irtopics_progress
#' @return An `ir_mean_intervals` list: `table` (one row per measure and
#'   system: `measure`, `system`, `estimate` (the mean, or the measure's
#'   aggregate), `conf.low`,
#'   `conf.high`, `n_topics`, `std.error` (the t interval's; for the
#'   bootstrap the sd of the resampled means)), `means` (systems x measures),
#'   `interval`, `conf`, `B` and `seed` (`NA` for `"t"`), `replicates` (per
#'   measure, the `B` x systems matrix of resampled means (aggregates);
#'   `NULL` for `"t"`), `indices` (per measure, the `B` x topics matrix of
#'   resampled topic positions), `records` (per measure, its `aggregate` and
#'   `direction`). `as.data.frame()` (and `tidy()`) give `table` with the
#'   interval's name in `method`; `autoplot()` draws the means with error bars,
#'   one panel per measure.
#' @references Efron, B. (1987). Better bootstrap confidence intervals.
#'   *JASA* 82, 171--185.
#'
#'   Davison, A. C. & Hinkley, D. V. (1997). *Bootstrap Methods and their
#'   Application*. Cambridge University Press, section 5.2-5.3.
#' @seealso [means_table()] for the table in a paper, [rank_intervals()]
#'   for the uncertainty of the ranking.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:6], ]
#' mean_intervals(top)
#' ci <- mean_intervals(top, interval = "bca", B = 1000, seed = 1)
#' ci
#' ggplot2::autoplot(ci)
#' @export
mean_intervals <- function(x, conf = 0.95, interval = c("t", "percentile", "bca"), B = 1000,
                           seed = NULL, progress = NULL) {
  mats <- scores_by_measure(x)
  check_conf(conf)
  interval <- match_choice(interval)
  check_whole(B, "B", min = 2)
  check_seed(seed)
  local_progress(progress)
  boot <- interval != "t"
  seed <- if (boot) resolve_seed(seed) else NA_real_
  records <- attr(mats, "records")
  if (boot) {
    # checked once for every measure: each keeps its B x systems resampled
    # means; measures on the same topics share one matrix of topic positions
    n_topics <- unique(vapply(mats, ncol, 1L))
    draws <- list()
    S <- nrow(mats[[1]])
    check_bootstrap_memory(B, n_topics, S, kept = 8 * S * length(mats), copies = 4, block_copies = 4)
  }
  parts <- lapply(names(mats), function(meas) {
    agg <- records$aggregate[match(meas, records$measure)]
    # the interval of the mean on the aggregate's scale (the logs of a
    # geometric mean), taken back to the aggregate (exp(), or n times for a sum)
    m <- aggregate_scale(mats[[meas]], agg)
    # tiny scores (below 1e-100) computed on a scale where their squares do
    # not underflow, and taken back (exactly: a power of two) in back()
    k <- square_scale(m)
    if (k != 1) m <- m * k
    est <- rowMeans(m, na.rm = TRUE)
    est[is.nan(est)] <- NA_real_
    n <- rowSums(!is.na(m))
    back <- function(v) aggregate_from_mean(v / k, n, agg)
    if (!boot) {
      b <- t_mean_bounds(m, conf)
      # the standard error of the aggregate: n times for a sum, by the delta method for a geometric mean
      se <- switch(agg, gmean = back(est) * b$se, sum = n * b$se / k, b$se / k)
      return(list(table = data.frame(measure = meas, system = rownames(m), estimate = unname(back(est)),
                                     conf.low = back(b$low), conf.high = back(b$high), n_topics = unname(n),
                                     std.error = unname(se), stringsAsFactors = FALSE)))
    }
    key <- as.character(ncol(m))
    if (is.null(draws[[key]])) draws[[key]] <<- draw_topic_indices(ncol(m), B, seed)
    idx <- draws[[key]]
    reps <- with_progress_measure(meas, bootstrap_means(m, idx))
    b <- bootstrap_bounds(m, est, reps, conf, interval)
    # each system's column by its own n, in place (no copy of the B x systems matrix)
    if (agg != "mean") for (i in seq_len(ncol(reps))) reps[, i] <- aggregate_from_mean(reps[, i], n[[i]], agg)
    se <- vapply(seq_len(ncol(reps)), function(i) stats::sd(reps[, i], na.rm = TRUE), numeric(1)) / k
    if (k != 1) reps <- reps / k
    list(table = data.frame(measure = meas, system = rownames(m), estimate = unname(back(est)),
                            conf.low = back(b$low), conf.high = back(b$high), n_topics = unname(n),
                            std.error = se, stringsAsFactors = FALSE),
         replicates = reps, indices = idx)
  })
  names(parts) <- names(mats)
  tab <- do.call(rbind, lapply(parts, `[[`, "table"))
  rownames(tab) <- NULL
  systems <- rownames(mats[[1]])
  means <- vapply(names(mats), function(meas) {
    r <- tab[tab$measure == meas, , drop = FALSE]
    r$estimate[match(systems, r$system)]
  }, numeric(length(systems)))
  means <- matrix(means, length(systems), dimnames = list(systems, names(mats)))
  new_ir_mean_intervals(list(table = tab, means = means, interval = interval, conf = conf,
                             B = if (boot) as.double(B) else NA_real_, seed = seed,
                             replicates = if (boot) lapply(parts, `[[`, "replicates"),
                             indices = if (boot) lapply(parts, `[[`, "indices"), records = records))
}

new_ir_mean_intervals <- function(x) {
  new_result(x, "ir_mean_intervals",
             fields = c(table = "data.frame", means = "matrix", interval = "string", conf = "number",
                        B = "number", seed = "number", replicates = "list?", indices = "list?",
                        records = "data.frame"))
}

# The score matrices of x, one per measure (named), systems x topics, with
# attr "records" (score_records(): each measure's aggregate and direction).
# A comparison's measures are means: the statistic its tests compare and
# its report shows.
scores_by_measure <- function(x, call = rlang::caller_env()) {
  plain <- function(mats) {
    for (meas in names(mats)) {
      check_answered_systems(mats[[meas]], "x", where = if (length(mats) > 1L) sprintf(" (%s)", meas), call = call)
    }
    structure(lapply(mats, unclass_scores), records = score_records(mats))
  }
  if (inherits(x, "ir_comparison")) {
    out <- plain(x$scores)
    attr(out, "records")$aggregate <- "mean"
    return(out)
  }
  if (inherits(x, "ir_evaluation")) {
    if (!length(x)) stop_irtopics("{.arg x} holds no measure.", kind = "data", call = call)
    return(plain(unclass(x)))
  }
  if (inherits(x, "ir_scores") || is.matrix(x) || is.data.frame(x)) {
    m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x", call = call)
    out <- list(m)
    names(out) <- attr(m, "measure") %||% attr(x, "measure") %||% "score"
    return(plain(out))
  }
  stop_irtopics("{.arg x} must be an {.cls ir_evaluation}, an {.cls ir_scores} (or numeric matrix) or an {.cls ir_comparison}, not {.obj_type_friendly {x}}.",
                call = call)
}

# The t interval of each system's mean over its answered topics.
t_mean_bounds <- function(m, conf) {
  n <- rowSums(!is.na(m))
  est <- rowMeans(m, na.rm = TRUE)
  s <- apply(m, 1L, stats::sd, na.rm = TRUE)
  se <- s / sqrt(n)
  half <- stats::qt(1 - (1 - conf) / 2, pmax(n - 1, 1)) * se
  half[n < 2] <- NA_real_
  list(low = unname(est - half), high = unname(est + half), se = unname(ifelse(n < 2, NA_real_, se)))
}

# B resamples of the topic positions 1..n_topics (with replacement), one per
# row, drawn as boot::boot() draws them after set.seed(seed): one call of
# sample.int(n, n * B) made a B x n matrix in place (matrix() would copy the
# draws). The plan refuses, before anything is drawn, a B whose draws and
# results do not fit in memory (4 bytes a topic and 8 a system per
# resample; mean_intervals(), rank_intervals() and tau_interval() count
# more exactly with check_bootstrap_memory()).
bootstrap_topic_indices <- function(n_topics, B, seed, n_systems, call = rlang::caller_env()) {
  plan_chunks(B, "bootstrap resamples", bytes_per_item = 4 * n_topics + 8 * n_systems, arg = "B", call = call)
  draw_topic_indices(n_topics, B, seed)
}

draw_topic_indices <- function(n_topics, B, seed) {
  with_seed(seed, {
    idx <- sample.int(n_topics, n_topics * B, replace = TRUE)
    dim(idx) <- c(B, n_topics)
    idx
  })
}

# Memory of a topic bootstrap (issue 43). mean_intervals(), rank_intervals()
# and tau_interval() keep per resample its topic positions (4 bytes a
# topic) and their results (`kept` bytes: 8 a system and measure for means,
# 4 a system for ranks, 8 for tau); the means are computed in blocks of
# resamples (bootstrap_blocks()), so that what a block holds (its means,
# what is computed from them, working copies of the input) is bounded
# whatever B, and counted once. Every byte is counted
# bootstrap_memory_factor times: R collects garbage (each resample's copy of
# the columns it draws) only once its heap has grown past a trigger that it
# sets at about 1.6 times what is live, so the peak R's gc() reports is up
# to twice what the call holds (measured 1.3 to 2.0 times in fresh
# processes; before these counts, a B the check accepted peaked at 3.8,
# 5.6 and 21.8 times the budget). Tested in test-compare-means.R.
bootstrap_memory_factor <- 2
bootstrap_block_bytes <- 2^20

# Resamples per block: about bootstrap_block_bytes of means of `n_systems`
# systems, at least 50.
bootstrap_block_size <- function(n_systems) max(50, floor(bootstrap_block_bytes / (8 * n_systems)))

# Refuses (irtopics_error_memory naming B, before anything is drawn) a
# bootstrap of B resamples of n_topics topics that keeps `kept` bytes per
# resample besides its topic positions, with `copies` working copies of
# the systems x topics input and `block_copies` copies of a block's means.
check_bootstrap_memory <- function(B, n_topics, n_systems, kept, copies, block_copies,
                                   call = rlang::caller_env()) {
  fixed <- 8 * (copies * n_systems * max(n_topics) + block_copies * n_systems * bootstrap_block_size(n_systems))
  plan_chunks(B, "bootstrap resamples", bytes_per_item = bootstrap_memory_factor * (4 * sum(n_topics) + kept),
              fixed_bytes = bootstrap_memory_factor * fixed, arg = "B", call = call)
  invisible(B)
}

# Runs `fun(rows)` on blocks of the B resamples (a cli progress bar between
# blocks, or futures under a parallel plan: run_chunks()) and writes each
# block's result (one row, or one value, per resample) into a B-row matrix
# of `ncol` columns (or a vector of length B when `ncol` is NULL) of type
# `mode`, in place: no B x systems matrix exists but the result. Blocks
# change no value (each resample is computed on its own).
bootstrap_blocks <- function(B, n_systems, fun, ncol = NULL, mode = "double") {
  init <- switch(mode, double = NA_real_, integer = NA_integer_)
  out <- if (is.null(ncol)) rep(init, B) else matrix(init, B, ncol)
  plan <- plan_chunks(B, "bootstrap resamples", min_size = 50L,
                      pieces = max(20, ceiling(B / bootstrap_block_size(n_systems))))
  run_chunks(plan, function(rows, threads) fun(rows), each = function(res, rows) {
    if (is.null(ncol)) out[rows] <<- res else out[rows, ] <<- res
    NULL
  })
  out
}

# A function of (idx, rows) giving the resampled means of the systems of m
# in the resamples `rows` of idx (rows x systems): row b is the mean of the
# system's answered topics among the topics of resample b, each resample on
# its own.
resample_means <- function(m) {
  answered <- !is.na(m)
  complete <- all(answered)
  m0 <- m
  m0[!answered] <- 0
  function(idx, rows) {
    v <- vapply(rows, function(b) {
      cols <- idx[b, ]
      # rowMeans() rounds as the observed means do, so that systems with the
      # same scores in the same order get the same mean; equal means reached
      # otherwise (P@10) are tied where they are ranked (tie_means())
      if (complete) return(rowMeans(m[, cols, drop = FALSE]))
      s <- rowSums(m0[, cols, drop = FALSE])
      k <- rowSums(answered[, cols, drop = FALSE])
      ifelse(k > 0, s / k, NA_real_)
    }, numeric(nrow(m)))
    t(matrix(v, nrow(m)))
  }
}

# The resampled means (B x systems) of each system (resample_means()), in
# blocks: no chunking or plan changes a value.
bootstrap_means <- function(m, idx) {
  means <- resample_means(m)
  out <- bootstrap_blocks(nrow(idx), nrow(m), function(rows) means(idx, rows), ncol = nrow(m))
  colnames(out) <- rownames(m)
  out
}

# Percentile or BCa bounds per system from the resampled means `reps`
# (B x systems).
bootstrap_bounds <- function(m, est, reps, conf, interval) {
  a <- (1 - conf) / 2
  z <- stats::qnorm(c(a, 1 - a))
  extreme <- logical(nrow(m))
  bounds <- vapply(seq_len(nrow(m)), function(i) {
    t <- reps[, i]
    t <- t[is.finite(t)]
    if (!length(t) || is.na(est[i])) return(c(NA_real_, NA_real_))
    if (interval == "percentile") {
      q <- normal_scale_quantiles(t, c(a, 1 - a))
      extreme[i] <<- attr(q, "extreme")
      return(q)
    }
    x <- m[i, !is.na(m[i, ])]
    tol <- 1e-12 * max(abs(x), .Machine$double.xmin)
    p <- bca_levels(est[i], t, x - mean(x), c(a, 1 - a), "below", tol)
    if (anyNA(p)) return(c(NA_real_, NA_real_))
    q <- normal_scale_quantiles(t, p)
    extreme[i] <<- attr(q, "extreme")
    q
  }, numeric(2))
  attr(bounds, "extreme") <- extreme
  warn_extreme_endpoints(rownames(m)[attr(bounds, "extreme")], nrow(reps))
  list(low = bounds[1, ], high = bounds[2, ])
}

# The levels at which a BCa interval (Efron 1987) reads the resamples: the
# percentile levels p moved to pnorm(z0 + (z0 + z) / (1 - a (z0 + z))),
# z = qnorm(p). The bias correction z0 = qnorm(share of the draws below the
# estimate), by one of two tie rules:
# * "below": draws below estimate - tol count (boot::boot.ci()'s rule); a
#   share of 0 or 1 gives NA levels (no interval);
# * "half": draws equal to the estimate count one half, and the share is kept
#   within [1 / (2B), 1 - 1 / (2B)] (a discrete statistic with many draws at
#   the estimate gets no spurious correction, and z0 stays finite).
# The acceleration a = sum(L^3) / (6 sum(L^2)^1.5) from the empirical
# influence values L (x - mean(x) for a mean, mean(jack) - jack from
# jackknife values: a is the same for any positive multiple of L); NA values
# are left out, and a is 0 when no L is left, one is infinite, or all are 0.
# mean_intervals(), tau_interval() ("below") and the leaderboard and label
# bootstraps (bootstrap_interval(), "half") all use it.
bca_levels <- function(estimate, draws, L, p, ties = c("below", "half"), tol = 0) {
  ties <- match_choice(ties)
  n <- length(draws)
  if (ties == "half") {
    share <- (sum(draws < estimate) + sum(draws == estimate) / 2) / n
    share <- min(max(share, 1 / (2 * n)), 1 - 1 / (2 * n))
  } else {
    share <- sum(draws < estimate - tol) / n
  }
  z0 <- stats::qnorm(share)
  if (!is.finite(z0)) return(rep(NA_real_, length(p)))
  L <- L[!is.na(L)]
  a <- if (length(L) && all(is.finite(L)) && any(L != 0)) sum(L^3) / (6 * sum(L^2)^1.5) else 0
  z <- stats::qnorm(p)
  stats::pnorm(z0 + (z0 + z) / (1 - a * (z0 + z)))
}

# One warning naming the intervals (systems, or "tau") whose endpoint is the
# smallest or largest resampled value: the interval's level is then not
# reached, and a larger B would move it (boot.ci() warns too).
warn_extreme_endpoints <- function(which, B) {
  if (!length(which)) return(invisible(NULL))
  warn_irtopics(c("{length(which)} interval{?s} ha{?s/ve} an endpoint at the most extreme of the {B} resamples: {.val {which}}.",
                  i = "The level is not reached there; use a larger {.arg B}."), kind = "extreme")
}

# Quantiles p of the sample t as Davison & Hinkley (1997, eq. 5.8) read
# them: with R values, the order statistic (R + 1) p when it is whole, else
# linear interpolation on the normal scale between order statistics k and
# k + 1 (k = floor((R + 1) p)); the extreme order statistic when k is 0 or R
# (attribute `extreme`: TRUE when that extreme value is a single resample).
normal_scale_quantiles <- function(t, p) {
  s <- sort(t)
  R <- length(s)
  pos <- (R + 1) * p
  k <- floor(pos)
  out <- vapply(seq_along(p), function(j) {
    if (k[j] < 1) return(s[1])
    if (k[j] >= R) return(s[R])
    if (pos[j] == k[j]) return(s[k[j]])
    lo <- stats::qnorm(k[j] / (R + 1))
    hi <- stats::qnorm((k[j] + 1) / (R + 1))
    s[k[j]] + (stats::qnorm(p[j]) - lo) / (hi - lo) * (s[k[j] + 1] - s[k[j]])
  }, numeric(1))
  # beyond the extreme order statistic, unless the extreme value is repeated
  # (a point mass of the resamples, e.g. tau = 1, is where the quantile is)
  extreme <- (any(k < 1) && R > 1 && s[1] < s[2]) || (any(k >= R) && R > 1 && s[R - 1] < s[R])
  structure(out, extreme = extreme)
}

# The interval written after each mean (systems x measures), and the
# sentence of the legend that says what it is; "" and NULL without one.
interval_cells <- function(ci, systems, format, digits, style) {
  if (is.null(ci)) return(list(cells = "", note = NULL))
  tab <- ci$table
  f <- function(v) ifelse(is.na(v), "NA", formatC(v, digits = digits, format = "f"))
  cells <- vapply(colnames(ci$means), function(meas) {
    r <- tab[tab$measure == meas, , drop = FALSE]
    r <- r[match(systems, r$system), , drop = FALSE]
    if (style == "brackets") return(sprintf(" [%s, %s]", f(r$conf.low), f(r$conf.high)))
    paste0(" ", table_symbol("pm", format), " ", f((r$conf.high - r$conf.low) / 2))
  }, character(length(systems)))
  what <- if (style == "brackets") "[low, high]" else
    I(table_text(format, table_symbol("pm", format), if (ci$interval == "t") " half its width" else
      " half its width (not symmetric)"))
  note <- table_text(format, "Each mean with its ", sub(" intervals", " interval", mean_interval_text(ci)), ", ",
                     what, ".")
  list(cells = matrix(cells, length(systems)), note = note)
}

# `intervals` of a comparison's report: NULL or an ir_mean_intervals of
# its systems and measures.
check_comparison_intervals <- function(intervals, x, call = rlang::caller_env()) {
  if (is.null(intervals)) return(invisible(NULL))
  if (!inherits(intervals, "ir_mean_intervals") || !identical(dimnames(intervals$means), dimnames(x$means))) {
    stop_irtopics(c("{.arg intervals} must be {.code NULL} or the {.fn mean_intervals} of this comparison.",
                    i = "E.g. {.code format(x, intervals = mean_intervals(x, interval = \"bca\", seed = 1))}."),
                  call = call)
  }
  invisible(intervals)
}

mean_interval_labels <- c(t = "t", percentile = "bootstrap percentile", bca = "bootstrap BCa")

# "95% bootstrap BCa intervals (B = 1,000, seed = 1)".
mean_interval_text <- function(x) {
  sprintf("%g%% %s intervals%s", 100 * x$conf, mean_interval_labels[[x$interval]],
          if (x$interval == "t") "" else
            sprintf(" over topics (B = %s, seed = %s)", format(x$B, big.mark = ","), format(x$seed)))
}

#' @rdname mean_intervals
#' @param digits Decimals shown.
#' @param ... Unused.
#' @export
format.ir_mean_intervals <- function(x, digits = 4, ...) {
  check_shown(digits = digits)
  tab <- x$table
  f <- function(v) formatC(v, digits = digits, format = "f")
  note <- aggregate_note(x$records)
  shown <- data.frame(measure = tab$measure, system = tab$system, mean = f(tab$estimate),
                      interval = sprintf("[%s, %s]", f(tab$conf.low), f(tab$conf.high)),
                      topics = tab$n_topics, stringsAsFactors = FALSE)
  if (!is.null(note)) names(shown)[3] <- "value"
  c(sprintf("<ir_mean_intervals> %s of the mean: %s x %s", mean_interval_text(x),
            plural(nrow(x$means), "system"), plural(ncol(x$means), "measure")),
    if (!is.null(note)) paste0("# value: the mean; ", note),
    printed_lines(print(shown, row.names = FALSE, right = FALSE)))
}

# How a figure names the statistic of measures `ms` with records `records`:
# "Mean AP, P@10", or "AP (mean), gm_map (geometric mean)" when not all are
# means.
aggregate_axis_label <- function(ms, records) {
  agg <- records$aggregate[match(ms, records$measure)]
  if (all(agg == "mean")) return(sprintf("Mean %s", paste(ms, collapse = ", ")))
  paste(sprintf("%s (%s)", ms, aggregate_labels[agg]), collapse = ", ")
}

#' @rdname mean_intervals
#' @export
print.ir_mean_intervals <- function(x, ...) print_formatted(x, ...)

#' @rdname mean_intervals
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_mean_intervals <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- x$table
  out$conf.level <- x$conf
  out$method <- x$interval
  out
}

#' @rdname mean_intervals
#' @param object An `ir_mean_intervals` object.
#' @export
summary.ir_mean_intervals <- function(object, ...) {
  tab <- object$table
  width <- tab$conf.high - tab$conf.low
  ms <- unique(tab$measure)
  key <- data.frame(measure = ms,
                    systems = vapply(ms, function(m) sum(tab$measure == m), integer(1)),
                    mean_width = vapply(ms, function(m) mean(width[tab$measure == m], na.rm = TRUE), 0),
                    max_width = vapply(ms, function(m) suppressWarnings(max(width[tab$measure == m], na.rm = TRUE)), 0),
                    undefined = vapply(ms, function(m) sum(is.na(width[tab$measure == m])), integer(1)),
                    stringsAsFactors = FALSE)
  new_summary("ir_mean_intervals", sprintf("Mean scores with %s: interval widths", mean_interval_text(object)),
              key)
}

#' @rdname mean_intervals
#' @method autoplot ir_mean_intervals
#' @export
autoplot.ir_mean_intervals <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_mean_intervals")
  tab <- object$table
  first <- tab[tab$measure == tab$measure[1], , drop = FALSE]
  # best at the top: the last level, in the first measure's direction
  better <- better_sign(object$records$direction[match(first$measure[1], object$records$measure)])
  tab$system <- factor(tab$system, levels = first$system[order(better * first$estimate, first$system)])
  n <- nlevels(tab$system)
  ms <- unique(tab$measure)
  what <- aggregate_axis_label(ms, object$records)
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$system, x = .data$estimate)) +
    interval_bars(data = tab[!is.na(tab$conf.low) & !is.na(tab$conf.high), , drop = FALSE],
                  ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high), height = 0.3,
                  colour = "grey40") +
    ggplot2::geom_point(size = if (n > 35L) 0.8 else 1.5) +
    # the levels as limits: a system without an interval must not reorder the rows (ggplot2
    # sorts the rows by name when a later layer brings a level the first one lacked)
    ggplot2::scale_y_discrete(limits = levels(tab$system), guide = crowded_guide()) +
    plot_labels(x = wrap_text(what, 38L), y = NULL,
                title = wrap_text(sprintf("%s per system with %g%% intervals", what, 100 * object$conf)),
                subtitle = wrap_text(mean_interval_text(object), 45L)) +
    title_theme() +
    crowded_y_theme(n)
  # few axis labels (panels side by side at 3.5 in), dropped where they would still run together
  p + ggplot2::scale_x_continuous(n.breaks = if (length(ms) > 1L) 3 else 4, guide = crowded_guide()) +
    if (length(ms) > 1L) ggplot2::facet_wrap(ggplot2::vars(.data$measure), scales = "free_x")
}
