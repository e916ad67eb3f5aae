# The plots of a comparison of systems (compare_systems()): the forest plot of
# the differences with the intervals that agree with the decisions
# (pair_intervals(), R/compare-pair-intervals.R), the heat map of all pairs
# and the per-topic differences of one pair.

#' Plot a comparison of systems
#'
#' Three views of [compare_systems()]:
#' * `"forest"`: the difference of means of each pair with the interval that
#'   agrees with the test and its correction ([pair_intervals()]: adjusted t
#'   intervals for the paired t-test, Tukey's simultaneous intervals for
#'   `"tukey"`, none for tests that have no such interval), coloured by the
#'   decision after the correction, one panel per measure. Pairs are drawn
#'   better system first (every difference at least 0), or as system minus
#'   `baseline`; the axis title says which, and which intervals are drawn.
#'   An interval excludes 0 exactly when its pair is coloured significant,
#'   except for a user's test whose own interval is drawn as given.
#' * `"heatmap"`: every pair of systems as a cell, row system against column
#'   system (systems ordered by mean score, best first): the colour says
#'   which of the two has the higher mean, dark where the pair is significant
#'   after the correction, pale where it is not; the adjusted p-values are
#'   printed in the cells when they fit (up to 12 systems);
#' * `"topics"`: the per-topic differences of one pair, sorted, coloured by
#'   win / tie / loss: where the mean difference comes from.
#'
#' A forest plot labels each pair on its axis. Labels shrink with the number
#' of pairs, to 0.8 of the theme's axis text from 25 pairs (smaller is
#' unreadable at `base_size = 8`); at the default theme about 24 such labels
#' fit a figure 4.5 in tall. Beyond that one label in k is named (the heat
#' map does the same past what fits a 7 x 4.5 in figure), and a message says
#' how tall a figure needs to be, or how to show fewer pairs:
#' `significant_only`, `baseline` and `systems` select pairs, and the heat
#' map shows all pairs of many systems in one figure.
#'
#' The figures draw on the current ggplot2 theme (see [irtopics_figures]).
#'
#' @param object An `ir_comparison` (or, for its method, an
#'   `ir_pair_intervals` from [pair_intervals()], drawn as a forest plot).
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
#' @param significant_only For `"forest"`: only the significant pairs.
#' @param order `"effect"` (default: pairs by difference, systems of the heat
#'   map by mean score) or `"table"` (the order of the comparison's table).
#' @param orientation For `"forest"` without a baseline: `"better_first"`
#'   (default) or `"table"` (system1 - system2 as in the comparison's table);
#'   see [pair_intervals()].
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
                                   significant_only = FALSE, order = c("effect", "table"),
                                   orientation = c("better_first", "table"), ...) {
  check_no_dots(..., help = "autoplot.ir_comparison")
  given <- c(measure = FALSE, pair = !is.null(pair), systems = !is.null(systems),
             baseline = !is.null(baseline), significant_only = !missing(significant_only),
             order = !missing(order), orientation = !missing(orientation))
  type <- match_choice(type)
  order <- match_choice(order)
  orientation <- match_choice(orientation)
  used <- list(forest = c("measure", "systems", "baseline", "significant_only", "order", "orientation"),
               heatmap = c("measure", "systems", "order"), topics = c("measure", "pair"))[[type]]
  check_type_args(given, used, type)
  ms <- colnames(object$means)
  if (!is.null(measure) && (!is.character(measure) || length(measure) != 1L || !measure %in% ms)) {
    stop_irtopics("{.arg measure} must be one of {.or {.val {ms}}}.")
  }
  all_systems <- rownames(object$means)
  check_plot_systems(systems, all_systems)
  if (!is.null(baseline) && (!is.character(baseline) || length(baseline) != 1L || !baseline %in% all_systems)) {
    stop_irtopics("{.arg baseline} must name one system of the comparison.")
  }
  check_flag(significant_only, "significant_only")
  if (type == "forest") {
    ivals <- pair_intervals(object, baseline = baseline %||% object$baseline, orientation = orientation)
    return(forest_plot(ivals, measure, systems, significant_only, order))
  }
  measure <- measure %||% ms[1]
  tab <- object$table[object$table$measure == measure, , drop = FALSE]
  if (!is.null(systems)) tab <- tab[tab$system1 %in% systems & tab$system2 %in% systems, , drop = FALSE]
  switch(type,
    heatmap = comparison_heatmap(object, tab, measure, systems %||% all_systems, order),
    topics = comparison_topics(object, tab, measure, pair)
  )
}

