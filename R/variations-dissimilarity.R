# Dissimilarity ----------------------------------------------------------------

#' Return-order dissimilarity between the lists of one topic
#'
#' For one topic, compares every pair of lists (all query variants of all
#' systems) by the order in which they return the topic's relevant documents
#' (Liggett & Buckley 2005, section 2.2): each list is reduced to the
#' midranks of the positions of the relevant documents (all unreturned ones
#' tied last), two lists are compared with Spearman's coefficient corrected for
#' ties, \eqn{s}, and turned into the dissimilarity
#' \eqn{\delta = \sqrt{2(1 - s)}}. Computed in C++.
#'
#' @section Reconstruction:
#' The paper names Spearman's coefficient with the tie correction of Gibbons
#' (1985) but its equations did not survive in the available copy; irtopics
#' uses the textbook form of that coefficient:
#' \deqn{s_{pq} = \frac{K - \sum_i d_i^2 - T_p - T_q}{\sqrt{(K - 2T_p)(K - 2T_q)}},
#'   \quad K = (n_R^3 - n_R)/6,\ T = (t^3 - t)/12}
#' (\eqn{t} the number of unreturned relevant documents), which equals the
#' Pearson correlation of the midranks. `tie_correction = FALSE` gives the
#' untied \eqn{1 - 6\sum d_i^2/(n_R^3 - n_R)} for comparison only.
#' The similarity-to-dissimilarity conversion is not in the text:
#' `dissimilarity = "sqrt2"` (default) is \eqn{\sqrt{2(1-s)}}, the Euclidean
#' distance between the centred, unit-length midrank vectors, so the
#' classical-scaling identities behind [topic_indicators()] hold exactly;
#' `"sqrt"` is \eqn{\sqrt{1-s}} (it shifts the uniformity indicator by
#' \eqn{\log 2} and leaves the others unchanged). \eqn{1 - s} is not offered:
#' it is not Euclidean.
#'
#' @param runs An `ir_return_orders` object, or runs (files, a directory or a
#'   data frame; see [return_orders()]).
#' @param qrels Qrels (when `runs` are runs).
#' @param topic The topic id.
#' @param query_map The query map (when `runs` are runs); see [return_orders()].
#' @param queries Queries to include, in this order (default: all queries of
#'   the topic, in the order of the query map); for instance the selection of
#'   [select_queries()]. Query letters follow this order.
#' @param systems Systems to include (default all).
#' @param dissimilarity `"sqrt2"` or `"sqrt"`, see Reconstruction.
#' @param tie_correction Use Gibbons' tie correction (default `TRUE`).
#' @param depth List length: positions beyond it count as not returned.
#' @param relevance_level Minimum grade of a relevant document (runs input).
#' @inheritParams irtopics_threads
#' @return A `dist` object (class `c("ir_return_order_dist", "dist")`) with
#'   labels `"system|query"`; attributes `lists` (a data frame `list, system,
#'   query, letter, topic, text`), `similarity` (the matrix of \eqn{s}),
#'   `topic`, `n_rel` and the parameters. `NA` where \eqn{s} is undefined (a
#'   list that returns no relevant document, or fewer than two relevant
#'   documents). `print()` shows the matrix (up to 8 lists) or its range;
#'   `summary()` the range and mean per system pair (an [irtopics_summary]);
#'   `as.data.frame()` one row per pair of lists (`list1, list2,
#'   dissimilarity`).
#' @param x,object An `ir_return_order_dist` object.
#' @param digits Digits of the printed numbers.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @seealso [query_map_mds()] to draw it, [select_queries()].
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 4, n_docs = 300,
#'                            depth = 200, seed = 1)
#' d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, depth = 200)
#' round(as.matrix(d), 3)
#' @export
return_order_dissimilarity <- function(runs, qrels = NULL, topic, query_map = NULL, queries = NULL,
                                       systems = NULL, dissimilarity = c("sqrt2", "sqrt"),
                                       tie_correction = TRUE, depth = 1000L, relevance_level = 1L,
                                       n_threads = irtopics_threads()) {
  dissimilarity <- match_dissimilarity(dissimilarity)
  check_flag(tie_correction)
  n_threads <- resolve_threads(n_threads)
  prep <- prepare_orders(runs, qrels, query_map, depth, !missing(depth), relevance_level,
                         topics = topic, n_threads = n_threads)
  orders <- prep$orders
  depth <- prep$depth
  td <- topic_data(orders, topic, queries = queries, systems = systems, min_queries = 1L)
  if (ncol(td$positions) < 2L) {
    stop_irtopics("Topic {.val {topic}} has fewer than two lists to compare.", kind = "data")
  }
  dm <- dissimilarity_matrix(td$positions, depth, dissimilarity, tie_correction, n_threads)
  d <- stats::as.dist(dm$delta)
  attr(d, "call") <- NULL
  attr(d, "method") <- paste0("return-order (", if (dissimilarity == "sqrt2") "sqrt(2(1 - s))" else "sqrt(1 - s)", ")")
  attr(d, "lists") <- td$lists
  attr(d, "similarity") <- dm$s
  attr(d, "topic") <- as.character(topic)
  attr(d, "n_rel") <- td$n_rel
  attr(d, "dissimilarity") <- dissimilarity
  attr(d, "tie_correction") <- tie_correction
  attr(d, "depth") <- depth
  attr(d, "simulated") <- isTRUE(attr(orders, "simulated"))
  new_ir_return_order_dist(d)
}

