# Aggregates -------------------------------------------------------------------

#' Per-system summaries of a score matrix over topics
#'
#' `mean_scores()` is each system's summary over topics by its measure's
#' aggregate (the measure record's `aggregate`, see [measure_info()]): the
#' arithmetic mean for most measures (MAP for an AP matrix), the geometric
#' mean of the values floored at \eqn{10^{-5}} for `gm_map` and `gm_bpref`
#' (GMAP, as trec_eval), the sum for the counts (`NumRet`, `NumRel`,
#' `NumRelRet`, `NumQ`, `NumNonrelJudgedRet`). So it is what trec_eval
#' prints on its `all` line, for every measure. A matrix whose measure the
#' registry does not know is averaged, unless its record
#' ([custom_measure()]) says otherwise. `gmean_scores()` is the geometric
#' mean with the conventions of [gmap()], per system.
#'
#' Unanswered topics (NA, from `evaluate(missing = "drop")`) are left out of
#' each system's summary, as trec_eval does without `-c`.
#'
#' With `accumulate = "trec_eval"`, `mean_scores()` returns the value
#' trec_eval prints on its `all` line, to the last bit: the topics are
#' added in trec_eval's order (topic ids in byte order) with a running
#' double-precision sum, then divided by their number (`rowMeans()` sums in
#' extended precision, which can change the 4th printed decimal, e.g. for
#' P@200 or P@1000). [write_trec_eval()] prints these values.
#'
#' @param x An `ir_scores` object or numeric matrix (systems in rows); for
#'   `mean_scores()` also an [ir_evaluation] from [evaluate()].
#' @param accumulate `"exact"` (default; [rowMeans()], [rowSums()]) or
#'   `"trec_eval"` (trec_eval's `all` value; see Details).
#' @inheritParams gmap
#' @return A named numeric vector, one value per system; for an
#'   `ir_evaluation`, a data frame with a `system` column and one column per
#'   measure (each by its aggregate).
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(mean_scores(ap))
#' head(mean_scores(ap, accumulate = "trec_eval"))
#' head(gmean_scores(ap))
#' head(gmean_scores(ap, method = "floor"))   # trec_eval's gm_map
#' head(mean_scores(as_ir_scores(ap, measure = "gm_map")))  # the same
#' @export
mean_scores <- function(x, accumulate = c("exact", "trec_eval")) {
  accumulate <- match_choice(accumulate, c("exact", "trec_eval"), "accumulate")
  if (inherits(x, "ir_evaluation")) {
    check_evaluation_nonempty(x)
    return(evaluation_means(x, accumulate))
  }
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x")
  aggregate_rows(m, score_record(m)$aggregate, accumulate)
}

# How each aggregate is named in output.
aggregate_labels <- c(mean = "mean", gmean = "geometric mean", sum = "sum")

# trec_eval's floor of a geometric mean (MIN_GEO_MEAN): gm_map and gm_bpref
# average log(max(value, 1e-5)).
gmean_floor <- 1e-5

# The per-topic values whose mean an aggregate is a monotone function of:
# log(max(value, 1e-5)) for a geometric mean, the values themselves for a
# mean or a sum. Intervals and rankings of an aggregate are computed on
# them (mean_intervals(), rank_intervals(), ranking_values()).
aggregate_scale <- function(m, aggregate) {
  if (aggregate == "gmean") log(pmax(m, gmean_floor)) else m
}

# An aggregate from the mean `v` of aggregate_scale() values over `n`
# topics: exp() for a geometric mean, n times for a sum.
aggregate_from_mean <- function(v, n, aggregate) {
  switch(aggregate, gmean = exp(v), sum = v * n, v)
}

# The one implementation of a measure's aggregate, per row of a score
# matrix over its answered topics (NA where a row has none):
# * "exact": rowMeans() (the mean; of the logs for gmean) or rowSums()
#   (sum), in extended precision;
# * "trec_eval": trec_eval's 'all' value to the bit: topics in byte order,
#   a running double sum (R's `+` on doubles is IEEE double addition, as in
#   C), divided by the number of topics answered (not for a sum).
# mean_scores() and write_trec_eval() compute every aggregate here.
aggregate_rows <- function(m, aggregate = "mean", accumulate = "exact") {
  v <- aggregate_scale(unclass(m), aggregate)
  n <- rowSums(!is.na(v))
  if (accumulate == "trec_eval") {
    ord <- order(as_bytes(colnames(m) %||% as.character(seq_len(ncol(m)))), method = "radix")
    s <- numeric(nrow(m))
    for (j in ord) {
      ok <- !is.na(v[, j])
      s[ok] <- s[ok] + v[ok, j]
    }
    out <- if (aggregate == "sum") s else aggregate_from_mean(s / n, n, aggregate)
  } else {
    out <- if (aggregate == "sum") rowSums(v, na.rm = TRUE) else
      aggregate_from_mean(rowMeans(v, na.rm = TRUE), n, aggregate)
  }
  out[n == 0] <- NA_real_  # a system without any answered topic
  stats::setNames(as.vector(out), rownames(m))
}

