#' Plot per-topic scores sorted, one line per system
#'
#' Draws each system's per-topic scores sorted from worst to best topic,
#' one line per system: Figure 3 of the TREC 2004 Robust track overview
#' (Voorhees 2004), where it shows how runs with similar MAP differ in their
#' worst topics.
#'
#' @param object An `ir_scores` object.
#' @param systems Systems to draw (names or row numbers); default: all when
#'   there are at most 8, otherwise the 8 best by mean score.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_scores
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' best <- names(sort(mean_scores(ap), decreasing = TRUE))[c(1, 10, 40)]
#' ggplot2::autoplot(ap, systems = best)
#' @export
autoplot.ir_scores <- function(object, systems = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_scores")
  systems <- plot_systems(object, systems)
  df <- sorted_scores_long(object, systems)
  measure <- attr(object, "measure") %||% "score"
  ggplot2::ggplot(df, ggplot2::aes(x = .data$position, y = .data$value,
                                   colour = .data$system, linetype = .data$system)) +
    ggplot2::geom_line() +
    ggplot2::labs(x = "Topics, sorted by score", y = measure, colour = "System",
                  linetype = "System") +
    ggplot2::theme_bw()
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
  systems
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
