# Query selection -------------------------------------------------------------

normalise_text <- function(x) {
  x <- tolower(as.character(x))
  x <- gsub("[^[:alnum:]]+", " ", x)
  trimws(x)
}

# Per-topic work shared by select_queries() and topic_indicators(): exclusion
# and AP of every list, per-system dissimilarities between queries, gauges
# and the greedy selection.
analyse_topic <- function(orders, topic, n, fraction, depth, dissimilarity, tie_correction, tol,
                          use_text, n_threads, call) {
  td <- topic_data(orders, topic, min_queries = 2L, call = call)
  p <- pmin(td$positions, depth + 1L)
  storage.mode(p) <- "integer"
  ex <- cpp_list_exclusion(p, depth, fraction)
  lists <- td$lists
  lists$n_rel <- td$n_rel
  lists$n_returned <- ex$n_returned
  lists$n25 <- ex$n25
  lists$exclusion <- -log10(ex$n25 + 1)
  lists$ap <- ex$ap
  nq <- length(td$queries)
  # per-system query x query dissimilarities (queries in map order)
  deltas <- lapply(td$systems, function(s) {
    cols <- which(lists$system == s)
    dissimilarity_matrix(p[, cols, drop = FALSE], depth, dissimilarity, tie_correction,
                         n_threads)$delta
  })
  names(deltas) <- td$systems
  # identical position vectors are duplicates even when delta is undefined
  same <- lapply(td$systems, function(s) {
    cols <- which(lists$system == s)
    key <- apply(p[, cols, drop = FALSE], 2L, paste, collapse = ",")
    outer(key, key, `==`)
  })
  gauge <- vapply(td$queries, function(q) mean(lists$n_returned[lists$query == q]) / td$n_rel, 0)
  text <- lists$text[match(td$queries, lists$query)]
  ntext <- normalise_text(text)
  by_gauge <- order(-gauge, seq_len(nq))
  accepted <- integer()
  dup_of <- rep(NA_character_, nq)
  for (k in by_gauge) {
    if (length(accepted) >= n) break
    dup <- NA_integer_
    for (j in accepted) {
      is_dup <- any(vapply(seq_along(deltas), function(m) {
        dl <- deltas[[m]][j, k] * (if (dissimilarity == "sqrt") sqrt(2) else 1)
        (!is.na(dl) && dl < tol) || same[[m]][j, k]
      }, TRUE))
      if (!is_dup && use_text && !is.na(text[j]) && !is.na(text[k]) && nzchar(ntext[j])) {
        is_dup <- ntext[j] == ntext[k]
      }
      if (is_dup) {
        dup <- j
        break
      }
    }
    if (is.na(dup)) accepted <- c(accepted, k) else dup_of[k] <- td$queries[dup]
  }
  sel <- data.frame(topic = as.character(topic), query = td$queries, text = text, gauge = gauge,
                    gauge_rank = match(seq_len(nq), by_gauge),
                    selected = seq_len(nq) %in% accepted,
                    selection_order = match(seq_len(nq), accepted),
                    duplicate_of = dup_of)
  sel$letter <- ifelse(sel$selected, query_letters(max(1L, length(accepted)))[sel$selection_order],
                       NA_character_)
  rownames(sel) <- NULL
  list(selection = sel, lists = lists, deltas = deltas, accepted = td$queries[accepted],
       systems = td$systems, n_rel = td$n_rel)
}

