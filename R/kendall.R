#' Kendall's rank correlation and the AP rank correlation
#'
#' Rank correlation between two paired numeric vectors (larger values rank
#' higher), computed in C++ in \eqn{O(n \log n)} time.
#' * `"b"` (default): Kendall's tau-b, computed with Knight's (1966)
#'   algorithm; equals `cor(x, y, method = "kendall")`, which is tau-b when
#'   there are ties.
#' * `"a"`: tau-a, \eqn{(C - D) / (n(n-1)/2)}.
#' * `"ap"`: the AP correlation \eqn{\tau_{AP}} of Yilmaz, Aslam & Robertson
#'   (2008), \eqn{\frac{2}{n-1}\sum_{i=2}^{n} \frac{C(i)}{i-1} - 1}, where the
#'   items are listed by `x` (largest first) and \eqn{C(i)} counts the items
#'   above position \eqn{i} that `y` also places above the item at \eqn{i}.
#'   It weights disagreements at the top of `x` more and is **not
#'   symmetric**: `x` is the ranking being evaluated, `y` the reference
#'   ("truth"), e.g. `x` the system scores on a topic subset and `y` those on
#'   all topics.
#'
#' @section Ties in `type = "ap"`:
#' Yilmaz et al. define \eqn{\tau_{AP}} for rankings without ties. Here the
#' value with ties is the *expected* \eqn{\tau_{AP}} when the ties of `x` and
#' of `y` are broken uniformly at random (independently): a pair tied in `y`
#' counts one half, and the expectation over the orders of a tie group of
#' `x` is computed exactly. Without ties this is the published coefficient.
#' A constant vector gives `NA`, as for tau-b.
#'
#' @param x,y Numeric vectors of the same length, without NA. For
#'   `type = "ap"`, `x` is the evaluated ranking and `y` the reference.
#' @param type `"b"`, `"a"` or `"ap"`.
#' @return A number; `NA` when `n < 2` or (tau-b, tau-AP) either vector is
#'   constant.
#' @references
#' Knight, W. R. (1966). A computer method for calculating Kendall's tau with
#' ungrouped data. *JASA* 61, 436--439.
#'
#' Yilmaz, E., Aslam, J. A. & Robertson, S. (2008). A new rank correlation
#' coefficient for information retrieval. *SIGIR 2008*, 587--594.
#' @examples
#' x <- c(1, 2, 2, 3, 5)
#' y <- c(2, 1, 3, 3, 4)
#' kendall_tau(x, y)
#' cor(x, y, method = "kendall")
#' kendall_tau(x, y, type = "a")
#' # a swap at the top costs tau_AP more than one at the bottom
#' truth <- 5:1
#' kendall_tau(c(4, 5, 3, 2, 1), truth, type = "ap")
#' kendall_tau(c(5, 4, 3, 1, 2), truth, type = "ap")
#' @export
kendall_tau <- function(x, y, type = c("b", "a", "ap")) {
  type <- match_choice(type)
  if (!is.numeric(x) || !is.numeric(y)) stop_irtopics("{.arg x} and {.arg y} must be numeric vectors.")
  if (length(x) != length(y)) {
    stop_irtopics("{.arg x} and {.arg y} must have the same length, not {length(x)} and {length(y)}.")
  }
  if (anyNA(x) || anyNA(y)) stop_irtopics("{.arg x} and {.arg y} must not contain NA.", kind = "data")
  rank_cor_impl(as.double(x), as.double(y), type)
}

# Unchecked rank correlation used by the analyses: Kendall (b, a), tau_AP,
# or Pearson / Spearman through cor(). NA instead of NaN.
rank_cor_impl <- function(x, y, type) {
  out <- switch(type,
    b = cpp_kendall(x, y, TRUE),
    a = cpp_kendall(x, y, FALSE),
    ap = cpp_tau_ap(x, y),
    kendall = cpp_kendall(x, y, TRUE),
    pearson = ,
    spearman = if (length(x) < 2 || stats::sd(x) == 0 || stats::sd(y) == 0) NA_real_ else
      stats::cor(x, y, method = type)
  )
  if (is.nan(out)) NA_real_ else out
}

