# Figures for papers: the theme, titles and system colours every autoplot()
# method shares (issue 25). Shared plot helpers that are not about the look of
# a figure are in utils-plot.R.

#' Figures for papers: theme, titles and system colours
#'
#' Every `autoplot()` method of irtopics draws on the current ggplot2 theme
#' ([ggplot2::theme_get()]) and adds only what its figure needs (titles aligned
#' with the plot, a legend placed where it fits), with every text size relative
#' to the theme's base size. So one line sets the look of every figure of a
#' paper, and two options turn off what a LaTeX caption replaces and pin the
#' colours of systems across figures.
#'
#' @section Options:
#' * `irtopics.plot_titles`: `FALSE` draws no title, subtitle or caption in
#'   any irtopics figure (journal figures are captioned in LaTeX). What a
#'   caption said (such as how many systems a plot left out) is then given as
#'   a message. The default, `TRUE`, draws them.
#' * `irtopics.system_colours`: a named character vector of colours. A system
#'   named in it has that colour in every figure that colours systems; the
#'   others get the default palette. Use it to keep colours across figures of
#'   different evaluations (or of different measures, which rank the systems
#'   differently).
#'
#' @section The default palette:
#' A system's colour and line type are a function of its name within the
#' object drawn, whatever subset of systems a figure draws and in whatever
#' order: they are given by its position in the object's full list of
#' systems, not in the figure's. That list is, for the figures of score
#' matrices, evaluations and precision-recall curves, every system of the
#' object by the rule that picks their default systems (best first by the mean
#' of the ranking measure, ties by name; see [autoplot.ir_scores()]), and for
#' the figures of query variations every system of the object, sorted by
#' name. So the 8 best systems are drawn in the same colours whether a
#' figure shows all 8, two of them, or them in another order.
#'
#' `system_colours()` and `system_linetypes()` take that full list: the
#' first 8 systems get the 8 Okabe-Ito colours (distinguishable with the
#' common colour-vision deficiencies) and 8 line types; further systems take
#' the colours again, each round with the line types shifted by one, so that
#' no two of the first 64 systems share both colour and line type (points
#' figures tell systems apart by colour and shape instead). A figure that
#' would draw two systems alike says so with a message of class
#' `irtopics_message_layout`; pin colours with `irtopics.system_colours` then.
#' Figures that pick a default subset of systems (the 8 best by mean score)
#' say (by message) how many systems they left out.
#'
#' @section Wins and losses:
#' Every figure that colours wins, ties and losses against another system or
#' a baseline draws a win blue, a loss red and a tie grey: the per-topic
#' differences of [compare_systems()] and [risk_summary()], the comparison's
#' heat map (pale where a pair is not significant) and the risk figure's
#' significant gains and risks.
#'
#' @section Crowded axes:
#' Axes that name one row per system, pair or collection keep the theme's axis
#' text up to 20 rows, then shrink it to 0.8 of that from 25 rows on, and
#' never below 6 pt. Labels that would still overprint at the size the figure
#' is drawn are left out (the first, last and middle ones are kept first). The
#' forest plot and heat map of [compare_systems()] name one label in k past
#' what fits a figure 4.5 in tall (7 x 4.5 in for the heat map), and a message
#' says how many fit and how tall a figure would name them all.
#'
#' @param systems Character vector of system names: all systems of an
#'   evaluation, in its order (see "The default palette").
#' @returns `system_colours()`: a named character vector of colours, one per
#'   system; `system_linetypes()`: a named character vector of line types.
#' @name irtopics_figures
#' @examples
#' library(ggplot2)
#' old <- theme_set(theme_bw(base_size = 8))
#' op <- options(irtopics.plot_titles = FALSE)
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' p <- autoplot(robust_summary(ap))
#' # ggsave("robust.pdf", p, width = 3.5, height = 2.6)
#' system_colours(c("sysA", "sysB"))
#' options(op)
#' theme_set(old)
NULL

