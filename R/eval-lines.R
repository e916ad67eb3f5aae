# Many lines in one plot: the layouts (lines, facets, highlight) shared by the
# figures of ir_scores, ir_evaluation and ir_pr_curve (one line per system),
# with the colours of system_colours() and legends and strips sized for one
# column (issue 25).

# Lines that colour and line type tell apart; beyond, facets, then highlight.
max_lines <- 8L
max_facets <- 30L

# The layout of a many-lines plot: the user's, or for "auto" the one that
# shows `n` systems readably, with a message when it is not plain lines.
choose_layout <- function(layout, n, highlight = NULL, facets = TRUE, call = rlang::caller_env()) {
  layout <- match_choice(layout, c("auto", "lines", "facets", "highlight"), "layout", call = call)
  if (!facets && layout == "facets") {
    stop_irtopics("{.code layout = \"facets\"} is not available for this plot; use {.val highlight}.",
                  call = call)
  }
  if (!is.null(highlight) && !layout %in% c("auto", "highlight")) {
    stop_irtopics("{.arg highlight} is used by {.code layout = \"highlight\"} only.", call = call)
  }
  if (layout != "auto") return(layout)
  if (!is.null(highlight)) return("highlight")
  if (n <= max_lines) return("lines")
  chosen <- if (facets && n <= max_facets) "facets" else "highlight"
  inform_irtopics(c(
    "i" = "{n} systems are more than colour and line type tell apart; drawing {.code layout = \"{chosen}\"}.",
    " " = "Choose with {.arg layout} ({.val lines}, {.val facets}, {.val highlight}) and {.arg highlight}."
  ), kind = "layout")
  chosen
}

# The highlighted systems of layout "highlight": the user's (names or row
# numbers of `object`, among the drawn `systems`), else the best, median
# and worst of `systems` by `means`.
plot_highlight <- function(object, highlight, systems, means, layout, call = rlang::caller_env()) {
  if (layout != "highlight") return(NULL)
  if (is.null(highlight)) {
    ord <- names(sort(means, decreasing = TRUE))
    return(unique(ord[c(1L, ceiling(length(ord) / 2), length(ord))]))
  }
  if (is.numeric(highlight)) highlight <- rownames(unclass(object))[highlight]
  unknown <- setdiff(highlight, systems)
  if (!is.character(highlight) || anyNA(highlight) || length(unknown)) {
    stop_irtopics("{.arg highlight} must name drawn systems; unknown: {.val {unknown}}.", call = call)
  }
  highlight <- unique(highlight)
  if (length(highlight) > max_lines) {
    stop_irtopics(c("{.arg highlight} names {length(highlight)} systems; colours tell at most {max_lines} apart.",
                    i = "Use {.code layout = \"facets\"} to see each system on its own."), call = call)
  }
  highlight
}

