# Builders of ir_return_orders objects from position vectors (spec section 1).

# `lists`: named list (systems) of named lists (queries) of position vectors
# over the same relevant documents (depth + 1 = not returned). One topic.
make_orders <- function(lists, topic = "t1", depth = 1000L, text = NULL, docs = NULL) {
  n_rel <- length(lists[[1]][[1]])
  docs <- docs %||% sprintf("d%02d", seq_len(n_rel))
  ids <- character(); sys <- character(); qry <- character(); cols <- list()
  for (s in names(lists)) for (q in names(lists[[s]])) {
    ids <- c(ids, paste(s, q, sep = "|")); sys <- c(sys, s); qry <- c(qry, q)
    cols[[length(cols) + 1L]] <- as.integer(pmin(lists[[s]][[q]], depth + 1L))
  }
  m <- matrix(unlist(cols), n_rel, dimnames = list(docs, ids))
  orders <- stats::setNames(list(m), topic)
  queries <- unique(qry)
  irtopics:::new_ir_return_orders(
    orders,
    data.frame(list = ids, system = sys, query = qry, topic = topic,
               n_returned = as.integer(depth)),
    data.frame(query = queries, topic = topic,
               text = if (is.null(text)) NA_character_ else text[queries]),
    depth = depth)
}

# Combine single-topic orders into one object.
combine_orders <- function(...) {
  xs <- list(...)
  irtopics:::new_ir_return_orders(
    do.call(c, lapply(xs, `[[`, "orders")),
    do.call(rbind, lapply(xs, `[[`, "lists")),
    do.call(rbind, lapply(xs, `[[`, "queries")),
    depth = xs[[1]]$depth)
}

# Spec 1.3 / 1.5 lists A and B (n_R = 8).
spec_list_a <- c(3, 7, 1001, 15, 40, 1001, 2, 900)
spec_list_b <- c(1, 4, 10, 1001, 30, 1001, 1001, 55)

# Spec 1.7 four-query example (one system, n_R = 6), in query-index order.
spec_queries <- list(q1 = c(1, 2, 3, 5, 8, 20), q2 = c(2, 1, 4, 3, 1001, 1001),
                     q3 = c(4, 7, 2, 6, 9, 1001), q4 = c(10, 1001, 3, 5, 8, 6))

# Independent references: Gibbons' tie-corrected Spearman and the untied
# formula, written from the spec's equations.
gibbons_s <- function(x, y) {
  a <- rank(x); b <- rank(y); n <- length(x)
  k <- (n^3 - n) / 6
  tt <- function(r) sum(vapply(table(r), function(t) (t^3 - t) / 12, 0))
  ta <- tt(a); tb <- tt(b)
  (k - sum((a - b)^2) - ta - tb) / sqrt((k - 2 * ta) * (k - 2 * tb))
}
untied_s <- function(x, y) {
  n <- length(x)
  1 - 6 * sum((rank(x) - rank(y))^2) / (n^3 - n)
}

# Plain-R construction of return orders from run and qrels data frames: the
# reference the C++ reader is tested against (trec_eval order: score
# descending, ties by docno descending in byte order; first `depth` docs).
return_orders_reference <- function(runs, qrels, query_map = NULL, depth = 1000L,
                                    relevance_level = 1L, topics = NULL,
                                    call = rlang::caller_env()) {
  runs <- as.data.frame(runs)[, c("system", "topic", "docno", "score")]
  runs$topic <- as.character(runs$topic)
  runs$system <- as.character(runs$system)
  runs$docno <- as.character(runs$docno)
  if (is.null(query_map)) {
    qm <- unique(data.frame(query = runs$topic, topic = runs$topic, text = NA_character_))
  } else {
    qm <- irtopics:::read_query_map(query_map)
  }
  missing <- setdiff(unique(runs$topic), qm$query)
  if (length(missing)) {
    irtopics:::stop_irtopics(c("Every query id of the runs must appear in {.arg query_map}.",
                    "x" = "Missing: {.val {utils::head(missing, 5)}}{if (length(missing) > 5) ', ...' else ''}."),
                  kind = "data", call = call)
  }
  runs$query <- runs$topic
  runs$topic <- qm$topic[match(runs$query, qm$query)]
  o <- order(runs$system, runs$query, -runs$score, runs$docno,
             decreasing = c(FALSE, FALSE, FALSE, TRUE), method = "radix")
  runs <- runs[o, ]
  key <- irtopics:::list_id(runs$system, runs$query)
  runs$position <- stats::ave(seq_along(key), key, FUN = seq_along)
  lists <- unique(data.frame(list = key, system = runs$system, query = runs$query,
                             topic = runs$topic))
  lists$n_returned <- as.integer(pmin(tabulate(match(key, lists$list), nrow(lists)), depth))
  runs <- runs[runs$position <= depth, ]
  qrels <- as.data.frame(qrels)
  qrels$topic <- as.character(qrels$topic)
  all_topics <- sort(intersect(unique(lists$topic), unique(qrels$topic)), method = "radix")
  if (!is.null(topics)) all_topics <- intersect(all_topics, as.character(topics))
  orders <- lapply(all_topics, function(t) {
    rel <- sort(unique(as.character(qrels$docno[qrels$topic == t & qrels$rel >= relevance_level])),
                method = "radix")
    lt <- lists$list[lists$topic == t]
    m <- matrix(as.integer(depth) + 1L, length(rel), length(lt), dimnames = list(rel, lt))
    r <- runs[runs$topic == t, ]
    i <- match(r$docno, rel)
    keep <- !is.na(i)
    m[cbind(i[keep], match(key_of(r)[keep], lt))] <- as.integer(r$position[keep])
    m
  })
  names(orders) <- all_topics
  lists <- lists[lists$topic %in% all_topics, ]
  rownames(lists) <- NULL
  qm <- qm[qm$topic %in% all_topics, ]
  rownames(qm) <- NULL
  irtopics:::new_ir_return_orders(orders, lists, qm, depth, relevance_level)
}

key_of <- function(r) irtopics:::list_id(r$system, r$query)


# Fixtures shared by tests that came from test-autoplot-variations.R
sim_small <- function() {
  simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 6, n_docs = 300, depth = 150,
                      seed = 3)
}

# Fixtures shared by tests that came from test-variations.R
spec_indicator_orders <- function(queries = spec_queries, text = NULL) {
  make_orders(list(sys = queries), text = text)
}

