#' Kendall's rank correlation
#'
#' Kendall's tau between two paired numeric vectors, computed in C++ in
#' \eqn{O(n \log n)} time (Knight 1966). `"b"` (default) equals
#' `cor(x, y, method = "kendall")`, which is tau-b when there are ties;
#' `"a"` is \eqn{(C - D) / (n(n-1)/2)}.
#'
#' @param x,y Numeric vectors of the same length, without NA.
#' @param type `"b"` or `"a"`.
#' @return A number; `NA` when `n < 2` or (tau-b) either vector is constant.
#' @examples
#' x <- c(1, 2, 2, 3, 5)
#' y <- c(2, 1, 3, 3, 4)
#' kendall_tau(x, y)
#' cor(x, y, method = "kendall")
#' kendall_tau(x, y, type = "a")
#' @export
kendall_tau <- function(x, y, type = c("b", "a")) {
  type <- match.arg(type)
  if (!is.numeric(x) || !is.numeric(y)) stop_irtopics("{.arg x} and {.arg y} must be numeric vectors.")
  if (length(x) != length(y)) {
    stop_irtopics("{.arg x} and {.arg y} must have the same length, not {length(x)} and {length(y)}.")
  }
  if (anyNA(x) || anyNA(y)) stop_irtopics("{.arg x} and {.arg y} must not contain NA.", kind = "data")
  out <- cpp_kendall(as.double(x), as.double(y), type == "b")
  if (is.nan(out)) NA_real_ else out
}