#' @rdname irtopics_figures
#' @export
system_colours <- function(systems) {
  systems <- check_system_names(systems)
  out <- stats::setNames(rep_len(line_colours(max_lines), length(systems)), systems)
  pinned <- getOption("irtopics.system_colours")
  if (!is.null(pinned)) {
    if (!is.character(pinned) || is.null(names(pinned)) || anyNA(names(pinned)) || any(!nzchar(names(pinned)))) {
      stop_irtopics(c("Option {.code irtopics.system_colours} must be a named character vector of colours.",
                      x = "Got {.obj_type_friendly {pinned}}."), kind = "argument")
    }
    # checked when read (issue 43: "notacolour" failed only when the figure
    # was printed, with ggplot2's error)
    bad <- names(pinned)[!vapply(pinned, is_colour, logical(1))]
    if (length(bad)) {
      stop_irtopics(c("Option {.code irtopics.system_colours} must give a colour for each system it names.",
                      x = "Not a colour: {.val {unname(pinned[bad])}} (system{?s} {.val {bad}}).",
                      i = "Use colour names ({.code colors()}) or hexadecimal codes such as {.val #0072B2}."),
                    kind = "argument")
    }
    hit <- intersect(systems, names(pinned))
    out[hit] <- pinned[hit]
  }
  out
}

# One colour R can draw (a name of colors(), "#RRGGBB[AA]", a palette
# index); NA is not one.
is_colour <- function(v) {
  !is.na(v) && !inherits(tryCatch(grDevices::col2rgb(v), error = function(e) e), "error")
}

#' @rdname irtopics_figures
#' @export
system_linetypes <- function(systems) {
  systems <- check_system_names(systems)
  i <- seq_along(systems) - 1L
  # round r (systems 8r + 1 ... 8r + 8) shifts the line types by r
  stats::setNames(line_types(max_lines)[(i + i %/% max_lines) %% max_lines + 1L], systems)
}

# The colours and line types (and shapes: `shapes = TRUE`) of the `shown`
# systems of a figure, named by system: those of their positions in `all`,
# the full list of systems of the object drawn (system_colours()), so that a
# system looks the same whatever subset and order a figure draws. Says so
# (irtopics_message_layout) when two shown systems would look alike.
system_styles <- function(all, shown, shapes = FALSE) {
  out <- list(colour = system_colours(all)[shown],
              second = if (shapes) stats::setNames(system_shapes(length(all)), all)[shown]
                       else system_linetypes(all)[shown])
  alike <- duplicated(paste(out$colour, out$second))
  if (any(alike)) {
    inform_irtopics(c("{cli::qty(sum(alike))}System{?s} {.val {shown[alike]}} {cli::qty(sum(alike))}look{?s/} like another drawn system (colours repeat every {max_lines} systems of {length(all)}).",
                      i = "Pin colours with {.code options(irtopics.system_colours = )}."), kind = "layout")
  }
  names(out)[2] <- if (shapes) "shape" else "linetype"
  out
}

check_system_names <- function(systems, call = rlang::caller_env()) {
  if (is.factor(systems)) systems <- levels(systems)
  if (!is.character(systems) || anyNA(systems) || anyDuplicated(systems)) {
    stop_irtopics(c("{.arg systems} must be a character vector of distinct system names.",
                    x = "Got {.obj_type_friendly {systems}}."), kind = "argument", call = call)
  }
  systems
}

# Okabe-Ito colours for up to 8 systems, evenly spaced hues beyond; line types
# never run out (ggplot2's own scale leaves lines 14+ blank).
line_colours <- function(n) {
  if (n <= 8L) unname(grDevices::palette.colors(9L, "Okabe-Ito")[c(2, 3, 4, 6, 7, 8, 1, 5)][seq_len(n)])
  else grDevices::hcl(h = seq(15, 375, length.out = n + 1L)[seq_len(n)], c = 100, l = 65)
}
line_types <- function(n) rep_len(c("solid", "22", "42", "44", "13", "1343", "73", "2262"), n)

# Whether figures draw titles, subtitles and captions (option irtopics.plot_titles).
plot_titles_on <- function() !isFALSE(getOption("irtopics.plot_titles", TRUE))

# ggplot2::labs() for a figure's title, subtitle and caption, honouring
# irtopics.plot_titles; other labels (axes, legends) pass through `...`. A
# caption that carries information (what was left out) is given as a message
# of class irtopics_message_layout when titles are off: pass it as `note`.
plot_labels <- function(title = NULL, subtitle = NULL, caption = NULL, ..., note = NULL) {
  if (!plot_titles_on()) {
    if (!is.null(note)) inform_irtopics(note, kind = "layout")
    return(ggplot2::labs(title = NULL, subtitle = NULL, caption = NULL, ...))
  }
  ggplot2::labs(title = title, subtitle = subtitle, caption = caption %||% note, ...)
}

