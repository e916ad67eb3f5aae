# Pearson/Kendall correlation that is NA (no warning) for constant vectors.
safe_cor <- function(x, y, method = "pearson") {
  if (length(x) < 2 || stats::sd(x) == 0 || stats::sd(y) == 0) return(NA_real_)
  stats::cor(x, y, method = method)
}

# Ties in means: the one rule by which the package ranks or orders means
# that were summed (of the data, of bootstrap resamples, of leave-one-out
# or other topic subsets). Equal means of a discrete measure (P@10: k / 10
# per topic) are rarely equal in double precision once summed in different
# orders or weighted (0.1 + 0.2 != 0.3), and a rank, tau or ordering would
# then be decided by rounding. So means within `mean_tie_tolerance * scale`
# of their neighbour in sorted order are one tie group (a chain, so the rule
# does not depend on where a grid would cut), and each takes the group's
# smallest value. `scale` is the largest absolute score the means come
# from: a mean of n scores is off by at most about n * 1.1e-16 of it, far
# below 1e-9 for any n below 10^6, while distinct means of a discrete
# measure on n topics differ by at least 1 / (10 n) (P@10), far above. `x`:
# a vector, or a matrix whose columns are ranked separately (systems x
# samples); NA stays NA. Attributes (names, dim) are kept.
mean_tie_tolerance <- 1e-9

tie_means <- function(x, scale = max(0, abs(x[is.finite(x)]))) {
  tol <- mean_tie_tolerance * scale
  n <- length(x)
  if (n < 2L || !is.finite(tol)) return(x)
  column <- if (is.matrix(x)) as.vector(col(x)) else rep.int(1L, n)
  o <- order(column, as.vector(x), na.last = TRUE, method = "radix")
  v <- as.vector(x)[o]
  same <- column[o][-1L] == column[o][-n] & v[-1L] - v[-n] <= tol
  same[is.na(same)] <- FALSE
  start <- cummax(ifelse(c(TRUE, !same), seq_len(n), 0L))
  x[o] <- v[start]
  x
}

# A power of two that brings values whose squares would underflow or
# overflow (the largest |x| below 1e-100 or above 1e100) to [1, 4), so that
# squares and cubes of their deviations stay in range (issue 43: scores of
# 1e-300 gave zero variances, zero-width intervals and NA risks; URisk's
# losses times 1 + alpha = 1e300 overflowed to an infinite standard
# error); 1 for anything else, so no other number changes. Multiplying and
# dividing by a power of two is exact, and an even power has an exact
# square root. Between 2^-1022 and 2^1022 (finite), which still lifts
# subnormal values past 2^-52.
square_scale <- function(x) {
  big <- suppressWarnings(max(abs(x[is.finite(x)])))
  if (!is.finite(big) || big == 0 || (big >= 1e-100 && big <= 1e100)) return(1)
  2^max(-1022, min(1022, 2 * ceiling(-log2(big) / 2)))
}
