# Figures of the topic indicators (Liggett & Buckley 2005, Figures 1, 7, 8
# and 13): autoplot() of ir_topic_indicators and ir_indicator_differences.

#' Plot topic indicators: per-query exclusion or AP against an indicator
#'
#' `type = "queries"` draws, for one topic, the exclusion of each selected
#' query (labelled by its letter and text, best query at the top) and system:
#' the paper's Figures 1, 3 and 5. `type = "ap"` draws, for every topic and
#' system, the mean AP over the selected queries against an indicator
#' (\eqn{E} by default: Figure 13), one point per topic and system labelled
#' by the topic (labels that would overprint are left out).
#'
#' @param object An `ir_topic_indicators` object.
#' @param type `"queries"` or `"ap"`.
#' @param topic For `type = "queries"`, the topic (default: the first).
#' @param indicator For `type = "ap"`, the indicator on the x axis: `"E"`,
#'   `"U"`, `"C"`, `"S"` or one of your own (see [topic_indicators()]).
#' @param text_width For `type = "queries"`, characters of query text shown
#'   after the letter (longer texts are cut with "..."; `0`: letters only).
#'   The default fits a figure one column (3.5 in) wide.
#' @param systems The systems to draw. By default all, up to 4 for
#'   `"queries"` (each system adds a point to every query's row) and 8 for
#'   `"ap"`; of more systems, those with the best mean exclusion on the topic
#'   (`"queries"`) or mean AP (`"ap"`), and the caption (or, with titles off, a message)
#'   says how many were left out.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object. Topics whose indicator is undefined (`NA`) or
#'   not finite are not drawn; the caption (or, with titles off, a message)
#'   says how many and why.
#' @method autoplot ir_topic_indicators
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' ggplot2::autoplot(ind, topic = "sim02")
#' ggplot2::autoplot(ind, type = "ap")
#' ggplot2::autoplot(ind, type = "ap", indicator = "U")
#' @export
autoplot.ir_topic_indicators <- function(object, type = c("queries", "ap"), topic = NULL,
                                         indicator = "E", text_width = 18L, systems = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_topic_indicators")
  check_number(text_width, "text_width", min = 0, integer = TRUE)
  type <- match_choice(type)
  if (type == "queries") {
    if (!missing(indicator)) {
      stop_irtopics("{.arg indicator} is used by {.code type = \"ap\"} only.")
    }
    df <- object$queries
    topic <- choose_topic(topic, unique(df$topic))
    df <- df[df$topic == topic, ]
    df <- df[order(df$selection_order), ]
    shown <- variation_plot_systems(unique(df$system), systems, tapply(df$exclusion, df$system, mean), max = 4L)
    df <- df[df$system %in% shown$systems, ]
    text <- df$text
    miss <- is.na(text) | !nzchar(trimws(text))
    text[miss] <- df$query[miss]
    return(plot_query_exclusion(df, query_labels(df$letter, text, text_width), topic, object$simulated,
                                shown$note, all = unique(object$queries$system)))
  }
  if (!is.null(topic)) stop_irtopics("{.arg topic} is used by {.code type = \"queries\"} only.")
  vars <- setdiff(indicator_columns(object), "AP")
  indicator <- match_choice(indicator, vars, "indicator")
  df <- object$indicators
  shown <- variation_plot_systems(unique(df$system), systems, tapply(df$AP, df$system, mean, na.rm = TRUE),
                        what = "mean AP")
  df <- df[df$system %in% shown$systems, , drop = FALSE]
  note <- c(shown$note, undefined_note(df, c(indicator, "AP"), object$undefined %||% empty_undefined(),
                                     what = "topic-system pair"))
  df <- df[is.finite(df[[indicator]]) & is.finite(df$AP), , drop = FALSE]
  systems <- shown$systems
  df$system <- factor(df$system, levels = systems)
  p <- ggplot2::ggplot(df, ggplot2::aes(x = .data[[indicator]], y = .data$AP, colour = .data$system,
                                        shape = .data$system, label = .data$topic)) +
    ggplot2::geom_point(size = 1.5) +
    # topic labels that would overprint one another are left out when drawn
    ggplot2::geom_text(size = 2.5, vjust = -0.6, show.legend = FALSE, check_overlap = TRUE) +
    # room for the labels above the top points and the last x tick label
    ggplot2::scale_x_continuous(expand = ggplot2::expansion(mult = c(0.05, 0.1))) +
    ggplot2::scale_y_continuous(expand = ggplot2::expansion(mult = c(0.05, 0.12))) +
    system_point_scales(systems, unique(object$indicators$system)) +
    plot_labels(note = caption_lines(sim_caption(object$simulated), note),
                x = indicator_label(indicator, capital = TRUE), y = "Mean AP")
  p
}

empty_undefined <- function() data.frame(topic = character(), system = character(), reason = character())

indicator_label <- function(v, capital = FALSE) {
  names <- c(E = "exclusion E", U = "uniformity U", C = "centering C", S = "sphericity S",
             AP = "mean AP")
  out <- if (v %in% names(names)) names[[v]] else paste("indicator", v)
  if (capital) paste0(toupper(substr(out, 1, 1)), substring(out, 2)) else out
}

