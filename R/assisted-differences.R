# Differences of systems and rank intervals from judge-assisted estimates
# (issue 41): the PPI estimator of R/assisted-means.R applied to paired
# per-topic differences, z, t or skewness-corrected t tests, the corrections
# of compare_systems(), its decision table, and which conclusions change
# between judge only, human only and assisted.

#' Judge-assisted differences of systems, tests and conclusions
#'
#' Paired differences of systems from an [assisted_means()] result: for a
#' pair (A, B) the estimator of `assisted_means()` is applied to
#' \eqn{Y_t = Y_{A,t} - Y_{B,t}} (human labels) and \eqn{f_t = f_{A,t} -
#' f_{B,t}} (judge labels), paired by topic, with PPI++'s \eqn{\lambda}
#' tuned per pair (and PPI++'s fallback to human only, `x`'s `fallback`,
#' decided per pair); every method of `x` is computed. Each difference is
#' tested with \eqn{z = \hat\theta / se} and the two-sided \eqn{p = 2(1 -
#' \Phi(|z|))} (with `interval = "t"`, the default, the \eqn{t} distribution
#' on the same degrees of freedom as the intervals). With `interval =
#' "skew_t"` the test is the one its interval makes: \eqn{p} is the level
#' \eqn{1 - \mathrm{conf}} at which the skewness-corrected interval's end
#' reaches 0 (the smallest \eqn{q > 0} with \eqn{|\hat\theta + (1 + 2q^2)
#' s / 6| = q\, se}, \eqn{p = 2(1 - F_t(q))}; `statistic` is that \eqn{q},
#' signed), so that a difference is significant at level \eqn{\alpha}
#' exactly when its \eqn{1 - \alpha} interval excludes 0. Where no \eqn{q}
#' reaches 0 (a skewness so large that the correction outgrows the
#' interval, which then excludes 0 at every level), the p-value is that of
#' Johnson's (1978) modified t statistic
#' \eqn{T + s(1 + 2T^2)/(6\, se)}, \eqn{T = \hat\theta / se}. The
#' standard error is `x`'s: with `se = "jackknife"` (the default) PPI++'s
#' is the jackknife one, the pair's lambda re-tuned without each topic (see
#' [assisted_means()]). The p-values of each
#' measure and method are corrected over the pairs by `correction` (the
#' corrections of [compare_systems()]).
#'
#' The decisions of the first method of `x` (PPI++ by default) make the
#' decision table printed (as [compare_systems()]'s report: assisted means,
#' the systems each is significantly better than). `conclusions` compares,
#' pair by pair, the decision (first system significantly better, second
#' significantly better, none) of three analyses with the same test and
#' correction: judge only (the judge's scores on all topics taken as if they
#' were human labels), human only (the classical estimate on the labelled
#' topics) and assisted.
#'
#' @section Reconstruction:
#' Ours (DERIVED): the judge-only decisions test the judge's scores of all
#' topics with the same z (or t) test, as if they were human labels (what a
#' study that trusts the judge would conclude); a pair's PPI++ lambda is
#' tuned on the pair's differences (not taken from the two systems'
#' lambdas), as the spec defines a difference; the decisions of the first
#' method of `x` lead. A pair whose judge differences are constant on the
#' labelled topics falls back to lambda = 0 with an
#' `irtopics_warning_constant_judge`.
#'
#' @param x An `ir_assisted_means` from [assisted_means()].
#' @param baseline `NULL` (all pairs) or one system: every other system
#'   minus it.
#' @param correction A [stats::p.adjust()] method over the pairs of each
#'   measure and method (`"holm"` by default, as [compare_systems()]).
#' @param alpha Significance level (default: one minus `x`'s confidence
#'   level).
#' @param interval `NULL` (default: `x`'s interval, except that `"skew_t"`
#'   becomes `"t"`), or `"t"`, `"skew_t"`, `"normal"`: the differences'
#'   intervals and tests. The skewness correction is for means of skewed
#'   scores; differences of systems are much less skewed, and on Robust 2004
#'   AP its noisy estimate of their skewness cost the differences' intervals
#'   coverage (.885--.92 against .95--.96 with t at 10 and 25 labelled
#'   topics, `bench/README.md` section 42).
#' @param ... Unused.
#' @return An `ir_assisted_differences` list: `table` (one row per measure,
#'   pair and method: `measure`, `system1`, `system2`, `method`, `lambda`,
#'   `estimate` (system1 - system2), `std.error`, `conf.low`, `conf.high`
#'   (unadjusted, at `x`'s level), `statistic`, `p.value`, `p.adjusted`,
#'   `significant`, `n_labelled`, `n_unlabelled`), `conclusions` (per
#'   measure and pair: `judge_only`, `human_only`, `assisted`, each
#'   `"system1"`, `"system2"` (the significantly better one) or `"none"`,
#'   and `changed_from_judge`, `changed_from_human`), `means` (systems x
#'   measures, the first method's estimates), `scores` (the judge's score
#'   matrices, for the measures' directions), `methods`, `correction`,
#'   `alpha`, `baseline`, `conf`, `interval`, `se`. `as.data.frame(x, what =
#'   "conclusions")` gives the conclusions.
#' @seealso [compare_systems()] for tests on one label set.
#' @references Johnson, N. J. (1978). Modified t tests and confidence
#'   intervals for asymmetrical populations. *Journal of the American
#'   Statistical Association* 73(363), 536--544.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:5], ]
#' set.seed(1)
#' judge <- top
#' judge[] <- pmin(1, pmax(0, top + rnorm(length(top), -0.05, 0.08)))
#' am <- assisted_means(top[, sample(colnames(top), 25)], judge)
#' d <- assisted_differences(am)
#' d
#' as.data.frame(d, what = "conclusions")
#' cat(format(d, "latex", caption = "AP with 25 human-labelled topics"), sep = "\n")
#' ggplot2::autoplot(d)
#' @export
assisted_differences <- function(x, baseline = NULL, correction = "holm", alpha = 1 - x$conf, interval = NULL,
                                 ...) {
  check_assisted(x)
  check_no_dots(..., help = "assisted_differences")
  interval <- difference_interval(x, interval)
  check_correction(correction)
  check_number(alpha, "alpha", min = 0, max = 1)
  if (alpha <= 0 || alpha >= 1) stop_irtopics("{.arg alpha} must be strictly between 0 and 1.")
  systems <- rownames(x$data[[1]]$Y)
  if (length(systems) < 2L) stop_irtopics("{.arg x} must hold at least 2 systems to compare.", kind = "data")
  if (!is.null(baseline)) {
    if (!is.character(baseline) || length(baseline) != 1L || is.na(baseline)) {
      stop_irtopics("{.arg baseline} must be the name of one system, or NULL for all pairs.")
    }
    check_names_in(baseline, systems, arg = "baseline", of = "x")
  }
  pr <- compare_pairs(systems, baseline)
  conf <- 1 - alpha
  st <- x$strata
  decide <- function(rows) {
    rows$p.adjusted <- stats::p.adjust(rows$p.value, method = correction)
    rows$significant <- !is.na(rows$p.adjusted) & rows$p.adjusted < alpha
    rows
  }
  parts <- lapply(names(x$data), function(meas) {
    d <- pair_data(x$data[[meas]], pr)
    e <- assisted_estimates(d, x$methods, st, x$stratum_lambda, x$conf, interval, x$se, x$fallback %||% "never")
    rows <- do.call(rbind, lapply(e$rows, function(r) {
      r <- decide(ppi_bounds(r, conf, interval))
      # the printed interval at x's level, the test at alpha
      b <- ppi_bounds(r[c("estimate", "std.error", "df", "skew")], x$conf, interval)
      data.frame(measure = meas, system1 = systems[pr$first], system2 = systems[pr$second], method = r$method,
                 lambda = r$lambda, estimate = r$estimate, std.error = r$std.error, conf.low = b$conf.low,
                 conf.high = b$conf.high, statistic = r$statistic, p.value = r$p.value, p.adjusted = r$p.adjusted,
                 significant = r$significant, n_labelled = length(x$labelled),
                 n_unlabelled = length(x$unlabelled), stringsAsFactors = FALSE)
    }))
    flat <- Reduce(`|`, lapply(e$rows, `[[`, "constant"))
    if (any(flat)) {
      warn_irtopics(c("{.val {meas}}: the judge's differences are constant on the labelled topics for {sum(flat)} pair{?s}; PPI++ falls back to the classical estimate (lambda = 0) there.",
                      i = "{show_ids(rownames(d$Y)[flat])}"), kind = "constant_judge")
    }
    judge <- decide(ppi_bounds(e$judge, conf, interval))
    human <- decide(ppi_bounds(e$human, conf, interval))
    lead <- rows[rows$method == x$methods[1], , drop = FALSE]
    verdict <- function(sig, est) ifelse(!sig, "none", ifelse(est > 0, "system1", "system2"))
    concl <- data.frame(measure = meas, system1 = systems[pr$first], system2 = systems[pr$second],
                        judge_only = verdict(judge$significant, judge$estimate),
                        human_only = verdict(human$significant, human$estimate),
                        assisted = verdict(lead$significant, lead$estimate), stringsAsFactors = FALSE)
    # "better" in the measure's direction
    if (x$records$direction[x$records$measure == meas] == "lower") {
      flip <- c(none = "none", system1 = "system2", system2 = "system1")
      for (k in c("judge_only", "human_only", "assisted")) concl[[k]] <- unname(flip[concl[[k]]])
    }
    concl$changed_from_judge <- concl$assisted != concl$judge_only
    concl$changed_from_human <- concl$assisted != concl$human_only
    list(rows = rows, conclusions = concl)
  })
  bind <- function(k) {
    out <- do.call(rbind, lapply(parts, `[[`, k))
    rownames(out) <- NULL
    out
  }
  lead <- x$table[x$table$method == x$methods[1], , drop = FALSE]
  means <- vapply(names(x$data), function(meas) {
    r <- lead[lead$measure == meas, , drop = FALSE]
    r$estimate[match(systems, r$system)]
  }, numeric(length(systems)))
  means <- matrix(means, length(systems), dimnames = list(systems, names(x$data)))
  scores <- lapply(names(x$data), function(meas) {
    s <- cbind(x$data[[meas]]$f, x$data[[meas]]$fu)
    attr(s, "measure") <- meas
    attr(s, "direction") <- x$records$direction[x$records$measure == meas]
    attr(s, "aggregate") <- x$records$aggregate[x$records$measure == meas]
    s
  })
  names(scores) <- names(x$data)
  new_ir_assisted_differences(list(
    table = bind("rows"), conclusions = bind("conclusions"), means = means, scores = scores,
    methods = x$methods, correction = correction, alpha = alpha, baseline = baseline, conf = x$conf,
    interval = interval, se = x$se %||% "plugin", n_labelled = length(x$labelled),
    n_unlabelled = length(x$unlabelled)
  ))
}

