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

# Indicators ------------------------------------------------------------------

#' Topic indicators of system behaviour over query variants
#'
#' For every topic and system, Liggett & Buckley's (2005) four indicators over
#' the topic's \eqn{n_Q} best queries (chosen by [select_queries()]):
#' exclusion \eqn{E} (the mean of \eqn{-\log_{10}(N_{25}+1)}), uniformity
#' \eqn{U} of the relevant-document return order (how tightly the queries'
#' return orders cluster), centering \eqn{C} of the best query (how near the
#' best query is to the centre of the cloud compared with the average query)
#' and sphericity \eqn{S} (how round the cloud is), plus the mean average
#' precision over the same queries (the paper's appendix).
#'
#' @section Reconstruction:
#' The equations of Liggett & Buckley (2005) did not survive in the available
#' copy of the paper; irtopics reconstructs them from the paper's verbal
#' definitions and its figures, so that the indicators behave as the paper
#' describes. With \eqn{\delta_{jk}} the
#' return-order dissimilarity ([return_order_dissimilarity()]) between the
#' lists of queries \eqn{j, k} of the same system, \eqn{B = -\frac12 J D_2 J}
#' the double-centred matrix of \eqn{\delta^2} (classical multidimensional
#' scaling), \eqn{\bar a = \mathrm{tr}(B)/n}, and \eqn{\lambda_1} the
#' largest eigenvalue of \eqn{B}:
#' * \eqn{E = \frac1n \sum_j -\log_{10}(N_{25,j} + 1)} (see
#'   [exclusion_measure()] for \eqn{N_{25}});
#' * \eqn{U = -\log \bar a};
#' * \eqn{C = -\log(B_{11} / \bar a)}, query 1 being the best query;
#' * \eqn{S = -\log \lambda_1 - U = -\log(\lambda_1/\bar a)}.
#'
#' The logarithm of \eqn{U, C, S} is natural by default (`base`); the paper
#' states base 10 only for the exclusion measure. The conversion
#' \eqn{\delta = \sqrt{2(1-s)}} (`dissimilarity`) is also a reconstruction.
#' Indicators are `NA` when fewer than two queries are selected or a
#' dissimilarity is undefined; \eqn{C} is `Inf` when the best query sits at
#' the centre.
#'
#' @section Your own indicators:
#' `indicators` adds indicators of your own next to \eqn{E, U, C, S}: a
#' named list of functions, each called once per topic and system with one
#' argument, the *context* of that topic and system, and returning one
#' number. The context (class `ir_indicator_context`) is a list with
#' * `topic`, `system`: the ids;
#' * `queries`: the selected queries in selection order (the first is the
#'   best query), `letters` their letters and `selection_order` (`1..n`);
#' * `delta`: the \eqn{n \times n} matrix of return-order dissimilarities
#'   between the selected queries' lists, in selection order;
#' * `B`: its double-centred matrix \eqn{-\frac12 J \delta^2 J}, and
#'   `eigenvalues`: the eigenvalues of `B`, largest first (`NA` when
#'   \eqn{n < 2} or a dissimilarity is undefined);
#' * per selected query, in selection order: `n_returned` (relevant
#'   documents returned within `depth`), `n25` (\eqn{N_{25}}), `exclusion`
#'   (\eqn{-\log_{10}(N_{25}+1)}) and `ap` (average precision);
#' * `n_rel`, `depth`, `fraction`, `base`: the topic's number of relevant
#'   documents and the parameters of the call.
#'
#' The built-in indicators are exported in this form
#' ([indicator_exclusion()], [indicator_uniformity()],
#' [indicator_centering()], [indicator_sphericity()], all four in
#' [builtin_indicators()]), so a new indicator can start from one of them;
#' `topic_indicators()` computes \eqn{E, U, C, S} with these very functions.
#'
#' @inheritParams select_queries
#' @inheritParams return_order_dissimilarity
#' @param fraction Fraction of relevant documents for \eqn{N_{25}}.
#' @param base Base of the logarithm of \eqn{U, C, S}.
#' @param indicators `NULL`, or a named list of functions of the context
#'   (see "Your own indicators"), computed next to \eqn{E, U, C, S}; their
#'   names become columns and must differ from the built-in columns.
#' @return An object of class `ir_topic_indicators`: `indicators`, a tidy
#'   data frame (`topic, system, n_rel, n_queries, E, U, C, S, AP`, then
#'   your own indicators); `indicator_names`, the indicator columns; `queries`,
#'   the per-list values over the selected queries (`topic, system, query,
#'   letter, text, selection_order, n_returned, n25, exclusion, ap`);
#'   `selection` (as [select_queries()]); and the parameters. `autoplot()`
#'   draws the per-query exclusion of one topic (Figure 1 of the paper) or
#'   the mean AP against \eqn{E} (Figure 13); [indicator_differences()] gives
#'   Figures 7 and 8.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' ind
#'
#' # An indicator of your own: the spread of AP over the selected queries
#' ind2 <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200,
#'                          indicators = list(sd_AP = function(context) sd(context$ap)))
#' head(as.data.frame(ind2))
#' @export
topic_indicators <- function(runs, qrels = NULL, query_map = NULL, n = 20L, fraction = 0.25,
                             depth = 1000L, dissimilarity = c("sqrt2", "sqrt"),
                             tie_correction = TRUE, base = exp(1), tol = 1e-12, use_text = TRUE,
                             topics = NULL, relevance_level = 1L, n_threads = irtopics_threads(),
                             indicators = NULL) {
  check_number(n, "n", min = 2, integer = TRUE)
  check_number(fraction, "fraction", min = 0, max = 1)
  if (fraction <= 0) stop_irtopics("{.arg fraction} must be larger than 0.")
  check_number(base, "base", min = 0, max = .Machine$double.xmax)
  if (base == 1 || base == 0) stop_irtopics("{.arg base} must be positive and not 1.")
  check_number(tol, "tol", min = 0)
  check_flag(use_text)
  check_flag(tie_correction)
  dissimilarity <- match_dissimilarity(dissimilarity)
  n_threads <- resolve_threads(n_threads)
  user <- check_indicators(indicators)
  all_ind <- c(builtin_indicators(), user)
  prep <- prepare_orders(runs, qrels, query_map, depth, !missing(depth), relevance_level, topics,
                         n_threads)
  orders <- prep$orders
  depth <- prep$depth
  tops <- selected_topics(orders, topics)
  n_rel <- vapply(tops, function(t) nrow(orders$orders[[t]]), 0L)
  if (any(n_rel == 0L)) {
    warn_irtopics(c("{sum(n_rel == 0L)} topic{?s} without relevant documents {?is/are} left out.",
                    "i" = "{.val {tops[n_rel == 0L]}}"), kind = "data")
    tops <- tops[n_rel > 0L]
    if (!length(tops)) stop_irtopics("No topic has relevant documents.", kind = "data")
  }
  env <- environment()
  per_topic <- lapply(tops, function(t) {
    a <- analyse_topic(orders, t, n, fraction, depth, dissimilarity, tie_correction, tol,
                       use_text, n_threads, call = env)
    sel <- a$accepted
    if (length(sel) < 2L) {
      warn_irtopics("Topic {.val {t}} has fewer than two distinct queries; its U, C, S are NA.",
                    kind = "data")
    }
    ind <- lapply(a$systems, function(s) {
      li <- a$lists[a$lists$system == s, ]
      li <- li[match(sel, li$query), ]
      dl <- a$deltas[[s]][list_id(s, sel), list_id(s, sel), drop = FALSE]
      ctx <- indicator_context(t, s, sel, dl, li, a$n_rel, depth, fraction, base)
      vals <- lapply(names(all_ind), function(nm) call_indicator(all_ind[[nm]], nm, ctx, env))
      names(vals) <- names(all_ind)
      as.data.frame(c(list(topic = t, system = s, n_rel = a$n_rel, n_queries = length(sel)),
                      vals[c("E", "U", "C", "S")], list(AP = mean(li$ap)), vals[names(user)]),
                    check.names = FALSE, stringsAsFactors = FALSE)
    })
    q <- a$lists[a$lists$query %in% sel, ]
    q$selection_order <- match(q$query, sel)
    q$letter <- query_letters(length(sel))[q$selection_order]
    q <- q[order(q$system, q$selection_order),
           c("topic", "system", "query", "letter", "text", "selection_order", "n_rel",
             "n_returned", "n25", "exclusion", "ap")]
    list(ind = do.call(rbind, ind), queries = q, selection = a$selection)
  })
  ind <- do.call(rbind, lapply(per_topic, `[[`, "ind"))
  rownames(ind) <- NULL
  queries <- do.call(rbind, lapply(per_topic, `[[`, "queries"))
  rownames(queries) <- NULL
  selection <- do.call(rbind, lapply(per_topic, `[[`, "selection"))
  rownames(selection) <- NULL
  new_ir_topic_indicators(list(indicators = ind, queries = queries, selection = selection,
                 indicator_names = c("E", "U", "C", "S", "AP", names(user)),
                 n = as.integer(n), fraction = fraction, depth = depth,
                 dissimilarity = dissimilarity, tie_correction = tie_correction, base = base,
                 tol = tol, use_text = use_text,
                 simulated = isTRUE(attr(orders, "simulated"))))
}