# Each system's aggregate (aggregate_rows()) signed so that larger is
# better: what best_systems(), a table's order and "best" mark, and the best
# system of a summary rank by.
ranking_key <- function(m, record = score_record(m)) {
  key <- aggregate_rows(m, record$aggregate)
  if (better_sign(record$direction) < 0) -key else key
}

# "gm_map: geometric means (...); NumRet: sums over topics" for
# the measures of `records` (score_records()) whose aggregate is not the
# mean, or NULL when every one is a mean: what a table or print of means
# says about its other numbers.
aggregate_note <- function(records) {
  other <- records[records$aggregate != "mean", , drop = FALSE]
  if (!nrow(other)) return(NULL)
  what <- c(gmean = "geometric means (of the values floored at 1e-5, as trec_eval)", sum = "sums over topics")
  parts <- vapply(unique(other$aggregate), function(a) {
    sprintf("%s: %s", paste(other$measure[other$aggregate == a], collapse = ", "), what[[a]])
  }, "")
  paste(parts, collapse = "; ")
}

# Per-topic values whose row means order the systems best first, largest
# first, by the record of `m` (score_record()): the aggregate's scale
# (aggregate_scale()), negated when lower is better. Rankings, leaderboards
# and "best" ask here.
ranking_values <- function(m, record = score_record(m)) {
  v <- aggregate_scale(unclass(m), record$aggregate)
  if (better_sign(record$direction) < 0) -v else v
}

#' @rdname mean_scores
#' @export
gmean_scores <- function(x, eps = 1e-5, method = c("add", "floor", "replace0")) {
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x")
  method <- match_choice(method)
  check_number(eps, "eps", min = .Machine$double.xmin)
  if (any(m < 0, na.rm = TRUE)) {
    stop_irtopics("{.arg x} must not contain negative scores for a geometric mean.", kind = "data")
  }
  apply(m, 1, function(v) gmap_impl(v[!is.na(v)], eps, method))
}

#' Geometric mean average precision
#'
#' The geometric mean of per-topic scores with one of three conventions for
#' zero scores:
#' * `"add"` (default): \eqn{\exp(\frac{1}{T}\sum_t \ln(AP_t + \epsilon)) -
#'   \epsilon}, as in the TREC 2004 Robust track overview (Voorhees 2004).
#' * `"floor"`: \eqn{\exp(\frac{1}{T}\sum_t \ln\max(AP_t, \epsilon))}, as
#'   trec_eval's `gm_map` (which uses \eqn{\epsilon = 10^{-5}}).
#' * `"replace0"`: zeros are replaced by \eqn{\epsilon} and other values are
#'   left alone, as in CLEF and Mandl (2009), who use \eqn{\epsilon = 10^{-4}}.
#'
#' @param ap A numeric vector of non-negative per-topic scores.
#' @param eps The \eqn{\epsilon} of the convention.
#' @param method One of `"add"`, `"floor"`, `"replace0"`.
#' @return A number; `NA` for an empty vector.
#' @references Voorhees, E. M. (2004). Overview of the TREC 2004 Robust
#'   Retrieval Track. TREC 2004.
#' @examples
#' ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
#' gmap(ap)                                  # 0.0316370627
#' gmap(ap, method = "floor")                # 0.0316437816
#' gmap(ap, eps = 1e-4, method = "replace0") # 0.0464467194
#' @export
gmap <- function(ap, eps = 1e-5, method = c("add", "floor", "replace0")) {
  method <- match_choice(method)
  if (!is.numeric(ap)) stop_irtopics("{.arg ap} must be a numeric vector.")
  if (anyNA(ap)) stop_irtopics("{.arg ap} must not contain NA.", kind = "data")
  if (any(ap < 0)) stop_irtopics("{.arg ap} must not contain negative scores.", kind = "data")
  check_number(eps, "eps", min = .Machine$double.xmin)
  gmap_impl(ap, eps, method)
}

gmap_impl <- function(ap, eps, method) {
  if (!length(ap)) return(NA_real_)
  switch(method,
    # exp(log(eps)) - eps is not exactly 0 in floating point: a mean of zeros
    # would come out as -3.4e-21. A geometric mean is never negative.
    add = max(0, exp(mean(log(ap + eps))) - eps),
    floor = exp(mean(log(pmax(ap, eps)))),
    replace0 = exp(mean(log(ifelse(ap == 0, eps, ap))))
  )
}