#' @rdname autoplot.ir_comparison
#' @method autoplot ir_pair_intervals
#' @export
autoplot.ir_pair_intervals <- function(object, measure = NULL, systems = NULL, significant_only = FALSE,
                                       order = c("effect", "table"), ...) {
  check_no_dots(..., help = "autoplot.ir_comparison")
  order <- match_choice(order)
  ms <- unique(object$table$measure)
  if (!is.null(measure) && (!is.character(measure) || length(measure) != 1L || !measure %in% ms)) {
    stop_irtopics("{.arg measure} must be one of {.or {.val {ms}}}.")
  }
  check_plot_systems(systems, unique(c(object$table$system1, object$table$system2)))
  check_flag(significant_only, "significant_only")
  forest_plot(object, measure, systems, significant_only, order)
}

check_plot_systems <- function(systems, all_systems, call = rlang::caller_env()) {
  if (is.null(systems)) return(invisible())
  unknown <- setdiff(systems, all_systems)
  if (!is.character(systems) || anyNA(systems) || length(unknown)) {
    stop_irtopics("{.arg systems} must name systems of the comparison; unknown: {.val {unknown}}.", call = call)
  }
}

# "paired t-test, Holm correction, alpha = 0.05" for plot subtitles.
comparison_settings <- function(object) {
  corr <- if (controls_familywise(object)) NULL else correction_labels[[object$correction]]
  paste(c(object$test_label, corr, sprintf("alpha = %s", format(object$alpha))), collapse = ", ")
}

# The forest plot's panel is about 3.15 in tall in a figure 4.5 in tall and
# 1.25 in in one 2.6 in tall (title, subtitle, axis title and legend take the
# rest; measured with ggplotGrob()); its labels follow crowded_text().
forest_panel_in <- c(tall = 3.15, short = 1.25)