new_ir_topic_indicators <- function(x) {
  new_result(x, "ir_topic_indicators",
             fields = c(indicators = "data.frame", queries = "data.frame", selection = "data.frame",
                        indicator_names = "character", n = "number", fraction = "number", depth = "number",
                        simulated = "flag"))
}

# Indicator functions -----------------------------------------------------------

# The per-topic, per-system context every indicator function receives (see
# "Your own indicators" in ?topic_indicators).
indicator_context <- function(topic, system, queries, delta, lists, n_rel, depth, fraction, base) {
  n <- length(queries)
  delta <- unname(delta)
  dimnames(delta) <- list(queries, queries)
  B <- matrix(NA_real_, n, n, dimnames = list(queries, queries))
  eig <- rep(NA_real_, n)
  if (n >= 2L && !anyNA(delta)) {
    d2 <- delta^2
    B[] <- -0.5 * (d2 - outer(rowMeans(d2), colMeans(d2), `+`) + mean(d2))
    eig <- eigen(B, symmetric = TRUE, only.values = TRUE)$values
  }
  new_ir_indicator_context(list(topic = topic, system = system, queries = queries,
                 letters = query_letters(max(1L, n))[seq_len(n)], selection_order = seq_len(n),
                 delta = delta, B = B, eigenvalues = eig,
                 n_returned = lists$n_returned, n25 = lists$n25, exclusion = lists$exclusion,
                 ap = lists$ap, n_rel = n_rel, depth = depth, fraction = fraction, base = base))
}