#' Confidence intervals for Kendall's tau between two rankings
#'
#' How sure is the agreement of two rankings of systems, e.g. by two
#' measures, by two sets of judgements, or by a subset and all topics?
#'
#' @section Which tau the interval is for (`target`):
#' With `x` and `y` score matrices (systems x topics, the same systems and
#' topics, no `NA`) the rankings are by mean score, best first by each
#' matrix's measure record (the lowest mean first where lower is better, the
#' geometric mean for `gm_map`: see [measure_info()]), the systems are fixed
#' and the topics are a random sample. Means within \eqn{10^{-9}} times the
#' matrix's largest absolute score of each other are ties, in the estimate,
#' every resample and every leave-one-out ranking (equal P@10 means would
#' otherwise be ordered by the rounding of their sums). Two quantities can then be meant:
#' * `target = "expected"` (the default): the tau to expect from an
#'   evaluation on this many topics (the mean of the estimate over samples
#'   of \eqn{n} topics; the estimate is one draw of it);
#' * `target = "population"`: the tau between the rankings by the systems'
#'   means over the whole population of topics (infinitely many topics).
#'
#' They differ: with finite topics, systems whose means are close are
#' ordered at random, so the estimate is biased down from the population
#' tau. The bootstrap does not remove that bias: resampled topic sets
#' repeat topics and rank the systems less alike again, so the resampled
#' tau lies mostly below the estimate. The expected tau is what an
#' evaluation of this size will show; the population tau says whether the
#' two rankings agree at all, and its interval (the jackknife) is much
#' wider.
#'
#' @section Intervals (`method`):
#' Each method is an interval for one target; `method = NULL` takes the
#' target's default, and a method of the other target is an error.
#' * `"percentile"` (expected; its default): the quantiles of the `B`
#'   resampled tau (topics resampled with replacement, the same topics for
#'   both matrices; quantiles read as in [mean_intervals()]). It follows the
#'   resampled tau, so it lies mostly below the estimate and may exclude it
#'   (`print()` then says so).
#' * `"normal"` (expected): \eqn{\hat\tau \pm z_{1-a/2}\, s^*}, with
#'   \eqn{s^*} the standard deviation of the resampled tau, cut to
#'   \eqn{[-1, 1]}; it contains the estimate.
#' * `"jackknife"` (population; its default): leaves one topic out at a
#'   time; the normal interval \eqn{\hat\tau \pm z_{1-a/2}\, se} with the
#'   jackknife standard error \eqn{se^2 = \frac{n - 1}{n}\sum_i
#'   (\hat\tau_{(i)} - \bar\tau_{(\cdot)})^2}, cut to \eqn{[-1, 1]}.
#' * `"bca"` (population): the BCa interval of the resampled tau (as in
#'   [mean_intervals()], with the acceleration from the jackknife over
#'   topics (Efron & Tibshirani 1993, eq. 14.15: about the mean of the
#'   leave-one-out values; `boot::empinf(type = "jack")` centres them on the
#'   estimate instead), \eqn{L_i = (n - 1)(\bar\tau_{(\cdot)} -
#'   \hat\tau_{(i)})}). It is meant to correct the bootstrap's bias, and does
#'   not: it undercovers both targets (below).
#'
#' Measured coverage of nominal 95% intervals (known truth, 400 data sets
#' per setting: 15 systems with 25 and 50 topics, synthetic and Robust 2004
#' AP against P@10, and all 110 Robust 2004 systems with 50 topics;
#' `bench/README.md`, section 40): of the expected tau, percentile
#' 0.97-1.00 with 15 systems and 0.92 with 110, normal 0.93-0.96, BCa
#' 0.72-0.77; of the population tau, jackknife 0.98-1.00 with 15 systems
#' and 0.92 with 110, at 1.2-2.6 times the percentile interval's width, BCa
#' 0.55-0.69, percentile 0.19-0.94. The percentile interval lay wholly
#' below its estimate in at most 1.25% of the data sets.
#'
#' With `x` and `y` numeric vectors (one value per item) the items are the
#' sample, and only the jackknife over items applies (their default): an
#' interval for the tau of the population of items.
#'
#' A bootstrap endpoint beyond the smallest or largest resampled tau (taken
#' as that extreme value) comes with a warning of class
#' `irtopics_warning_extreme` unless that value recurs among the resamples
#' (e.g. tau = 1): the level is not reached there.
#' Tau is the coefficient of [kendall_tau()] (`type`), computed on every
#' resample by the same C++ code. Score matrices of 2 systems give a tau of
#' +1 or -1 and an interval that means nothing: a warning of class
#' `irtopics_warning_too_few` says so.
#'
#' @param x,y Two score matrices (systems x topics: `ir_scores` or numeric
#'   matrices with the same system and topic names) or two numeric vectors
#'   of the same length.
#' @param type `"b"`, `"a"` or `"ap"` (see [kendall_tau()]; for `"ap"`, `x`
#'   is the evaluated ranking and `y` the reference).
#' @param conf Confidence level.
#' @param target `NULL`, `"expected"` or `"population"`: which tau the
#'   interval is for (see the section). `NULL`: the target of `method`, or
#'   `"expected"` (for vectors `"population"`, the only one).
#' @param method `NULL` (the target's default: `"percentile"` for the
#'   expected tau, `"jackknife"` for the population one), `"percentile"`,
#'   `"normal"`, `"jackknife"` or `"bca"` (all but the jackknife resample
#'   topics: matrices only).
#' @param B Bootstrap resamples.
#' @param seed `NULL` or a whole number: the seed of the resamples.
#' @inheritParams irtopics_progress
#' @return An `ir_tau_interval` list: `estimate`, `conf.low`, `conf.high`,
#'   `method`, `target`, `type`, `conf`, `over` (`"topics"` or `"items"`), `n`
#'   (topics or items), `n_systems`, `B` and `seed` (`NA` for the jackknife),
#'   `std.error` (the jackknife's; the sd of the resampled tau for the
#'   bootstrap), `replicates` (the resampled or leave-one-out tau).
#'   `autoplot()` draws the replicates' histogram with the estimate and the
#'   interval.
#' @examples
#' dir <- system.file("extdata", "score-matrices", package = "irtopics")
#' ap <- read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")
#' p10 <- p10[rownames(ap), colnames(ap)]
#' top <- order(-rowMeans(ap))[1:20]
#' # the tau to expect from an evaluation on 50 topics (bootstrap percentile)
#' tau_interval(ap[top, ], p10[top, ], B = 1000, seed = 1)
#' # the tau of the rankings over all topics (jackknife over topics)
#' tau_interval(ap[top, ], p10[top, ], target = "population")
#' # two vectors: the jackknife over items
#' tau_interval(rowMeans(ap), rowMeans(p10))
#' @export
tau_interval <- function(x, y, type = c("b", "a", "ap"), conf = 0.95, method = NULL, target = NULL,
                         B = 1000, seed = NULL, progress = NULL) {
  type <- match_choice(type)
  check_conf(conf)
  matrices <- is.matrix(x) || is.data.frame(x)
  if (!matrices && !is.null(method) && !identical(method, "jackknife")) {
    stop_irtopics(c("{.code method = {show_value(method)}} resamples topics and needs score matrices.",
                    i = "Give {.arg x} and {.arg y} as systems x topics matrices, or use {.code method = \"jackknife\"}."))
  }
  if (!matrices && identical(target, "expected")) {
    stop_irtopics(c("{.code target = \"expected\"} resamples topics and needs score matrices.",
                    i = "With two vectors the items are the sample: the interval is the jackknife's, for the population of items."))
  }
  how <- agreement_interval(target, method, if (matrices) c("jackknife", "bca", "normal", "percentile") else
    "jackknife", over = if (matrices) "topics" else "items")
  method <- how$method
  if (matrices) {
    # values whose means rank the systems best first (each measure's aggregate and direction)
    frame <- environment()
    ranked <- function(s, arg) {
      unclass_scores(ranking_values(check_scores(s, allow_na = FALSE, min_systems = 2L, min_topics = 3L,
                                                 arg = arg, call = frame)))
    }
    mx <- ranked(x, "x")
    my <- ranked(y, "y")
    if (!identical(dim(mx), dim(my)) || !setequal(rownames(mx), rownames(my)) ||
        !setequal(colnames(mx), colnames(my))) {
      stop_irtopics(c("{.arg x} and {.arg y} must hold the same systems and topics.",
                      i = "Got {nrow(mx)} x {ncol(mx)} and {nrow(my)} x {ncol(my)}."), kind = "data")
    }
    my <- my[rownames(mx), colnames(mx), drop = FALSE]
    warn_too_few(nrow(mx), 3L, "system", "Tau and its interval",
                 "Two rankings of 2 systems agree (tau 1) or not (-1): the interval is one of these or both.")
    # means equal to within rounding are ties (tie_means())
    sx <- max(abs(mx))
    sy <- max(abs(my))
    means_tau <- function(ax, ay) rank_cor_impl(tie_means(ax, sx), tie_means(ay, sy), type)
    stat <- function(cols) means_tau(rowMeans(mx[, cols, drop = FALSE]), rowMeans(my[, cols, drop = FALSE]))
    n <- ncol(mx)
    estimate <- stat(seq_len(n))
  } else {
    if (!is.numeric(x) || !is.numeric(y) || length(x) != length(y) || length(x) < 3L) {
      stop_irtopics("{.arg x} and {.arg y} must be two score matrices or two numeric vectors of the same length (3 or more).")
    }
    if (anyNA(x) || anyNA(y)) stop_irtopics("{.arg x} and {.arg y} must not contain NA.", kind = "data")
    x <- as.double(x)
    y <- as.double(y)
    stat <- function(cols) rank_cor_impl(x[cols], y[cols], type)
    n <- length(x)
    estimate <- stat(seq_len(n))
  }
  check_seed(seed)
  local_progress(progress)
  loo <- function() vapply(seq_len(n), function(i) stat(seq_len(n)[-i]), numeric(1))
  if (method != "jackknife") {
    check_whole(B, "B", min = 2)
    seed <- resolve_seed(seed)
    # kept per resample: its topic positions and its tau; the means of both
    # matrices are computed in blocks of resamples (the same resamples for
    # both), each block's tau kept
    S <- nrow(mx)
    check_bootstrap_memory(B, n, S, kept = 8, copies = 6, block_copies = 8)
    idx <- draw_topic_indices(n, B, seed)
    mean_x <- resample_means(mx)
    mean_y <- resample_means(my)
    reps <- bootstrap_blocks(B, S, function(rows) {
      rx <- mean_x(idx, rows)
      ry <- mean_y(idx, rows)
      vapply(seq_along(rows), function(b) means_tau(rx[b, ], ry[b, ]), numeric(1))
    })
    fin <- reps[is.finite(reps)]
    se <- stats::sd(fin)
    if (method == "normal") {
      bounds <- normal_bounds(estimate, se, conf)
    } else {
      p <- c((1 - conf) / 2, (1 + conf) / 2)
      if (method == "bca" && length(fin) && !is.na(estimate)) {
        jack <- loo()
        p <- bca_levels(estimate, fin, (n - 1) * (mean(jack, na.rm = TRUE) - jack), p, "below", 1e-12)
      }
      bounds <- if (length(fin) && !is.na(estimate) && !anyNA(p)) normal_scale_quantiles(fin, p) else
        c(NA_real_, NA_real_)
      if (isTRUE(attr(bounds, "extreme"))) warn_extreme_endpoints("tau", B)
      bounds <- as.vector(bounds)
    }
  } else {
    reps <- loo()
    se <- jackknife_se(reps)
    bounds <- normal_bounds(estimate, se, conf)
    B <- NA_real_
    seed <- NA_real_
  }
  new_ir_tau_interval(list(estimate = estimate, conf.low = bounds[1], conf.high = bounds[2], method = method,
                           target = how$target, type = type, conf = conf,
                           over = if (matrices) "topics" else "items", n = n,
                           n_systems = if (matrices) nrow(mx) else n, B = as.double(B), seed = seed,
                           std.error = se, replicates = reps))
}