new_ir_assisted_differences <- function(x) {
  new_result(x, "ir_assisted_differences",
             fields = c(table = "data.frame", conclusions = "data.frame", means = "matrix", scores = "list",
                        methods = "character", correction = "string", alpha = "number", baseline = "string?",
                        conf = "number", interval = "string", se = "string", n_labelled = "number",
                        n_unlabelled = "number"))
}

# The differences' interval: the argument, or x's with "skew_t" made "t".
difference_interval <- function(x, interval, call = rlang::caller_env()) {
  if (is.null(interval)) return(if (identical(x$interval, "skew_t")) "t" else x$interval)
  if (!is.character(interval) || length(interval) != 1L || !interval %in% c("t", "skew_t", "normal")) {
    stop_irtopics("{.arg interval} must be NULL or one of {.val t}, {.val skew_t}, {.val normal}, not {show_value(interval)}.",
                  call = call)
  }
  interval
}

# "t tests, PPI++ jackknife se": the test and standard error of a result.
assisted_test_words <- function(x) {
  paste0(switch(x$interval, t = "t tests", skew_t = "skewness-corrected t tests", "z tests"),
         if ("ppi++" %in% x$methods) paste0(", PPI++ ", if (x$se == "jackknife") "jackknife" else "plug-in", " se") else "")
}