new_ir_indicator_context <- function(x) {
  new_result(x, "ir_indicator_context",
             fields = c(topic = "string", system = "string", queries = "character", letters = "character",
                        delta = "matrix", B = "matrix", eigenvalues = "numeric", n_rel = "number",
                        depth = "number", fraction = "number"))
}

check_indicators <- function(indicators, call = rlang::caller_env()) {
  if (is.null(indicators)) return(list())
  nms <- names(indicators)
  if (!is.list(indicators) || !length(indicators) || is.null(nms) || any(!nzchar(nms)) ||
      anyNA(nms) || anyDuplicated(nms) || !all(vapply(indicators, is.function, TRUE))) {
    stop_irtopics("{.arg indicators} must be a list of functions with unique names, e.g. {.code list(my_indicator = function(context) ...)}.",
                  call = call)
  }
  taken <- c("topic", "system", "n_rel", "n_queries", "E", "U", "C", "S", "AP")
  clash <- intersect(nms, taken)
  if (length(clash)) {
    stop_irtopics(c("{.arg indicators} must not use the name{?s} {.val {clash}}, which {?is a built-in column/are built-in columns}.",
                    i = "Give your version another name, e.g. {.val {paste0(clash[1], '2')}}."),
                  call = call)
  }
  indicators
}