# What an interval on the agreement of two rankings is for ------------------------

# Rankings by the means over a sample of topics agree less than those by
# the population means (systems whose means are close are ordered at
# random), and topic resamples agree less again. An interval on such an
# agreement (tau_interval(), compare_qrels()' leaderboard) is therefore an
# interval for one of two targets, and each method for one of them (what
# it covers, measured in bench/README.md):
# * "population": the agreement of the rankings by the population means;
# * "expected": the mean agreement of evaluations on this many topics.
agreement_interval_targets <- c(jackknife = "population", bca = "population", basic = "population",
                                normal = "expected", percentile = "expected")
# each target's default: the method that covered it; "expected" is the
# default target
agreement_default_methods <- c(expected = "percentile", population = "jackknife")

# The target and method of an agreement interval from the user's `target`
# and `method` (either may be NULL), among the `methods` the caller offers:
# list(target, method). A method of the other target is an error that says
# which method to use.
agreement_interval <- function(target, method, methods, over = "topics", target_arg = "target",
                               method_arg = "method", call = rlang::caller_env()) {
  targets <- unique(unname(agreement_interval_targets[methods]))
  if (!is.null(target)) target <- match_choice(target, targets, target_arg, call = call)
  if (!is.null(method)) method <- match_choice(method, methods, method_arg, call = call)
  if (is.null(method)) {
    target <- target %||% (if ("expected" %in% targets) "expected" else targets[1])
    method <- agreement_default_methods[[target]]
  }
  implied <- agreement_interval_targets[[method]]
  if (!is.null(target) && target != implied) {
    stop_irtopics(c("{.code {method_arg} = \"{method}\"} is an interval for the {implied} agreement, not the {target} one.",
                    i = "Use {.code {method_arg} = \"{agreement_default_methods[[target]]}\"} (or {.code NULL}) for {.code {target_arg} = \"{target}\"}."),
                  call = call)
  }
  list(target = implied, method = method)
}

