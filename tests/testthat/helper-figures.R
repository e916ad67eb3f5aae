# Checks that a figure is ready for a paper (issue 25), read from what ggplot2
# builds (ggplot_build(), ggplotGrob()) at a given size, never from pixels.

# The layout of `p` drawn at width x height inches: the share of the width
# and height left to the panels (what titles, legends, axis labels and strips
# do not take), the width of the title and subtitle lines, and the x tick
# labels of the first panel with the room each has. Measured on a pdf(NULL)
# device, as ggsave() lays a figure out.
figure_layout <- function(p, width = 3.5, height = 2.6) {
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  g <- ggplot2::ggplotGrob(p)
  fixed_w <- sum(grid::convertWidth(g$widths, "in", valueOnly = TRUE))
  fixed_h <- sum(grid::convertHeight(g$heights, "in", valueOnly = TRUE))
  title_w <- function(name) {
    i <- which(g$layout$name == name)
    if (!length(i) || inherits(g$grobs[[i]], "zeroGrob")) return(0)
    # a title spans the plot (its own width is 1null): measure its text
    kids <- g$grobs[[i]]$children
    max(0, vapply(kids, function(k) grid::convertWidth(grid::grobWidth(k), "in", valueOnly = TRUE),
                  numeric(1)))
  }
  list(panel_width = (width - fixed_w) / width, panel_height = (height - fixed_h) / height,
       title_width = max(title_w("title"), title_w("subtitle"), title_w("caption")),
       width = width, height = height, grob = g)
}

# Whether the x tick labels of the first panel overlap at this size: label
# widths (in the theme's axis text font) against the distance of their
# breaks on a panel of the width figure_layout() leaves.
x_labels_overlap <- function(p, width = 3.5, height = 2.6) {
  # a guide that drops overprinting labels at draw time cannot overlap
  if (guide_checks_overlap(p, "x") || (is.list(p$guides) && isTRUE(p$guides$x$check.overlap))) return(FALSE)
  b <- ggplot2::ggplot_build(p)
  pp <- b$layout$panel_params[[1]]
  x <- pp$x
  if (is.null(x) || is.null(x$breaks)) return(FALSE)
  keep <- !is.na(x$breaks)
  pos <- x$breaks[keep]
  labels <- x$get_labels()[keep]
  if (length(pos) < 2L || !is.numeric(pos)) return(FALSE)
  lay <- figure_layout(p, width, height)
  n_cols <- max(b$layout$layout$COL)
  panel_in <- lay$panel_width * width / n_cols
  th <- ggplot2::theme_get() + p$theme
  el <- ggplot2::calc_element("axis.text.x.bottom", th)
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  w <- vapply(as.character(labels), function(s) {
    grid::convertWidth(grid::grobWidth(grid::textGrob(s, gp = grid::gpar(fontsize = el$size,
                                                                         fontfamily = el$family))),
                       "in", valueOnly = TRUE)
  }, numeric(1))
  # breaks are in data units: their place on the panel is rescaled to [0, 1]
  # (a reversed scale lists them from the right)
  at <- x$rescale(pos) * panel_in
  ord <- order(at)
  at <- at[ord]
  w <- w[ord]
  any(diff(at) < (utils::head(w, -1) + utils::tail(w, -1)) / 2 + 0.02)
}

# What keeps a figure from being paper-ready at `width` x `height`: a
# complete theme of its own or absolute text sizes (the user's theme_get()
# would not apply), a panel left less than `min_panel` of the width or
# height, a title wider than the figure, overlapping x tick labels. A named
# character vector, empty when the figure is ready.
figure_problems <- function(p, width = 3.5, height = 2.6, min_panel = 0.45, check_x = TRUE) {
  out <- character()
  complete <- isTRUE(attr(p$theme, "complete"))
  if (complete) out["theme"] <- "the plot's theme is complete (it ignores theme_get())"
  texts <- if (complete) list() else
    Filter(function(e) inherits(e, "element_text") && !is.null(e$size), unclass(p$theme))
  absolute <- names(texts)[!vapply(texts, function(e) inherits(e$size, "rel"), logical(1))]
  if (length(absolute)) out["sizes"] <- paste("absolute text sizes:", paste(absolute, collapse = ", "))
  lay <- figure_layout(p, width, height)
  if (lay$panel_width < min_panel) out["panel_width"] <- sprintf("panel width %.2f of the figure", lay$panel_width)
  if (lay$panel_height < min_panel) out["panel_height"] <- sprintf("panel height %.2f of the figure", lay$panel_height)
  if (lay$title_width > width) out["title"] <- sprintf("a title line is %.2f in wide", lay$title_width)
  if (check_x && x_labels_overlap(p, width, height)) out["x_labels"] <- "x tick labels overlap"
  out
}

