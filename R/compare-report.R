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
  for (meas in colnames(out)) {
    t1 <- tab[tab$measure == meas, , drop = FALSE]
    winner <- ifelse(t1$estimate > 0, t1$system1, t1$system2)
    loser <- ifelse(t1$estimate > 0, t1$system2, t1$system1)
    for (s in unique(winner)) {
      beaten <- sort(match(loser[winner == s], systems))
      out[s, meas] <- if (length(systems) > 26L) number_ranges(beaten) else
        if (ranges) letter_ranges(lab[beaten], beaten) else paste(lab[beaten], collapse = "")
    }
  }
  out
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
  systems <- report_order(x$means, order_by)
  marks <- beaten_labels(x, systems, ranges = compact)
  n_sig <- sum(x$table$significant %in% TRUE)
  shown <- interval_cells(intervals, systems, format, digits, style)
  legend <- table_text(format, if (format == "plain") "^" else "A superscript",
                       " marks the systems a system is significantly better than (",
                       I(significance_words(x, format)),
                       sprintf("); %d of %d comparisons significant.", n_sig, nrow(x$table)))
  report_table(x$means[systems, , drop = FALSE], marks, format, digits, baseline = x$baseline,
               header = comparison_header(x, format), legend = legend, caption = caption, label = label,
               booktabs = booktabs, ci = shown$cells, ci_note = shown$note, layout = layout)
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
  winner <- ifelse(sig$estimate > 0, sig$system1, sig$system2)
  loser <- ifelse(sig$estimate > 0, sig$system2, sig$system1)
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

#' Plot a comparison of systems
#'
#' Three views of [compare_systems()]:
#' * `"forest"`: the difference of each pair (system1 - system2, or system -
#'   baseline) with its confidence interval when the test has one (t-test,
#'   Tukey HSD, or a user test returning `conf.int`), coloured by
#'   significance, one panel per measure, pairs ordered by difference;
#' * `"heatmap"`: every pair of systems as a cell, row system against column
#'   system (systems ordered by mean score, best first): the colour says
#'   which of the two has the higher mean, dark where the adjusted p-value is
#'   below `alpha`, pale where it is not; the p-values are printed in the
#'   cells when they fit (up to 12 systems);
#' * `"topics"`: the per-topic differences of one pair, sorted, coloured by
#'   win / tie / loss: where the mean difference comes from.
#'
#' A forest plot labels each pair on its axis; about 35 labels fit in a
#' figure 4.5 in tall. Beyond that the labels shrink to 5 pt and a message
#' says how tall a figure needs to be, or how to show fewer pairs:
#' `significant_only`, `baseline` and `systems` select pairs, and the heat
#' map shows all pairs of many systems in one figure.
#'
#' @param object An `ir_comparison`.
#' @param type `"forest"`, `"heatmap"` or `"topics"`.
#' @param measure The measure to draw (default: the first; for `"forest"`,
#'   all measures, one panel each).
#' @param pair For `"topics"`: two system names (default: the first pair of
#'   the table).
#' @param systems For `"forest"` and `"heatmap"`: the systems shown (the
#'   pairs between them); default all.
#' @param baseline For `"forest"`: only the pairs with this system, drawn as
#'   other system minus `baseline` (default: the comparison's own baseline,
#'   if it has one).
#' @param significant_only For `"forest"`: only the pairs whose adjusted
#'   p-value is below `alpha`.
#' @param order `"effect"` (default: pairs by difference, systems of the heat
#'   map by mean score) or `"table"` (the order of the comparison's table).
#' @param ... Unused; unknown arguments are an error, and so are arguments
#'   the chosen `type` does not use.
#' @return A ggplot object.
#' @method autoplot ir_comparison
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:5], ]
#' cmp <- compare_systems(top, test = "tukey")
#' ggplot2::autoplot(cmp)
#' ggplot2::autoplot(cmp, type = "heatmap")
#' ggplot2::autoplot(cmp, type = "topics", pair = rownames(top)[1:2])
#' # against one system, significant pairs only
#' ggplot2::autoplot(cmp, baseline = rownames(top)[5], significant_only = TRUE)
#' @export
autoplot.ir_comparison <- function(object, type = c("forest", "heatmap", "topics"),
                                   measure = NULL, pair = NULL, systems = NULL, baseline = NULL,
                                   significant_only = FALSE, order = c("effect", "table"), ...) {
  check_no_dots(..., help = "autoplot.ir_comparison")
  given <- c(measure = FALSE, pair = !is.null(pair), systems = !is.null(systems),
             baseline = !is.null(baseline), significant_only = !missing(significant_only),
             order = !missing(order))
  type <- match_choice(type)
  order <- match_choice(order)
  used <- list(forest = c("measure", "systems", "baseline", "significant_only", "order"),
               heatmap = c("measure", "systems", "order"), topics = c("measure", "pair"))[[type]]
  check_type_args(given, used, type)
  ms <- colnames(object$means)
  if (!is.null(measure) && (!is.character(measure) || length(measure) != 1L || !measure %in% ms)) {
    stop_irtopics("{.arg measure} must be one of {.or {.val {ms}}}.")
  }
  all_systems <- rownames(object$means)
  if (!is.null(systems)) {
    unknown <- setdiff(systems, all_systems)
    if (!is.character(systems) || anyNA(systems) || length(unknown)) {
      stop_irtopics("{.arg systems} must name systems of the comparison; unknown: {.val {unknown}}.")
    }
  }
  if (!is.null(baseline) && (!is.character(baseline) || length(baseline) != 1L || !baseline %in% all_systems)) {
    stop_irtopics("{.arg baseline} must name one system of the comparison.")
  }
  check_flag(significant_only, "significant_only")
  tab <- object$table
  if (!is.null(measure) || type != "forest") {
    measure <- measure %||% ms[1]
    tab <- tab[tab$measure == measure, , drop = FALSE]
  }
  if (!is.null(systems)) tab <- tab[tab$system1 %in% systems & tab$system2 %in% systems, , drop = FALSE]
  switch(type,
    forest = comparison_forest(object, tab, baseline %||% object$baseline, significant_only, order),
    heatmap = comparison_heatmap(object, tab, measure, systems %||% all_systems, order),
    topics = comparison_topics(object, tab, measure, pair)
  )
}