call_indicator <- function(f, name, context, call) {
  call_user(f, list(context), sprintf('Indicator "%s"', name),
            where = list(topic = context$topic, system = context$system), kind = "data", call = call)
}

#' The built-in topic indicators as functions of the context
#'
#' The four indicators of Liggett & Buckley (2005) that [topic_indicators()]
#' computes, written as functions of the per-topic, per-system context
#' described in "Your own indicators" of [topic_indicators()]. They are the
#' functions `topic_indicators()` itself uses, so passing them as
#' `indicators` (under other names) gives identical values; copy one to
#' start an indicator of your own.
#' * `indicator_exclusion()`: \eqn{E}, the mean of \eqn{-\log_{10}(N_{25} +
#'   1)} over the selected queries.
#' * `indicator_uniformity()`: \eqn{U = -\log \bar a} with
#'   \eqn{\bar a = \mathrm{tr}(B)/n}.
#' * `indicator_centering()`: \eqn{C = -\log(B_{11}/\bar a)}.
#' * `indicator_sphericity()`: \eqn{S = -\log(\lambda_1/\bar a)}.
#'
#' Logarithms are in `context$base`. \eqn{U, C, S} are `NA` when fewer than
#' two queries are selected or a dissimilarity is undefined, and \eqn{C} and
#' \eqn{S} are `NA` when all queries coincide (\eqn{\bar a = 0}).
#'
#' @param context An `ir_indicator_context`, as passed by
#'   [topic_indicators()].
#' @return One number; `builtin_indicators()` returns the named list
#'   `list(E = , U = , C = , S = )` of the four functions.
#' @references Liggett, W. & Buckley, C. (2005). System performance and
#'   natural language expression of information needs. *Information
#'   Retrieval* 8, 101-128.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 1)
#' # log10 uniformity next to the natural-log U, built from indicator_uniformity()
#' u10 <- function(context) indicator_uniformity(context) / log(10)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
#'                         indicators = list(U10 = u10, E_again = indicator_exclusion))
#' as.data.frame(ind)[, c("topic", "system", "E", "E_again", "U", "U10")]
#' @export
builtin_indicators <- function() {
  list(E = indicator_exclusion, U = indicator_uniformity, C = indicator_centering,
       S = indicator_sphericity)
}

#' @rdname builtin_indicators
#' @export
indicator_exclusion <- function(context) mean(context$exclusion)

#' @rdname builtin_indicators
#' @param x An `ir_indicator_context` (`format()` gives its lines, `print()`
#'   shows them: what an indicator function sees).
#' @param ... Unused.
#' @export
format.ir_indicator_context <- function(x, ...) {
  c(sprintf("<ir_indicator_context> topic %s, system %s: %s selected (%d relevant, depth %d)", x$topic, x$system,
            plural(length(x$queries), "query", "queries"), as.integer(x$n_rel), as.integer(x$depth)),
    if (length(x$queries)) {
      printed_lines(print(round_df(data.frame(letter = x$letters, query = x$queries, n_returned = x$n_returned,
                                              n25 = x$n25, exclusion = x$exclusion, ap = x$ap)),
                          row.names = FALSE))
    })
}

#' @rdname builtin_indicators
#' @export
print.ir_indicator_context <- function(x, ...) print_formatted(x, ...)

# tr(B) / n, NA when the cloud is undefined.
cloud_abar <- function(context) {
  n <- length(context$queries)
  if (n < 2L || anyNA(context$B)) return(NA_real_)
  sum(diag(context$B)) / n
}

#' @rdname builtin_indicators
#' @export
indicator_uniformity <- function(context) -log(cloud_abar(context)) / log(context$base)

#' @rdname builtin_indicators
#' @export
indicator_centering <- function(context) {
  abar <- cloud_abar(context)
  if (is.na(abar) || abar <= 0) return(NA_real_)
  -log(context$B[1, 1] / abar) / log(context$base)
}

