# Views of an ir_comparison: the ranx-style report (plain, LaTeX, markdown),
# summary(), as.data.frame() and autoplot().

correction_labels <- c(
  holm = "Holm correction", hochberg = "Hochberg correction", hommel = "Hommel correction",
  bonferroni = "Bonferroni correction", BH = "Benjamini-Hochberg correction",
  BY = "Benjamini-Yekutieli correction", fdr = "Benjamini-Hochberg correction",
  none = "no correction"
)

# One label per system: letters a-z, or numbers beyond 26 systems.
system_labels <- function(systems) {
  if (length(systems) <= 26L) letters[seq_along(systems)] else as.character(seq_along(systems))
}

# For each measure and system, the labels of the systems it is significantly
# better than (a character matrix systems x measures); `systems` gives the
# order, and so the labels (the table's order, or the one a report shows).
# `ranges = TRUE` writes three or more consecutive letters as a range (c-f);
# numbers (beyond 26 systems) are always ranges.
beaten_labels <- function(x, systems = rownames(x$means), ranges = FALSE) {
  lab <- system_labels(systems)
  out <- matrix("", length(systems), ncol(x$means), dimnames = list(systems, colnames(x$means)))
  tab <- x$table[x$table$significant %in% TRUE, , drop = FALSE]
  first_wins <- pair_first_wins(x, tab)
  for (meas in colnames(out)) {
    t1 <- tab[tab$measure == meas, , drop = FALSE]
    w <- first_wins[tab$measure == meas]
    winner <- ifelse(w, t1$system1, t1$system2)
    loser <- ifelse(w, t1$system2, t1$system1)
    for (s in unique(winner)) {
      beaten <- sort(match(loser[winner == s], systems))
      out[s, meas] <- if (length(systems) > 26L) number_ranges(beaten) else
        if (ranges) letter_ranges(lab[beaten], beaten) else paste(lab[beaten], collapse = "")
    }
  }
  out
}

# Per row of `tab` (rows of x$table), whether system1 is the better of the
# pair: a positive difference, or a negative one for a measure where lower
# is better (its record, score_records() of the comparison's scores).
pair_first_wins <- function(x, tab) {
  rec <- score_records(x$scores)
  better_sign_of <- vapply(rec$direction, better_sign, numeric(1))
  better_sign_of[match(tab$measure, rec$measure)] * tab$estimate > 0
}

# Letters with runs of three or more consecutive positions as ranges:
# "ac-fh" for a, c, d, e, f, h.
letter_ranges <- function(labels, pos) {
  runs <- split(seq_along(pos), cumsum(c(1L, diff(pos) != 1L)))
  paste(vapply(runs, function(r) {
    if (length(r) >= 3L) paste0(labels[r[1]], "-", labels[r[length(r)]]) else paste(labels[r], collapse = "")
  }, ""), collapse = "")
}

# Positions as compact ranges: 1,3-5,7 (beyond 26 systems the labels are
# numbers, and a system that beats 30 others needs a short mark).
number_ranges <- function(pos) {
  runs <- split(pos, cumsum(c(1L, diff(pos) != 1L)))
  paste(vapply(runs, function(r) {
    if (length(r) == 1L) as.character(r) else if (length(r) == 2L) paste(r, collapse = ",") else
      paste0(r[1], "-", r[length(r)])
  }, ""), collapse = ",")
}

# The first line of the report: test, correction, alpha, the draws, the
# data; in LaTeX and markdown with symbols and names escaped.
comparison_header <- function(x, format = "plain") {
  ms <- colnames(x$means)
  n_top <- vapply(x$scores, ncol, integer(1))
  corr <- if (controls_familywise(x)) "familywise error controlled by the procedure" else
    correction_labels[[x$correction]]
  # a resampling test that enumerated every arrangement drew nothing
  enumerated <- isTRUE(x$exact) && identical(registered_ir_test(x$test)$p_rule, "exact_or_monte_carlo")
  extra <- c(
    if (!is.na(x$B) && !enumerated) sprintf("B = %s", format(x$B, big.mark = ",")),
    if (enumerated) "exact",
    if (!is.null(x$seed) && !is.na(x$B)) sprintf("seed = %s", x$seed)
  )
  test <- if (format == "plain") x$test_label else
    paste0(toupper(substr(x$test_label, 1, 1)), substring(x$test_label, 2))
  table_text(format, test, ", ", corr, ", ", table_relation("alpha", "=", format(x$alpha), format),
             if (length(extra)) paste0(" (", paste(extra, collapse = ", "), ")") else "",
             ": ", plural(nrow(x$means), "system"), " ", table_symbol("times", format), " ",
             paste(unique(n_top), collapse = "/"), " topics, ", plural(length(ms), "measure"),
             if (!is.null(x$baseline)) paste0(", against baseline ", x$baseline) else ", all pairs")
}