check_assisted <- function(x, call = rlang::caller_env()) {
  if (!inherits(x, "ir_assisted_means")) {
    stop_irtopics("{.arg x} must be an {.cls ir_assisted_means} from {.fn assisted_means}, not {.obj_type_friendly {x}}.",
                  call = call)
  }
  invisible(x)
}

# The paired differences of one measure's data, one row per pair.
pair_data <- function(d, pr) {
  diff <- function(m) {
    out <- m[pr$first, , drop = FALSE] - m[pr$second, , drop = FALSE]
    rownames(out) <- paste(rownames(m)[pr$first], rownames(m)[pr$second], sep = " - ")
    out
  }
  list(Y = diff(d$Y), f = diff(d$f), fu = diff(d$fu))
}

assisted_differences_header <- function(x, format = "plain") {
  table_text(format, paste(assisted_method_labels[[x$methods[1]]], "decisions; "), correction_labels[[x$correction]],
             ", ", table_relation("alpha", "=", format(x$alpha), format),
             sprintf(", %s: %d labelled and %d unlabelled topics, %s",
                     assisted_test_words(x), x$n_labelled, x$n_unlabelled,
                     if (is.null(x$baseline)) "all pairs" else paste("against baseline", x$baseline)))
}

# The decision table of compare_systems()'s report (its helpers), from the
# first method's decisions, in a format ("plain" without the report's first
# line: the print has its own header).
assisted_report <- function(x, format = "plain", digits = 4L, caption = NULL, label = NULL, booktabs = TRUE) {
  lead <- x$table[x$table$method == x$methods[1], , drop = FALSE]
  cmp <- list(table = lead, means = x$means, scores = x$scores)
  records <- score_records(x$scores)
  systems <- report_order(x$means, 1L, stats::setNames(records$direction, records$measure))
  marks <- beaten_labels(cmp, systems)
  legend <- table_text(format, if (format == "plain") "^" else "A superscript",
                       " marks the systems a system is significantly better than (", table_symbol("p", format),
                       adjusted_p_words[[x$correction]], " ", table_relation(NULL, "lt", format(x$alpha), format),
                       sprintf("); %d of %d comparisons significant; %s means from few human labels.",
                               sum(lead$significant), nrow(lead), assisted_method_labels[[x$methods[1]]]))
  out <- report_table(x$means[systems, , drop = FALSE], marks, format, digits, baseline = x$baseline,
                      header = assisted_differences_header(x, format), legend = legend,
                      caption = caption, label = label, booktabs = booktabs, direction = records$direction)
  if (format == "plain") out[-1L] else out
}