# Whether the comparison's test (a registry record) is a whole-matrix
# procedure that controls the familywise error itself.
controls_familywise <- function(x) identical(registered_ir_test(x$test)$needs, "matrix")

# "paired t-test, Holm correction, alpha = 0.05" for plot subtitles.
comparison_settings <- function(object) {
  corr <- if (controls_familywise(object)) NULL else correction_labels[[object$correction]]
  paste(c(object$test_label, corr, sprintf("alpha = %s", format(object$alpha))), collapse = ", ")
}

# Pairs a forest plot labels readably at 4.5 in tall, and the label size.
forest_fit <- 35L
forest_label_size <- function(n) max(5, min(9, 175 / max(n, 1)))

comparison_forest <- function(object, tab, baseline, significant_only, ordering) {
  if (!is.null(baseline)) {
    tab <- tab[tab$system1 == baseline | tab$system2 == baseline, , drop = FALSE]
    flip <- tab$system1 == baseline
    tab[flip, c("system1", "system2")] <- tab[flip, c("system2", "system1")]
    tab$estimate[flip] <- -tab$estimate[flip]
    low <- tab$conf.low[flip]
    tab$conf.low[flip] <- -tab$conf.high[flip]
    tab$conf.high[flip] <- -low
  }
  n_all <- nrow(tab)
  if (significant_only) tab <- tab[tab$significant, , drop = FALSE]
  if (!nrow(tab)) {
    stop_irtopics(c("No pair to draw{if (significant_only) ' (none is significant)' else ''}.",
                    i = "Draw all pairs with {.code significant_only = FALSE}."), kind = "data")
  }
  tab$label <- if (is.null(baseline)) paste(tab$system1, "-", tab$system2) else tab$system1
  first <- tab[tab$measure == tab$measure[1], , drop = FALSE]
  lv <- if (ordering == "effect") first$label[order(first$estimate)] else rev(first$label)
  tab$label <- factor(tab$label, levels = unique(c(lv, rev(unique(tab$label)))))
  tab$significance <- factor(ifelse(tab$significant, sprintf("p < %s", format(object$alpha)), "not significant"),
                             levels = c(sprintf("p < %s", format(object$alpha)), "not significant"))
  n_rows <- nlevels(tab$label)
  if (n_rows > forest_fit) {
    cli::cli_inform(c("i" = "{n_rows} pairs do not fit as readable labels in a 4.5 in figure; labels are 5 pt.",
                      " " = "Save it about {ceiling(n_rows * 0.1 + 1)} in tall, or show fewer with {.arg significant_only}, {.arg baseline} or {.arg systems}; {.code type = \"heatmap\"} shows all pairs."),
                    class = "irtopics_message_layout")
  }
  ci <- tab[!is.na(tab$conf.low) & !is.na(tab$conf.high), , drop = FALSE]
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$label, colour = .data$significance)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50")
  if (nrow(ci)) {
    p <- p + ggplot2::geom_segment(data = ci, ggplot2::aes(x = .data$conf.low, xend = .data$conf.high,
                                                           yend = .data$label))
  }
  ms <- unique(tab$measure)
  what <- if (is.null(baseline)) "system1 - system2" else sprintf("system - %s", baseline)
  shown <- if (significant_only) sprintf("%d significant of %d pairs", nrow(tab) / length(ms), n_all / length(ms)) else
    plural(n_rows, "pair")
  p <- p + ggplot2::geom_point(ggplot2::aes(x = .data$estimate)) +
    ggplot2::scale_colour_manual(values = stats::setNames(c("#b2182b", "grey40"), levels(tab$significance)),
                                 drop = FALSE) +
    ggplot2::labs(x = wrap_text(sprintf("Difference of mean %s (%s)%s", paste(ms, collapse = ", "), what,
                                        if (nrow(ci)) sprintf(", %g%% CI", 100 * (1 - object$alpha)) else ""), 38L),
                  y = NULL, colour = NULL,
                  title = wrap_text(sprintf("%s: differences of means, %s", paste(ms, collapse = ", "), shown)),
                  subtitle = wrap_text(comparison_settings(object), 45L)) +
    ggplot2::theme_minimal() + title_theme() +
    ggplot2::theme(axis.text.y = ggplot2::element_text(size = forest_label_size(n_rows)),
                   legend.position = "bottom")
  if (length(ms) > 1L) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$measure), scales = "free_x")
  p
}