#' @rdname builtin_indicators
#' @export
indicator_sphericity <- function(context) {
  abar <- cloud_abar(context)
  if (is.na(abar) || abar <= 0) return(NA_real_)
  -log(max(context$eigenvalues) / abar) / log(context$base)
}

#' @rdname topic_indicators
#' @param x,object An `ir_topic_indicators` object.
#' @param digits Digits of the printed numbers.
#' @param ... Unused.
#' @export
format.ir_topic_indicators <- function(x, digits = 3, ...) {
  df <- x$indicators
  c(sprintf("<ir_topic_indicators> %s x %s, up to %d queries each%s",
            plural(length(unique(df$topic)), "topic"), plural(length(unique(df$system)), "system"),
            x$n, if (x$simulated) " (simulated data)" else ""),
    printed_lines(print(round_df(utils::head(df, 12), digits), row.names = FALSE)),
    more_line(row = nrow(df) - 12))
}

#' @rdname topic_indicators
#' @export
print.ir_topic_indicators <- function(x, digits = 3, ...) print_formatted(x, digits = digits)

#' @rdname topic_indicators
#' @export
summary.ir_topic_indicators <- function(object, ...) {
  df <- object$indicators
  vars <- indicator_columns(object)
  out <- do.call(rbind, lapply(split(df, df$system), function(d) {
    data.frame(system = d$system[1], topics = nrow(d),
               t(vapply(vars, function(v) mean(d[[v]][is.finite(d[[v]])]), 0)),
               check.names = FALSE)
  }))
  new_summary("ir_topic_indicators", "Mean indicators per system (finite values):", out)
}

#' @rdname topic_indicators
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_topic_indicators <- function(x, row.names = NULL, optional = FALSE, ...) x$indicators

# Indicator columns of a result (objects made before user indicators existed
# have the four built-ins and AP).
indicator_columns <- function(x) x$indicator_names %||% c("E", "U", "C", "S", "AP")

#' System-to-system differences of the topic indicators
#'
#' For two systems, the per-topic differences \eqn{a - b} of the indicators
#' of [topic_indicators()] (the paper's Figures 7 and 8 plot them, one point
#' per topic, to find topics worth studying), and of the mean AP over the
#' same queries.
#'
#' @param x An `ir_topic_indicators` object; for the methods, an
#'   `ir_indicator_differences` object.
#' @param system_a,system_b The two systems (differences are `a - b`).
#' @return An object of class `ir_indicator_differences`: `differences`, a
#'   data frame (`topic, E, U, C, S, AP` and any indicator of your own, each
#'   a difference), and the system names. `autoplot(type = "EU")` draws Figure 7 (exclusion against
#'   uniformity), `"CS"` Figure 8 (centering against sphericity), `"AP"` the
#'   AP difference against the exclusion difference.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' indicator_differences(ind, sim$truth$systems$system[1], sim$truth$systems$system[2])
#' @export
indicator_differences <- function(x, system_a, system_b) {
  if (!inherits(x, "ir_topic_indicators")) {
    stop_irtopics("{.arg x} must be an {.cls ir_topic_indicators} object.")
  }
  df <- x$indicators
  for (s in list(system_a, system_b)) {
    if (!is.character(s) || length(s) != 1L || !s %in% df$system) {
      stop_irtopics("{.arg system_a} and {.arg system_b} must name systems of {.arg x}: {.val {unique(df$system)}}.")
    }
  }
  a <- df[df$system == system_a, ]
  b <- df[df$system == system_b, ]
  tops <- intersect(a$topic, b$topic)
  a <- a[match(tops, a$topic), ]
  b <- b[match(tops, b$topic), ]
  vars <- indicator_columns(x)
  out <- data.frame(topic = tops, a[vars] - b[vars], check.names = FALSE)
  rownames(out) <- NULL
  new_ir_indicator_differences(list(differences = out, system_a = system_a, system_b = system_b,
                                    indicator_names = vars, simulated = x$simulated))
}

