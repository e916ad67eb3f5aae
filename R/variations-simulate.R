#' Simulate runs over query variants (simulated data)
#'
#' Generates SIMULATED ranked lists for several systems over several topics,
#' each topic with many query variants, for trying the query-variation
#' analysis of Liggett & Buckley (2005) ([topic_indicators()],
#' [return_order_dissimilarity()], [query_map_mds()]) on data with a known
#' effect. No public set of ranked lists over query variations exists (the
#' TREC-9 Query Track runs are not public), so the examples and the vignette
#' use this generator. Everything it returns is labelled as simulated (system
#' names (also the run tags of the files) and topic ids start with `sim`, and the
#' `runs` data frame carries `attr(, "simulated") = TRUE`).
#'
#' @section Model:
#' Each topic has `n_docs` documents, of which between `n_rel[1]` and
#' `n_rel[2]` are relevant, and a vocabulary of one primary key word
#' (`key`), `n_secondary` secondary key words (`s1`, `s2`, ...) and
#' `n_filler` filler words (`f1`, ...). A document contains a word with a
#' probability that depends on the word type and the document's relevance:
#' * primary key word: 0.9 in relevant documents; in irrelevant ones
#'   \eqn{0.03 + 0.6 (1 - \kappa_t)}, where \eqn{\kappa_t \in [0, 1]} is the
#'   topic's **key-word specificity** (the planted topic factor): with
#'   \eqn{\kappa_t = 1} the key word nearly separates relevant from
#'   irrelevant documents, with \eqn{\kappa_t = 0} most irrelevant documents
#'   contain it too;
#' * secondary key words: 0.4 in relevant, 0.05 in irrelevant documents;
#' * filler words: 0.15 in every document.
#'
#' A present word has strength \eqn{0.5 + \mathrm{Exp}(1)}. A query variant
#' contains the primary key word with probability 0.9, each secondary word
#' with probability 0.4 and each filler word with probability 0.2 (at least
#' one word); variants with the same words are duplicates. System \eqn{m}
#' scores a document by the sum of the strengths of the query's words in it,
#' the primary key word weighted by `primary_weight[m]` and the others by 1,
#' plus a system-specific document effect \eqn{\mathrm{noise} \cdot
#' N(0, 1)} that is the same for every query. Each list holds the `depth`
#' best documents.
#'
#' The known effect: a system that weights the primary key word heavily
#' excludes irrelevant documents better than one that does not when the key
#' word is specific (high \eqn{\kappa_t}), and not when it is unspecific; its
#' return orders vary less from query to query. So the per-topic difference
#' of the exclusion indicator between a heavy- and a light-weighting system
#' grows with \eqn{\kappa_t}.
#'
#' @param n_systems Number of systems.
#' @param n_topics Number of topics.
#' @param n_queries Number of query variants per topic.
#' @param n_docs Documents per topic.
#' @param primary_weight Weight of the primary key word, one per system
#'   (default: evenly spaced from 3 down to 0.5).
#' @param specificity Key-word specificity \eqn{\kappa_t} of each topic in
#'   \[0, 1\] (default: uniform random).
#' @param n_rel Range of the number of relevant documents per topic
#'   (default 2% to 7.5% of `n_docs`: 40 to 150 of 2000).
#' @param n_secondary,n_filler Number of secondary key words and filler words.
#' @param noise Standard deviation of the system-specific document effect.
#' @param depth Length of each list.
#' @param seed Random seed (`NULL`: the current stream).
#' @param dir If not `NULL`, a directory in which to write the data as files
#'   (created if needed): one TREC run file per system in `dir/runs/`
#'   (`query Q0 docno rank score tag`), `dir/qrels.txt` and
#'   `dir/query_map.txt` (`query topic text`).
#' @return An object of class `ir_simulated_query_runs`, a list with `runs`
#'   (data frame `system, topic, docno, score`, where `topic` holds the query
#'   id), `qrels` (data frame `topic, docno, rel`, every document judged),
#'   `query_map` (data frame `query, topic, text`), `truth` (a list of data
#'   frames `topics` with the specificity, `systems` with the primary weights,
#'   `queries` with their words) and `files` (paths, when `dir` is given).
#'   `print()` says it is simulated and shows its size; `summary()` gives the
#'   planted topic and system parameters (an [irtopics_summary]);
#'   `as.data.frame()` returns `runs`.
#' @param x,object An `ir_simulated_query_runs` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 5, n_docs = 300,
#'                            depth = 100, seed = 1)
#' sim
#' head(sim$runs)
#' sim$truth$topics
#' @export
simulate_query_runs <- function(n_systems = 4L, n_topics = 12L, n_queries = 30L, n_docs = 2000L,
                                primary_weight = NULL, specificity = NULL, n_rel = NULL,
                                n_secondary = 5L, n_filler = 8L, noise = 0.6, depth = 1000L,
                                seed = NULL, dir = NULL) {
  check_number(n_systems, "n_systems", min = 1, integer = TRUE)
  check_number(n_topics, "n_topics", min = 1, max = 99, integer = TRUE)
  check_number(n_queries, "n_queries", min = 1, max = 999, integer = TRUE)
  check_number(n_docs, "n_docs", min = 10, integer = TRUE)
  check_number(n_secondary, "n_secondary", min = 0, integer = TRUE)
  check_number(n_filler, "n_filler", min = 0, integer = TRUE)
  check_number(noise, "noise", min = 0, max = .Machine$double.xmax)
  check_number(depth, "depth", min = 1, integer = TRUE)
  check_seed(seed)
  if (is.null(n_rel)) n_rel <- pmax(2L, round(c(0.02, 0.075) * n_docs))
  if (!is.numeric(n_rel) || length(n_rel) != 2L || anyNA(n_rel) || any(n_rel != round(n_rel)) ||
      n_rel[1] < 1 || n_rel[2] < n_rel[1] || n_rel[2] >= n_docs) {
    stop_irtopics("{.arg n_rel} must be two whole numbers 1 <= n_rel[1] <= n_rel[2] < n_docs.")
  }
  n_rel <- as.integer(n_rel)
  if (is.null(primary_weight)) {
    primary_weight <- if (n_systems == 1L) 3 else round(seq(3, 0.5, length.out = n_systems), 2)
  }
  if (!is.numeric(primary_weight) || length(primary_weight) != n_systems || anyNA(primary_weight) ||
      any(primary_weight < 0) || any(!is.finite(primary_weight))) {
    stop_irtopics("{.arg primary_weight} must be {n_systems} non-negative number{?s}.")
  }
  if (!is.null(specificity) && (!is.numeric(specificity) || length(specificity) != n_topics ||
                                anyNA(specificity) || any(specificity < 0 | specificity > 1))) {
    stop_irtopics("{.arg specificity} must be {n_topics} number{?s} in [0, 1].")
  }
  systems <- paste0("sim_w", format(primary_weight, trim = TRUE, drop0trailing = TRUE))
  if (anyDuplicated(systems)) systems <- paste0(systems, "_", seq_len(n_systems))
  words <- c("key", if (n_secondary > 0) paste0("s", seq_len(n_secondary)),
             if (n_filler > 0) paste0("f", seq_len(n_filler)))
  type <- c("primary", rep("secondary", n_secondary), rep("filler", n_filler))
  topics <- sprintf("sim%02d", seq_len(n_topics))

  sim <- with_seed(seed, {
    if (is.null(specificity)) specificity <- round(stats::runif(n_topics), 3)
    lapply(seq_len(n_topics), function(t) {
      nr <- if (n_rel[1] == n_rel[2]) n_rel[1] else sample(n_rel[1]:n_rel[2], 1L)
      rel <- seq_len(n_docs) <= nr
      p_primary_irr <- 0.03 + 0.6 * (1 - specificity[t])
      prob <- vapply(type, function(ty) {
        switch(ty,
               primary = ifelse(rel, 0.9, p_primary_irr),
               secondary = ifelse(rel, 0.4, 0.05),
               filler = rep(0.15, n_docs))
      }, numeric(n_docs))
      prob <- matrix(prob, n_docs, length(words))
      present <- matrix(stats::runif(n_docs * length(words)) < prob, n_docs)
      strength <- present * (0.5 + matrix(stats::rexp(n_docs * length(words)), n_docs))
      # query variants: word sets
      qw <- matrix(FALSE, length(words), n_queries)
      for (j in seq_len(n_queries)) {
        w <- stats::runif(length(words)) < c(0.9, rep(0.4, n_secondary), rep(0.2, n_filler))
        if (!any(w)) w[1] <- TRUE
        qw[, j] <- w
      }
      doc_effect <- matrix(stats::rnorm(n_docs * n_systems, sd = noise), n_docs)
      docno <- sprintf("SIM%02d-%05d", t, sample.int(n_docs))
      list(nr = nr, rel = rel, strength = strength, qw = qw, doc_effect = doc_effect,
           docno = docno, p_primary_irr = p_primary_irr)
    })
  })

  runs <- vector("list", n_topics)
  qmap <- vector("list", n_topics)
  qrels <- vector("list", n_topics)
  keep <- min(depth, n_docs)
  for (t in seq_len(n_topics)) {
    s <- sim[[t]]
    qid <- sprintf("%s.%02d", topics[t], seq_len(n_queries))
    text <- apply(s$qw, 2L, function(w) paste(words[w], collapse = " "))
    qmap[[t]] <- data.frame(query = qid, topic = topics[t], text = text)
    qrels[[t]] <- data.frame(topic = topics[t], docno = s$docno, rel = as.integer(s$rel))
    per <- vector("list", n_systems * n_queries)
    k <- 0L
    for (m in seq_len(n_systems)) {
      wts <- c(primary_weight[m], rep(1, length(words) - 1L))
      sc <- s$strength %*% (s$qw * wts) + s$doc_effect[, m]
      sc <- round(sc, 6)
      for (j in seq_len(n_queries)) {
        o <- order(-sc[, j], s$docno, decreasing = c(FALSE, TRUE), method = "radix")[seq_len(keep)]
        k <- k + 1L
        per[[k]] <- data.frame(system = systems[m], topic = qid[j], docno = s$docno[o],
                               score = sc[o, j])
      }
    }
    runs[[t]] <- do.call(rbind, per)
  }
  runs <- do.call(rbind, runs)
  rownames(runs) <- NULL
  attr(runs, "simulated") <- TRUE
  qrels <- do.call(rbind, qrels)
  qmap <- do.call(rbind, qmap)
  truth <- list(
    topics = data.frame(topic = topics, specificity = specificity,
                        n_rel = vapply(sim, `[[`, 0L, "nr"),
                        p_primary_irrelevant = vapply(sim, `[[`, 0, "p_primary_irr")),
    systems = data.frame(system = systems, primary_weight = primary_weight, noise = noise),
    queries = data.frame(query = qmap$query, topic = qmap$topic, text = qmap$text,
                         has_primary = unlist(lapply(sim, function(s) s$qw[1, ])),
                         n_words = unlist(lapply(sim, function(s) colSums(s$qw)))))
  out <- list(runs = runs, qrels = qrels, query_map = qmap, truth = truth, files = NULL,
              depth = as.integer(depth))
  if (!is.null(dir)) out$files <- write_simulated_runs(out, dir)
  new_ir_simulated_query_runs(out)
}