# Systems a heat map names readably at 7 in wide (5 pt labels).
heatmap_fit <- 40L

comparison_heatmap <- function(object, tab, measure, systems, ordering) {
  means <- object$means[systems, measure]
  if (ordering == "effect") systems <- systems[order(-means, systems)]
  n <- length(systems)
  a <- format(object$alpha)
  both <- rbind(data.frame(row = tab$system1, col = tab$system2, p = tab$p.adjusted,
                           d = tab$estimate, sig = tab$significant),
                data.frame(row = tab$system2, col = tab$system1, p = tab$p.adjusted,
                           d = -tab$estimate, sig = tab$significant))
  lv <- c(sprintf("row better,\np < %s", a), "row better,\nnot significant",
          "column better,\nnot significant", sprintf("column better,\np < %s", a))
  verdict <- ifelse(both$d >= 0, ifelse(both$sig, lv[1], lv[2]), ifelse(both$sig, lv[4], lv[3]))
  fills <- c("#2166ac", "#b8d3ea", "#f4c6bd", "#b2182b")
  if (anyNA(both$p)) {
    verdict[is.na(both$p)] <- "no p-value"
    lv <- c(lv, "no p-value")
    fills <- c(fills, "grey85")
  }
  both$verdict <- factor(verdict, levels = lv)
  both$row <- factor(both$row, levels = rev(systems))
  both$col <- factor(both$col, levels = systems)
  text_size <- max(5, min(9, 320 / n))
  # past heatmap_fit systems, every k-th is named so that the names do not overprint
  step <- max(1L, as.integer(ceiling(n / heatmap_fit)))
  named <- systems[seq(1L, n, by = step)]
  if (step > 1L) {
    cli::cli_inform(c("i" = "{n} systems do not fit as labels in a 7 in figure; one in {step} is named (in order of mean {measure}).",
                      " " = "Choose fewer with {.arg systems}, or save the figure larger."),
                    class = "irtopics_message_layout")
  }
  p <- ggplot2::ggplot(both, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$verdict)) +
    ggplot2::geom_tile(colour = if (n <= heatmap_fit) "white" else NA) +
    ggplot2::scale_fill_manual(values = stats::setNames(fills, lv),
                               drop = FALSE, name = NULL) +
    ggplot2::scale_x_discrete(drop = FALSE, position = "top", breaks = named) +
    ggplot2::scale_y_discrete(drop = FALSE, breaks = named) +
    ggplot2::coord_fixed() +
    ggplot2::labs(x = NULL, y = NULL,
                  title = wrap_text(sprintf("%s: row vs column system, adjusted p-values", measure)),
                  subtitle = wrap_text(sprintf("%s; systems by mean %s, best first",
                                               comparison_settings(object), measure), 45L)) +
    ggplot2::theme_minimal() + title_theme() +
    ggplot2::theme(axis.text.x.top = ggplot2::element_text(angle = 90, hjust = 0, vjust = 0.5, size = text_size),
                   axis.text.y = ggplot2::element_text(size = text_size),
                   panel.grid = ggplot2::element_blank(),
                   legend.text = ggplot2::element_text(size = 7),
                   legend.key.height = ggplot2::unit(1.6, "lines"))
  if (ordering != "effect") p <- p + ggplot2::labs(subtitle = wrap_text(comparison_settings(object), 45L))
  if (n <= 12L) {
    # two decimals, without the leading zero: the cells stay narrow
    both$ptext <- ifelse(is.na(both$p), "NA", ifelse(both$p < 0.01, "<.01",
                                                     ifelse(both$p >= 0.995, "1", sub("^0", "", sprintf("%.2f", both$p)))))
    p <- p + ggplot2::geom_text(data = both, ggplot2::aes(label = .data$ptext,
                                                          colour = .data$sig & !is.na(.data$p)),
                                size = min(2.5, 24 / n), show.legend = FALSE) +
      ggplot2::scale_colour_manual(values = c(`TRUE` = "white", `FALSE` = "grey20"))
  }
  p
}