#' @rdname assisted_differences
#' @param format `"plain"` (the printed report: the decision table and the
#'   conclusions that change), or the decision table for a paper,
#'   `"latex"` or `"markdown"`, as [format.ir_comparison()] writes it.
#' @param n Conclusions printed (those that change first).
#' @param digits Decimals of the means.
#' @param caption,label,booktabs As in [format.ir_comparison()].
#' @export
format.ir_assisted_differences <- function(x, format = c("plain", "latex", "markdown"), n = 10L, digits = 4,
                                           caption = NULL, label = NULL, booktabs = TRUE, ...) {
  format <- match_choice(format)
  check_number(n, "n", min = 0, integer = TRUE)
  check_report_args(digits, caption, label, booktabs)
  if (format != "plain") return(assisted_report(x, format, digits, caption, label, booktabs))
  concl <- x$conclusions
  changed <- concl[concl$changed_from_judge | concl$changed_from_human, , drop = FALSE]
  summary_line <- sprintf("# Conclusions: %d of %d differ from judge only, %d from human only.",
                          sum(concl$changed_from_judge), nrow(concl), sum(concl$changed_from_human))
  shown <- utils::head(changed[c("measure", "system1", "system2", "judge_only", "human_only", "assisted")], n)
  c(paste("<ir_assisted_differences>", assisted_differences_header(x)), assisted_report(x, digits = digits),
    summary_line,
    if (nrow(shown)) c("Pairs whose conclusion changes (the significantly better system, or none):",
                       printed_lines(print(shown, row.names = FALSE, right = FALSE)),
                       more_line(pair = nrow(changed) - nrow(shown))))
}

#' @rdname assisted_differences
#' @export
print.ir_assisted_differences <- function(x, ...) print_formatted(x, ...)

#' @rdname assisted_differences
#' @param what `"differences"` (the table) or `"conclusions"`.
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_assisted_differences <- function(x, row.names = NULL, optional = FALSE,
                                                  what = c("differences", "conclusions"), ...) {
  what <- match_choice(what)
  if (what == "conclusions") x$conclusions else x$table
}

