# Score standardization (Webber, Moffat & Zobel, SIGIR 2008), spec 4.3.

#' Standardized scores
#'
#' Webber, Moffat and Zobel's (2008) score standardization: each score is
#' replaced by the standard normal distribution function of its z-score
#' within its topic, the mean and standard deviation being taken over a set
#' of reference systems:
#' \deqn{z_{s,t} = (x_{s,t} - \mu_t) / \sigma_t, \quad sx_{s,t} = \Phi(z_{s,t}),}{z[s,t] = (x[s,t] - mu[t]) / sigma[t],  sx[s,t] = pnorm(z[s,t]),}
#' with the sample standard deviation (\eqn{n - 1}, R's `sd()`). Standardized
#' scores lie in (0, 1), and per topic they rank the systems as the raw
#' scores do. Standardized AP is the paper's "sAP"; its mean over topics is
#' compared across collections.
#'
#' A topic on which all reference systems score the same (\eqn{\sigma_t =
#' 0}, e.g. all AP = 0), or a single reference system, gives \eqn{z = 0},
#' so every system gets 0.5 on it (irtopics' choice, as Webber, Moffat and
#' Zobel (2008) do not cover the case; Urbano's reference
#' implementation uses \eqn{\mu = 0, \sigma = 1} there instead, and
#' trec_eval's `-Z` reports such a topic as missing).
#'
#' The mean and standard deviation are computed in units of a power of two
#' near each topic's largest score (an exact rescaling), so that scores
#' around \eqn{10^{-300}}, whose squares underflow, are standardized as the
#' same scores times \eqn{10^{300}} would be.
#'
#' @param scores An [ir_scores][as_ir_scores] object or numeric matrix (systems x topics),
#'   no NA.
#' @param reference The reference systems whose per-topic mean and SD
#'   standardize every system: `NULL` (default, all systems), or system
#'   names, row numbers or a logical vector over the rows.
#' @return An [ir_scores][as_ir_scores] of the same shape with measure `"std_<measure>"`
#'   and attribute `standardization`, a data frame `topic, mean, sd,
#'   n_reference`.
#' @references Webber, W., Moffat, A., Zobel, J. (2008). Score
#'   standardization for inter-collection comparison of retrieval systems.
#'   SIGIR 2008, 51-58.
#' @seealso [smoothing_experiment()] with `standardize = TRUE`.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc6_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' sap <- standardize_scores(ap)
#' sap
#' head(sort(mean_scores(sap), decreasing = TRUE))
#' # Standardize against the first 20 systems only:
#' standardize_scores(ap, reference = 1:20)
#' @export
standardize_scores <- function(scores, reference = NULL) {
  P <- check_scores(scores, allow_na = FALSE, min_systems = 1L, min_topics = 1L)
  measure <- attr(P, "measure") %||% "score"
  attr(P, "measure") <- NULL
  ref <- resolve_systems(reference, rownames(P), "reference")
  # Each topic in units of a power of two near its largest |score|: exact
  # (bit-identical z) wherever the plain sums neither underflow nor
  # overflow, and right where they would (scores ~1e-300 have squares 0).
  scale <- apply(P, 2, pow2_scale)
  Ps <- sweep(P, 2, scale, "/")
  R <- Ps[ref, , drop = FALSE]
  mu <- colMeans(R)
  sdv <- if (nrow(R) > 1) apply(R, 2, stats::sd) else rep(0, ncol(R))
  out <- P
  ok <- sdv > 0
  out[, ok] <- stats::pnorm(sweep(sweep(Ps[, ok, drop = FALSE], 2, mu[ok]), 2, sdv[ok], "/"))
  out[, !ok] <- 0.5
  mu <- mu * scale
  sdv <- sdv * scale
  res <- new_ir_scores(out, paste0("std_", measure))
  attr(res, "standardization") <- data.frame(topic = colnames(P), mean = unname(mu),
                                             sd = unname(sdv), n_reference = nrow(R),
                                             stringsAsFactors = FALSE)
  res
}

# The power of two at or just below max |x| (1 when x is all 0 or not
# finite). Dividing by it is exact, so statistics computed in its units are
# bit-identical to the plain ones wherever those neither underflow nor
# overflow; scale-invariant ones (z-scores, alpha, GAWM weights) then stay
# right for scores around 1e-300 or 1e300.
pow2_scale <- function(x) {
  mx <- suppressWarnings(max(abs(x)))
  if (!is.finite(mx) || mx <= 0) return(1)
  2^floor(log2(mx))
}

# Row indices named by `x` (NULL = all): names, positive row numbers or a
# logical vector of the right length; at least one.
resolve_systems <- function(x, systems, arg, call = rlang::caller_env()) {
  n <- length(systems)
  if (is.null(x)) return(seq_len(n))
  idx <- if (is.logical(x)) {
    if (length(x) != n || anyNA(x)) {
      stop_irtopics("{.arg {arg}} as a logical vector must have one TRUE/FALSE per system ({n}).", call = call)
    }
    which(x)
  } else if (is.character(x)) {
    check_names_in(x, systems, arg = arg, call = call)
    match(x, systems)
  } else if (is.numeric(x)) {
    if (anyNA(x) || any(x < 1 | x > n | x != round(x))) {
      stop_irtopics("{.arg {arg}} must hold row numbers between 1 and {n}.", call = call)
    }
    as.integer(x)
  } else {
    stop_irtopics("{.arg {arg}} must be NULL, system names, row numbers or a logical vector.", call = call)
  }
  idx <- unique(idx)
  if (!length(idx)) stop_irtopics("{.arg {arg}} must select at least one system.", call = call)
  idx
}
