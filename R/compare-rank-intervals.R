# How sure is a ranking of systems? The bootstrap over topics of each
# system's rank by mean score (issue 28): rank intervals, the probability of
# each rank, the class ir_rank_intervals and its plot.

#' Intervals on the ranks of systems
#'
#' How sure is it that a system is first, or in the top three? The topics
#' are resampled with replacement `B` times (the same resamples as
#' [mean_intervals()] with the same seed); in each resample the systems are
#' ranked by mean score (rank 1 = highest mean; tied means share the best
#' of their ranks, as `rank(ties.method = "min")`). The measure's record
#' (see "Aggregate and direction" in [measure_info()]) decides: rank 1 is
#' the lowest mean where lower is better, and a geometric mean (`gm_map`)
#' ranks by the geometric mean, as trec_eval's `gm_map` (the mean of
#' \eqn{\log\max(x, 10^{-5})}). A plain matrix is ranked highest first;
#' state another direction with [custom_measure()]. Means within
#' \eqn{10^{-9}} times the largest absolute value ranked of each other are
#' tied, in the data and in every resample: two systems with 346 relevant
#' documents in their top tens over 50 topics have the same P@10 mean (0.692),
#' though their sums round differently in double precision. Per system the result
#' gives its observed rank, the interval of its rank (the \eqn{a/2} and
#' \eqn{1 - a/2} quantiles of its resampled ranks, read as the inverse of
#' their distribution function, `quantile(type = 1)`: ranks stay whole
#' numbers) and the probability of each rank and of the top `top` ranks.
#'
#' What it assumes: the topics are a random sample from a population of
#' topics, and the systems are fixed. The interval is the percentile
#' interval of the bootstrap; the probabilities are bootstrap proportions
#' (how often a system came first among resamples of these topics), not
#' posterior probabilities. A complete matrix is required (every system
#' answers every topic), so that every resample ranks all systems on the same
#' topics. Coverage of the rank intervals at 95% on real matrices taken as
#' populations (`bench/README.md`, section 19): 0.84 to 0.90 with 10 topics,
#' 0.90 to 0.94 with 25 and 0.93 to 0.96 with 50.
#'
#' @param scores An `ir_scores` or numeric matrix (systems x topics) without
#'   `NA`, at least 2 systems and 2 topics.
#' @param conf Confidence level of the rank intervals.
#' @param B Bootstrap resamples of the topics.
#' @param seed `NULL` or a whole number: the seed of the resamples.
#' @param top Whole numbers: the result has the probability of a rank of at
#'   most each (`p_top_1`, `p_top_3`, ...). The default drops the numbers
#'   above the number of systems (with 2 systems, only `p_top_1`).
#' @inheritParams irtopics_progress
#' @return An `ir_rank_intervals` list: `table` (one row per system, by
#'   observed rank: `system`, `mean` (the measure's aggregate: the geometric
#'   mean for `gm_map`, the sum for a count), `rank`, `conf.low`, `conf.high` (the
#'   rank interval), `p_top_<k>` per `top`), `probabilities` (systems x
#'   ranks: the share of resamples with each rank), `ranks` (`B` x systems,
#'   the resampled ranks), `indices` (`B` x topics, the resampled topic
#'   positions), `conf`, `B`, `seed`, `top`, `measure`, `n_topics`.
#'   `as.data.frame()` (and `tidy()`) give `table` with `estimate` (the
#'   observed rank); `autoplot()` draws each system's rank interval (its
#'   observed rank as a point, shaded by the probability of each rank),
#'   systems ordered by observed rank.
#' @seealso [mean_intervals()] for the means themselves.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:8], ]
#' ri <- rank_intervals(top, B = 1000, seed = 1)
#' ri
#' ggplot2::autoplot(ri)
#' @export
rank_intervals <- function(scores, conf = 0.95, B = 1000, seed = NULL, top = c(1, 3), progress = NULL) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  check_conf(conf)
  check_whole(B, "B", min = 2)
  check_seed(seed)
  if (missing(top)) top <- top[top <= nrow(m)]
  if (!is.numeric(top) || !length(top) || anyNA(top) || any(top != round(top)) || any(top < 1 | top > nrow(m))) {
    stop_irtopics("{.arg top} must be whole numbers from 1 to the number of systems ({nrow(m)}), not {show_values(top)}.")
  }
  top <- sort(unique(as.integer(top)))
  local_progress(progress)
  measure <- attr(m, "measure")
  record <- score_record(m)
  # values whose means rank the systems, largest first (the record's aggregate and direction)
  r <- unclass_scores(ranking_values(m, record))
  m <- unclass_scores(m)
  seed <- resolve_seed(seed)
  # kept per resample: its topic positions and the systems' ranks (integers);
  # the means are computed and ranked in blocks
  check_bootstrap_memory(B, ncol(m), nrow(m), kept = 4 * nrow(m), copies = 4, block_copies = 12)
  idx <- draw_topic_indices(ncol(m), B, seed)
  # means equal to within rounding are tied (tie_means()), on the scale of
  # the values ranked
  scale <- max(abs(r))
  means <- resample_means(r)
  ranks <- with_progress_measure(measure %||% "", bootstrap_blocks(B, nrow(m), function(rows) {
    tied <- tie_means(t(means(idx, rows)), scale)
    out <- vapply(seq_len(ncol(tied)), function(b) rank(-tied[, b], ties.method = "min"), integer(nrow(m)))
    t(matrix(out, nrow(m)))
  }, ncol = nrow(m), mode = "integer"))
  colnames(ranks) <- rownames(m)
  est <- aggregate_rows(m, record$aggregate)
  observed <- rank(-tie_means(rowMeans(r), scale), ties.method = "min")
  n <- nrow(m)
  probs <- t(vapply(seq_len(n), function(i) tabulate(ranks[, i], n) / B, numeric(n)))
  dimnames(probs) <- list(rownames(m), seq_len(n))
  # (1 - 0.95) / 2 is 0.025000000000000022 in doubles, past quantile()'s
  # fuzz: with B = 1000 it read the 26th smallest rank instead of the 25th.
  # conf is a decimal, so a is rounded to 12 digits first.
  a <- round((1 - conf) / 2, 12)
  bounds <- vapply(seq_len(n), function(i) stats::quantile(ranks[, i], probs = c(a, 1 - a), type = 1, names = FALSE),
                   numeric(2))
  tab <- data.frame(system = rownames(m), mean = unname(est), rank = as.integer(observed),
                    conf.low = as.integer(bounds[1, ]), conf.high = as.integer(bounds[2, ]),
                    stringsAsFactors = FALSE)
  for (k in top) tab[[paste0("p_top_", k)]] <- unname(rowSums(probs[, seq_len(k), drop = FALSE]))
  ord <- order(tab$rank, -better_sign(record$direction) * tab$mean, tab$system)
  tab <- tab[ord, , drop = FALSE]
  rownames(tab) <- NULL
  new_ir_rank_intervals(list(table = tab, probabilities = probs[tab$system, , drop = FALSE], ranks = ranks,
                             indices = idx, conf = conf, B = as.double(B), seed = seed, top = top,
                             measure = measure, n_topics = ncol(m), aggregate = record$aggregate,
                             direction = record$direction))
}