#' Plot system-to-system differences of topic indicators
#'
#' One point per topic, labelled by the topic id, at the differences
#' (`system_a - system_b`) of two indicators: `type = "EU"` exclusion against
#' uniformity (Figure 7 of Liggett & Buckley 2005), `"CS"` centering against
#' sphericity (Figure 8), `"AP"` exclusion against mean AP; or any two
#' indicators, your own included, with `x` and `y`.
#'
#' @param object An `ir_indicator_differences` object.
#' @param type `"EU"`, `"CS"` or `"AP"`.
#' @param x,y Instead of `type`: the indicators on the x and y axes (both
#'   needed), e.g. `x = "E", y = "my_indicator"`.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_indicator_differences
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 4, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' dif <- indicator_differences(ind, sim$truth$systems$system[1], sim$truth$systems$system[2])
#' ggplot2::autoplot(dif)
#' ggplot2::autoplot(dif, type = "CS")
#' ggplot2::autoplot(dif, x = "S", y = "AP")
#' @export
autoplot.ir_indicator_differences <- function(object, type = c("EU", "CS", "AP"), x = NULL,
                                              y = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_indicator_differences")
  if (!is.null(x) || !is.null(y)) {
    if (!missing(type)) stop_irtopics("Give either {.arg type} or {.arg x} and {.arg y}, not both.")
    if (is.null(x) || is.null(y)) stop_irtopics("{.arg x} and {.arg y} must both be given.")
    avail <- indicator_columns(object)
    vars <- c(match_choice(x, avail, "x"), match_choice(y, avail, "y"))
  } else {
    type <- match_choice(type)
    vars <- switch(type, EU = c("E", "U"), CS = c("C", "S"), AP = c("E", "AP"))
  }
  df <- object$differences
  note <- undefined_note(df, vars, object$undefined %||% empty_undefined())
  df <- df[is.finite(df[[vars[1]]]) & is.finite(df[[vars[2]]]), ]
  pair <- paste(object$system_a, "-", object$system_b)
  # "(a - b)" on both axes when it fits the 2.6 in height of a column
  # figure; else on the x axis only (two lines beyond its 3.5 in width)
  fits_y <- nchar(pair) + 6L <= 24L
  lab <- function(v, axis) {
    if (axis == "y" && !fits_y) return(bquote(Delta * .(v)))
    if (nchar(pair) + 6L <= 40L) bquote(Delta * .(v) ~ "(" * .(pair) * ")")
    else bquote(atop(Delta * .(v), "(" * .(pair) * ")"))
  }
  ggplot2::ggplot(df, ggplot2::aes(x = .data[[vars[1]]], y = .data[[vars[2]]],
                                   label = .data$topic)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_vline(xintercept = 0, colour = "grey70") +
    ggplot2::geom_text(size = 2.5) +
    # room for the labels of the outermost topics
    ggplot2::scale_x_continuous(expand = ggplot2::expansion(mult = 0.12)) +
    ggplot2::scale_y_continuous(expand = ggplot2::expansion(mult = 0.08)) +
    plot_labels(note = caption_lines(sim_caption(object$simulated), note),
                x = lab(vars[1], "x"), y = lab(vars[2], "y")) +
    title_theme()
}


# Colour and shape scales of systems, one legend (none for one system), and
# where it goes: below the panel for up to 4 systems (in rows that fit a
# column), else where the user's theme puts it (on the right by default,
# where a long list of systems takes less room from the panel). `below =
# FALSE` for maps drawn with equal axes, whose panel is bounded by the height.
# Colours and shapes are those of the systems' places among `all`, every
# system of the object, sorted by name (bytes: the objects made from the same
# runs list them in different orders) (system_styles()), whatever subset is
# drawn.
system_point_scales <- function(systems, all, below = NULL) {
  n <- length(systems)
  below <- n > 1L && (below %||% (n <= 4L))
  guide <- if (n == 1L) "none" else rows_legend(nrow = if (below) legend_rows(systems))
  sty <- system_styles(sort_bytes(all), systems, shapes = TRUE)
  list(ggplot2::scale_colour_manual(values = sty$colour, limits = systems, name = NULL, drop = FALSE,
                                    guide = guide),
       ggplot2::scale_shape_manual(values = sty$shape, limits = systems, name = NULL, drop = FALSE,
                                   guide = guide),
       title_theme(legend = below))
}

# The systems a figure draws: those the user chose (`systems`), or all of
# them up to `max`; beyond, the `max` best by `score` (a named vector, higher
# is better; NULL: the first by name). Returns the systems and the note that
# says how many were left out.
variation_plot_systems <- function(available, systems = NULL, score = NULL, max = 8L, what = "mean exclusion",
                         call = rlang::caller_env()) {
  if (!is.null(systems)) {
    if (!is.character(systems) || !length(systems) || anyNA(systems) || !all(systems %in% available)) {
      stop_irtopics(c("{.arg systems} must name systems of the figure.",
                      i = "Systems: {.val {utils::head(available, 10)}}{if (length(available) > 10) ', ...'}."),
                    call = call)
    }
    return(list(systems = available[available %in% systems], note = NULL))
  }
  if (length(available) <= max) return(list(systems = available, note = NULL))
  keep <- if (is.null(score)) sort_bytes(available)[seq_len(max)] else
    names(sort(score[available], decreasing = TRUE))[seq_len(max)]
  list(systems = available[available %in% keep],
       note = sprintf("Showing %d of %d systems: %s.", max, length(available),
                      if (is.null(score)) "the first by name" else paste("best", what)))
}
