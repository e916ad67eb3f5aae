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