# What each target is, for print() and the help: "the <statistic> of ...".
agreement_target_text <- function(target, n, over = "topics") {
  if (over == "items") return("of the population of items")
  switch(target, population = "over the population of topics (the rankings by the systems' population means)",
         expected = sprintf("to expect from an evaluation on %d topics", n))
}

# The normal interval estimate +- z se, cut to `range`.
normal_bounds <- function(estimate, se, conf, range = c(-1, 1)) {
  half <- stats::qnorm(1 - (1 - conf) / 2) * se
  c(max(range[1], estimate - half), min(range[2], estimate + half))
}

# The jackknife standard error of leave-one-out values.
jackknife_se <- function(loo) {
  n <- length(loo)
  sqrt((n - 1) / n * sum((loo - mean(loo))^2))
}

# A note when intervals lie entirely on one side of their estimates (NULL
# when none does), saying why: bootstrap intervals of an agreement follow
# the resampled rankings, which agree less than the observed ones. `what`,
# `estimate`, `low`, `high` are parallel vectors (one per statistic), `n`
# the number of topics.
excluded_estimate_note <- function(what, estimate, low, high, n, method) {
  out <- is.finite(estimate) & is.finite(low) & is.finite(high) & (estimate < low | estimate > high)
  if (!any(out)) return(NULL)
  below <- high[out] < estimate[out]
  side <- if (all(below)) "below" else if (!any(below)) "above" else "outside"
  items <- sprintf("%s [%.4f, %.4f]", what[out], low[out], high[out])
  why <- if (method == "percentile") {
    sprintf(paste("the percentile interval follows them: it is an interval for the agreement to expect on %d",
                  "topics, of which the estimate is one draw, not for the agreement over the topic population."), n)
  } else {
    sprintf(paste("the %s interval corrects by the bootstrap's own estimate of that bias, which is unreliable",
                  "here (it undercovered in bench/README.md)."), c(bca = "BCa", basic = "basic")[[method]])
  }
  sprintf("Note: the interval%s of %s lie%s %s %s estimate%s %s. Resampled topic sets repeat topics and rank the systems less alike than the %d topics do; %s",
          if (length(items) > 1L) "s" else "", paste(items, collapse = " and "), if (length(items) > 1L) "" else "s",
          side, if (length(items) > 1L) "their" else "its", if (length(items) > 1L) "s" else "",
          paste(sprintf("%.4f", estimate[out]), collapse = " and "), n, why)
}

