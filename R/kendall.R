#' Kendall's rank correlation and the AP rank correlation
#'
#' Rank correlation between two paired numeric vectors (larger values rank
#' higher), computed in C++ in \eqn{O(n \log n)} time.
#' * `"b"` (default): Kendall's tau-b, computed with Knight's (1966)
#'   algorithm; equals `cor(x, y, method = "kendall")`, which is tau-b when
#'   there are ties.
#' * `"a"`: tau-a, \eqn{(C - D) / (n(n-1)/2)}.
#' * `"ap"`: the AP correlation \eqn{\tau_{AP}} of Yilmaz, Aslam & Robertson
#'   (2008), \eqn{\frac{2}{n-1}\sum_{i=2}^{n} \frac{C(i)}{i-1} - 1}, where the
#'   items are listed by `x` (largest first) and \eqn{C(i)} counts the items
#'   above position \eqn{i} that `y` also places above the item at \eqn{i}.
#'   It weights disagreements at the top of `x` more and is **not
#'   symmetric**: `x` is the ranking being evaluated, `y` the reference
#'   ("truth"), e.g. `x` the system scores on a topic subset and `y` those on
#'   all topics.
#'
#' @section Ties in `type = "ap"`:
#' Yilmaz et al. define \eqn{\tau_{AP}} for rankings without ties. Here the
#' value with ties is the *expected* \eqn{\tau_{AP}} when the ties of `x` and
#' of `y` are broken uniformly at random (independently): a pair tied in `y`
#' counts one half, and the expectation over the orders of a tie group of
#' `x` is computed exactly. Without ties this is the published coefficient.
#' A constant vector gives `NA`, as for tau-b.
#'
#' @param x,y Numeric vectors of the same length, without NA. For
#'   `type = "ap"`, `x` is the evaluated ranking and `y` the reference.
#' @param type `"b"`, `"a"` or `"ap"`.
#' @return A number; `NA` when `n < 2` or (tau-b, tau-AP) either vector is
#'   constant.
#' @references
#' Knight, W. R. (1966). A computer method for calculating Kendall's tau with
#' ungrouped data. *JASA* 61, 436--439.
#'
#' Yilmaz, E., Aslam, J. A. & Robertson, S. (2008). A new rank correlation
#' coefficient for information retrieval. *SIGIR 2008*, 587--594.
#' @examples
#' x <- c(1, 2, 2, 3, 5)
#' y <- c(2, 1, 3, 3, 4)
#' kendall_tau(x, y)
#' cor(x, y, method = "kendall")
#' kendall_tau(x, y, type = "a")
#' # a swap at the top costs tau_AP more than one at the bottom
#' truth <- 5:1
#' kendall_tau(c(4, 5, 3, 2, 1), truth, type = "ap")
#' kendall_tau(c(5, 4, 3, 1, 2), truth, type = "ap")
#' @export
kendall_tau <- function(x, y, type = c("b", "a", "ap")) {
  type <- match_choice(type)
  if (!is.numeric(x) || !is.numeric(y)) stop_irtopics("{.arg x} and {.arg y} must be numeric vectors.")
  if (length(x) != length(y)) {
    stop_irtopics("{.arg x} and {.arg y} must have the same length, not {length(x)} and {length(y)}.")
  }
  if (anyNA(x) || anyNA(y)) stop_irtopics("{.arg x} and {.arg y} must not contain NA.", kind = "data")
  rank_cor_impl(as.double(x), as.double(y), type)
}

# Unchecked rank correlation used by the analyses: Kendall (b, a), tau_AP,
# or Pearson / Spearman through cor(). NA instead of NaN.
rank_cor_impl <- function(x, y, type) {
  out <- switch(type,
    b = cpp_kendall(x, y, TRUE),
    a = cpp_kendall(x, y, FALSE),
    ap = cpp_tau_ap(x, y),
    kendall = cpp_kendall(x, y, TRUE),
    pearson = ,
    spearman = if (length(x) < 2 || stats::sd(x) == 0 || stats::sd(y) == 0) NA_real_ else
      stats::cor(x, y, method = type)
  )
  if (is.nan(out)) NA_real_ else out
}
