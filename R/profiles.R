# Relevance profiles: what the C++ evaluator knows about each ranked list ---------------

#' Positions of the relevant documents in each ranked list
#'
#' For every ranked list (a system's answer to a topic, or to a query variant
#' of a topic), the position at which each relevant document of the topic was
#' returned, in trec_eval order and within the first `depth` documents; a
#' document not returned gets `depth + 1` (the "1001" coding of Liggett &
#' Buckley 2005). These "return orders" are what the query-variation analysis
#' works on. They are computed by the C++ evaluator without making R strings
#' for the documents of the runs.
#'
#' @inheritParams evaluate
#' @param topics Optional topic ids to keep (default: every qrels topic that a
#'   list answers).
#' @return An `ir_return_orders` object: a list with
#'   * `orders`: a named list (by topic) of integer matrices, one row per
#'     relevant document of the topic (row names: docnos in byte order), one
#'     column per list (column names `"system|query"`), holding positions
#'     `1..depth` or `depth + 1`;
#'   * `lists`: a data frame with one row per list (`list`, `system`,
#'     `query`, `topic`, `n_returned`);
#'   * `queries`: a data frame (`query`, `topic`, `text`);
#'   * `depth`, `relevance_level`.
#'
#'   `print()` shows the size; `summary()` the relevant documents per topic
#'   and how many of them the lists return (an [irtopics_summary]);
#'   `as.data.frame()` the long form (`topic, docno, list, system, query,
#'   position`, with `position` `NA` for a document not returned).
#' @param x,object An `ir_return_orders` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... For `return_orders()`, see [evaluate()]; unused by the
#'   methods.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' ro <- return_orders(file.path(dir, "results.test"), file.path(dir, "qrels.test"))
#' ro
#' ro$orders[["302"]][1:5, ]
#' @export
return_orders <- function(runs, qrels, query_map = NULL, depth = 1000L, relevance_level = 1L,
                          topics = NULL, n_threads = irtopics_threads(), name = c("tag", "file"),
                          pattern = NULL) {
  name <- match_choice(name)
  n_threads <- resolve_threads(n_threads)
  depth <- check_whole(depth, "depth", min = 1)
  relevance_level <- check_whole(relevance_level, "relevance_level", min = 1)
  qmap <- read_query_map(query_map)
  check_not_swapped(runs, qrels)
  q <- qrels_pointer(qrels, relevance_level)
  qinfo <- cpp_qrels_info(q$ptr, with_relevant = TRUE)
  spec <- list(builtin = data.frame(kind = integer(), cutoff = numeric(), name = character()))
  source <- run_source(runs, name, pattern)
  results <- run_evaluation(source, q, spec, depth, numeric(), qmap, n_threads,
                            want_profiles = FALSE, want_orders = TRUE, progress = FALSE)
  check_topic_overlap(results, qinfo)
  systems <- unique_system_names(vapply(results, function(r) r$system, ""))

  lists <- do.call(rbind, lapply(seq_along(results), function(s) {
    r <- results[[s]]
    if (!length(r$list_id)) return(NULL)
    data.frame(system = systems[s], query = r$list_id, topic = qinfo$topics[r$topic],
               n_returned = r$num_ret, run = s, index = seq_along(r$list_id),
               stringsAsFactors = FALSE)
  }))
  if (is.null(lists)) stop_irtopics("No list of the runs answers a qrels topic.", kind = "data")
  lists$list <- paste(lists$system, lists$query, sep = "|")
  if (!is.null(topics)) {
    topics <- as_ids(topics)
    unknown <- setdiff(topics, lists$topic)
    if (length(unknown)) stop_irtopics("No list answers topic{?s} {.val {unknown}}.", kind = "data")
    lists <- lists[lists$topic %in% topics, , drop = FALSE]
  }
  topic_ids <- order_topics(unique(lists$topic))
  orders <- lapply(topic_ids, function(t) {
    li <- lists[lists$topic == t, , drop = FALSE]
    ti <- match(t, qinfo$topics)
    rel <- qinfo$relevant[[ti]]
    m <- matrix(0L, length(rel), nrow(li), dimnames = list(rel, li$list))
    for (k in seq_len(nrow(li))) m[, k] <- results[[li$run[k]]]$orders[[li$index[k]]]
    m[m == 0L] <- as.integer(depth) + 1L
    m
  })
  names(orders) <- topic_ids
  lists <- lists[order(match(lists$topic, topic_ids)), c("list", "system", "query", "topic", "n_returned")]
  rownames(lists) <- NULL
  queries <- unique(lists[, c("query", "topic")])
  if (!is.null(qmap)) queries <- queries[order(match(queries$query, qmap$query)), , drop = FALSE]
  queries$text <- if (is.null(qmap)) NA_character_ else qmap$text[match(queries$query, qmap$query)]
  rownames(queries) <- NULL
  new_ir_return_orders(orders, lists, queries, depth = depth, relevance_level = relevance_level)
}

#' @rdname return_orders
#' @export
format.ir_return_orders <- function(x, ...) {
  n_rel <- vapply(x$orders, nrow, integer(1))
  c(sprintf("<ir_return_orders> %s, %s (%s), depth %d", plural(length(x$orders), "topic"),
            plural(nrow(x$lists), "list"), plural(length(unique(x$lists$system)), "system"), x$depth),
    sprintf("relevant documents per topic: %s%s",
            paste(utils::head(sprintf("%s: %d", names(n_rel), n_rel), 8), collapse = ", "),
            if (length(n_rel) > 8) ", ..." else ""))
}

#' @rdname return_orders
#' @export
print.ir_return_orders <- function(x, ...) print_formatted(x, ...)

#' @rdname return_orders
#' @export
summary.ir_return_orders <- function(object, ...) {
  tab <- do.call(rbind, lapply(names(object$orders), function(t) {
    m <- object$orders[[t]]
    ret <- colSums(m <= object$depth)
    data.frame(topic = t, relevant = nrow(m), lists = ncol(m),
               min_returned = if (length(ret)) min(ret) else NA_integer_,
               mean_returned = if (length(ret)) mean(ret) else NA_real_,
               max_returned = if (length(ret)) max(ret) else NA_integer_, stringsAsFactors = FALSE)
  }))
  new_summary("ir_return_orders",
              sprintf("Relevant documents returned within depth %d, per topic:", object$depth), tab)
}

#' @rdname return_orders
#' @export
as.data.frame.ir_return_orders <- function(x, row.names = NULL, optional = FALSE, ...) {
  parts <- lapply(names(x$orders), function(t) {
    m <- x$orders[[t]]
    if (!length(m)) return(NULL)
    li <- x$lists[match(colnames(m), x$lists$list), , drop = FALSE]
    pos <- as.vector(m)
    data.frame(topic = t, docno = rep(rownames(m), times = ncol(m)),
               list = rep(colnames(m), each = nrow(m)), system = rep(li$system, each = nrow(m)),
               query = rep(li$query, each = nrow(m)),
               position = ifelse(pos > x$depth, NA_integer_, pos), stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, parts)
  if (is.null(out)) {
    out <- data.frame(topic = character(), docno = character(), list = character(), system = character(),
                      query = character(), position = integer())
  }
  rownames(out) <- NULL
  out
}