# What every figure adds to the user's theme: titles aligned with the whole
# plot (not the panel, which starts further right), sizes relative to the
# base size (title 1, subtitle 0.85, caption 0.75 of it), and the legend at
# the bottom, where it wraps into rows and leaves the panel its width at one
# column. `legend = FALSE` leaves the legend where the theme puts it.
title_theme <- function(legend = FALSE) {
  th <- ggplot2::theme(plot.title = ggplot2::element_text(size = ggplot2::rel(1)),
                       plot.subtitle = ggplot2::element_text(size = ggplot2::rel(0.85)),
                       plot.caption = ggplot2::element_text(size = ggplot2::rel(0.75)),
                       plot.title.position = "plot", plot.caption.position = "plot")
  if (legend) th <- th + legend_theme()
  th
}

# A legend below the panel, its keys in rows (ggplot2 wraps a horizontal
# legend at 5 keys a row), its title on the left of the keys.
legend_theme <- function() {
  th <- ggplot2::theme(legend.position = "bottom", legend.box = "vertical",
                       legend.margin = ggplot2::margin(0, 0, 0, 0),
                       legend.box.spacing = ggplot2::unit(0.25, "lines"))
  # ggplot2 3.5 and later put 5.5 pt between the rows of keys (ggplot2 3.4
  # none): with 8 systems in 4 rows the panel of a 2.6 in figure fell to a
  # quarter of its height. The rows touch, as they did; the element does
  # not exist before 3.5.
  if (ggplot2_has_key_spacing()) th <- th + ggplot2::theme(legend.key.spacing.y = ggplot2::unit(0, "pt"))
  th
}
ggplot2_has_key_spacing <- function() utils::packageVersion("ggplot2") >= "3.5.0"

# A title, subtitle or axis label broken into lines of at most `width`
# characters: ggplot2 never wraps, and a line longer than the figure is cut.
# The default fits a figure 3.5 in wide at ggplot2's default base size (11 pt)
# with title_theme(); smaller base sizes fit more.
wrap_text <- function(x, width = 42L) paste(strwrap(x, width = width), collapse = "\n")

# Crowded axes of names (one row per system, pair or collection): the text
# size relative to the theme's axis text, its own size up to 20 rows and 0.8
# of it from 25 rows on, but never below 6 pt (journals ask for at least 6 pt
# in figures, and ragg, the PNG device of ggsave() and RStudio, stops
# dropping overprinting labels below about 5.5 pt, measured at 150 dpi); and an axis guide that
# drops the labels that would still overprint at the size the figure is drawn
# (ggplot2 keeps the first, last and middle ones first).
crowded_text <- function(n) {
  axis <- crowded_axis_pt()
  ggplot2::rel(min(1, max(0.8, min(1, 20 / max(n, 1)), 6 / axis)))
}
crowded_axis_pt <- function() {
  ggplot2::calc_element("axis.text.y.left", ggplot2::theme_get())$size %||% (0.8 * base_size())
}
crowded_guide <- function() ggplot2::guide_axis(check.overlap = TRUE)

# Axes that name one label in `step` themselves (the forest plot and heat map
# of a comparison, whose message says what fits): how many labels of n, at
# crowded_text(n) of the user's axis text and 1.3 lines a label, fit along
# `length_in` inches of panel, and the step that keeps the named ones apart.
# The panel lengths are measured at the figure sizes the messages name.
crowded_fit <- function(n, length_in) {
  pmax(1L, as.integer(floor(length_in * 72 / (1.3 * crowded_pt(n)))))
}
crowded_step <- function(n, length_in) max(1L, as.integer(ceiling(n / crowded_fit(n, length_in))))
# The size in points of crowded axis text.
crowded_pt <- function(n) crowded_axis_pt() * as.numeric(crowded_text(n))
# The height in inches of a forest-style figure that names all n rows: 1.3
# lines a label plus the 1.35 in its titles, axis and legend take.
crowded_height_in <- function(n) ceiling(n * 1.3 * crowded_pt(n) / 72 + 1.35)

# The theme of a crowded y axis of n names: the text size above, and no tick
# marks past 20 rows (a tick per row, most unnamed, draws a solid bar).
crowded_y_theme <- function(n) {
  th <- ggplot2::theme(axis.text.y = ggplot2::element_text(size = crowded_text(n)))
  if (n > 20L) th <- th + ggplot2::theme(axis.ticks.y = ggplot2::element_blank())
  th
}

# Sizes measured without a device --------------------------------------------------

# Approximate width in inches of `labels` in a font of `size` points: 0.6
# em a character, which covers capitals and digits in Helvetica (pdf()) and
# the wider DejaVu Sans of PNG devices. No graphics device is needed at
# construction.
text_width_in <- function(labels, size) 0.6 * nchar(labels, type = "width") * size / 72