new_ir_tau_interval <- function(x) {
  new_result(x, "ir_tau_interval",
             fields = c(estimate = "number", conf.low = "number", conf.high = "number", method = "string",
                        target = "string", type = "string", conf = "number", over = "string", n = "number",
                        n_systems = "number", B = "number", seed = "number", std.error = "number",
                        replicates = "numeric"))
}

tau_labels <- c(b = "Kendall's tau-b", a = "Kendall's tau-a", ap = "tau_AP")

tau_interval_text <- function(x) {
  how <- if (x$method != "jackknife") {
    sprintf("bootstrap %s over %d topics (B = %s, seed = %s)",
            c(bca = "BCa", percentile = "percentile", normal = "normal")[[x$method]], x$n,
            format(x$B, big.mark = ","), format(x$seed))
  } else sprintf("jackknife over %d %s, normal approximation", x$n, x$over)
  # (results stored before the target was recorded)
  target <- x$target %||% agreement_interval_targets[[x$method]]
  sprintf("%g%% interval for the tau %s: %s", 100 * x$conf, agreement_target_text(target, x$n, x$over), how)
}

# The same, short, for the figure's subtitle.
tau_interval_subtitle <- function(x) {
  target <- x$target %||% agreement_interval_targets[[x$method]]
  name <- c(jackknife = "jackknife", bca = "BCa", percentile = "percentile", normal = "normal")[[x$method]]
  sprintf("%g%% %s interval%s for the %s", 100 * x$conf, name,
          if (x$method == "jackknife") "" else sprintf(" (B = %s)", format(x$B, big.mark = ",")),
          if (x$over == "items") "tau of the population of items" else if (target == "population")
            "population tau" else sprintf("tau expected on %d topics", x$n))
}

