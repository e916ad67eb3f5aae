#' Rank-biased overlap of two rankings
#'
#' Rank-biased overlap (RBO; Webber, Moffat & Zobel 2010) of two ordered
#' lists of ids (documents of two runs, systems of two leaderboards): a
#' top-weighted similarity in \[0, 1\] that needs no common items and no
#' complete lists. With \eqn{X_d} the number of ids the two lists share in
#' their first \eqn{d} positions and \eqn{A_d = X_d / d} the agreement at
#' depth \eqn{d}, RBO is \eqn{(1 - p) \sum_{d \ge 1} p^{d-1} A_d}{(1 - p)
#' sum_{d >= 1} p^(d-1) A_d}; a list
#' known to depth \eqn{k} gives one of three finite forms (`form`):
#'
#' * `"extrapolated"` (default): Webber et al.'s \eqn{RBO_{ext}}{RBO_ext} (their
#'   equation 30), which assumes that the agreement seen at depth \eqn{k}
#'   continues below it: \eqn{RBO_{ext} = \frac{X_k}{k} p^k + \frac{1 -
#'   p}{p} \sum_{d=1}^{k} A_d p^d}{RBO_ext = (X_k / k) p^k + ((1 - p) / p)
#'   sum_{d=1..k} A_d p^d}. It is 1 for identical lists and 0 for disjoint
#'   ones.
#' * `"truncated"`: the sum to depth \eqn{k} without the residual,
#'   \eqn{(1 - p) \sum_{d=1}^{k} p^{d-1} A_d}{(1 - p) sum_{d=1..k} p^(d-1) A_d},
#'   Webber et al.'s
#'   \eqn{RBO@k}, a lower bound of the infinite RBO (the residual is at most
#'   \eqn{p^k}): identical lists score \eqn{1 - p^k}, not 1.
#' * `"normalised"`: the truncated sum divided by its largest value,
#'   \eqn{\sum_{d=1}^{k} p^{d-1} A_d / \sum_{d=1}^{k} p^{d-1}}{sum_{d=1..k}
#'   p^(d-1) A_d / sum_{d=1..k} p^(d-1)}, the form
#'   repro_eval uses for reproduced runs (after Clarke et al., TOIS 2021);
#'   1 for identical lists.
#'
#' @section Depth, uneven lists and empty lists:
#' * `depth` cuts both lists to their first `depth` ids. The depth used,
#'   \eqn{k}, is the length of the longer list after the cut: below the last
#'   id of both lists nothing is known, so a `depth` beyond both lengths is
#'   the same as the default (identical lists shorter than `depth` still
#'   score 1 in the extrapolated and normalised forms).
#' * **Uneven lengths** (the shorter list, of length \eqn{s}, ends before
#'   \eqn{k}): \eqn{X_d} for \eqn{d > s} counts the shorter list's \eqn{s}
#'   ids found in the longer list's first \eqn{d}. The truncated and
#'   normalised forms use these \eqn{X_d} as they are (the missing ids of the
#'   shorter list count as not shared). The extrapolated form is Webber et
#'   al.'s equation 32 for uneven lists: the shorter list's missing ids are
#'   assumed to agree at the rate \eqn{X_s / s} it showed,
#'   \eqn{RBO_{ext} = \frac{1 - p}{p} \left(\sum_{d=1}^{k} \frac{X_d}{d} p^d +
#'   \sum_{d=s+1}^{k} \frac{X_s (d - s)}{s d} p^d\right) + \left(\frac{X_k -
#'   X_s}{k} + \frac{X_s}{s}\right) p^k}{RBO_ext = ((1 - p) / p) (sum_{d=1..k}
#'   (X_d / d) p^d + sum_{d=s+1..k} X_s (d - s) / (s d) p^d) + ((X_k - X_s) / k
#'   + X_s / s) p^k}, which is equation 30 when \eqn{s = k}.
#' * **Empty lists**: one empty list and one that is not give 0 in every
#'   form (nothing is shared). Two empty lists are identical rankings: 1 in
#'   the extrapolated and normalised forms, and 0 in the truncated form (its
#'   sum has no term; it is \eqn{1 - p^k} at \eqn{k = 0}). Both are our
#'   choices (the paper does not define RBO of empty lists), made so that a
#'   topic for which a run retrieved nothing never fails.
#' * **Ties** cannot be expressed: a list is an order. Break ties before
#'   calling (e.g. trec_eval's order: score, then docno).
#'
#' @param x,y The two rankings, best first: vectors of ids (character,
#'   factor, or numbers; two numeric vectors are compared as numbers, else
#'   both are compared as character with whole numbers written in full).
#'   No NA and no id twice within a list. For the asymmetric uses of the
#'   package `x` is the reference; RBO itself is symmetric.
#' @param p Persistence in (0, 1): the weight of depth \eqn{d} falls as
#'   \eqn{p^{d-1}}{p^(d-1)}; with \eqn{p = 0.9} the first 10 positions carry
#'   about 86% of RBO's weight (Webber et al., eq. 21). Breuer et al. (2020) use 0.8.
#' @param depth The depth \eqn{k} to evaluate at: a whole number >= 1 or
#'   `Inf`; `NULL` (default) or `Inf` is the length of the longer list.
#' @param form `"extrapolated"`, `"truncated"` or `"normalised"` (see
#'   Description).
#' @return One number in \[0, 1\]. The extrapolated form is computed as a
#'   weighted mean of agreements divided by the sum of its weights (1 but
#'   for rounding), so that rounding never takes it past 1: identical lists
#'   score exactly 1.
#' @references
#' Webber, W., Moffat, A. & Zobel, J. (2010). A similarity measure for
#' indefinite rankings. *ACM TOIS* 28(4), 20.
#'
#' Clarke, C. L. A., Vtyurina, A. & Smucker, M. D. (2021). Assessing top-k
#' preferences. *ACM TOIS* 39(3), 33.
#' @examples
#' s <- c("a", "b", "c", "d", "e", "f", "g", "h")
#' t <- c("b", "a", "c", "e", "d", "h", "i", "j")
#' rbo(s, t, p = 0.8)
#' rbo(s, t, p = 0.8, form = "truncated")
#' rbo(s, t, p = 0.8, form = "normalised")
#' # the top weighs more: a swap at the top costs more than one at the bottom
#' rbo(1:10, c(2, 1, 3:10))
#' rbo(1:10, c(1:8, 10, 9))
#' # uneven lengths and empty lists
#' rbo(c("a", "b"), c("a", "c", "b"), p = 0.5)
#' rbo(character(), c("a", "b"))
#' @export
rbo <- function(x, y, p = 0.9, depth = NULL, form = c("extrapolated", "truncated", "normalised")) {
  form <- match_choice(form)
  check_number(p, "p", min = 0, max = 1)
  if (p <= 0 || p >= 1) stop_irtopics("{.arg p} must be a number in (0, 1), not {show_value(p)}.")
  if (!is.null(depth)) depth <- check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  ids <- rbo_ids(x, y)
  rbo_impl(ids$x, ids$y, p, depth, form)
}