new_ir_rank_intervals <- function(x) {
  new_result(x, "ir_rank_intervals",
             fields = c(table = "data.frame", probabilities = "matrix", ranks = "matrix", indices = "matrix",
                        conf = "number", B = "number", seed = "number", top = "numeric",
                        measure = "string?", n_topics = "number", aggregate = "string", direction = "string"))
}

rank_interval_header <- function(x) {
  sprintf("%g%% bootstrap intervals of the rank by %s%s%s: %s x %d topics (B = %s, seed = %s)",
          100 * x$conf, aggregate_labels[[x$aggregate]], if (is.null(x$measure)) "" else paste0(" ", x$measure),
          if (x$direction == "lower") " (lower is better)" else "",
          plural(nrow(x$table), "system"), x$n_topics, format(x$B, big.mark = ","), format(x$seed))
}

#' @rdname rank_intervals
#' @param x An `ir_rank_intervals` object.
#' @param n Systems printed (the best `n` by observed rank).
#' @param ... Unused.
#' @export
format.ir_rank_intervals <- function(x, n = 20L, ...) {
  check_shown(n = n)
  tab <- x$table
  shown <- utils::head(tab, n)
  shown$mean <- formatC(shown$mean, digits = 4, format = "f")
  shown$interval <- sprintf("[%d, %d]", shown$conf.low, shown$conf.high)
  p <- grep("^p_top_", names(shown), value = TRUE)
  for (nm in p) shown[[nm]] <- formatC(shown[[nm]], digits = 3, format = "f")
  shown <- shown[c("system", "mean", "rank", "interval", p)]
  if (x$aggregate != "mean") names(shown)[2] <- x$aggregate
  c(paste("<ir_rank_intervals>", rank_interval_header(x)),
    printed_lines(print(shown, row.names = FALSE, right = FALSE)),
    if (nrow(tab) > n) sprintf("# ... %d more systems", nrow(tab) - n))
}

