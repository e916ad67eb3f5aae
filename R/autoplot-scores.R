#' Plot per-topic scores sorted, one line per system
#'
#' Draws each system's per-topic scores sorted from worst to best topic,
#' one line per system: Figure 3 of the TREC 2004 Robust track overview
#' (Voorhees 2004), where it shows how runs with similar MAP differ in their
#' worst topics.
#'
#' Every requested system is drawn. Colour and line type tell about eight
#' lines apart, so `layout = "auto"` switches beyond that, with a message:
#' * `"lines"`: one line per system, told apart by colour and line type
#'   (the default for up to 8 systems);
#' * `"facets"`: one panel per system, its line in colour over the other
#'   systems' lines in grey (the default for 9 to 30 systems);
#' * `"highlight"`: all systems in grey, the `highlight` systems in colour
#'   with their names at the end of their lines (the default for more than
#'   30 systems).
#'
#' @param object An `ir_scores` object.
#' @param systems Systems to draw (names or row numbers); default: all when
#'   there are at most 8, otherwise the 8 best by mean score.
#' @param layout `"auto"`, `"lines"`, `"facets"` or `"highlight"` (see
#'   Details).
#' @param highlight For `layout = "highlight"`: the systems drawn in colour
#'   (names or row numbers, at most 8); default: the best, the median and
#'   the worst of the drawn systems by mean score.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_scores
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' best <- names(sort(mean_scores(ap), decreasing = TRUE))[c(1, 10, 40)]
#' ggplot2::autoplot(ap, systems = best)
#' # all 110 runs: grey, with three of them in colour
#' ggplot2::autoplot(ap, systems = rownames(ap), layout = "highlight",
#'                   highlight = best)
#' @export
autoplot.ir_scores <- function(object, systems = NULL, layout = c("auto", "lines", "facets", "highlight"),
                               highlight = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_scores")
  systems <- plot_systems(object, systems)
  layout <- choose_layout(layout, length(systems), highlight)
  df <- sorted_scores_long(object, systems)
  measure <- attr(object, "measure") %||% "score"
  means <- rowMeans(unclass(object)[systems, , drop = FALSE], na.rm = TRUE)
  highlight <- plot_highlight(object, highlight, systems, means, layout)
  many_lines_plot(df, "position", "value", layout, highlight) +
    ggplot2::labs(x = "Topics, sorted by score", y = measure,
                  title = wrap_text(sprintf("Per-topic %s, sorted, %s", measure, plural(length(systems), "system")))) +
    title_theme()
}

# The systems a sorted-scores plot draws: the user's (names or row numbers),
# else all when at most 8, else the 8 best by mean score.
plot_systems <- function(object, systems, call = rlang::caller_env()) {
  m <- unclass(object)
  if (is.null(systems)) {
    systems <- if (nrow(m) <= 8) rownames(m) else
      names(sort(rowMeans(m, na.rm = TRUE), decreasing = TRUE))[1:8]
  }
  if (is.numeric(systems)) systems <- rownames(m)[systems]
  check_names_in(systems, rownames(m), arg = "systems", of = "object", call = call)
  unique(systems)
}

# Each system's scores sorted from worst to best (NA left out), long.
sorted_scores_long <- function(object, systems) {
  m <- unclass(object)
  rows <- lapply(systems, function(s) {
    v <- sort(m[s, ], na.last = NA)
    data.frame(system = s, position = seq_along(v), value = as.vector(v))
  })
  df <- do.call(rbind, rows)
  df$system <- factor(df$system, levels = systems)
  df
}

# Many lines in one plot ------------------------------------------------------------

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
  cli::cli_inform(c(
    "i" = "{n} systems are more than colour and line type tell apart; drawing {.code layout = \"{chosen}\"}.",
    " " = "Choose with {.arg layout} ({.val lines}, {.val facets}, {.val highlight}) and {.arg highlight}."
  ), class = "irtopics_message_layout")
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

# Colour-blind-safe colours (Okabe & Ito; yellow, weak on white, last) for
# up to 8 lines, hues beyond;
# line types never run out (ggplot2's own scale leaves lines 14+ blank).
line_colours <- function(n) {
  if (n <= 8L) unname(grDevices::palette.colors(9L, "Okabe-Ito")[c(2, 3, 4, 6, 7, 8, 1, 5)][seq_len(n)])
  else grDevices::hcl(h = seq(15, 375, length.out = n + 1L)[seq_len(n)], c = 100, l = 65)
}
line_types <- function(n) rep_len(c("solid", "22", "42", "44", "13", "1343", "73", "2262"), n)