#' @rdname assisted_differences
#' @param object An `ir_assisted_differences` object.
#' @export
summary.ir_assisted_differences <- function(object, ...) {
  tab <- object$table
  key <- do.call(rbind, lapply(split(tab, list(tab$measure, tab$method), drop = TRUE), function(r) {
    data.frame(measure = r$measure[1], method = r$method[1], pairs = nrow(r), significant = sum(r$significant),
               median_half_width = stats::median((r$conf.high - r$conf.low) / 2), stringsAsFactors = FALSE)
  }))
  c_tab <- object$conclusions
  key$changed_from_judge <- vapply(key$measure, function(m) sum(c_tab$changed_from_judge[c_tab$measure == m]), 1L)
  key$changed_from_human <- vapply(key$measure, function(m) sum(c_tab$changed_from_human[c_tab$measure == m]), 1L)
  new_summary("ir_assisted_differences", paste("Judge-assisted differences:", assisted_differences_header(object)),
              key)
}

#' @rdname assisted_differences
#' @param measure With several measures, the one drawn (name or position).
#' @param pairs `NULL` or pairs to draw, named `"A - B"` as in the table.
#'   By default all pairs up to 30; beyond, the 30 whose conclusion changes
#'   first, then those with the smallest p-values (a message says so).
#' @export
#' @method autoplot ir_assisted_differences
autoplot.ir_assisted_differences <- function(object, measure = 1L, pairs = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_assisted_differences")
  meas <- pick_assisted_measure(list(data = object$scores), measure)
  tab <- object$table[object$table$measure == meas, , drop = FALSE]
  tab$pair <- paste(tab$system1, "-", tab$system2)
  shown <- assisted_shown_pairs(object, meas, pairs)
  tab <- tab[tab$pair %in% shown, , drop = FALSE]
  lead <- tab[tab$method == object$methods[1], , drop = FALSE]
  levels <- lead$pair[order(lead$estimate)]
  tab$pair <- factor(tab$pair, levels = levels)
  tab$method <- factor(assisted_method_labels[tab$method], levels = assisted_method_labels[object$methods])
  tab$decision <- ifelse(tab$significant, "significant", "not significant")
  n <- length(levels)
  ggplot2::ggplot(tab, ggplot2::aes(y = .data$pair)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey60", linetype = "dashed") +
    interval_bars(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high, colour = .data$method),
                  position = ggplot2::position_dodge(width = 0.6), height = 0.3) +
    ggplot2::geom_point(ggplot2::aes(x = .data$estimate, colour = .data$method, shape = .data$decision),
                        position = ggplot2::position_dodge(width = 0.6)) +
    ggplot2::scale_colour_manual(values = stats::setNames(assisted_method_colours[object$methods],
                                                          assisted_method_labels[object$methods]), name = NULL) +
    ggplot2::scale_shape_manual(values = c(significant = 16, `not significant` = 1), name = NULL) +
    ggplot2::scale_y_discrete(guide = crowded_guide()) +
    plot_labels(x = paste("Difference of mean", meas), y = NULL,
                title = wrap_text(sprintf("Differences of %s with few human labels", meas)),
                subtitle = wrap_text(sprintf("%g%% intervals, unadjusted; filled: significant (%s)",
                                             100 * object$conf, correction_labels[[object$correction]]), 50L)) +
    title_theme(legend = TRUE) +
    crowded_y_theme(n)
}

# The pairs a figure draws: `pairs` (names "A - B"), or all up to
# `assisted_max_pairs`; beyond, the pairs whose conclusion changes, then
# those with the smallest p-values of the leading method, said by a message.
assisted_max_pairs <- 30L
assisted_shown_pairs <- function(x, meas, pairs, call = rlang::caller_env()) {
  concl <- x$conclusions[x$conclusions$measure == meas, , drop = FALSE]
  all <- paste(concl$system1, "-", concl$system2)
  if (!is.null(pairs)) {
    check_names_in(pairs, all, arg = "pairs", what = "pair", of = "object", call = call)
    return(pairs)
  }
  if (length(all) <= assisted_max_pairs) return(all)
  lead <- x$table[x$table$measure == meas & x$table$method == x$methods[1], , drop = FALSE]
  changed <- concl$changed_from_judge | concl$changed_from_human
  ord <- order(!changed, lead$p.value)
  shown <- all[ord[seq_len(assisted_max_pairs)]]
  inform_irtopics(c("i" = "{length(all)} pairs: the figure draws {assisted_max_pairs}, those whose conclusion changes first, then the smallest p-values ({sum(changed)} change{?s}).",
                    " " = "Choose them with {.arg pairs}; {.code as.data.frame()} has all."), kind = "layout")
  shown
}