# One line per level of df$system (a factor), in the chosen layout; `x` and
# `y` name columns of df; `by` names a column to facet by (measures), never
# with layout "facets". `labels`: title, subtitle, x and y; `note`: what
# the choice of systems left out (said as a message, and in the caption
# with titles on). Systems are coloured by system_colours(), in the order of
# the factor's levels.
many_lines_plot <- function(df, x, y, layout, highlight = NULL, by = NULL, points = FALSE,
                            labels = list(), note = NULL) {
  systems <- levels(df$system)
  n <- length(systems)
  aes_xy <- ggplot2::aes(x = .data[[x]], y = .data[[y]])
  grey_note <- NULL
  if (layout == "lines") {
    cols <- system_colours(systems)
    guide <- if (n > 1L) rows_legend(nrow = legend_rows(systems)) else "none"
    p <- ggplot2::ggplot(df, ggplot2::aes(x = .data[[x]], y = .data[[y]], colour = .data$system,
                                          linetype = .data$system, group = .data$system)) +
      ggplot2::geom_line() +
      (if (points) ggplot2::geom_point(size = 1) else NULL) +
      ggplot2::scale_colour_manual(values = unname(cols), limits = systems, guide = guide) +
      ggplot2::scale_linetype_manual(values = unname(system_linetypes(systems)), limits = systems,
                                     guide = guide)
  } else if (layout == "facets") {
    # each panel: its system in colour over all systems in grey
    back <- df
    names(back)[names(back) == "system"] <- ".other"
    back <- back[rep(seq_len(nrow(back)), n), , drop = FALSE]
    back$system <- factor(rep(systems, each = nrow(df)), levels = systems)
    colour <- system_colours(systems[1])[[1]]
    p <- ggplot2::ggplot(df, aes_xy) +
      ggplot2::geom_line(data = back, ggplot2::aes(group = .data$.other), colour = "grey85",
                         linewidth = 0.3) +
      ggplot2::geom_line(ggplot2::aes(group = .data$system), colour = colour) +
      (if (points) ggplot2::geom_point(colour = colour, size = 0.6) else NULL) +
      ggplot2::facet_wrap(ggplot2::vars(.data$system), ncol = facet_columns(systems))
    # few ticks, so that small panels do not overprint them
    short <- function(b) format(b, trim = TRUE, drop0trailing = TRUE)
    # x: the first and last pretty value inside the data (small panels side by side)
    ends <- function(lim) {
      b <- pretty(lim)
      b <- b[b >= lim[1] & b <= lim[2]]
      b[unique(c(1L, length(b)))]
    }
    p <- p + ggplot2::scale_x_continuous(breaks = ends, labels = short) +
      # n.breaks only where ggplot2 chooses the breaks (ggplot2 4 warns
      # that it ignores it beside a breaks function)
      (if (n > 12L) ggplot2::scale_y_continuous(breaks = ends, labels = short) else
        ggplot2::scale_y_continuous(n.breaks = 3, labels = short))
  } else {
    hi <- df[df$system %in% highlight, , drop = FALSE]
    hi$system <- factor(as.character(hi$system), levels = highlight)
    key <- if (is.null(by)) hi$system else interaction(hi$system, hi[[by]])
    ends <- hi[stats::ave(hi[[x]], key, FUN = max) == hi[[x]], , drop = FALSE]
    p <- ggplot2::ggplot(df, aes_xy) +
      ggplot2::geom_line(ggplot2::aes(group = .data$system), colour = "grey80", linewidth = 0.3) +
      ggplot2::geom_line(data = hi, ggplot2::aes(colour = .data$system, group = .data$system),
                         linewidth = 0.8) +
      (if (points) ggplot2::geom_point(data = hi, ggplot2::aes(colour = .data$system), size = 1) else NULL) +
      end_labels(ends, x, y) +
      ggplot2::scale_colour_manual(values = unname(system_colours(highlight)), limits = highlight,
                                   guide = "none") +
      # room on the right for the names, without ticks beyond the data
      ggplot2::scale_x_continuous(expand = ggplot2::expansion(mult = c(0.03, 0.25)),
                                  breaks = pretty(range(df[[x]], na.rm = TRUE), n = if (is.null(by)) 5L else 3L))
    grey_note <- sprintf("Grey: the other %s.", plural(n - length(highlight), "system"))
  }
  if (!is.null(by)) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data[[by]]), scales = "free_y")
    # panels side by side: fewer x ticks, so that they do not run together at one column
    if (layout == "lines") p <- p + ggplot2::scale_x_continuous(breaks = function(lim) pretty(lim, n = 3L))
  }
  if (!is.null(note)) inform_irtopics(c(note, i = "Choose the systems with {.arg systems}."), kind = "layout")
  notes <- c(note, grey_note)
  title <- if (!is.null(labels$title)) wrap_text(labels$title) else NULL
  p <- p + plot_labels(title = title, subtitle = labels$subtitle,
                       caption = if (length(notes)) wrap_text(paste(notes, collapse = " "), 60L),
                       note = grey_note, x = labels$x, y = labels$y, colour = NULL, linetype = NULL) +
    title_theme(legend = layout == "lines" && n > 1L)
  if (layout == "lines" && n > 1L) p <- p + compact_legend()
  if (layout == "facets") {
    p <- p + ggplot2::theme(strip.text = ggplot2::element_text(size = ggplot2::rel(strip_size(n)),
                                                               margin = ggplot2::margin(1, 1, 1, 1)),
                            panel.spacing.x = ggplot2::unit(0.8, "lines"))
  }
  p
}

# Compact legend keys (the user's text size, a little smaller): a legend of
# 8 systems below the panel leaves the panel its height at one column.
compact_legend <- function() {
  ggplot2::theme(legend.key.height = ggplot2::unit(0.9, "lines"),
                 legend.key.width = ggplot2::unit(1.6, "lines"),
                 legend.text = ggplot2::element_text(size = ggplot2::rel(0.75)),
                 legend.title = ggplot2::element_text(size = ggplot2::rel(0.8)))
}

# Columns of facets named by `labels` so that every strip label fits a
# panel at one column (3.5 in), at most ggplot2's own number of columns.
facet_columns <- function(labels, width = 2.6) {
  base <- base_size()
  strip <- text_width_in(labels[which.max(nchar(labels))], strip_size(length(labels)) * base) + 0.06
  as.integer(max(1L, min(ggplot2::wrap_dims(length(labels))[2], floor(width / strip))))
}

# Strip text of `n` facets, relative to the base size.
strip_size <- function(n) if (n > 12L) 0.65 else 0.8

# Names at the right-hand end of highlighted lines: ggrepel when installed
# (kept apart vertically), else plain text.
end_labels <- function(ends, x, y, use_repel = NULL) {
  ends$.label <- as.character(ends$system)
  mapping <- ggplot2::aes(x = .data[[x]], y = .data[[y]], label = .data$.label, colour = .data$system)
  use_repel <- use_repel %||% requireNamespace("ggrepel", quietly = TRUE)
  size <- panel_text_size()
  if (use_repel) {
    ggrepel::geom_text_repel(data = ends, mapping = mapping, size = size, hjust = 0, direction = "y",
                             nudge_x = 0.02 * max(ends[[x]]), seed = 1, max.overlaps = Inf,
                             segment.colour = "grey60", show.legend = FALSE)
  } else {
    ggplot2::geom_text(data = ends, mapping = mapping, size = size, hjust = -0.1, show.legend = FALSE)
  }
}