# "p after Holm's correction < 0.05": what a mark means, in words a reader
# knows (never the column name p.adjusted), with math symbols in LaTeX.
adjusted_p_words <- c(holm = " after Holm's correction", hochberg = " after Hochberg's correction",
                      hommel = " after Hommel's correction", bonferroni = " after Bonferroni's correction",
                      BH = " after the Benjamini-Hochberg correction",
                      BY = " after the Benjamini-Yekutieli correction",
                      fdr = " after the Benjamini-Hochberg correction", none = "")
significance_words <- function(x, format) {
  how <- if (controls_familywise(x)) paste0(" of the ", x$test_label) else adjusted_p_words[[x$correction]]
  table_text(format, table_symbol("p", format), how, " ", table_relation(NULL, "lt", format(x$alpha), format))
}

#' Print, format and summarise a comparison of systems
#'
#' `format()` gives the report of [compare_systems()] in the style of ranx:
#' one row per system with its mean per measure, followed by the labels of
#' the systems it is significantly better than (after the correction); the
#' best mean of each measure is marked. `format(x, "latex")` and
#' `format(x, "markdown")` give the same table ready for a paper (superscript
#' labels, best mean in bold, the baseline marked, the legend inside the
#' table). `as.data.frame()` gives the tidy table (one row per pair and
#' measure), and `summary()` counts significant pairs. [means_table()] gives
#' the same table without the marks.
#'
#' Labels are letters up to 26 systems and numbers beyond, written as ranges
#' (`1,3-5` is systems 1, 3, 4 and 5); they follow the order of the rows. The
#' plain report has one line per system whatever the console width. The
#' legend says what a mark means in words a reader knows: "\eqn{p} after
#' Holm's correction \eqn{< 0.05}" (with the correction and \eqn{\alpha} of
#' the comparison; for the Tukey tests, which control the familywise error
#' themselves, "\eqn{p} of the Tukey HSD").
#'
#' @inheritSection means_table Tables for papers
#' @param x,object An `ir_comparison` from [compare_systems()] (for the `format()` method of a
#'   summary, the result of `summary()`).
#' @param format `"plain"` (the printed report), `"latex"` (a `table` with a
#'   `tabular`) or `"markdown"`.
#' @param digits Decimals of the means.
#' @param order_by The order of the rows: a measure of the table, by name or
#'   position (default `1`, the first): systems by decreasing mean of it; a
#'   character vector naming every system once: that order; or `NULL`: the
#'   order of the scores. The labels follow the order shown.
#' @param caption,label `NULL` or the caption and the cross-reference label of
#'   the table (LaTeX and markdown). The caption is plain text, escaped;
#'   `I("...")` passes LaTeX (or markdown) as written. The label is written
#'   as given.
#' @param booktabs LaTeX rules of the booktabs package (`FALSE`: `\hline`).
#' @param intervals `NULL` or an `ir_mean_intervals` ([mean_intervals()] of
#'   the comparison): each mean is shown with its interval, as in
#'   [means_table()] (`style`).
#' @param style With `intervals`: `"brackets"` (`mean [low, high]`) or
#'   `"pm"` (`mean +/- half`).
#' @param environment LaTeX float: `"table"` (one column of a two-column
#'   page) or `"table*"` (the width of the page).
#' @param size Font size of the LaTeX tabular: `"normalsize"`, `"small"`,
#'   `"footnotesize"` or `"scriptsize"`.
#' @param compact `TRUE`: half the usual space between LaTeX columns, and
#'   three or more consecutive letters in the marks written as a range
#'   (`c-f`; all formats).
#' @param ... Unused.
#' @return `format()`: a character vector of lines. `summary()`: a
#'   `summary.ir_comparison` ([irtopics_summary]; `$table` and `$measures`:
#'   pairs and significant pairs per measure) with `$systems` (per system and measure, the number of systems it
#'   is significantly better and worse than). `as.data.frame()`: the data
#'   frame `x$table` described in [compare_systems()].
#' @examples
#' x <- rbind(a = c(.7, .3, .2, .6, .4, .5, .8, .3), b = c(.5, .1, 0, .2, .4, .3, .6, .1),
#'            c = c(0, 0, .2, .1, .3, .2, .1, 0))
#' colnames(x) <- paste0("t", 1:8)
#' cmp <- compare_systems(x, correction = "none")
#' cmp
#' summary(cmp)
#' cat(format(cmp, "latex", caption = "Mean AP, 5% better_than", label = "tab:ap"), sep = "\n")
#' cat(format(cmp, "latex", caption = I("Mean AP, $\\alpha = 0.05$"), size = "small",
#'            compact = TRUE), sep = "\n")
#' cat(format(cmp, "markdown", order_by = c("c", "b", "a")), sep = "\n")
#' cat(format(cmp, "latex", intervals = mean_intervals(cmp), style = "pm"), sep = "\n")
#' head(as.data.frame(cmp))
#' @export
format.ir_comparison <- function(x, format = c("plain", "latex", "markdown"), digits = 4,
                                 order_by = 1L, caption = NULL, label = NULL, booktabs = TRUE,
                                 intervals = NULL, style = c("brackets", "pm"),
                                 environment = c("table", "table*"),
                                 size = c("normalsize", "small", "footnotesize", "scriptsize"),
                                 compact = FALSE, ...) {
  format <- match_choice(format)
  check_report_args(digits, caption, label, booktabs, compact)
  style <- match_choice(style)
  layout <- list(environment = match_choice(environment), size = match_choice(size), compact = compact)
  check_comparison_intervals(intervals, x)
  records <- score_records(x$scores)
  systems <- report_order(x$means, order_by, stats::setNames(records$direction, records$measure))
  marks <- beaten_labels(x, systems, ranges = compact)
  n_sig <- sum(x$table$significant %in% TRUE)
  shown <- interval_cells(intervals, systems, format, digits, style)
  legend <- table_text(format, if (format == "plain") "^" else "A superscript",
                       " marks the systems a system is significantly better than (",
                       I(significance_words(x, format)),
                       sprintf("); %d of %d comparisons significant.", n_sig, nrow(x$table)))
  # its means are arithmetic whatever the measure's aggregate: labelled
  labelled <- mean_column_labels(records, format)
  means <- x$means[systems, , drop = FALSE]
  colnames(means) <- labelled$labels
  report_table(means, marks, format, digits, baseline = x$baseline,
               header = comparison_header(x, format), legend = c(legend, labelled$note), caption = caption,
               label = label, booktabs = booktabs, ci = shown$cells, ci_note = shown$note, layout = layout,
               direction = records$direction)
}

