# Intervals of the differences of a comparison that agree with its decisions
# (issue 25): for each pair, an interval that excludes 0 exactly when the
# pair is significant after the test's correction, where the test has one;
# pairs oriented better system first (or system minus baseline). The forest
# plot of an ir_comparison (R/compare-plots.R) draws this table.

#' Intervals of a comparison that agree with its decisions
#'
#' For each pair of a [compare_systems()] result: the difference of means
#' with the interval that matches the test and its correction for multiple
#' comparisons, so that the interval excludes 0 exactly when the pair is
#' significant (adjusted p-value below `alpha`) wherever such an interval
#' exists. The forest plot ([autoplot.ir_comparison()]) draws this table.
#' `x$table` of the comparison keeps the unadjusted intervals of the test
#' (the paired t interval at level \eqn{1 - \alpha}).
#'
#' @section Which interval:
#' With \eqn{m} pairs of a measure (the pairs with a p-value), the
#' pair's p-value \eqn{p}, its adjusted p-value \eqn{\tilde p}, \eqn{k} the
#' number of significant pairs and \eqn{r} the rank of \eqn{p} among the
#' \eqn{m} (smallest first), each pair gets a paired t interval
#' \eqn{\bar d \pm t_{1 - a/2, n - 1}\, s_d / \sqrt n} at its own level
#' \eqn{1 - a}:
#' * `"t"` test, `correction = "none"`: \eqn{a = \alpha}, the test's own
#'   interval.
#' * `"bonferroni"`: \eqn{a = \alpha / m}: Bonferroni intervals, simultaneous
#'   at level at least \eqn{1 - \alpha}.
#' * `"holm"`: the levels of the step-down (Holm-adjusted intervals): a
#'   significant pair gets \eqn{a = \alpha / (m - r + 1)}, the level of the
#'   step that rejected it; every other pair \eqn{a = \alpha / (m - k)}, the
#'   level of the step where the procedure stopped. These intervals agree
#'   with Holm's decisions but, unlike Bonferroni's, are not simultaneous
#'   intervals with a stated joint coverage (a simultaneous interval that
#'   matches the step-down does not exist in general; Strassburger & Bretz
#'   2008 give compatible ones that are uninformative for rejected pairs).
#'   This choice is ours (Reconstruction).
#' * `"hochberg"`: the step-up's levels: a significant pair
#'   \eqn{a = \alpha / (m - k + 1)}, any other \eqn{a = \alpha / (m - r + 1)}
#'   (ours, as for Holm).
#' * `"BH"` / `"fdr"`: the false-coverage-rate adjusted intervals of
#'   Benjamini & Yekutieli (2005), \eqn{a = \max(k, 1)\,\alpha / m}; their
#'   guarantee (false coverage rate at most \eqn{\alpha}) is for the
#'   significant (selected) pairs. `"BY"`: \eqn{a = \max(k, 1)\,\alpha / (m
#'   \sum_{i \le m} 1/i)}.
#' * `"hommel"`: \eqn{a = \alpha\, p / \tilde p}, the level at which the
#'   pair's own test reproduces its adjusted decision; it agrees with the
#'   decisions and carries no further guarantee (ours).
#' * `"tukey"`: Tukey's HSD intervals, simultaneous at \eqn{1 - \alpha}
#'   over all pairs of the matrix (as `TukeyHSD()` of the two-way ANOVA).
#' * A user's test returning `conf.int`: that interval as given, not
#'   adjusted (`adjusted = FALSE`).
#' * `r rd_quoted(ir_tests_without_interval())`: no interval (`NA`). None
#'   of these tests inverts into an interval of the mean difference that
#'   would agree with its decisions, so none is drawn; the colour of the
#'   forest plot gives the decision.
#'
#' Which of these a test gets is its record's `interval` ([new_ir_test()]):
#' `"t"` (the paired t intervals above), `"simultaneous"` (the test's own
#' simultaneous intervals, as Tukey's), `"own"` (a user's test's interval)
#' or `"none"`.
#'
#' The decisions are the comparison's (`significant`); the levels are
#' computed over all pairs of a measure, before `baseline` selects some.
#'
#' `level = "simultaneous"` draws, for the t-test, Bonferroni intervals
#' (\eqn{a = \alpha / m}) whatever the correction: they hold jointly with
#' probability at least \eqn{1 - \alpha}, but under Holm, Hochberg, Hommel
#' or BH a significant pair's interval may include 0 (those corrections
#' reject more than Bonferroni's), which `interval_label` then says.
#'
#' @section Reconstruction:
#' Where the literature gives no interval that matches a decision, the
#' choices are ours: the step levels for Holm and Hochberg, the implied
#' level \eqn{\alpha p / \tilde p} for Hommel, no interval for tests that
#' do not invert into one of the mean difference, and, with several
#' measures, one orientation per pair (by the first measure). The
#' alternative for the step-wise corrections, simultaneous Bonferroni
#' intervals, is `level = "simultaneous"`.
#'
#' @section Orientation:
#' Each row is `system1 - system2`. With `baseline`, the pairs with that
#' system, as other system minus baseline. Otherwise
#' `orientation = "better_first"` (the default) puts the system with the
#' higher mean first, so every difference is at least 0 (the lower mean, and
#' differences at most 0, for a measure where lower is better; see
#' [measure_info()]; with several measures, the better mean of the first
#' measure, so that a pair is written the same way in every measure);
#' `"table"` keeps the
#' comparison's order (the order of the systems in the scores). The column
#' `orientation` says which.
#'
#' @param x An `ir_comparison` from [compare_systems()].
#' @param baseline `NULL` or one system: only its pairs, as other system
#'   minus `baseline` (default: the comparison's own baseline).
#' @param orientation Without a baseline: `"better_first"` or `"table"`
#'   (see Orientation).
#' @param level `"decision"` (default: the interval of each pair agrees with
#'   the corrected decision) or `"simultaneous"` (Bonferroni intervals for
#'   the t-test whatever the correction; see Which interval).
#' @return An `ir_pair_intervals` list: `table`, a data frame with one row per
#'   pair and measure (`measure`, `system1`, `system2`, `mean1`, `mean2`,
#'   `estimate` = mean1 - mean2, `conf.low`, `conf.high`, `conf.level` (the
#'   pair's level, `NA` without an interval), `p.value`, `p.adjusted`,
#'   `significant`, `adjusted` (whether the interval accounts for the
#'   correction or the procedure), `orientation`); and `test`, `test_label`,
#'   `correction`, `alpha`, `interval` (`"t"`, `"simultaneous"`, `"own"`
#'   or `"none"`: the test record's, `"none"` when the test gave no
#'   interval), `interval_label` (what the intervals are, in words),
#'   `decision_label` (the decision rule, in words), `settings` (test,
#'   correction and \eqn{\alpha}, in words), `orientation`,
#'   `baseline`. `autoplot()` draws the forest plot.
#' @references Benjamini, Y. & Yekutieli, D. (2005). False discovery
#'   rate-adjusted multiple confidence intervals for selected parameters.
#'   *JASA* 100(469), 71--81.
#'
#' Strassburger, K. & Bretz, F. (2008). Compatible simultaneous lower
#'   confidence bounds for the Holm procedure and other Bonferroni-based
#'   closed tests. *Statistics in Medicine* 27(24), 4914--4927.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:6], ]
#' cmp <- compare_systems(top)
#' ivals <- pair_intervals(cmp)
#' ivals
#' # an interval excludes 0 exactly when the pair is significant after Holm
#' with(ivals$table, all((conf.low > 0 | conf.high < 0) == significant))
#' pair_intervals(compare_systems(top, test = "tukey"), baseline = rownames(top)[6])
#' ggplot2::autoplot(ivals)
#' @export
pair_intervals <- function(x, baseline = x$baseline, orientation = c("better_first", "table"),
                           level = c("decision", "simultaneous")) {
  if (!inherits(x, "ir_comparison")) {
    stop_irtopics("{.arg x} must be an {.cls ir_comparison} from {.fn compare_systems}, not {.obj_type_friendly {x}}.")
  }
  orientation <- match_choice(orientation)
  level <- match_choice(level)
  if (!is.null(baseline)) {
    if (!is.character(baseline) || length(baseline) != 1L || is.na(baseline)) {
      stop_irtopics("{.arg baseline} must name one system of the comparison, or be {.code NULL}.")
    }
    check_names_in(baseline, rownames(x$means), arg = "baseline", of = "x")
  }
  kind <- interval_kind(x)
  tab <- x$table
  rows <- lapply(unique(tab$measure), function(meas) {
    t1 <- tab[tab$measure == meas, , drop = FALSE]
    ci <- decision_interval(x, t1, kind, level)
    data.frame(t1[c("measure", "system1", "system2", "mean1", "mean2", "estimate")],
               conf.low = ci$low, conf.high = ci$high, conf.level = ci$level,
               t1[c("p.value", "p.adjusted", "significant")],
               adjusted = !is.na(ci$low) & kind %in% c("t", "simultaneous") &
                 (kind == "simultaneous" || x$correction != "none" || level == "simultaneous"),
               stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  if (!is.null(baseline)) {
    out <- out[out$system1 == baseline | out$system2 == baseline, , drop = FALSE]
    flip <- out$system1 == baseline
    how <- sprintf("system - %s", baseline)
  } else {
    # one orientation per pair for every measure (the rows of a multi-measure
    # figure line up): by the first measure's means
    ms <- unique(out$measure)
    key <- paste(out$system1, out$system2, sep = "\r")
    first <- out$measure == ms[1]
    # the better mean first: the higher, or the lower where lower is better
    rec <- score_records(x$scores)
    signs <- vapply(rec$direction, better_sign, numeric(1))[match(out$measure, rec$measure)]
    # (a pair without estimate, no topic scored by both, is kept as it is,
    # unless the first measure orients it)
    worse_first <- signs * out$estimate < 0
    by_first <- worse_first[first][match(key, key[first])]
    flip <- if (orientation == "better_first") ifelse(is.na(by_first), worse_first, by_first) else
      logical(nrow(out))
    flip[is.na(flip)] <- FALSE
    better <- if (signs[first][1] < 0) "lower" else "higher"
    how <- if (orientation == "table") "table order" else if (length(ms) == 1L) paste(better, "mean first") else
      sprintf("%s mean of %s first", better, ms[1])
  }
  out <- flip_pairs(out, flip)
  out$orientation <- rep(how, nrow(out))
  rownames(out) <- NULL
  new_ir_pair_intervals(list(
    table = out, test = x$test, test_label = x$test_label, correction = x$correction, alpha = x$alpha,
    interval = kind, interval_label = interval_words(x, kind, level), decision_label = decision_words(x),
    settings = comparison_settings(x), orientation = how, baseline = baseline
  ))
}

new_ir_pair_intervals <- function(x) {
  new_result(x, "ir_pair_intervals",
             fields = c(table = "data.frame", test = "string", test_label = "string", correction = "string",
                        alpha = "number", interval = "string", interval_label = "string",
                        decision_label = "string", settings = "string", orientation = "string",
                        baseline = "string?"))
}

# Which interval agrees with the comparison's decisions: its test record's
# `interval` (ir_test_intervals in R/compare-tests.R), kept in the
# comparison; "none" when a test that gives its own intervals gave none. (A
# comparison made before the field existed asks the registry: a test it
# lacks is a user's, with its own interval.)
interval_kind <- function(x) {
  kind <- x$interval %||% registered_ir_test(x$test)$interval %||% "own"
  if (kind %in% c("simultaneous", "own") && all(is.na(x$table$conf.low))) "none" else kind
}

# The records that give no interval, for the help.
ir_tests_without_interval <- function() {
  names(Filter(function(r) r$interval == "none" && "compare_systems" %in% r$used_by, test_registry()))
}

# The interval of each pair of one measure's rows t1: list(low, high, level).
decision_interval <- function(x, t1, kind, level = "decision") {
  n <- nrow(t1)
  if (kind %in% c("simultaneous", "own")) {
    return(list(low = t1$conf.low, high = t1$conf.high,
                level = ifelse(is.na(t1$conf.low), NA_real_, if (kind == "simultaneous") 1 - x$alpha else NA_real_)))
  }
  if (kind == "none") return(list(low = rep(NA_real_, n), high = rep(NA_real_, n), level = rep(NA_real_, n)))
  a <- decision_alphas(t1$p.value, t1$p.adjusted, if (level == "simultaneous") "bonferroni" else x$correction,
                       x$alpha)
  m <- x$scores[[t1$measure[1]]]
  d <- m[t1$system1, , drop = FALSE] - m[t1$system2, , drop = FALSE]
  nn <- rowSums(!is.na(d))
  s <- sqrt(rowSums((d - rowMeans(d, na.rm = TRUE))^2, na.rm = TRUE) / (nn - 1))
  half <- stats::qt(1 - a / 2, nn - 1) * s / sqrt(nn)
  ok <- !is.na(a)
  list(low = ifelse(ok, t1$estimate - half, NA_real_), high = ifelse(ok, t1$estimate + half, NA_real_),
       level = ifelse(ok, 1 - a, NA_real_))
}

# Per pair, the error level a whose paired test at level a reproduces the
# corrected decision (see "Which interval" in ?pair_intervals): p < a
# exactly when p.adjusted < alpha. NA where p is NA (p.adjust() does not
# count NA p-values either). Why each rule is exact, with p(r) the r-th
# smallest of m p-values and k significant pairs:
# * holm: p.adjusted(r) = max over i <= r of (m - i + 1) p(i), so a
#   significant pair has p(r) < alpha / (m - r + 1); the first pair that is
#   not has (m - k) p(k + 1) >= alpha, and every later one a p at least as
#   large, so p >= alpha / (m - k).
# * hochberg: p.adjusted(r) = min over i >= r of (m - i + 1) p(i); k is the
#   largest r with (m - r + 1) p(r) < alpha, so a significant pair has
#   p <= p(k) < alpha / (m - k + 1), and a pair beyond k has
#   (m - r + 1) p(r) >= alpha.
# * BH (BY with c = sum 1/i): k is the largest r with c m p(r) / r < alpha;
#   significant pairs have p <= p(k) < k alpha / (c m), the others
#   p(r) >= r alpha / (c m) > k alpha / (c m) (with k = 0: alpha / (c m)).
# * hommel (and any rule): a = alpha p / p.adjusted gives p < a iff
#   p.adjusted < alpha.
decision_alphas <- function(p, p_adj, method, alpha) {
  out <- rep(NA_real_, length(p))
  ok <- !is.na(p)
  m <- sum(ok)
  if (!m) return(out)
  p <- p[ok]
  p_adj <- p_adj[ok]
  sig <- p_adj < alpha
  k <- sum(sig)
  r <- rank(p, ties.method = "first")
  out[ok] <- switch(method,
    none = rep(alpha, m),
    bonferroni = rep(alpha / m, m),
    holm = ifelse(sig, alpha / (m - r + 1), alpha / max(m - k, 1)),
    hochberg = ifelse(sig, alpha / (m - k + 1), alpha / (m - r + 1)),
    BH = , fdr = rep(max(k, 1) * alpha / m, m),
    BY = rep(max(k, 1) * alpha / (m * sum(1 / seq_len(m))), m),
    hommel = ifelse(p_adj > 0, alpha * p / p_adj, alpha / m),
    stop_irtopics("No decision levels for correction {.val {method}}.", kind = "internal")
  )
  out
}

# Rows where `flip` is TRUE written the other way round: system2 - system1.
flip_pairs <- function(tab, flip) {
  if (!any(flip)) return(tab)
  tab[flip, c("system1", "system2")] <- tab[flip, c("system2", "system1")]
  tab[flip, c("mean1", "mean2")] <- tab[flip, c("mean2", "mean1")]
  tab$estimate[flip] <- -tab$estimate[flip]
  low <- tab$conf.low[flip]
  tab$conf.low[flip] <- -tab$conf.high[flip]
  tab$conf.high[flip] <- -low
  tab
}

# A procedure's name from its test's label, without the parenthesis that
# ends some labels: "Tukey HSD (blocked)" -> "Tukey HSD".
procedure_name <- function(label) sub(" \\([^()]*\\)$", "", label)

# The decision rule in words: "p after Holm's correction < 0.05".
decision_words <- function(x) {
  a <- format(x$alpha)
  if (controls_familywise(x)) return(sprintf("%s p < %s", procedure_name(x$test_label), a))
  names <- c(holm = "Holm's", hochberg = "Hochberg's", hommel = "Hommel's", bonferroni = "Bonferroni's",
             BH = "Benjamini-Hochberg's", fdr = "Benjamini-Hochberg's", BY = "Benjamini-Yekutieli's")
  if (x$correction == "none") return(sprintf("p < %s, no correction", a))
  sprintf("p after %s correction < %s", names[[x$correction]], a)
}

# What the intervals are, in words.
interval_words <- function(x, kind, level = "decision") {
  pct <- function(a) paste0(format(100 * (1 - a)), "%")
  if (kind == "t" && level == "simultaneous" && x$correction != "bonferroni") {
    return(sprintf("Bonferroni t intervals (simultaneous %s), not matched to the decisions %s", pct(x$alpha),
                   if (x$correction == "none") "without correction" else
                     paste("of the", correction_labels[[x$correction]])))
  }
  switch(kind,
    t = switch(x$correction,
      none = sprintf("%s t intervals, not adjusted", pct(x$alpha)),
      bonferroni = sprintf("Bonferroni t intervals (simultaneous %s)", pct(x$alpha)),
      holm = "t intervals at Holm's step-down levels",
      hochberg = "t intervals at Hochberg's step-up levels",
      hommel = "t intervals at the levels of Hommel's decisions",
      BH = , fdr = "FCR-adjusted t intervals (Benjamini-Hochberg)",
      BY = "FCR-adjusted t intervals (Benjamini-Yekutieli)"),
    simultaneous = sprintf("%s intervals (simultaneous %s)", procedure_name(x$test_label), pct(x$alpha)),
    own = "the test's own intervals, not adjusted",
    none = sprintf("no interval: the %s has none that matches its decisions", x$test_label))
}

#' @rdname pair_intervals
#' @param ... Unused.
#' @export
format.ir_pair_intervals <- function(x, ...) {
  tab <- x$table
  shown <- data.frame(measure = tab$measure, pair = paste(tab$system1, "-", tab$system2),
                      estimate = signif(tab$estimate, 4), conf.low = signif(tab$conf.low, 4),
                      conf.high = signif(tab$conf.high, 4), level = signif(tab$conf.level, 4),
                      significant = tab$significant, stringsAsFactors = FALSE)
  c(sprintf("<ir_pair_intervals> %s of %s, %s", plural(nrow(tab), "pair"), x$test_label, x$decision_label),
    sprintf("Intervals: %s; differences %s.", x$interval_label,
            if (is.null(x$baseline)) paste0("system1 - system2, ", x$orientation) else x$orientation),
    printed_lines(print(utils::head(shown, 20L), row.names = FALSE)),
    if (nrow(tab) > 20L) sprintf("# ... %d more pairs", nrow(tab) - 20L))
}

#' @rdname pair_intervals
#' @export
print.ir_pair_intervals <- function(x, ...) print_formatted(x, ...)

#' @rdname pair_intervals
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_pair_intervals <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname pair_intervals
#' @param object An `ir_pair_intervals`.
#' @export
summary.ir_pair_intervals <- function(object, ...) {
  tab <- object$table
  ms <- unique(tab$measure)
  excl <- !is.na(tab$conf.low) & (tab$conf.low > 0 | tab$conf.high < 0)
  table <- data.frame(measure = ms,
                      pairs = vapply(ms, function(m) sum(tab$measure == m), integer(1)),
                      significant = vapply(ms, function(m) sum(tab$significant[tab$measure == m]), integer(1)),
                      excluding_zero = vapply(ms, function(m) sum(excl[tab$measure == m]), integer(1)),
                      row.names = NULL, stringsAsFactors = FALSE)
  new_summary("ir_pair_intervals", c(sprintf("Intervals of %s (%s):", object$test_label, object$decision_label),
                                     object$interval_label), table)
}
