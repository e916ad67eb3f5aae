# Plots of the query-variation analysis (Liggett & Buckley 2005).

sim_caption <- function(simulated) if (isTRUE(simulated)) "Simulated data" else NULL

short_text <- function(x, width = 45) {
  x <- ifelse(is.na(x), "", x)
  ifelse(nchar(x) > width, paste0(substr(x, 1, width - 3), "..."), x)
}

choose_topic <- function(topic, available, call = rlang::caller_env()) {
  if (is.null(topic)) return(available[1])
  topic <- as.character(topic)
  if (length(topic) != 1L || !topic %in% available) {
    stop_irtopics("{.arg topic} must be one of {.val {utils::head(available, 10)}}.", call = call)
  }
  topic
}

# Figure 1: exclusion per query, one colour per system.
plot_query_exclusion <- function(df, label, topic, simulated) {
  lev <- unique(label)
  df$label <- factor(label, levels = rev(lev))
  ggplot2::ggplot(df, ggplot2::aes(x = .data$exclusion, y = .data$label,
                                   colour = .data$system, shape = .data$system)) +
    ggplot2::geom_point(size = 2) +
    ggplot2::labs(x = expression(-log[10](N[25] + 1)), y = "Query", colour = "System",
                  shape = "System", title = paste("Topic", topic),
                  caption = sim_caption(simulated)) +
    ggplot2::theme_bw()
}

#' Plot the exclusion of every query of a topic, by system
#'
#' One row per query variant of a topic, one point per system at
#' \eqn{-\log_{10}(N_{25} + 1)}: the layout of Figure 1 of Liggett & Buckley
#' (2005). Queries are ordered by the fraction of relevant documents they
#' return, averaged over the systems (the gauge of [select_queries()]), best
#' at the top.
#'
#' @param object An `ir_exclusion` object from [exclusion_measure()].
#' @param topic The topic (default: the first).
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_exclusion
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ex <- exclusion_measure(sim$runs, sim$qrels, sim$query_map, depth = 200)
#' ggplot2::autoplot(ex)
#' @export
autoplot.ir_exclusion <- function(object, topic = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_exclusion")
  df <- object$lists
  topic <- choose_topic(topic, unique(df$topic))
  df <- df[df$topic == topic, ]
  gauge <- tapply(df$n_returned / df$n_rel, df$query, mean)
  qs <- unique(df$query)
  qs <- qs[order(-gauge[qs], seq_along(qs))]
  df <- df[order(match(df$query, qs)), ]
  label <- paste0(df$query, ": ", short_text(df$text))
  label[is.na(df$text)] <- df$query[is.na(df$text)]
  plot_query_exclusion(df, label, topic, object$simulated)
}

#' Plot topic indicators: per-query exclusion or AP against an indicator
#'
#' `type = "queries"` draws, for one topic, the exclusion of each selected
#' query (labelled by its letter and text, best query at the top) and system:
#' the paper's Figures 1, 3 and 5. `type = "ap"` draws, for every topic and
#' system, the mean AP over the selected queries against an indicator
#' (\eqn{E} by default: Figure 13), one point per topic and system labelled
#' by the topic.
#'
#' @param object An `ir_topic_indicators` object.
#' @param type `"queries"` or `"ap"`.
#' @param topic For `type = "queries"`, the topic (default: the first).
#' @param indicator For `type = "ap"`, the indicator on the x axis: `"E"`,
#'   `"U"`, `"C"`, `"S"` or one of your own (see [topic_indicators()]).
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
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
                                         indicator = "E", ...) {
  check_no_dots(..., help = "autoplot.ir_topic_indicators")
  type <- match_choice(type)
  if (type == "queries") {
    if (!missing(indicator)) {
      stop_irtopics("{.arg indicator} is used by {.code type = \"ap\"} only.")
    }
    df <- object$queries
    topic <- choose_topic(topic, unique(df$topic))
    df <- df[df$topic == topic, ]
    df <- df[order(df$selection_order), ]
    label <- paste0(df$letter, ": ", short_text(df$text))
    label[is.na(df$text)] <- paste0(df$letter, ": ", df$query)[is.na(df$text)]
    return(plot_query_exclusion(df, label, topic, object$simulated))
  }
  if (!is.null(topic)) stop_irtopics("{.arg topic} is used by {.code type = \"queries\"} only.")
  vars <- setdiff(indicator_columns(object), "AP")
  indicator <- match_choice(indicator, vars, "indicator")
  df <- object$indicators
  ggplot2::ggplot(df, ggplot2::aes(x = .data[[indicator]], y = .data$AP, colour = .data$system,
                                   label = .data$topic)) +
    ggplot2::geom_point() +
    ggplot2::geom_text(size = 2.5, vjust = -0.6, show.legend = FALSE) +
    ggplot2::labs(x = indicator_label(indicator), y = "Mean AP over the selected queries",
                  colour = "System", caption = sim_caption(object$simulated)) +
    ggplot2::theme_bw()
}

indicator_label <- function(v) {
  names <- c(E = "exclusion E", U = "uniformity U", C = "centering C", S = "sphericity S",
             AP = "mean AP")
  if (v %in% names(names)) names[[v]] else paste("indicator", v)
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
  df <- df[is.finite(df[[vars[1]]]) & is.finite(df[[vars[2]]]), ]
  lab <- function(v) paste0("Difference in ", indicator_label(v), " (", object$system_a, " - ",
                            object$system_b, ")")
  ggplot2::ggplot(df, ggplot2::aes(x = .data[[vars[1]]], y = .data[[vars[2]]],
                                   label = .data$topic)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_vline(xintercept = 0, colour = "grey70") +
    ggplot2::geom_text(size = 3) +
    ggplot2::labs(x = lab(vars[1]), y = lab(vars[2]), caption = sim_caption(object$simulated)) +
    ggplot2::theme_bw()
}

#' Plot an isoMDS map of a topic's lists
#'
#' One point per list at its isoMDS coordinates, labelled by the query
#' letter and coloured by system: Figure 2 of Liggett & Buckley (2005).
#'
#' @param object An `ir_query_map` object from [query_map_mds()].
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_query_map
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 2)
#' d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, depth = 200)
#' ggplot2::autoplot(query_map_mds(d))
#' @export
autoplot.ir_query_map <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_query_map")
  df <- object$points
  if (!"dim2" %in% names(df)) df$dim2 <- 0
  ggplot2::ggplot(df, ggplot2::aes(x = .data$dim1, y = .data$dim2, label = .data$letter,
                                   colour = .data$system)) +
    ggplot2::geom_text(fontface = "bold") +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "Dimension 1", y = "Dimension 2", colour = "System",
                  title = if (!is.null(object$topic)) paste("Topic", object$topic),
                  caption = sim_caption(object$simulated)) +
    ggplot2::theme_bw()
}
