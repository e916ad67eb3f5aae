# Points at each x of a curve only when there are few (a marker at each of
# 300 sizes is a thick line).
max_markers <- 30L
sparse_points <- function(n, ...) if (n <= max_markers) ggplot2::geom_point(...) else NULL

# Arguments that only some plot types use: giving one to another type is an
# error rather than being ignored.
check_type_args <- function(given, used, type, call = rlang::caller_env()) {
  extra <- names(given)[given & !names(given) %in% used]
  if (length(extra)) {
    stop_irtopics("{.code type = \"{type}\"} does not use {.arg {extra}}.", call = call)
  }
}

# autoplot() arguments -------------------------------------------------------------

# autoplot() methods take `...` from the generic; anything that lands there
# would be ignored, so it is an error (a misspelt argument, or one that the
# method does not have).
check_no_dots <- function(..., help = NULL, call = rlang::caller_env()) {
  n <- ...length()
  if (!n) return(invisible())
  nms <- names(list(...)) %||% rep("", n)
  shown <- ifelse(nzchar(nms), nms, paste0("..", seq_len(n)))
  stop_irtopics(c("Unused argument{?s} {.arg {shown}}.",
                  i = if (!is.null(help)) "See {.code ?{help}} for the arguments of this plot."),
                call = call)
}

# Point labels of scatter plots ------------------------------------------------------

# Which rows of `df` get a label: `label` is NULL/FALSE (none), TRUE or "all"
# (every point), "auto" (every point when at most `label_fit`, else the
# `label_top` with the largest `rank_by`), a whole number k (the k points
# with the largest `rank_by`), or a character vector of ids (matched in
# `df[[id]]`).
label_fit <- 20L
label_top <- 5L
label_rows <- function(df, label, id, rank_by, call = rlang::caller_env()) {
  if (is.null(label) || isFALSE(label)) return(integer())
  if (identical(label, "auto")) label <- if (nrow(df) <= label_fit) "all" else label_top
  if (isTRUE(label) || identical(label, "all")) return(seq_len(nrow(df)))
  if (is.numeric(label) && length(label) == 1L && !is.na(label) && label >= 0 && label == round(label)) {
    ord <- order(-df[[rank_by]], df[[id]], na.last = NA)
    return(utils::head(ord, label))
  }
  if (is.character(label) && !anyNA(label)) {
    unknown <- setdiff(label, df[[id]])
    if (length(unknown)) {
      stop_irtopics("{.arg label} must name points of the plot; unknown: {.val {unknown}}.", call = call)
    }
    return(which(df[[id]] %in% label))
  }
  stop_irtopics(c("{.arg label} must be NULL, \"auto\", \"all\", a whole number (the top k) or a vector of names.",
                  x = "Got {.obj_type_friendly {label}}."), call = call)
}

# The text layer of a scatter plot: ggrepel's non-overlapping labels when it
# is installed (given every point, the unlabelled ones with "", so that
# labels also keep off the points), else ggplot2's geom_text() nudged above
# the points. `point_size`: a column of the drawn size of each point (bubbles),
# so that labels keep off its edge; `nudge`: where labels start, in data units.
label_layer <- function(df, label, id, rank_by, x, y, call = rlang::caller_env(),
                        use_repel = NULL, point_size = NULL, nudge = c(0, 0)) {
  rows <- label_rows(df, label, id, rank_by, call = call)
  if (!length(rows)) return(NULL)
  use_repel <- use_repel %||% requireNamespace("ggrepel", quietly = TRUE)
  mapping <- ggplot2::aes(x = .data[[x]], y = .data[[y]], label = .data$.label)
  if (use_repel) {
    d <- df
    d$.label <- ifelse(seq_len(nrow(df)) %in% rows, as.character(df[[id]]), "")
    # points of different sizes (bubbles): labels keep clear of each one's edge
    if (!is.null(point_size)) mapping$point.size <- ggplot2::aes(point.size = .data[[point_size]])$point.size
    ggrepel::geom_text_repel(data = d, mapping = mapping, size = panel_text_size(), inherit.aes = FALSE,
                             max.overlaps = Inf, seed = 1, show.legend = FALSE, min.segment.length = 0.2,
                             nudge_x = nudge[1], nudge_y = nudge[2])
  } else {
    d <- df[rows, , drop = FALSE]
    d$.label <- as.character(d[[id]])
    ggplot2::geom_text(data = d, mapping = mapping, size = panel_text_size(), vjust = -0.7, inherit.aes = FALSE,
                       show.legend = FALSE, nudge_x = nudge[1], nudge_y = nudge[2])
  }
}