new_ir_indicator_differences <- function(x) {
  new_result(x, "ir_indicator_differences",
             fields = c(differences = "data.frame", system_a = "string", system_b = "string",
                        indicator_names = "character", simulated = "flag"))
}

#' @rdname indicator_differences
#' @param digits Digits of the printed numbers.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @export
format.ir_indicator_differences <- function(x, digits = 3, ...) {
  c(sprintf("<ir_indicator_differences> %s - %s over %s%s", x$system_a, x$system_b,
            plural(nrow(x$differences), "topic"), if (x$simulated) " (simulated data)" else ""),
    printed_lines(print(round_df(x$differences, digits), row.names = FALSE)))
}

#' @rdname indicator_differences
#' @export
print.ir_indicator_differences <- function(x, digits = 3, ...) print_formatted(x, digits = digits)

#' @rdname indicator_differences
#' @param object An `ir_indicator_differences` object.
#' @export
summary.ir_indicator_differences <- function(object, ...) {
  d <- object$differences
  vars <- indicator_columns(object)
  tab <- do.call(rbind, lapply(vars, function(v) {
    f <- d[[v]][is.finite(d[[v]])]
    data.frame(indicator = v, topics = length(f), a_higher = sum(f > 0), b_higher = sum(f < 0),
               mean_difference = if (length(f)) mean(f) else NA_real_,
               median_difference = if (length(f)) stats::median(f) else NA_real_)
  }))
  new_summary("ir_indicator_differences",
              sprintf("Indicator differences %s - %s (finite values):", object$system_a, object$system_b),
              tab)
}

#' @rdname indicator_differences
#' @export
as.data.frame.ir_indicator_differences <- function(x, row.names = NULL, optional = FALSE, ...) x$differences

# MDS ----------------------------------------------------------------------------

#' Map the lists of a topic by non-metric multidimensional scaling
#'
#' Kruskal's isotonic multidimensional scaling (`MASS::isoMDS`) of a topic's
#' return-order dissimilarities, one point per list: the paper's Figures 2, 4
#' and 6, drawn by `autoplot()` with the query letter as label and one colour
#' per system. Lists whose relevant documents come back in the same order (a
#' dissimilarity of 0, for instance duplicate queries) make isoMDS fail; they
#' are reported by name first, so that they can be removed (see
#' [select_queries()]).
#'
#' @param d A `dist` from [return_order_dissimilarity()] (or any `dist` with
#'   labels).
#' @param k Number of dimensions.
#' @param maxit,tol,p Passed to `MASS::isoMDS()` (its defaults); `p`, the
#'   Minkowski power of the configuration distances, must be at least 1.
#' @return An object of class `ir_query_map`: `points`, a data frame (`list,
#'   system, query, letter, dim1, dim2, ...`), `stress` (percent) and the
#'   topic. `as.data.frame()` returns `points`; `print()` the stress and the
#'   first points; `summary()` the stress and the spread of each system's
#'   points (an [irtopics_summary]); `autoplot()` draws the map.
#' @param x,object An `ir_query_map` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 2)
#' d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, depth = 200)
#' m <- query_map_mds(d)
#' ggplot2::autoplot(m)
#' @export
query_map_mds <- function(d, k = 2L, maxit = 50L, tol = 1e-3, p = 2) {
  if (!inherits(d, "dist")) stop_irtopics("{.arg d} must be a {.cls dist} object.")
  check_number(k, "k", min = 1, integer = TRUE)
  check_number(maxit, "maxit", min = 0, integer = TRUE)
  check_number(tol, "tol", min = 0, max = .Machine$double.xmax)
  check_number(p, "p", min = 1, max = .Machine$double.xmax)
  m <- as.matrix(d)
  labs <- rownames(m) %||% as.character(seq_len(nrow(m)))
  if (nrow(m) < k + 2L) {
    stop_irtopics("isoMDS in {k} dimension{?s} needs at least {k + 2} lists, not {nrow(m)}.",
                  kind = "data")
  }
  off <- row(m) < col(m)
  bad_na <- which(off & is.na(m), arr.ind = TRUE)
  if (nrow(bad_na)) {
    stop_irtopics(c("Can't scale lists with an undefined dissimilarity (a list that returns no relevant document).",
                    "x" = "{nrow(bad_na)} pair{?s}, first: {.val {labs[bad_na[1, 1]]}} and {.val {labs[bad_na[1, 2]]}}."),
                  kind = "data")
  }
  bad_inf <- which(off & !is.finite(m), arr.ind = TRUE)
  if (nrow(bad_inf)) {
    stop_irtopics(c("isoMDS needs finite dissimilarities, but {nrow(bad_inf)} pair{?s} of lists {?is/are} at an infinite (or NaN) distance.",
                    "x" = "First: {.val {labs[bad_inf[1, 1]]}} and {.val {labs[bad_inf[1, 2]]}}."),
                  kind = "data")
  }
  bad0 <- which(off & m <= 0, arr.ind = TRUE)
  if (nrow(bad0)) {
    pairs <- paste0(labs[bad0[, 1]], " = ", labs[bad0[, 2]])
    stop_irtopics(c("isoMDS needs positive dissimilarities, but {nrow(bad0)} pair{?s} of lists {?is/are} at distance 0:",
                    stats::setNames(utils::head(pairs, 5), rep("x", min(5, length(pairs)))),
                    "i" = "Remove duplicate queries first, e.g. with {.fn select_queries}."),
                  kind = "data")
  }
  fit <- MASS::isoMDS(stats::as.dist(m), k = k, maxit = maxit, tol = tol, p = p, trace = FALSE)
  pts <- as.data.frame(fit$points)
  names(pts) <- paste0("dim", seq_len(ncol(pts)))
  lists <- attr(d, "lists")
  if (is.null(lists)) {
    lists <- data.frame(list = labs, system = sub("\\|.*$", "", labs),
                        query = sub("^[^|]*\\|", "", labs))
    lists$letter <- query_letters(length(unique(lists$query)))[match(lists$query, unique(lists$query))]
  }
  out <- cbind(lists[, c("list", "system", "query", "letter")], pts)
  rownames(out) <- NULL
  new_ir_query_map(list(points = out, stress = fit$stress, topic = attr(d, "topic"), k = as.integer(k),
                        simulated = isTRUE(attr(d, "simulated"))))
}