#' @rdname tau_interval
#' @param ... Unused.
#' @export
format.ir_tau_interval <- function(x, ...) {
  c(sprintf("<ir_tau_interval> %s between two rankings of %s", tau_labels[[x$type]], plural(x$n_systems, "item")),
    sprintf("tau = %.4f [%.4f, %.4f]", x$estimate, x$conf.low, x$conf.high),
    tau_interval_text(x),
    excluded_estimate_note("tau", x$estimate, x$conf.low, x$conf.high, x$n, x$method))
}

#' @rdname tau_interval
#' @export
print.ir_tau_interval <- function(x, ...) print_formatted(x, ...)

#' @rdname tau_interval
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_tau_interval <- function(x, row.names = NULL, optional = FALSE, ...) {
  data.frame(estimate = x$estimate, conf.low = x$conf.low, conf.high = x$conf.high, std.error = x$std.error,
             conf.level = x$conf, method = x$method,
             target = x$target %||% agreement_interval_targets[[x$method]], type = x$type, over = x$over, n = x$n,
             stringsAsFactors = FALSE)
}

#' @rdname tau_interval
#' @param object An `ir_tau_interval` object.
#' @export
summary.ir_tau_interval <- function(object, ...) {
  new_summary("ir_tau_interval", paste(tau_labels[[object$type]], "with its", tau_interval_text(object)),
              as.data.frame(object))
}

#' @rdname tau_interval
#' @method autoplot ir_tau_interval
#' @export
autoplot.ir_tau_interval <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_tau_interval")
  reps <- data.frame(tau = object$replicates[is.finite(object$replicates)])
  lines <- data.frame(value = c(object$estimate, object$conf.low, object$conf.high),
                      what = factor(c("estimate", "interval", "interval"), levels = c("estimate", "interval")))
  lines <- lines[is.finite(lines$value), , drop = FALSE]
  what <- if (object$method != "jackknife") "Resampled" else "Leave-one-out"
  sym <- tau_symbols[[object$type]]
  num <- function(v) sprintf("%.3f", v)
  title <- bquote(.(sym) == .(num(object$estimate)) ~ "[" * .(num(object$conf.low)) * ", " *
                    .(num(object$conf.high)) * "]")
  ggplot2::ggplot(reps, ggplot2::aes(x = .data$tau)) +
    ggplot2::geom_histogram(bins = 30L, fill = "grey70", colour = "grey40") +
    ggplot2::geom_vline(data = lines, ggplot2::aes(xintercept = .data$value, linetype = .data$what)) +
    ggplot2::scale_linetype_manual(values = c(estimate = "solid", interval = "dashed"), name = NULL,
                                   labels = c(estimate = "estimate", interval = sprintf("%g%% interval", 100 * object$conf))) +
    ggplot2::scale_x_continuous(n.breaks = 4) +
    plot_labels(title = title, subtitle = wrap_text(tau_interval_subtitle(object), 45L),
                x = bquote(.(what) ~ .(sym)), y = "Count") +
    title_theme(legend = TRUE)
}

# tau_labels as plotmath, for figures.
tau_symbols <- list(b = quote(Kendall*"'s"~tau[b]), a = quote(Kendall*"'s"~tau[a]), ap = quote(tau[AP]))