# The two rankings as vectors match() can compare: two numeric vectors as
# they are; otherwise both as character (factors by label, whole doubles in
# full). NA and repeated ids are refused, naming the list and the id.
rbo_ids <- function(x, y, call = rlang::caller_env()) {
  args <- list(x = x, y = y)
  for (nm in names(args)) {
    v <- args[[nm]]
    if (is.factor(v)) v <- as.character(v)
    if (!is.null(v) && (!is.atomic(v) || is.object(v) || !is.null(dim(v)))) {
      stop_irtopics("{.arg {nm}} must be a vector of ids (character, factor or numbers), not {show_value(v)}.",
                    call = call)
    }
    if (anyNA(v)) {
      stop_irtopics("{.arg {nm}} must not contain NA (position {which(is.na(v))[1]}).", kind = "data",
                    call = call)
    }
    args[[nm]] <- v %||% character()
  }
  if (!(is.numeric(args$x) && is.numeric(args$y))) {
    args <- lapply(args, function(v) if (is.double(v) && all(v == round(v) & abs(v) < 2^53)) {
      sprintf("%.0f", v + 0)
    } else {
      as.character(v)
    })
  }
  for (nm in names(args)) {
    dup <- anyDuplicated(args[[nm]])
    if (dup > 0L) {
      stop_irtopics(c("{.arg {nm}} must be a ranking: each id at most once.",
                      x = "{show_value(args[[nm]][dup])} is at positions {which(args[[nm]] == args[[nm]][dup])[1]} and {dup}."),
                    kind = "data", call = call)
    }
  }
  args
}

# Unchecked RBO of two vectors of distinct ids (see rbo()). `depth` NULL or
# Inf: the longer list. An id shared by both lists enters the overlap X_d at
# the depth where the later of its two positions is reached, so X is a
# cumulative count over depths: O(length) after one match(). `fixed_depth`
# (a finite `depth`; truncated and normalised forms): the sums run to
# `depth` even below both lists, which then share nothing more (repro_eval's
# RBO of lists shorter than the cut-off; reproduction_measures(rbo_depth =
# "cutoff")).
rbo_impl <- function(x, y, p, depth = NULL, form = "extrapolated", fixed_depth = FALSE) {
  k <- max(length(x), length(y))
  if (!is.null(depth)) k <- min(k, depth)
  if (k == 0) return(if (form == "truncated") 0 else 1)
  if (fixed_depth) k <- depth
  x <- x[seq_len(min(length(x), k))]
  y <- y[seq_len(min(length(y), k))]
  s <- min(length(x), length(y))
  if (s == 0) return(0)
  at_y <- match(x, y)
  shared <- !is.na(at_y)
  X <- cumsum(tabulate(pmax(which(shared), at_y[shared]), nbins = k))
  d <- seq_len(k)
  w <- p^(d - 1)
  weighted <- sum(X / d * w)
  switch(form,
    truncated = (1 - p) * weighted,
    normalised = weighted / sum(w),
    extrapolated = {
      # Webber et al. (2010), eq. 32 (eq. 30 when s = k), with the factor
      # (1 - p) / p * p^d written as (1 - p) * p^(d - 1): a weighted mean of
      # agreements A_d <= 1 with weights (1 - p) p^(d - 1) and p^k, which sum
      # to 1. Each A_d is one rounded division of whole numbers (so <= 1), and
      # the sum is divided by the same sum of the weights computed alike, so
      # that rounding cannot take RBO above 1 (issue 43: identical lists of 16
      # lengths in 1..2000 gave 1.0000000000000002): floating-point sums and
      # products are monotone, so the numerator never exceeds the
      # denominator, and identical lists give exactly 1.
      A <- X / d
      Xs <- as.double(X[s])
      if (k > s) {
        e <- seq.int(s + 1L, k)
        A[e] <- (as.double(X[e]) * s + Xs * (e - s)) / (as.double(s) * e)
      }
      tail <- ((X[k] - Xs) * s + Xs * k) / (as.double(k) * s)
      ((1 - p) * sum(A * w) + tail * p^k) / ((1 - p) * sum(w) + p^k)
    }
  )
}