# Rank intervals -------------------------------------------------------------------

#' Rank intervals from judge-assisted estimates
#'
#' Each system's rank by its judge-assisted mean, with an interval of ranks
#' read from the tests of [assisted_differences()]: with \eqn{K} systems, a
#' system's rank interval is \eqn{[1 + b, K - w]}, where \eqn{b} is the
#' number of systems significantly better than it and \eqn{w} the number
#' significantly worse (all pairs, `correction` over them). When the
#' correction controls the familywise error (`"holm"`, `"bonferroni"`,
#' `"hochberg"`, `"hommel"`), every system's true rank lies in its interval,
#' jointly, with probability at least `1 - alpha` up to the direction errors
#' of the tests (a significant pair has the true order unless a test errs),
#' as the pairwise-comparison rank sets of Klein, Wright & Wieczorek (2020);
#' with `"BH"`, `"BY"` or `"none"` there is no such guarantee. This method
#' needs no resampling (so no seed): unlike [rank_intervals()], which
#' bootstraps the topics of one complete matrix, the assisted estimates
#' combine two samples of topics whose variances PPI already gives. Rank 1
#' is the best mean in the measure's direction; means within \eqn{10^{-9}}
#' of the largest are tied (`tie_means()`, as [rank_intervals()]) and share
#' the best of their ranks.
#'
#' @param x An `ir_assisted_means` from [assisted_means()].
#' @param correction,alpha,interval As in [assisted_differences()]; the
#'   default `"holm"` gives simultaneous intervals.
#' @param ... Unused.
#' @return An `ir_assisted_ranks` list: `table` (one row per measure and
#'   system, by rank: `measure`, `system`, `estimate` (the first method's
#'   mean), `rank`, `conf.low`, `conf.high`, `better` (systems significantly
#'   better), `worse`), `method`, `methods`, `correction`, `alpha`,
#'   `interval` and `se` (those of the tests), `n_labelled`,
#'   `n_unlabelled`. `autoplot()` draws the intervals.
#' @references Klein, M., Wright, T. & Wieczorek, J. (2020). A joint
#'   confidence region for an overall ranking of populations. *Journal of
#'   the Royal Statistical Society C* 69(3), 589--606.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:6], ]
#' set.seed(2)
#' judge <- top
#' judge[] <- pmin(1, pmax(0, top + rnorm(length(top), 0, 0.05)))
#' am <- assisted_means(top[, sample(colnames(top), 25)], judge)
#' r <- assisted_ranks(am)
#' r
#' ggplot2::autoplot(r)
#' @export
assisted_ranks <- function(x, correction = "holm", alpha = 1 - x$conf, interval = NULL, ...) {
  check_assisted(x)
  check_no_dots(..., help = "assisted_ranks")
  d <- assisted_differences(x, correction = correction, alpha = alpha, interval = interval)
  lead <- d$table[d$table$method == x$methods[1], , drop = FALSE]
  systems <- rownames(d$means)
  K <- length(systems)
  tab <- do.call(rbind, lapply(colnames(d$means), function(meas) {
    concl <- d$conclusions[d$conclusions$measure == meas, , drop = FALSE]
    sig <- concl[concl$assisted != "none", , drop = FALSE]
    winner <- ifelse(sig$assisted == "system1", sig$system1, sig$system2)
    loser <- ifelse(sig$assisted == "system1", sig$system2, sig$system1)
    better <- vapply(systems, function(s) sum(loser == s), integer(1))
    worse <- vapply(systems, function(s) sum(winner == s), integer(1))
    est <- d$means[, meas]
    sign <- better_sign(x$records$direction[x$records$measure == meas])
    rank <- rank(-tie_means(sign * est), ties.method = "min")
    out <- data.frame(measure = meas, system = systems, estimate = unname(est), rank = as.integer(rank),
                      conf.low = as.integer(1L + better), conf.high = as.integer(K - worse),
                      better = unname(better), worse = unname(worse), stringsAsFactors = FALSE)
    out[order(out$rank, out$system), , drop = FALSE]
  }))
  rownames(tab) <- NULL
  new_ir_assisted_ranks(list(table = tab, method = x$methods[1], methods = x$methods, correction = correction,
                             alpha = alpha, interval = d$interval, se = d$se, n_labelled = length(x$labelled),
                             n_unlabelled = length(x$unlabelled)))
}