new_ir_simulated_query_runs <- function(x) {
  new_result(x, "ir_simulated_query_runs",
             fields = c(runs = "data.frame", qrels = "data.frame", query_map = "data.frame", truth = "list",
                        files = "list?", depth = "number"))
}

# Write simulated runs, qrels and query map as TREC-format files (base R).
write_simulated_runs <- function(sim, dir) {
  run_dir <- file.path(dir, "runs")
  dir.create(run_dir, recursive = TRUE, showWarnings = FALSE)
  runs <- sim$runs
  files <- character()
  for (s in unique(runs$system)) {
    r <- runs[runs$system == s, ]
    rank <- stats::ave(seq_len(nrow(r)), r$topic, FUN = seq_along)
    f <- file.path(run_dir, paste0(s, ".run"))
    writeLines(sprintf("%s Q0 %s %d %.6f %s", r$topic, r$docno, rank, r$score, s), f)
    files <- c(files, f)
  }
  qrels_file <- file.path(dir, "qrels.txt")
  writeLines(sprintf("%s 0 %s %d", sim$qrels$topic, sim$qrels$docno, sim$qrels$rel), qrels_file)
  map_file <- file.path(dir, "query_map.txt")
  writeLines(sprintf("%s %s %s", sim$query_map$query, sim$query_map$topic, sim$query_map$text),
             map_file)
  list(runs = files, qrels = qrels_file, query_map = map_file)
}

