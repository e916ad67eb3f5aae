# Aggregates -------------------------------------------------------------------

#' Per-system means of a score matrix
#'
#' `mean_scores()` is the arithmetic mean over topics (MAP for an AP matrix),
#' `gmean_scores()` the geometric mean (GMAP), computed with [gmap()] per
#' system.
#'
#' Unanswered topics (NA, from `evaluate(missing = "drop")`) are left out of
#' each system's mean, as trec_eval does without `-c`.
#'
#' With `accumulate = "trec_eval"`, `mean_scores()` returns the value
#' trec_eval prints on its `all` line, to the last bit: the topics are
#' added in trec_eval's order (topic ids in byte order) with a running
#' double-precision sum, then divided by their number (`rowMeans()` sums in
#' extended precision, which can change the 4th printed decimal, e.g. for
#' P@200 or P@1000); counts from [evaluate()] (`NumRet`, `NumRel`,
#' `NumRelRet`, `NumQ`, `NumNonrelJudgedRet`) are summed and `gm_map` /
#' `gm_bpref` are geometric means of the values floored at 1e-5, as
#' trec_eval does. [write_trec_eval()] prints these values.
#'
#' @param x An `ir_scores` object or numeric matrix (systems in rows); for
#'   `mean_scores()` also an [ir_evaluation] from [evaluate()].
#' @param accumulate `"exact"` (default; [rowMeans()]) or `"trec_eval"`
#'   (trec_eval's `all` value; see Details).
#' @inheritParams gmap
#' @return A named numeric vector, one value per system; for an
#'   `ir_evaluation`, a data frame with a `system` column and one column per
#'   measure.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(mean_scores(ap))
#' head(mean_scores(ap, accumulate = "trec_eval"))
#' head(gmean_scores(ap))
#' head(gmean_scores(ap, method = "floor"))   # trec_eval's gm_map
#' @export
mean_scores <- function(x, accumulate = c("exact", "trec_eval")) {
  accumulate <- match_choice(accumulate, c("exact", "trec_eval"), "accumulate")
  if (inherits(x, "ir_evaluation")) {
    check_evaluation_nonempty(x)
    return(evaluation_means(x, accumulate))
  }
  summary <- attr(x, "summary") %||% "mean"
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x")
  if (accumulate == "trec_eval") return(trec_eval_summary(m, summary))
  out <- rowMeans(m, na.rm = TRUE)
  out[is.nan(out)] <- NA_real_  # a system without any answered topic
  out
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
