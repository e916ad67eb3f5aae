# Binned kernel estimates (issue 43): above `kernel_exact_max` scores
# (fit_margin(); option irtopics.kernel_exact_max, default 5000) the kernel
# families replace the scores by the points of a fixed grid of `kernel_bins`
# intervals (option irtopics.kernel_bins, default 4096) carrying weights, and
# every kernel sum runs over the grid's occupied points instead of the
# scores: linear in the number of scores (one pass to bin them), the rest a
# cost of the grid. At or below the threshold nothing changes (the same
# numbers to the bit). A binned fit says so in its parameters: `bins` (the
# grid's intervals) and `bin_error` (the bound below).
#
# Linear binning: a score x between grid points g_k and g_k+1 gives weight
# (g_k+1 - x) / (g_k+1 - g_k) to g_k and the rest to g_k+1. A kernel sum at
# y, sum_i K(y, x_i), becomes sum_i of the straight line through K(y, g_k)
# and K(y, g_k+1) at x_i, so each score's term is off by at most
# (g_k+1 - g_k)^2 / 8 * max |d^2 K / dx^2| on its interval:
# * Gaussian kernel (bandwidth h, grid of step d on [0, 1]): the density is
#   off by at most d^2 phi(0) / (8 h^3) (before the division by the mass;
#   `bin_error`), the CDF by d^2 phi(1) / (8 h^2); the sums at the scores,
#   read off the grid by linear interpolation, by twice the density's bound.
# * Beta kernel (bandwidth b): the grid is even in theta = asin(sqrt(x))
#   between the capped ends (step dt), so intervals narrow towards 0 and 1
#   as the kernels do; with a kernel's standard deviation about
#   sqrt(b x (1 - x)), the estimate at y is off by about dt^2 / (2 b)
#   (`bin_error`; 7e-5 at the smallest bandwidth, 0.001, with 4096 bins)
#   times dbeta(y; y/b + 1, (1 - y)/b + 1), the largest value a score's
#   kernel takes at y (a normal approximation's bound).
# The tests compare binned and exact fits of 3000 scores against these
# bounds.

# The bins of a fit (NULL: exact) for the observations' scores (fit_margin()'s
# kernel_exact_max and kernel_bins, whose defaults are the options).
kernel_bins_of <- function(obs, n = length(obs$x)) {
  exact_max <- obs$kernel_exact_max %||% getOption("irtopics.kernel_exact_max", 5000)
  if (n <= exact_max) NULL else as.integer(obs$kernel_bins %||% getOption("irtopics.kernel_bins", 4096))
}

# Linear binning of x (inside [grid[1], grid[length(grid)]]) on the grid:
# the occupied points `x`, their weights `w` (summing to n) and n.
bin_scores <- function(x, grid) {
  k <- findInterval(x, grid, rightmost.closed = TRUE, all.inside = TRUE)
  t <- (x - grid[k]) / (grid[k + 1L] - grid[k])
  w <- numeric(length(grid))
  lo <- rowsum(1 - t, k)
  w[as.integer(rownames(lo))] <- lo[, 1L]
  hi <- rowsum(t, k + 1L)
  at <- as.integer(rownames(hi))
  w[at] <- w[at] + hi[, 1L]
  keep <- w > 0
  list(x = grid[keep], w = w[keep], n = length(x))
}

# The Gaussian kernel's grid: M intervals on [0, 1].
nk_bin_grid <- function(M) seq(0, 1, length.out = M + 1L)

# The beta kernel's grid: M intervals even in asin(sqrt(x)) between the
# capped ends, which are grid points (scores capped there are exact).
bk_bin_grid <- function(M) {
  th <- seq(asin(sqrt(score_cap)), asin(sqrt(1 - score_cap)), length.out = M + 1L)
  g <- sin(th)^2
  g[c(1L, M + 1L)] <- c(score_cap, 1 - score_cap)
  g
}

# The bounds of the header, for a fit's `bin_error`.
nk_bin_error <- function(M, h) (1 / M)^2 * stats::dnorm(0) / (8 * h^3)
bk_bin_error <- function(M, b) ((asin(sqrt(1 - score_cap)) - asin(sqrt(score_cap))) / M)^2 / (2 * b)

# The points a Gaussian kernel spec sums over: its scores (weights NULL), or
# their bins.
nk_points <- function(spec) nk_points_of(spec$data, spec$parameters$bins)

nk_points_of <- function(x, M) {
  if (is.null(M)) return(list(x = x, w = NULL, n = length(x)))
  bin_scores(x, nk_bin_grid(M))
}

# The Gaussian kernel's sums at its own scores, binned: the weighted sums at
# the occupied grid points, read at each score by linear
# interpolation between its two grid points; the sums and means of
# cpp_nk_self_sums().
nk_self_sums_binned <- function(x, h, M) {
  pts <- bin_scores(x, nk_bin_grid(M))
  at <- nk_point_means(pts, h, pts$x, numeric(), 0L) * pts$n
  sums <- stats::approx(pts$x, at, x, ties = "ordered")$y
  list(sums = sums, means = sums / length(x))
}

# The beta kernel's binned scores: the capped scores binned on
# bk_bin_grid(M), with logs and log weights for the C++ sums.
bk_binned_scores <- function(x, M) {
  b <- bin_scores(cap_scores(x), bk_bin_grid(M))
  list(x = b$x, lx = log(b$x), l1x = log1p(-b$x), w = b$w, lw = log(b$w), n = b$n)
}

# The beta kernel's sums at the scores x from binned scores: the weighted
# sums at the grid points read at each capped score by linear interpolation,
# and each score's own kernel exactly.
bk_score_sums_binned <- function(sc, b, x) {
  at <- bk_counted(cpp_bk_point_sums(sc$lx, sc$l1x, sc$lw, b, sc$x, bk_lbeta(sc$x, b)))$sum
  xc <- cap_scores(x)
  list(sum = stats::approx(sc$x, at, xc, ties = "ordered")$y, own = stats::dbeta(xc, xc / b + 1, (1 - xc) / b + 1))
}