# The base size of the user's theme, in points.
base_size <- function() ggplot2::calc_element("text", ggplot2::theme_get())$size %||% 11

# Rows of a legend of `labels` below the panel so that it fits one column
# (3.5 in): NULL (ggplot2's own 5 keys a row) when that fits, else the rows
# needed. A legend the user moves to the right then has that many rows.
legend_rows <- function(labels, width = 3.3) {
  base <- base_size()
  # a key and its spacing take about 0.42 in at base 11 (measured on pdf()), more on PNG
  item <- 0.5 * base / 11 + text_width_in(labels[which.max(nchar(labels))], 0.75 * base)
  per_row <- max(1L, floor(width / item))
  n <- length(labels)
  rows <- as.integer(ceiling(n / per_row))
  if (rows <= ceiling(n / 5)) NULL else rows
}

# Text size (mm) of labels drawn in a panel: the user's axis text size.
panel_text_size <- function() {
  ggplot2::calc_element("axis.text.x.bottom", ggplot2::theme_get())$size / ggplot2::.pt
}

# Horizontal interval bars of the given height (in units of the y axis):
# geom_errorbar() along y, which draws the same as geom_errorbarh() did
# (ggplot2 3.5 deprecated geom_errorbarh(), and 4.0 says so on every plot).
interval_bars <- function(..., height = 0.5) {
  ggplot2::geom_errorbar(..., width = height, orientation = "y")
}

# Wins, ties and losses ----------------------------------------------------------------

# The one palette of outcomes against another system (a pair's first system,
# or the baseline): a win blue, a loss red (ColorBrewer's RdBu ends), a tie
# grey; pale blue and red for a win or loss that is not significant (the
# comparison's heat map), and `none` for a verdict of no significant
# difference drawn as points and lines.
outcome_palette <- c(win = "#2166ac", tie = "grey60", loss = "#b2182b", win_pale = "#b8d3ea",
                     loss_pale = "#f4c6bd", none = "grey40")

# The palette's colours of `outcomes`, named by the figure's own `labels`
# (for scale_*_manual(values = )).
outcome_colours <- function(outcomes, labels = outcomes) {
  if (!all(outcomes %in% names(outcome_palette)) || length(labels) != length(outcomes)) {
    stop_irtopics("Unknown outcome colour: {.val {setdiff(outcomes, names(outcome_palette))}}.", kind = "internal")
  }
  stats::setNames(unname(outcome_palette[outcomes]), labels)
}

# Legends in rows ----------------------------------------------------------------------

# A legend whose keys go in `nrow` rows below (or above) the panel but in one
# column when the user's theme puts it on the right or left. ggplot2 fixes a
# legend's rows when the plot is built, before the user's `+ theme(
# legend.position = "right")` says where it goes; a fixed nrow on the right
# makes a legend several columns wide that squeezes a one-column figure. The
# legend's direction is known when it is drawn, and there the rows of a
# vertical legend are dropped: by the guide_gengrob() method below with
# ggplot2 3.4's S3 guides, by a child of the guide whose setup_params() does
# it with the ggproto guides of ggplot2 3.5 and later.
rows_legend <- function(nrow = NULL, ...) {
  g <- ggplot2::guide_legend(nrow = nrow, ...)
  if (is.null(nrow)) return(g)
  if (identical(class(g), c("guide", "legend"))) {
    class(g) <- c("irtopics_rows_legend", class(g))
    return(g)
  }
  if (inherits(g, "Guide")) return(rows_below_only(g))
  g
}

# ggplot2 3.5 and later: the guide `g` with rows only when it is horizontal.
rows_below_only <- function(g) {
  ggplot2::ggproto(NULL, g, setup_params = function(self, params) {
    if (identical(params$direction, "vertical")) {
      params$nrow <- NULL
      params$ncol <- NULL
    }
    ggplot2::ggproto_parent(g, self)$setup_params(params)
  })
}

#' @rdname irtopics_figures
#' @param guide,theme For the `guide_gengrob()` method of the legends
#'   irtopics draws in rows below the panel: the legend and the theme, as
#'   ggplot2 passes them. Drawn on the right or left, such a legend is one
#'   column (its rows apply only below or above the panel).
#' @exportS3Method ggplot2::guide_gengrob
guide_gengrob.irtopics_rows_legend <- function(guide, theme) {
  if (identical(guide$direction, "vertical")) {
    guide$nrow <- NULL
    guide$ncol <- NULL
  }
  NextMethod()
}