expect_figure_ready <- function(p, width = 3.5, height = 2.6, min_panel = 0.45, check_x = TRUE) {
  expect_s3_class(p, "ggplot")
  problems <- figure_problems(p, width, height, min_panel, check_x)
  expect(!length(problems), sprintf("Not ready at %g x %g in: %s.", width, height,
                                    paste(problems, collapse = "; ")))
  invisible(p)
}

# What a user's theme_set(theme_bw(base_size = 7)) and
# options(irtopics.plot_titles = FALSE) must change in the figure `make()`
# returns (a function of no arguments) and did not: a named character vector,
# empty when the figure follows both.
theme_problems <- function(make) {
  out <- character()
  old <- ggplot2::theme_set(ggplot2::theme_bw(base_size = 7))
  on.exit(ggplot2::theme_set(old), add = TRUE)
  p <- make()
  th <- ggplot2::theme_get() + p$theme
  # the axis text scales with the base size (twice the base, twice the text)
  size <- function(base) {
    ggplot2::calc_element("axis.text.x.bottom", ggplot2::theme_bw(base_size = base) + p$theme)$size
  }
  if (!is.null(size(7)) && !isTRUE(all.equal(size(14), 2 * size(7)))) {
    out["base_size"] <- sprintf("axis text is %g pt under base size 7 and %g under 14", size(7), size(14))
  }
  # theme_bw()'s white panel, unless the figure draws none (a tile matrix)
  bg <- ggplot2::calc_element("panel.background", th)
  if (!inherits(bg, "element_blank") && !identical(bg$fill, "white")) {
    out["theme"] <- "the panel is not theme_bw()'s"
  }
  op <- options(irtopics.plot_titles = FALSE)
  on.exit(options(op), add = TRUE)
  q <- suppressMessages(make())
  drawn <- vapply(c("title", "subtitle", "caption"), function(l) !is.null(q$labels[[l]]), logical(1))
  if (any(drawn)) out["titles"] <- paste("drawn with titles off:", paste(names(drawn)[drawn], collapse = ", "))
  out
}

expect_follows_user_theme <- function(make) {
  problems <- theme_problems(make)
  expect(!length(problems), paste0("Does not follow the user's theme: ", paste(problems, collapse = "; "), "."))
  invisible()
}

# The width in inches of the legends of `p` drawn at width x height: a
# legend below the panel wider than the figure is cut at both sides, which
# figure_problems() does not see (the legend spans the panel's columns).
legend_width <- function(p, width = 3.5, height = 2.6) {
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  g <- ggplot2::ggplotGrob(p)
  i <- grep("^guide-box", g$layout$name)
  w <- vapply(g$grobs[i], function(x) {
    if (inherits(x, "zeroGrob")) 0 else grid::convertWidth(grid::grobWidth(x), "in", valueOnly = TRUE)
  }, numeric(1))
  max(0, w)
}

# Whether `p` draws a legend at all.
has_legend <- function(p) legend_width(p) > 0

# Whether some strip label of `p` (facets, top strips) is wider than its
# panel at width x height: ggplot2 cuts it ("MU03rob01" shown as
# "MU03rob0"). `parse = TRUE` for plotmath labels (label_parsed).
strip_labels_clipped <- function(p, width = 3.5, height = 2.6, parse = FALSE) {
  b <- ggplot2::ggplot_build(p)
  lay <- b$layout$layout
  vars <- setdiff(names(lay), c("PANEL", "ROW", "COL", "SCALE_X", "SCALE_Y", "AXIS_X", "AXIS_Y"))
  if (!length(vars)) return(FALSE)
  # each column by itself: ggplot2 4's layout has a numeric column more, and
  # unlist() of it with a factor gives the factor's codes, not its labels
  labels <- unlist(lapply(lay[vars], as.character), use.names = FALSE)
  fl <- figure_layout(p, width, height)
  panel_in <- fl$panel_width * width / max(lay$COL)
  th <- ggplot2::theme_get() + p$theme
  el <- ggplot2::calc_element("strip.text.x.top", th)
  margin <- if (is.null(el$margin)) 0 else sum(grid::convertWidth(el$margin[c(2, 4)], "in", valueOnly = TRUE))
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  w <- vapply(labels, function(s) {
    lab <- if (parse) parse(text = s)[[1]] else s
    grid::convertWidth(grid::grobWidth(grid::textGrob(lab, gp = grid::gpar(fontsize = el$size,
                                                                           fontfamily = el$family))),
                       "in", valueOnly = TRUE)
  }, numeric(1))
  any(w + margin > panel_in)
}

# Whether the guide of a plot's `aes` scale drops overprinting labels
# (check.overlap): a field of the S3 guide in ggplot2 3.4, a parameter of the
# ggproto guide from 3.5 on.
guide_checks_overlap <- function(p, aes = "y") {
  g <- p$scales$get_scales(aes)$guide
  isTRUE(if (inherits(g, "Guide")) g$params$check.overlap else g$check.overlap)
}