#' Choose the best query variants of each topic
#'
#' Liggett & Buckley's (2005) choice of the \eqn{n_Q} best queries of a
#' topic: queries are ranked by the gauge \eqn{g_j}, the fraction of the
#' relevant documents returned (within `depth`) averaged over the systems, and
#' accepted greedily, best first, skipping duplicates of already accepted
#' queries, until `n` are accepted. The first accepted query is the topic's
#' "best query".
#'
#' @section Reconstruction:
#' The paper describes the selection in words only; irtopics makes these
#' rules explicit: ties in the
#' gauge are broken by the query's position in the query map; query \eqn{k}
#' duplicates an accepted query \eqn{j} when the return-order dissimilarity
#' between their lists is below `tol` for any system (the lists return the
#' relevant documents in the same order), or their lists are identical, or
#' (`use_text = TRUE`) their texts are identical after lower-casing and
#' replacing punctuation by spaces. The paper speaks of "near duplicates":
#' raise `tol` to treat near-identical return orders as duplicates.
#'
#' @inheritParams return_order_dissimilarity
#' @param runs An `ir_return_orders` object, or runs (see [return_orders()]).
#' @param n Number of queries to select (\eqn{n_Q}, 20 in the paper).
#' @param topics Topics to analyse (default all).
#' @param tol Dissimilarity below which two queries are duplicates.
#' @param use_text Also treat identical query texts as duplicates.
#' @return An object of class `ir_query_selection`: `queries`, a data frame
#'   with one row per topic and query (`topic, query, text, gauge,
#'   gauge_rank, selected, selection_order, duplicate_of, letter`), and the
#'   parameters. `as.data.frame()` returns `queries`; `print()` and
#'   `summary()` the queries, selected queries and duplicates per topic.
#' @param x,object An `ir_query_selection` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' sel <- select_queries(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' sel
#' @export
select_queries <- function(runs, qrels = NULL, query_map = NULL, n = 20L, topics = NULL,
                           tol = 1e-12, use_text = TRUE, depth = 1000L, relevance_level = 1L,
                           n_threads = irtopics_threads()) {
  check_number(n, "n", min = 1, integer = TRUE)
  check_number(tol, "tol", min = 0)
  check_flag(use_text)
  n_threads <- resolve_threads(n_threads)
  prep <- prepare_orders(runs, qrels, query_map, depth, !missing(depth), relevance_level, topics,
                         n_threads)
  orders <- prep$orders
  depth <- prep$depth
  tops <- selected_topics(orders, topics)
  env <- environment()
  res <- lapply(tops, function(t) {
    analyse_topic(orders, t, n, 0.25, depth, "sqrt2", TRUE, tol, use_text, n_threads,
                  call = env)$selection
  })
  df <- do.call(rbind, res)
  rownames(df) <- NULL
  new_ir_query_selection(list(queries = df, n = as.integer(n), tol = tol, use_text = use_text, depth = depth,
                              simulated = isTRUE(attr(orders, "simulated"))))
}

new_ir_query_selection <- function(x) {
  new_result(x, "ir_query_selection", fields = c(queries = "data.frame", n = "number", tol = "number",
                                                 use_text = "flag", depth = "number", simulated = "flag"))
}

selected_topics <- function(orders, topics, call = rlang::caller_env()) {
  tops <- names(orders$orders)
  if (!is.null(topics)) {
    topics <- as_ids(topics)
    unknown <- setdiff(topics, tops)
    if (length(unknown)) {
      stop_irtopics("{.arg topics} must be topics of the return orders; unknown: {.val {unknown}}.",
                    kind = "data", call = call)
    }
    tops <- topics
  }
  if (!length(tops)) stop_irtopics("There are no topics to analyse.", kind = "data", call = call)
  tops
}

#' @rdname select_queries
#' @export
format.ir_query_selection <- function(x, ...) {
  df <- x$queries
  c(sprintf("<ir_query_selection> up to %d best queries for %s%s", x$n,
            plural(length(unique(df$topic)), "topic"), if (x$simulated) " (simulated data)" else ""),
    printed_lines(print(as.data.frame(summary(x)), row.names = FALSE)))
}

#' @rdname select_queries
#' @export
print.ir_query_selection <- function(x, ...) print_formatted(x, ...)

#' @rdname select_queries
#' @export
summary.ir_query_selection <- function(object, ...) {
  df <- object$queries
  per <- tapply(df$selected, df$topic, sum)
  dups <- tapply(!is.na(df$duplicate_of), df$topic, sum)
  new_summary("ir_query_selection", "Queries, selected queries and duplicates per topic:",
              data.frame(topic = names(per), queries = as.vector(table(df$topic)[names(per)]),
                         selected = as.vector(per), duplicates = as.vector(dups[names(per)])))
}

#' @rdname select_queries
#' @export
as.data.frame.ir_query_selection <- function(x, row.names = NULL, optional = FALSE, ...) x$queries