forest_plot <- function(ivals, measure, systems, significant_only, ordering) {
  tab <- ivals$table
  if (!is.null(measure)) tab <- tab[tab$measure == measure, , drop = FALSE]
  if (!is.null(systems)) tab <- tab[tab$system1 %in% systems & tab$system2 %in% systems, , drop = FALSE]
  n_all <- nrow(tab)
  if (significant_only) tab <- tab[tab$significant, , drop = FALSE]
  none <- is.na(tab$estimate)
  if (any(none)) {
    # two systems that answered no topic in common: nothing to draw
    gone <- unique(paste(tab$system1[none], "-", tab$system2[none]))
    inform_irtopics(c(i = "{length(gone)} pair{?s} without a difference (no topic answered by both systems) {?is/are} not drawn: {.val {gone}}."),
                    kind = "layout")
    tab <- tab[!none, , drop = FALSE]
  }
  if (!nrow(tab)) {
    stop_irtopics(c("No pair to draw{if (significant_only) ' (none is significant)' else ''}.",
                    i = "Draw all pairs with {.code significant_only = FALSE}."), kind = "data")
  }
  baseline <- ivals$baseline
  tab$label <- if (is.null(baseline)) paste(tab$system1, "-", tab$system2) else tab$system1
  first <- tab[tab$measure == tab$measure[1], , drop = FALSE]
  lv <- if (ordering == "effect") first$label[order(first$estimate)] else rev(first$label)
  tab$label <- factor(tab$label, levels = unique(c(lv, rev(unique(tab$label)))))
  keys <- c("yes", "no")
  tab$decision <- factor(ifelse(tab$significant, keys[1], keys[2]), levels = keys)
  n_rows <- nlevels(tab$label)
  step <- crowded_step(n_rows, forest_panel_in[["tall"]])
  if (step > 1L) {
    pt <- crowded_pt(n_rows)
    fit <- crowded_fit(n_rows, forest_panel_in)
    inform_irtopics(c("i" = "{n_rows} pairs do not fit as labels in a 4.5 in figure; one in {step} is named, in labels of {format(pt, digits = 2)} pt (about {fit[1]} fit 4.5 in, {fit[2]} fit 2.6 in; all {n_rows} need a figure about {crowded_height_in(n_rows)} in tall).",
                      " " = "Show fewer with {.arg significant_only}, {.arg baseline} or {.arg systems}; {.code type = \"heatmap\"} shows all pairs."), kind = "layout")
  }
  named <- levels(tab$label)[seq(n_rows, 1L, by = -step)]
  ci <- tab[!is.na(tab$conf.low) & !is.na(tab$conf.high), , drop = FALSE]
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$label, colour = .data$decision)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50")
  if (nrow(ci)) {
    p <- p + interval_bars(data = ci, ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high), height = 0.3)
  }
  ms <- unique(tab$measure)
  what <- if (!is.null(baseline) || ivals$orientation != "table order") ivals$orientation else
    "system1 - system2"
  shown <- if (significant_only) sprintf("%d significant of %d pairs", nrow(tab) / length(ms), n_all / length(ms)) else
    plural(n_rows, "pair")
  p <- p + ggplot2::geom_point(ggplot2::aes(x = .data$estimate)) +
    ggplot2::scale_colour_manual(values = stats::setNames(c("#b2182b", "grey40"), keys), drop = FALSE,
                                 name = sprintf("%s:", decision_short(ivals))) +
    # the levels as limits: layers whose data lack a level (a pair without an interval) would
    # otherwise make ggplot2 sort the rows by name instead of by effect; of the named labels,
    # those that still overprint at the size drawn (a figure shorter than 4.5 in) are left out
    ggplot2::scale_y_discrete(breaks = named, limits = levels(tab$label), guide = crowded_guide()) +
    plot_labels(title = wrap_text(sprintf("%s: differences of means, %s", paste(ms, collapse = ", "), shown)),
                subtitle = wrap_text(ivals$settings, 45L),
                x = paste(wrap_text(sprintf("Difference of %s (%s);", if (length(ms) > 1L) "means" else
                  paste("mean", ms), what), 50L),
                          wrap_text(ivals$interval_label, 46L), sep = "\n"),
                y = NULL) +
    title_theme(legend = TRUE) +
    ggplot2::theme(axis.text.y = ggplot2::element_text(size = crowded_text(n_rows)),
                   # right-aligned: a long title runs left under the pair labels, not off the figure
                   axis.title.x = ggplot2::element_text(size = ggplot2::rel(0.85), hjust = 1),
                   legend.title = ggplot2::element_text(size = ggplot2::rel(0.8)),
                   # under the panel's right edge: a legend wider than the panel runs left under the labels
                   legend.justification = "right")
  if (length(ms) > 1L) {
    # panels side by side: fewer x ticks and more space, so that the end labels of two panels do not meet
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$measure), scales = "free_x") +
      ggplot2::scale_x_continuous(n.breaks = 3) +
      ggplot2::theme(panel.spacing.x = ggplot2::unit(1, "lines"))
  }
  p
}

# The decision rule for a legend's title: "Holm-adjusted p < 0.05".
decision_short <- function(ivals) {
  a <- format(ivals$alpha)
  if (ivals$correction == "none" || controls_familywise(ivals)) {
    return(sub(", no correction$", " (no correction)", ivals$decision_label))
  }
  names <- c(holm = "Holm", hochberg = "Hochberg", hommel = "Hommel", bonferroni = "Bonferroni",
             BH = "BH", fdr = "BH", BY = "BY")
  sprintf("%s-adjusted p < %s", names[[ivals$correction]], a)
}

# The heat map's square panel is about 3.5 in a side in a figure 7 x 4.5 in
# and 1.5 in in one 3.5 x 2.6 in (measured with ggplotGrob()); its labels
# follow crowded_text().
heatmap_panel_in <- c(page = 3.5, column = 1.5)

