# Plots of the query-variation analysis (Liggett & Buckley 2005).

sim_caption <- function(simulated) if (isTRUE(simulated)) "Simulated data" else NULL

# A caption (or plot_labels() note) from several optional lines, each wrapped
# to fit a column: NULL when there is nothing to say.
caption_lines <- function(..., width = 44L) {
  lines <- unlist(list(...))
  lines <- lines[nzchar(lines)]
  if (!length(lines)) return(NULL)
  paste(vapply(lines, wrap_text, "", width = width), collapse = "\n")
}

short_text <- function(x, width = 45) {
  x <- ifelse(is.na(x), "", x)
  ifelse(nchar(x) > width, paste0(substr(x, 1, width - 3), "..."), x)
}

choose_topic <- function(topic, available, call = rlang::caller_env()) {
  if (is.null(topic)) return(available[1])
  topic <- as_ids(topic)
  if (length(topic) != 1L || !topic %in% available) {
    stop_irtopics("{.arg topic} must be one of {.val {utils::head(available, 10)}}.", call = call)
  }
  topic
}
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
#' @param relevance_level Smallest grade that counts as relevant (trec_eval
#'   `-l`), a whole number from 1 to 2147483647; with fractional grades (see
#'   [read_qrels()]) a document is relevant when its grade is at least it.
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
                          pattern = NULL, progress = NULL) {
  name <- match_choice(name)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  depth <- check_whole(depth, "depth", min = 1)
  relevance_level <- check_whole(relevance_level, "relevance_level", min = 1)
  qmap <- read_query_map(query_map)
  check_not_swapped(runs, qrels)
  q <- qrels_pointer(qrels, relevance_level)
  qinfo <- cpp_qrels_info(q$ptr, with_relevant = TRUE)
  spec <- list(builtin = data.frame(kind = integer(), cutoff = numeric(), name = character()))
  source <- run_source(runs, name, pattern)
  results <- run_evaluation(source, q, spec, depth, numeric(), qmap, n_threads,
                            want_profiles = FALSE, want_orders = TRUE)
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
# Query-variation analysis of Liggett & Buckley (2005), spec section 1.
#
# Data: an `ir_return_orders` object (see return_orders()), i.e. for every
# topic an integer matrix of the positions of the topic's relevant documents
# (rows) in every list (columns; one list per system and query variant),
# depth + 1 meaning "not returned". Everything below works on these matrices;
# the per-list reductions (N25, AP), the Spearman dissimilarities and the
# indicator algebra run in C++ (src/variations.h).

# Constructor and helpers ------------------------------------------------------

#' Internal constructor of `ir_return_orders` objects
#'
#' @param orders Named list (topic ids) of integer matrices, relevant documents
#'   in rows (rownames = docno), lists in columns (colnames = `"system|query"`);
#'   entries are 1-based positions, `depth + 1` for "not returned".
#' @param lists Data frame `list, system, query, topic, n_returned`.
#' @param queries Data frame `query, topic, text`.
#' @param depth,relevance_level Integers.
#' @return An object of class `ir_return_orders`.
#' @keywords internal
#' @noRd
new_ir_return_orders <- function(orders, lists, queries, depth = 1000L, relevance_level = 1L) {
  new_result(list(orders = orders, lists = lists, queries = queries,
                  depth = as.integer(depth), relevance_level = as.integer(relevance_level)),
             "ir_return_orders", fields = c(orders = "list", lists = "data.frame", queries = "data.frame",
                                            depth = "number", relevance_level = "number"))
}

# List ids as in return_orders(): "system|query".
list_id <- function(system, query) paste(system, query, sep = "|")

# Letters A, B, ..., Z, AA, AB, ... for query labels.
query_letters <- function(n) {
  out <- character(n)
  for (i in seq_len(n)) {
    k <- i
    s <- ""
    while (k > 0) {
      r <- (k - 1) %% 26
      s <- paste0(LETTERS[r + 1], s)
      k <- (k - 1) %/% 26
    }
    out[i] <- s
  }
  out
}

# Resolve the data argument of the data-level functions: an ir_return_orders
# object as is, otherwise runs + qrels (+ query_map) through return_orders().
resolve_return_orders <- function(runs, qrels, query_map, depth, relevance_level,
                                  topics = NULL, n_threads = irtopics_threads(), call = rlang::caller_env()) {
  if (inherits(runs, "ir_return_orders")) return(runs)
  if (is.null(qrels)) {
    stop_irtopics(c("{.arg qrels} must be given when {.arg runs} is not an {.cls ir_return_orders} object.",
                    "i" = "Pass run files or a run data frame with the qrels, or the result of {.fn return_orders}."),
                  call = call)
  }
  orders <- return_orders(runs, qrels, query_map = query_map, depth = depth,
                          relevance_level = relevance_level, topics = topics,
                          n_threads = n_threads)
  if (!is.null(query_map)) {
    # the query index that breaks ties in the gauge is the order of the map
    qm <- read_query_map(query_map, call = call)
    o <- order(match(orders$queries$query, qm$query), seq_len(nrow(orders$queries)))
    orders$queries <- orders$queries[o, , drop = FALSE]
    rownames(orders$queries) <- NULL
  }
  if (isTRUE(attr(runs, "simulated"))) attr(orders, "simulated") <- TRUE
  orders
}

check_return_orders <- function(x, call = rlang::caller_env()) {
  if (!inherits(x, "ir_return_orders") || !is.list(x$orders) || !is.data.frame(x$lists)) {
    stop_irtopics("Expected an {.cls ir_return_orders} object.", call = call)
  }
  invisible(x)
}

# The lists of one topic as a complete grid queries x systems. Returns the
# position matrix (columns ordered system-major, queries in map order) and the
# list table with the query letter. A (system, query) pair without a list is
# an empty list (nothing returned), with a warning.
# The common start of the data-level functions: the return orders (from an
# ir_return_orders object or from runs + qrels), checked, and the depth to
# use (the object's own depth unless the caller gave one).
prepare_orders <- function(runs, qrels, query_map, depth, depth_given, relevance_level,
                           topics = NULL, n_threads = irtopics_threads(), call = rlang::caller_env()) {
  orders <- resolve_return_orders(runs, qrels, query_map, depth, relevance_level, topics,
                                  n_threads, call = call)
  check_return_orders(orders, call = call)
  if (inherits(runs, "ir_return_orders") && !depth_given) depth <- orders$depth
  list(orders = orders, depth = check_depth(depth, orders, call = call))
}

topic_data <- function(orders, topic, queries = NULL, systems = NULL, min_queries = 2L,
                       call = rlang::caller_env()) {
  topic <- as_ids(topic)
  if (length(topic) != 1L || is.na(topic)) {
    stop_irtopics("{.arg topic} must be a single topic id.", call = call)
  }
  p <- orders$orders[[topic]]
  if (is.null(p)) {
    stop_irtopics(c("Can't find topic {.val {topic}} in the return orders.",
                    "i" = "Topics: {.val {utils::head(names(orders$orders), 10)}}."),
                  kind = "data", call = call)
  }
  if (nrow(p) == 0L) {
    stop_irtopics("Topic {.val {topic}} has no relevant documents (at relevance level {orders$relevance_level}).",
                  kind = "data", call = call)
  }
  li <- orders$lists[match(colnames(p), orders$lists$list), c("list", "system", "query")]
  known_q <- orders$queries$query[orders$queries$topic == topic]
  q_all <- c(intersect(known_q, li$query), setdiff(unique(li$query), known_q))
  q_all <- restrict_to(queries, q_all, "queries", topic, call)
  s_all <- restrict_to(systems, sort_bytes(unique(li$system)), "systems", topic, call)
  if (length(q_all) < min_queries) {
    stop_irtopics("Topic {.val {topic}} has {length(q_all)} quer{?y/ies}; the analysis needs at least {min_queries}.",
                  kind = "data", call = call)
  }
  grid <- data.frame(system = rep(s_all, each = length(q_all)), query = rep(q_all, length(s_all)))
  grid$list <- list_id(grid$system, grid$query)
  grid$letter <- query_letters(length(q_all))[match(grid$query, q_all)]
  grid$topic <- topic
  col <- match(grid$list, colnames(p))
  if (anyNA(col)) {
    miss <- grid$list[is.na(col)]
    warn_irtopics(c("{length(miss)} list{?s} of topic {.val {topic}} {?is/are} missing and count as empty (nothing returned).",
                    "i" = "First: {.val {miss[1]}}."), kind = "data")
  }
  empty <- orders$depth + 1L
  m <- matrix(empty, nrow(p), nrow(grid), dimnames = list(rownames(p), grid$list))
  m[, !is.na(col)] <- p[, col[!is.na(col)]]
  storage.mode(m) <- "integer"
  text <- orders$queries$text[match(grid$query, orders$queries$query)]
  grid$text <- if (is.null(text)) NA_character_ else as.character(text)
  list(positions = m, lists = grid[, c("list", "system", "query", "letter", "topic", "text")],
       queries = q_all, systems = s_all, n_rel = nrow(p))
}

check_depth <- function(depth, orders = NULL, call = rlang::caller_env()) {
  check_number(depth, "depth", min = 1, integer = TRUE, call = call)
  if (!is.null(orders) && depth > orders$depth) {
    stop_irtopics(c("{.arg depth} ({depth}) can't exceed the depth of the return orders ({orders$depth}).",
                    "i" = "Rebuild them with {.code return_orders(depth = {depth})}."), call = call)
  }
  as.integer(depth)
}

match_dissimilarity <- function(dissimilarity, call = rlang::caller_env()) {
  choices <- c("sqrt2", "sqrt")
  if (!is.character(dissimilarity) || length(dissimilarity) < 1L ||
      !dissimilarity[1] %in% choices) {
    stop_irtopics("{.arg dissimilarity} must be one of {.val {choices}}.", call = call)
  }
  dissimilarity[1]
}

# Dissimilarity matrix (and similarities) of the columns of `positions`.
dissimilarity_matrix <- function(positions, depth, dissimilarity, tie_correction, n_threads) {
  res <- cpp_return_order_dissimilarity(positions, as.integer(depth), tie_correction, n_threads)
  d <- res$delta
  if (dissimilarity == "sqrt") d <- d / sqrt(2)
  dimnames(d) <- list(colnames(positions), colnames(positions))
  dimnames(res$s) <- dimnames(d)
  list(delta = d, s = res$s)
}

# The user's subset (`chosen`, NULL for all) of the queries or systems
# `available` for a topic, checked.
restrict_to <- function(chosen, available, arg, topic, call) {
  if (is.null(chosen)) return(available)
  chosen <- as.character(chosen)
  unknown <- setdiff(chosen, available)
  if (length(unknown)) {
    stop_irtopics("{.arg {arg}} must be {arg} of topic {.val {topic}}; unknown: {.val {unknown}}.",
                  kind = "data", call = call)
  }
  unique(chosen)
}