# One line per level of df$system (a factor), in the chosen layout; `x` and
# `y` name columns of df. The caller adds labels (and facets by measure:
# `by` names that column, so facets of systems become a grid).
many_lines_plot <- function(df, x, y, layout, highlight = NULL, by = NULL, points = FALSE) {
  systems <- levels(df$system)
  n <- length(systems)
  aes_xy <- ggplot2::aes(x = .data[[x]], y = .data[[y]])
  point <- if (points) ggplot2::geom_point(size = 1.2) else NULL
  if (layout == "lines") {
    p <- ggplot2::ggplot(df, ggplot2::aes(x = .data[[x]], y = .data[[y]], colour = .data$system,
                                          linetype = .data$system, group = .data$system)) +
      ggplot2::geom_line() + point +
      ggplot2::scale_colour_manual(values = line_colours(n), limits = systems) +
      ggplot2::scale_linetype_manual(values = line_types(n), limits = systems) +
      ggplot2::labs(colour = "System", linetype = "System")
    if (n > 4L) p <- p + ggplot2::guides(colour = ggplot2::guide_legend(ncol = if (n > 16L) 2L else 1L))
  } else if (layout == "facets") {
    # each panel: its system in colour over all systems in grey
    back <- df
    names(back)[names(back) == "system"] <- ".other"
    back <- back[rep(seq_len(nrow(back)), n), , drop = FALSE]
    back$system <- factor(rep(systems, each = nrow(df)), levels = systems)
    p <- ggplot2::ggplot(df, aes_xy) +
      ggplot2::geom_line(data = back, ggplot2::aes(group = .data$.other), colour = "grey85",
                         linewidth = 0.3) +
      ggplot2::geom_line(ggplot2::aes(group = .data$system), colour = "#0072B2") +
      (if (points) ggplot2::geom_point(colour = "#0072B2", size = 0.8) else NULL)
    p <- p + if (is.null(by)) {
      ggplot2::facet_wrap(ggplot2::vars(.data$system))
    } else {
      ggplot2::facet_grid(ggplot2::vars(.data[[by]]), ggplot2::vars(.data$system), scales = "free_y")
    }
    # few ticks, so that small panels do not overprint them
    short <- function(b) format(b, trim = TRUE, drop0trailing = TRUE)
    # x: the first and last pretty value inside the data (small panels side by side)
    ends <- function(lim) {
      b <- pretty(lim)
      b <- b[b >= lim[1] & b <= lim[2]]
      b[unique(c(1L, length(b)))]
    }
    p <- p + ggplot2::scale_x_continuous(breaks = ends, labels = short) +
      ggplot2::scale_y_continuous(n.breaks = 3, labels = short)
  } else {
    hi <- df[df$system %in% highlight, , drop = FALSE]
    hi$system <- factor(as.character(hi$system), levels = highlight)
    key <- if (is.null(by)) hi$system else interaction(hi$system, hi[[by]])
    ends <- hi[stats::ave(hi[[x]], key, FUN = max) == hi[[x]], , drop = FALSE]
    p <- ggplot2::ggplot(df, aes_xy) +
      ggplot2::geom_line(ggplot2::aes(group = .data$system), colour = "grey80", linewidth = 0.3) +
      ggplot2::geom_line(data = hi, ggplot2::aes(colour = .data$system, group = .data$system),
                         linewidth = 0.8) +
      (if (points) ggplot2::geom_point(data = hi, ggplot2::aes(colour = .data$system), size = 1.2) else NULL) +
      end_labels(ends, x, y) +
      ggplot2::scale_colour_manual(values = line_colours(length(highlight)), limits = highlight,
                                   guide = "none") +
      # room on the right for the names, without ticks beyond the data
      ggplot2::scale_x_continuous(expand = ggplot2::expansion(mult = c(0.03, 0.18)),
                                  breaks = pretty(range(df[[x]], na.rm = TRUE)) ) +
      ggplot2::labs(colour = "System", caption = sprintf("Grey: the other %s.",
                                                          plural(n - length(highlight), "system")))
  }
  if (!is.null(by) && layout != "facets") p <- p + ggplot2::facet_wrap(ggplot2::vars(.data[[by]]), scales = "free_y")
  p <- p + ggplot2::theme_bw()
  if (layout == "facets") {
    p <- p + ggplot2::theme(strip.text = ggplot2::element_text(size = if (n > 12L) 7 else 8,
                                                               margin = ggplot2::margin(1, 1, 1, 1)),
                            axis.text = ggplot2::element_text(size = 7),
                            panel.spacing.x = ggplot2::unit(0.8, "lines"))
  }
  p
}

# Names at the right-hand end of highlighted lines: ggrepel when installed
# (kept apart vertically), else plain text.
end_labels <- function(ends, x, y, use_repel = NULL) {
  ends$.label <- as.character(ends$system)
  mapping <- ggplot2::aes(x = .data[[x]], y = .data[[y]], label = .data$.label, colour = .data$system)
  use_repel <- use_repel %||% requireNamespace("ggrepel", quietly = TRUE)
  if (use_repel) {
    ggrepel::geom_text_repel(data = ends, mapping = mapping, size = 3, hjust = 0, direction = "y",
                             nudge_x = 0.02 * max(ends[[x]]), seed = 1, max.overlaps = Inf,
                             segment.colour = "grey60", show.legend = FALSE)
  } else {
    ggplot2::geom_text(data = ends, mapping = mapping, size = 3, hjust = -0.1, show.legend = FALSE)
  }
}
