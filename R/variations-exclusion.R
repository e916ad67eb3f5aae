# Figure 1: exclusion per query, one colour and shape per system. Each
# system's points sit at their own offset within the query's row, so systems
# with equal values (identical runs) stay visible side by side. `all`: every
# system of the object, whose order gives each its colour and shape.
plot_query_exclusion <- function(df, label, topic, simulated, note = NULL, all = unique(df$system)) {
  lev <- unique(label)
  systems <- unique(df$system)
  ns <- length(systems)
  step <- if (ns > 1L) min(0.2, 0.7 / (ns - 1L)) else 0
  df$row <- match(label, rev(lev)) + (match(df$system, systems) - (ns + 1) / 2) * -step
  df$system <- factor(df$system, levels = systems)
  p <- ggplot2::ggplot(df, ggplot2::aes(x = .data$exclusion, y = .data$row, colour = .data$system,
                                        shape = .data$system)) +
    ggplot2::geom_point(size = 1.8) +
    ggplot2::scale_y_continuous(breaks = seq_along(lev), labels = rev(lev),
                                expand = ggplot2::expansion(add = 0.5)) +
    # below the panel: the query labels already take width
    system_point_scales(systems, all, below = TRUE) +
    plot_labels(title = paste("Topic", topic), note = caption_lines(sim_caption(simulated), note),
                x = expression(-log[10](N[25] + 1)), y = NULL) +
    # a legend below is centred on the panel, right of the long query labels:
    # aligned right, it spreads under the labels instead of off the figure
    ggplot2::theme(panel.grid.minor.y = ggplot2::element_blank(), legend.justification = "right")
  p
}