comparison_topics <- function(object, tab, measure, pair) {
  m <- object$scores[[measure]]
  if (is.null(pair)) pair <- c(tab$system1[1], tab$system2[1])
  if (!is.character(pair) || length(pair) != 2L || anyNA(pair) || pair[1] == pair[2]) {
    stop_irtopics("{.arg pair} must name two different systems of the comparison.")
  }
  check_names_in(pair, rownames(m), arg = "pair", of = "object")
  d <- m[pair[1], ] - m[pair[2], ]
  d <- sort(d[!is.na(d)])
  tol <- object$tie_tol
  outcome <- ifelse(d > tol, "win", ifelse(d < -tol, "loss", "tie"))
  df <- data.frame(topic = names(d), rank = seq_along(d), difference = unname(d),
                   outcome = factor(outcome, levels = c("loss", "tie", "win")))
  ggplot2::ggplot(df, ggplot2::aes(x = .data$rank, y = .data$difference, fill = .data$outcome)) +
    ggplot2::geom_col(width = 1) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey30") +
    ggplot2::scale_fill_manual(values = c(loss = "#b2182b", tie = "grey60", win = "#2166ac"),
                               drop = FALSE) +
    ggplot2::labs(x = "Topics, sorted by difference", y = sprintf("%s: %s - %s", measure, pair[1], pair[2]),
                  fill = NULL,
                  title = wrap_text(sprintf("%s, %s vs %s: %d wins, %d ties, %d losses", measure, pair[1], pair[2],
                                            sum(outcome == "win"), sum(outcome == "tie"), sum(outcome == "loss")))) +
    ggplot2::theme_minimal() + title_theme()
}