comparison_heatmap <- function(object, tab, measure, systems, ordering) {
  means <- object$means[systems, measure]
  # better: higher, or lower where the measure's record says so
  better <- better_sign(score_records(object$scores[measure])$direction)
  if (ordering == "effect") systems <- systems[order(-better * means, systems)]
  n <- length(systems)
  both <- rbind(data.frame(row = tab$system1, col = tab$system2, p = tab$p.adjusted,
                           d = tab$estimate, sig = tab$significant),
                data.frame(row = tab$system2, col = tab$system1, p = tab$p.adjusted,
                           d = -tab$estimate, sig = tab$significant))
  both$d <- better * both$d
  lv <- c("row better,\nsignificant", "row better,\nnot significant",
          "column better,\nnot significant", "column better,\nsignificant")
  verdict <- ifelse(both$d >= 0, ifelse(both$sig, lv[1], lv[2]), ifelse(both$sig, lv[4], lv[3]))
  fills <- outcome_colours(c("win", "win_pale", "loss_pale", "loss"))
  if (anyNA(both$p)) {
    verdict[is.na(both$p)] <- "no p-value"
    lv <- c(lv, "no p-value")
    fills <- c(fills, "grey85")
  }
  both$verdict <- factor(verdict, levels = lv)
  both$row <- factor(both$row, levels = rev(systems))
  both$col <- factor(both$col, levels = systems)
  # past what fits 7 x 4.5 in, every k-th is named so that the names do not overprint
  step <- crowded_step(n, heatmap_panel_in[["page"]])
  named <- systems[seq(1L, n, by = step)]
  if (step > 1L) {
    fit <- crowded_fit(n, heatmap_panel_in)
    inform_irtopics(c("i" = "{n} systems do not fit as labels in a 7 x 4.5 in figure; one in {step} is named (in order of mean {measure}; about {fit[1]} names fit 7 x 4.5 in, {fit[2]} fit 3.5 x 2.6 in).",
                      " " = "Choose fewer with {.arg systems}, or save the figure larger."), kind = "layout")
  }
  p <- ggplot2::ggplot(both, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$verdict)) +
    ggplot2::geom_tile(colour = if (step == 1L) "white" else NA) +
    ggplot2::scale_fill_manual(values = stats::setNames(fills, lv), drop = FALSE,
                               name = wrap_text(sprintf("Significant: %s", decision_words(object)), 18L)) +
    ggplot2::scale_x_discrete(drop = FALSE, position = "top", breaks = named, guide = crowded_guide()) +
    ggplot2::scale_y_discrete(drop = FALSE, breaks = named, guide = crowded_guide()) +
    ggplot2::coord_fixed() +
    plot_labels(title = wrap_text(sprintf("%s: row vs column system", measure)),
                subtitle = wrap_text(if (ordering == "effect") {
                  sprintf("%s; systems by mean %s, best first", comparison_settings(object), measure)
                } else comparison_settings(object), 45L),
                x = NULL, y = NULL) +
    title_theme() +
    ggplot2::theme(axis.text.x.top = ggplot2::element_text(angle = 90, hjust = 0, vjust = 0.5,
                                                           size = crowded_text(n)),
                   axis.text.y = ggplot2::element_text(size = crowded_text(n)),
                   panel.grid = ggplot2::element_blank(),
                   legend.text = ggplot2::element_text(size = ggplot2::rel(0.75)),
                   legend.title = ggplot2::element_text(size = ggplot2::rel(0.8)),
                   legend.key.size = ggplot2::unit(0.8, "lines"))
  if (n <= 12L) {
    # two decimals, with the leading zero (the package's one number format)
    both$ptext <- ifelse(is.na(both$p), "NA", ifelse(both$p < 0.01, "<0.01",
                                                     ifelse(both$p >= 0.995, "1", sprintf("%.2f", both$p))))
    base <- ggplot2::calc_element("text", ggplot2::theme_get())$size %||% 11
    p <- p + ggplot2::geom_text(data = both, ggplot2::aes(label = .data$ptext,
                                                          colour = .data$sig & !is.na(.data$p)),
                                size = min(2.5, 20 / n) * base / 11, show.legend = FALSE) +
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
    ggplot2::scale_fill_manual(values = outcome_colours(c("loss", "tie", "win")), drop = FALSE) +
    plot_labels(title = wrap_text(sprintf("%s, %s vs %s", measure, pair[1], pair[2])),
                subtitle = paste(plural(sum(outcome == "win"), "win"), plural(sum(outcome == "tie"), "tie"),
                                 plural(sum(outcome == "loss"), "loss", "losses"), sep = ", "),
                x = "Topics, sorted by difference",
                y = wrap_text(sprintf("%s: %s - %s", measure, pair[1], pair[2]), 30L), fill = NULL) +
    title_theme(legend = TRUE)
}