new_ir_query_map <- function(x) {
  new_result(x, "ir_query_map", fields = c(points = "data.frame", stress = "number", topic = "string?",
                                           k = "number", simulated = "flag"))
}

#' @rdname query_map_mds
#' @export
format.ir_query_map <- function(x, ...) {
  c(sprintf("<ir_query_map> isoMDS of %s%s in %s, stress %s%%%s", plural(nrow(x$points), "list"),
            if (!is.null(x$topic)) paste0(" of topic ", x$topic) else "", plural(x$k, "dimension"),
            format(x$stress, digits = 3), if (x$simulated) " (simulated data)" else ""),
    printed_lines(print(round_df(utils::head(x$points, 8), 3), row.names = FALSE)),
    more_line(list = nrow(x$points) - 8))
}

#' @rdname query_map_mds
#' @export
print.ir_query_map <- function(x, ...) print_formatted(x, ...)

#' @rdname query_map_mds
#' @export
summary.ir_query_map <- function(object, ...) {
  p <- object$points
  dims <- grep("^dim[0-9]+$", names(p), value = TRUE)
  tab <- do.call(rbind, lapply(split(p, factor(p$system, levels = unique(p$system))), function(d) {
    centre <- colMeans(d[dims])
    data.frame(system = d$system[1], lists = nrow(d),
               mean_distance_to_centre = mean(sqrt(rowSums(sweep(as.matrix(d[dims]), 2, centre)^2))))
  }))
  new_summary("ir_query_map", sprintf("isoMDS stress %s%%; spread of each system's lists:",
                                      format(object$stress, digits = 3)), tab)
}

#' @rdname query_map_mds
#' @export
as.data.frame.ir_query_map <- function(x, row.names = NULL, optional = FALSE, ...) x$points

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