#' @rdname simulate_query_runs
#' @export
format.ir_simulated_query_runs <- function(x, ...) {
  c("<ir_simulated_query_runs> SIMULATED query-variation data (not real runs)",
    sprintf("* %s: %s (primary key-word weights %s)", plural(nrow(x$truth$systems), "system"),
            paste(x$truth$systems$system, collapse = ", "),
            paste(format(x$truth$systems$primary_weight, drop0trailing = TRUE, trim = TRUE), collapse = ", ")),
    sprintf("* %s, %s, %s (depth %d)", plural(nrow(x$truth$topics), "topic"),
            plural(nrow(x$query_map), "query variant"), plural(nrow(x$runs), "ranked document"),
            x$depth),
    "* Planted topic factor: key-word specificity in `$truth$topics`",
    if (!is.null(x$files)) sprintf("* Files: %s", dirname(x$files$qrels)))
}

#' @rdname simulate_query_runs
#' @export
print.ir_simulated_query_runs <- function(x, ...) print_formatted(x, ...)

#' @rdname simulate_query_runs
#' @export
summary.ir_simulated_query_runs <- function(object, ...) {
  tp <- object$truth$topics
  qpt <- table(factor(object$query_map$topic, levels = tp$topic))
  rel <- table(factor(object$qrels$topic[object$qrels$rel > 0], levels = tp$topic))
  tab <- data.frame(tp, queries = as.vector(qpt), relevant = as.vector(rel), check.names = FALSE)
  new_summary("ir_simulated_query_runs",
              sprintf("SIMULATED data: %s, %s; planted topic parameters:",
                      plural(nrow(object$truth$systems), "system"), plural(nrow(tp), "topic")), tab)
}

#' @rdname simulate_query_runs
#' @export
as.data.frame.ir_simulated_query_runs <- function(x, row.names = NULL, optional = FALSE, ...) x$runs