#' @rdname rank_intervals
#' @export
print.ir_rank_intervals <- function(x, ...) print_formatted(x, ...)

#' @rdname rank_intervals
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_rank_intervals <- function(x, row.names = NULL, optional = FALSE, ...) {
  tab <- x$table
  data.frame(system = tab$system, mean = tab$mean, estimate = tab$rank, conf.low = tab$conf.low,
             conf.high = tab$conf.high, tab[grep("^p_top_", names(tab))], conf.level = x$conf,
             stringsAsFactors = FALSE)
}

#' @rdname rank_intervals
#' @param object An `ir_rank_intervals` object.
#' @export
summary.ir_rank_intervals <- function(object, ...) {
  tab <- object$table
  width <- tab$conf.high - tab$conf.low + 1L
  key <- data.frame(systems = nrow(tab), topics = object$n_topics,
                    p_best_first = max(object$probabilities[, 1L]),
                    median_ranks_in_interval = stats::median(width), max_ranks_in_interval = max(width),
                    sure_of_rank = sum(width == 1L))
  new_summary("ir_rank_intervals", paste("Rank intervals:", rank_interval_header(object)), key)
}

#' @rdname rank_intervals
#' @method autoplot ir_rank_intervals
#' @export
autoplot.ir_rank_intervals <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_rank_intervals")
  tab <- object$table
  levels <- rev(tab$system)
  pr <- object$probabilities
  cells <- data.frame(system = rep(rownames(pr), ncol(pr)), rank = rep(seq_len(ncol(pr)), each = nrow(pr)),
                      p = as.vector(pr), stringsAsFactors = FALSE)
  cells <- cells[cells$p > 0, , drop = FALSE]
  cells$system <- factor(cells$system, levels = levels)
  tab$system <- factor(tab$system, levels = levels)
  n <- nrow(tab)
  ggplot2::ggplot(tab, ggplot2::aes(y = .data$system)) +
    ggplot2::geom_tile(data = cells, ggplot2::aes(x = .data$rank, fill = .data$p), height = 0.8) +
    interval_bars(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high), height = 0.4) +
    ggplot2::geom_point(ggplot2::aes(x = .data$rank)) +
    ggplot2::scale_fill_gradient(low = "grey92", high = "#2166ac", limits = c(0, 1),
                                 name = "P(rank)") +
    ggplot2::scale_x_continuous(breaks = function(l) unique(pmax(1, round(pretty(l)))), guide = crowded_guide()) +
    ggplot2::scale_y_discrete(guide = crowded_guide()) +
    plot_labels(x = "Rank by mean (1 = best)", y = NULL,
                title = wrap_text(sprintf("Ranks of %d systems with %g%% intervals", n, 100 * object$conf)),
                subtitle = wrap_text(sprintf("%sbootstrap over %d topics, B = %s; point: observed rank",
                                             if (is.null(object$measure)) "" else paste0(object$measure, ", "),
                                             object$n_topics, format(object$B, big.mark = ",")), 45L)) +
    title_theme(legend = TRUE) +
    crowded_y_theme(n)
}