# An `ir_return_order_dist`: a base `dist` with the topic, its lists and the
# settings as attributes.
new_ir_return_order_dist <- function(x) {
  new_result(unclass(x), "ir_return_order_dist", base = "dist",
             attrs = c(Size = "number", method = "string", lists = "any", topic = "string",
                       dissimilarity = "string", depth = "number", simulated = "flag"))
}

#' @rdname return_order_dissimilarity
#' @export
format.ir_return_order_dist <- function(x, digits = 3, ...) {
  check_shown(digits = digits, min_digits = 1)
  n <- attr(x, "Size")
  head <- sprintf("<ir_return_order_dist> %s between %s of topic %s (%s)%s", attr(x, "method"),
                  plural(n, "list"), attr(x, "topic"), plural(attr(x, "n_rel"), "relevant document"),
                  if (isTRUE(attr(x, "simulated"))) " (simulated data)" else "")
  if (n <= 8) return(c(head, printed_lines(print(round(as.matrix(x), digits)))))
  v <- as.vector(x)
  c(head, sprintf("%d pairs; range %s to %s, %d undefined. Use `as.matrix()` to see them.",
                  length(v), format(min(v, na.rm = TRUE), digits = digits),
                  format(max(v, na.rm = TRUE), digits = digits), sum(is.na(v))))
}

#' @rdname return_order_dissimilarity
#' @export
print.ir_return_order_dist <- function(x, digits = 3, ...) print_formatted(x, digits = digits)

#' @rdname return_order_dissimilarity
#' @export
as.data.frame.ir_return_order_dist <- function(x, row.names = NULL, optional = FALSE, ...) {
  m <- as.matrix(x)
  idx <- which(upper.tri(m), arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  data.frame(list1 = rownames(m)[idx[, 1]], list2 = colnames(m)[idx[, 2]],
             dissimilarity = m[idx], stringsAsFactors = FALSE)
}

#' @rdname return_order_dissimilarity
#' @export
summary.ir_return_order_dist <- function(object, ...) {
  d <- as.data.frame(object)
  sys <- function(l) sub("\\|.*$", "", l)
  pair <- ifelse(sys(d$list1) <= sys(d$list2), paste(sys(d$list1), sys(d$list2), sep = " / "),
                 paste(sys(d$list2), sys(d$list1), sep = " / "))
  tab <- do.call(rbind, lapply(split(d$dissimilarity, factor(pair, levels = unique(pair))), function(v) {
    f <- v[!is.na(v)]
    data.frame(pairs = length(v), undefined = sum(is.na(v)),
               min = if (length(f)) min(f) else NA_real_, mean = if (length(f)) mean(f) else NA_real_,
               max = if (length(f)) max(f) else NA_real_)
  }))
  tab <- cbind(systems = unique(pair), tab)
  new_summary("ir_return_order_dist",
              sprintf("Return-order dissimilarities of topic %s by pair of systems:", attr(object, "topic")), tab)
}