#' @rdname format.ir_comparison
#' @export
print.ir_comparison <- function(x, ...) print_formatted(x, ...)

#' @rdname format.ir_comparison
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_comparison <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$table
}

#' @rdname format.ir_comparison
#' @export
summary.ir_comparison <- function(object, ...) {
  tab <- object$table
  ms <- colnames(object$means)
  measures <- data.frame(
    measure = ms,
    pairs = vapply(ms, function(m) sum(tab$measure == m), integer(1)),
    significant = vapply(ms, function(m) sum(tab$significant[tab$measure == m]), integer(1)),
    row.names = NULL, stringsAsFactors = FALSE
  )
  measures$share <- measures$significant / measures$pairs
  sig <- tab[tab$significant, , drop = FALSE]
  first_wins <- pair_first_wins(object, sig)
  winner <- ifelse(first_wins, sig$system1, sig$system2)
  loser <- ifelse(first_wins, sig$system2, sig$system1)
  systems <- do.call(rbind, lapply(ms, function(m) {
    s <- rownames(object$means)
    data.frame(measure = m, system = s, mean = unname(object$means[, m]),
               better_than = vapply(s, function(v) sum(winner == v & sig$measure == m), integer(1)),
               worse_than = vapply(s, function(v) sum(loser == v & sig$measure == m), integer(1)),
               row.names = NULL, stringsAsFactors = FALSE)
  }))
  header <- comparison_header(object)
  new_summary("ir_comparison", paste0("Comparison: ", paste(header, collapse = "")), measures,
              measures = measures, systems = systems, header = header)
}

#' @rdname format.ir_comparison
#' @method format summary.ir_comparison
#' @export
format.summary.ir_comparison <- function(x, ...) {
  c(x$title, printed_lines(print(x$measures, digits = 3, row.names = FALSE)),
    "", "Significant differences per system:", printed_lines(print(x$systems, digits = 4, row.names = FALSE)))
}

# Whether the comparison's test (a registry record) is a whole-matrix
# procedure that controls the familywise error itself.
controls_familywise <- function(x) identical(registered_ir_test(x$test)$needs, "matrix")