new_ir_assisted_ranks <- function(x) {
  new_result(x, "ir_assisted_ranks",
             fields = c(table = "data.frame", method = "string", methods = "character", correction = "string",
                        alpha = "number", interval = "string", se = "string", n_labelled = "number",
                        n_unlabelled = "number"))
}

assisted_ranks_header <- function(x) {
  sprintf("%g%% rank intervals from %s pairwise tests (%s; %s): %s, %d labelled and %d unlabelled topics",
          100 * (1 - x$alpha), assisted_method_labels[[x$method]], assisted_test_words(x),
          correction_labels[[x$correction]],
          plural(length(unique(x$table$system)), "system"), x$n_labelled, x$n_unlabelled)
}

#' @rdname assisted_ranks
#' @param n Systems printed per measure.
#' @export
format.ir_assisted_ranks <- function(x, n = 20L, ...) {
  check_number(n, "n", min = 0, integer = TRUE)
  out <- paste("<ir_assisted_ranks>", assisted_ranks_header(x))
  for (meas in unique(x$table$measure)) {
    r <- x$table[x$table$measure == meas, , drop = FALSE]
    shown <- data.frame(system = r$system, estimate = formatC(r$estimate, digits = 4, format = "f"), rank = r$rank,
                        interval = sprintf("[%d, %d]", r$conf.low, r$conf.high), stringsAsFactors = FALSE)
    out <- c(out, paste0(meas, ":"), printed_lines(print(utils::head(shown, n), row.names = FALSE, right = FALSE)),
             more_line(system = nrow(shown) - min(n, nrow(shown))))
  }
  out
}

#' @rdname assisted_ranks
#' @export
print.ir_assisted_ranks <- function(x, ...) print_formatted(x, ...)

#' @rdname assisted_ranks
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_assisted_ranks <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname assisted_ranks
#' @param object An `ir_assisted_ranks` object.
#' @export
summary.ir_assisted_ranks <- function(object, ...) {
  tab <- object$table
  width <- tab$conf.high - tab$conf.low + 1L
  key <- do.call(rbind, lapply(unique(tab$measure), function(m) {
    w <- width[tab$measure == m]
    data.frame(measure = m, systems = length(w), median_ranks_in_interval = stats::median(w),
               max_ranks_in_interval = max(w), sure_of_rank = sum(w == 1L), stringsAsFactors = FALSE)
  }))
  new_summary("ir_assisted_ranks", paste("Assisted rank intervals:", assisted_ranks_header(object)), key)
}

#' @rdname assisted_ranks
#' @param measure With several measures, the one drawn (name or position).
#' @export
#' @method autoplot ir_assisted_ranks
autoplot.ir_assisted_ranks <- function(object, measure = 1L, ...) {
  check_no_dots(..., help = "autoplot.ir_assisted_ranks")
  ms <- unique(object$table$measure)
  meas <- pick_assisted_measure(list(data = stats::setNames(as.list(ms), ms)), measure)
  tab <- object$table[object$table$measure == meas, , drop = FALSE]
  tab$system <- factor(tab$system, levels = rev(tab$system))
  n <- nrow(tab)
  ggplot2::ggplot(tab, ggplot2::aes(y = .data$system)) +
    interval_bars(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high), height = 0.4) +
    ggplot2::geom_point(ggplot2::aes(x = .data$rank)) +
    ggplot2::scale_x_continuous(breaks = function(l) unique(pmax(1, round(pretty(l)))), guide = crowded_guide()) +
    ggplot2::scale_y_discrete(guide = crowded_guide()) +
    plot_labels(x = "Rank by assisted mean (1 = best)", y = NULL,
                title = wrap_text(sprintf("Ranks of %d systems, %s with few human labels", n, meas)),
                subtitle = wrap_text(sprintf("%g%% intervals from %s tests, %s; point: rank",
                                             100 * (1 - object$alpha), assisted_method_labels[[object$method]],
                                             correction_labels[[object$correction]]), 45L)) +
    title_theme() +
    crowded_y_theme(n)
}