# "A: text of the query" labels, the text cut to `width` characters (0: the
# letter or id only).
query_labels <- function(id, text, width) {
  if (width == 0) return(id)
  label <- paste0(id, ": ", short_text(text, width))
  label[is.na(text) | !nzchar(trimws(text))] <- id[is.na(text) | !nzchar(trimws(text))]
  label
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
#' @param text_width Characters of query text shown after the query id; longer
#'   texts are cut with "...". `0` shows the ids only. The default fits a
#'   figure one column (3.5 in) wide.
#' @param systems The systems to draw. By default all, up to 4 (each system
#'   adds a point to every query's row); of more systems, the 4 with the best
#'   mean exclusion on the topic, and the caption
#'   (or, with titles off, a message) says how many were left out.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object. Systems are told apart by colour and shape and
#'   drawn side by side within each query's row, so that systems with equal
#'   values (identical runs) stay visible.
#' @method autoplot ir_exclusion
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ex <- exclusion_measure(sim$runs, sim$qrels, sim$query_map, depth = 200)
#' ggplot2::autoplot(ex)
#' @export
autoplot.ir_exclusion <- function(object, topic = NULL, text_width = 18L, systems = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_exclusion")
  check_number(text_width, "text_width", min = 0, integer = TRUE)
  df <- object$lists
  topic <- choose_topic(topic, unique(df$topic))
  df <- df[df$topic == topic, ]
  shown <- variation_plot_systems(unique(df$system), systems, tapply(df$exclusion, df$system, mean), max = 4L)
  df <- df[df$system %in% shown$systems, ]
  gauge <- tapply(df$n_returned / df$n_rel, df$query, mean)
  qs <- unique(df$query)
  qs <- qs[order(-gauge[qs], seq_along(qs))]
  df <- df[order(match(df$query, qs)), ]
  undefined <- sum(is.na(df$exclusion))
  note <- if (undefined) sprintf("%s not drawn: the topic has no relevant document.",
                                 plural(undefined, "list"))
  plot_query_exclusion(df, query_labels(df$query, df$text, text_width), topic, object$simulated,
                       c(shown$note, note), all = unique(object$lists$system))
}

# N25 --------------------------------------------------------------------------

#' Exclusion of irrelevant documents (N25)
#'
#' The irrelevant-document exclusion measure of Liggett & Buckley (2005):
#' \eqn{X = -\log_{10}(N_{25} + 1)}, where \eqn{N_{25}} is the number of
#' irrelevant documents a list returns before a quarter (`fraction`) of the
#' topic's relevant documents. 0 is best; more negative is worse.
#'
#' @section Reconstruction:
#' The paper's formulas did not survive in the available copy of Liggett &
#' Buckley (2005); irtopics rebuilds them from the paper's definition in
#' words. With
#' \eqn{n_R} relevant documents, \eqn{n} of them returned within the first
#' `depth` positions at sorted positions \eqn{r_{(1)} \le r_{(2)} \le \dots},
#' and \eqn{H = \lceil \mathrm{fraction} \cdot n_R \rceil}:
#' * \eqn{n \ge H}: \eqn{N_{25} = r_{(H)} - H} (exact);
#' * \eqn{1 \le n < H}: \eqn{N_{25} = (L - n) H / n} with \eqn{L} = `depth`
#'   (linear extrapolation of the list's irrelevant-per-relevant rate);
#' * \eqn{n = 0}: \eqn{N_{25} = L H} (a cap, worse than any list that returns
#'   something);
#' * \eqn{n_R = 0}: `NA`.
#'
#' The fraction (0.25 in the paper) and the list length `depth` (1000) are
#' arguments. The average precision of each list (the paper's appendix,
#' identical to trec_eval's AP at cut-off `depth`) is returned beside it.
#'
#' @param x Either the positions of a topic's relevant documents in one list
#'   (an integer vector, `depth + 1` or any larger value meaning "not
#'   returned") or several lists (a matrix, one column per list); or an
#'   `ir_return_orders` object; or runs (files, a directory or a data frame,
#'   see [return_orders()]) together with `qrels`.
#' @param qrels,query_map Qrels and query map when `x` holds runs
#'   (see [return_orders()]).
#' @param fraction Fraction of the relevant documents (0.25 for \eqn{N_{25}}).
#' @param depth List length \eqn{L}: positions beyond it count as not returned.
#'   For return orders, defaults to their depth.
#' @param topics Topics to keep (default all).
#' @param relevance_level Minimum grade of a relevant document (runs input).
#' @return For position input, a data frame with one row per list:
#'   `n_rel`, `n_returned`, `n25`, `exclusion`, `ap`. For runs or return
#'   orders, an object of class `ir_exclusion` whose `lists` element adds
#'   `list`, `system`, `query`, `topic`, `text`; `autoplot()` draws the
#'   per-query exclusion by system (the paper's Figure 1), `print()` shows
#'   the first lists, `summary()` the mean exclusion and AP per system and
#'   topic (an [irtopics_summary]) and `as.data.frame()` returns `lists`.
#' @param object An `ir_exclusion` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Liggett, W. and Buckley, C. (2005). System performance and
#'   natural language expression of information needs. *Information
#'   Retrieval* 8, 101--128.
#' @examples
#' # two lists over a topic with 8 relevant documents (1001 = not returned)
#' a <- c(3, 7, 1001, 15, 40, 1001, 2, 900)
#' b <- c(1, 4, 10, 1001, 30, 1001, 1001, 55)
#' exclusion_measure(cbind(A = a, B = b))
#' @export
exclusion_measure <- function(x, qrels = NULL, query_map = NULL, fraction = 0.25, depth = 1000L,
                              topics = NULL, relevance_level = 1L) {
  check_number(fraction, "fraction", min = 0, max = 1)
  if (fraction <= 0) stop_irtopics("{.arg fraction} must be larger than 0.")
  if (is.numeric(x) && !inherits(x, "ir_return_orders")) {
    check_depth(depth)
    m <- if (is.matrix(x)) x else matrix(x, ncol = 1L)
    if (anyNA(m) || any(m < 1) || any(m != round(m))) {
      stop_irtopics("Positions must be whole numbers >= 1 (use a value > {.arg depth} for \"not returned\"), without NA.",
                    kind = "data")
    }
    m <- pmin(m, depth + 1)
    storage.mode(m) <- "integer"
    # two relevant documents can't share a rank within the list
    dup <- which(apply(m, 2L, function(v) anyDuplicated(v[v <= depth]) > 0L))
    if (length(dup)) {
      v <- m[, dup[1]]
      v <- v[v <= depth]
      stop_irtopics(c("A list can't return two relevant documents at the same position.",
                      x = "List {dup[1]} repeats position {v[duplicated(v)][1]}."),
                    kind = "data")
    }
    res <- cpp_list_exclusion(m, as.integer(depth), fraction)
    out <- data.frame(n_rel = rep(nrow(m), ncol(m)), n_returned = res$n_returned, n25 = res$n25,
                      exclusion = -log10(res$n25 + 1), ap = res$ap)
    if (!is.null(colnames(m))) out <- cbind(list = colnames(m), out)
    return(out)
  }
  prep <- prepare_orders(x, qrels, query_map, depth, !missing(depth), relevance_level, topics)
  orders <- prep$orders
  depth <- prep$depth
  tops <- names(orders$orders)
  if (!is.null(topics)) tops <- selected_topics(orders, topics)
  rows <- lapply(tops, function(t) {
    p <- orders$orders[[t]]
    li <- orders$lists[match(colnames(p), orders$lists$list), c("list", "system", "query", "topic")]
    if (nrow(p) == 0L) {
      res <- list(n_returned = rep(0L, ncol(p)), n25 = rep(NA_real_, ncol(p)), ap = rep(NA_real_, ncol(p)))
    } else {
      p <- pmin(p, depth + 1L)
      storage.mode(p) <- "integer"
      res <- cpp_list_exclusion(p, depth, fraction)
    }
    data.frame(li, n_rel = nrow(orders$orders[[t]]), n_returned = res$n_returned, n25 = res$n25,
               exclusion = -log10(res$n25 + 1), ap = res$ap)
  })
  df <- do.call(rbind, rows)
  if (is.null(df)) df <- data.frame(list = character(), system = character(), query = character(),
                                    topic = character(), n_rel = integer(), n_returned = integer(),
                                    n25 = numeric(), exclusion = numeric(), ap = numeric())
  df$text <- orders$queries$text[match(df$query, orders$queries$query)]
  rownames(df) <- NULL
  new_ir_exclusion(list(lists = df, fraction = fraction, depth = depth,
                        simulated = isTRUE(attr(orders, "simulated"))))
}

new_ir_exclusion <- function(x) {
  new_result(x, "ir_exclusion", fields = c(lists = "data.frame", fraction = "number", depth = "number",
                                           simulated = "flag"))
}

#' @rdname exclusion_measure
#' @export
format.ir_exclusion <- function(x, ...) {
  df <- x$lists
  c(sprintf("<ir_exclusion> N%d exclusion of %s (%s, %s, depth %d)%s", round(100 * x$fraction),
            plural(nrow(df), "list"), plural(length(unique(df$system)), "system"),
            plural(length(unique(df$topic)), "topic"), x$depth,
            if (x$simulated) " (simulated data)" else ""),
    printed_lines(print(utils::head(df[, c("system", "topic", "query", "n_rel", "n_returned", "n25",
                                           "exclusion", "ap")], 10), row.names = FALSE)),
    more_line(row = nrow(df) - 10))
}

#' @rdname exclusion_measure
#' @export
print.ir_exclusion <- function(x, ...) print_formatted(x, ...)

#' @rdname exclusion_measure
#' @export
summary.ir_exclusion <- function(object, ...) {
  df <- object$lists
  key <- factor(paste(df$topic, df$system, sep = "\r"), levels = unique(paste(df$topic, df$system, sep = "\r")))
  tab <- do.call(rbind, lapply(split(df, key), function(d) {
    data.frame(topic = d$topic[1], system = d$system[1], lists = nrow(d),
               mean_exclusion = mean(d$exclusion), mean_ap = mean(d$ap), stringsAsFactors = FALSE)
  }))
  new_summary("ir_exclusion", sprintf("Mean exclusion and AP per topic and system (%s):",
                                      plural(nrow(df), "list")), tab)
}

#' @rdname exclusion_measure
#' @export
as.data.frame.ir_exclusion <- function(x, row.names = NULL, optional = FALSE, ...) x$lists
