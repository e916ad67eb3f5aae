# The kernel families of fit_margin(), records as in
# R/calibration-families.R: a truncated Gaussian kernel estimate, Chen
# (1999)'s beta kernel estimator and Wang and van Ryzin (1981)'s ordered
# categorical kernel. A kernel estimate's degrees of freedom are effective
# ones: the sum over the scores of a score's own kernel at itself over the
# estimate there. The beta kernel's sums run in C++ (src/beta_kernel.h).
# Above fit_margin()'s kernel_exact_max scores both continuous kernels sum
# over binned scores (R/calibration-binned.R).

# Blocks ------------------------------------------------------------------------------

# Kernel sums build a matrix of (points x scores) or (support x indices):
# 10^5 scores asked 74.5 GB of fit_margin() before issue 29. They are now
# computed in row blocks of at most irtopics.kernel_block_bytes (32 MB) per
# temporary; each row's sum is formed as before (rowMeans()/rowSums()/
# colSums() of one row or column never depend on the others), so the
# numbers are those of the whole matrix to the bit.
kernel_block_bytes <- function() getOption("irtopics.kernel_block_bytes", 32 * 2^20)

# The row indices of an n-row computation with `cols` doubles per row, in
# blocks that fit kernel_block_bytes().
row_blocks <- function(n, cols) {
  size <- max(1, floor(kernel_block_bytes() / (8 * max(cols, 1))))
  if (n <= size) return(list(seq_len(n)))
  starts <- seq(1, n, by = size)
  lapply(starts, function(s) s:min(n, s + size - 1))
}

# Normal kernel -------------------------------------------------------------------------

# Sheather-Jones bandwidth, unless it fails: an error, a warning, or a
# bandwidth below a tenth of 0.9 sd n^(-1/5) (on scores with many ties,
# e.g. many AP = 0, Sheather-Jones collapses to a width that only separates
# the tied values, and the estimate becomes spikes at the observed scores).
# Then bw.nrd0, unless it collapses too (its IQR is 0 when over half the
# scores are tied), and then 0.9 sd n^(-1/5) (bw.nrd0 with the standard
# deviation alone).
normal_kernel_bandwidth <- function(x) {
  h_sd <- 0.9 * stats::sd(x) * length(x)^(-1 / 5)
  h <- tryCatch(stats::bw.SJ(x), error = function(e) NA_real_, warning = function(w) NA_real_)
  if (is.finite(h) && h >= h_sd / 10) return(list(h = h, rule = "SJ"))
  h <- stats::bw.nrd0(x)
  if (h >= h_sd / 10) return(list(h = h, rule = "nrd0"))
  list(h = h_sd, rule = "sd")
}

# Log-likelihood and effective degrees of freedom of the estimate with
# bandwidth h and mass `mass` on [0, 1]. The kernel sums at the scores are
# rowMeans() and rowSums() of dnorm(outer(x, x, "-") / h) to the bit, in
# C++ (src/normal_kernel.h: each pair once, memory linear in n);
# nk_self_sums_r() is the matrix form in row blocks (the tests' reference).
nk_loglik_df <- function(x, h, mass, bins = NULL) {
  k <- if (is.null(bins)) cpp_nk_self_sums(x, h) else nk_self_sums_binned(x, h, bins)
  list(loglik = sum(log(k$means / h / mass)), df = sum(stats::dnorm(0) / k$sums))
}

nk_self_sums_r <- function(x, h) {
  means <- sums <- numeric(length(x))
  for (b in row_blocks(length(x), length(x))) {
    K <- stats::dnorm(outer(x[b], x, "-") / h)
    means[b] <- rowMeans(K)
    sums[b] <- rowSums(K)
  }
  list(sums = sums, means = means)
}

fit_normal_kernel <- function(obs) {
  x <- obs$x
  bins <- kernel_bins_of(obs)
  bw <- normal_kernel_bandwidth(x)
  h <- bw$h
  if (!is.finite(h) || h <= 0) fit_failure("no positive bandwidth")
  pts <- nk_points_of(x, bins)
  mass <- points_mean(pts, stats::pnorm((1 - pts$x) / h) - stats::pnorm(-pts$x / h))
  par <- list(bandwidth = h, rule = bw$rule, mass = mass)
  if (!is.null(bins)) par <- c(par, list(bins = bins, bin_error = nk_bin_error(bins, h)))
  ll <- nk_loglik_df(x, h, mass, bins)
  list(one_fit("normal_kernel", par, ll$loglik, ll$df, bandwidth = h))
}

nk_cdf <- function(spec, q, lower = TRUE) {
  h <- spec$parameters$bandwidth
  pts <- nk_points(spec)
  x <- pts$x
  shift <- if (lower) stats::pnorm(-x / h) else stats::pnorm((1 - x) / h, lower.tail = FALSE)
  out <- nk_point_means(pts, h, q, shift, if (lower) 1L else 2L)
  pmin(pmax(out / spec$parameters$mass, 0), 1)
}

# The means over the points (scores, or weighted bins) of the kernel terms
# at q: `kind` 0 the density's, 1 the CDF's less `shift`, 2 the upper
# tail's less `shift`. C++ (src/normal_kernel.h), rowMeans() of the R
# matrix in row blocks (nk_point_means_r(), the tests' reference) to the bit.
nk_point_means <- function(pts, h, q, shift, kind) {
  cpp_nk_point_means(pts$x, pts$w %||% numeric(), pts$n, h, q, shift, kind)
}

# (row means of a block K, rows the points asked: rowMeans(), or weighted
# by w over n)
kernel_row_means <- function(K, pts) {
  if (is.null(pts$w)) rowMeans(K) else drop(K %*% pts$w) / pts$n
}

# (the mean over the points of a value per point: mean(), or weighted by w
# over n)
points_mean <- function(pts, v) if (is.null(pts$w)) mean(v) else sum(pts$w * v) / pts$n

nk_point_means_r <- function(pts, h, q, shift, kind) {
  out <- numeric(length(q))
  for (b in row_blocks(length(q), length(pts$x))) {
    Z <- outer(q[b], pts$x, "-") / h
    Z <- if (kind == 0L) stats::dnorm(Z) else stats::pnorm(Z, lower.tail = kind == 1L) - rep(shift, each = length(b))
    out[b] <- kernel_row_means(Z, pts)
  }
  out
}

nk_moments <- function(spec) {
  h <- spec$parameters$bandwidth
  pts <- nk_points(spec)
  x <- pts$x
  a <- -x / h
  b <- (1 - x) / h
  P <- stats::pnorm(b) - stats::pnorm(a)
  D <- stats::dnorm(a) - stats::dnorm(b)
  e1 <- x * P + h * D
  e2 <- x^2 * P + 2 * x * h * D + h^2 * (P + a * stats::dnorm(a) - b * stats::dnorm(b))
  c(points_mean(pts, e1), points_mean(pts, e2)) / spec$parameters$mass
}

normal_kernel_family <- margin_family(
  "normal_kernel", "continuous", label = "Gaussian kernel truncated to [0, 1]", fit = fit_normal_kernel,
  df = function(spec) {
    nk_loglik_df(spec$data, spec$parameters$bandwidth, spec$parameters$mass, spec$parameters$bins)$df
  },
  d = function(spec, y) {
    h <- spec$parameters$bandwidth
    out <- nk_point_means(nk_points(spec), h, y, numeric(), 0L)
    out / h / spec$parameters$mass
  },
  p = nk_cdf, moments = nk_moments, sets = study_family_sets, inflated = study_twin_sets)

# Beta kernel --------------------------------------------------------------------------

# Gauss-Legendre nodes and weights on [-1, 1] (Golub-Welsch).
gauss_legendre <- function(n) {
  i <- seq_len(n - 1L)
  b <- i / sqrt(4 * i^2 - 1)
  J <- matrix(0, n, n)
  J[cbind(i, i + 1L)] <- b
  J[cbind(i + 1L, i)] <- b
  e <- eigen(J, symmetric = TRUE)
  o <- order(e$values)
  list(x = e$values[o], w = 2 * e$vectors[1, o]^2)
}
gl5 <- gauss_legendre(5L)
gl3 <- gauss_legendre(3L)

# Breaks of the beta kernel's quadrature: 256 equal intervals, refined
# geometrically (8 per decade) towards 0 and 1, where scores capped at 1e-6
# give the estimate a narrow spike.
bk_breaks <- local({
  g <- 10^seq(-8, -2, by = 0.125)
  sort(unique(c(0, g, seq(0, 1, length.out = 257L), 1 - g, 1)))
})

# The coarser breaks of the bandwidth's cross-validation (64 intervals, 4
# per decade towards the ends).
bk_cv_breaks <- local({
  g <- 10^seq(-8, -2, by = 0.25)
  sort(unique(c(0, g, seq(0, 1, length.out = 65L), 1 - g, 1)))
})

# Nodes `y` and weights `w` of Gauss-Legendre (`rule`) on each interval of `breaks`.
quad_nodes <- function(breaks, rule = gl5) {
  l <- breaks[-length(breaks)]
  half <- diff(breaks) / 2
  n <- length(rule$x)
  list(y = rep(l + half, each = n) + rep(half, each = n) * rule$x, w = rep(half, each = n) * rule$w,
       interval = rep(seq_along(l), each = n))
}

# Their nodes, with what the C++ sums chain from: each interval's centre
# and half-width, and the rule's nodes on [-1, 1] made exactly symmetric
# (the eigenvalues differ from it in the last bits).
bk_quadrature <- function(breaks, rule = gl5) {
  half <- diff(breaks) / 2
  c(quad_nodes(breaks, rule), list(centre = breaks[-length(breaks)] + half, half = half,
                                   offset = (rule$x - rev(rule$x)) / 2))
}
bk_cv_quadrature <- bk_quadrature(bk_cv_breaks, gl3)
bk_quadrature_fine <- bk_quadrature(bk_breaks)

# Kernel weights: rows the (capped) scores, columns the points y:
# dbeta(x_i; y/b + 1, (1 - y)/b + 1), its log computed as one matrix product.
bk_weights <- function(y, xc, b) {
  A <- cbind(log(xc), log1p(-xc), 1)
  B <- rbind(y / b, (1 - y) / b, -lbeta(y / b + 1, (1 - y) / b + 1))
  exp(A %*% B)
}

# The log-beta term of the kernels at the points y.
bk_lbeta <- function(y, b) lbeta(y / b + 1, (1 - y) / b + 1)

# The capped scores, sorted, and their logs (n: their number; lw, the log
# weights of binned scores, empty).
bk_scores <- function(x) {
  xs <- sort(cap_scores(x))
  list(x = xs, lx = log(xs), l1x = log1p(-xs), lw = numeric(), n = length(xs))
}

# The scores a spec sums over: its capped scores, or their bins.
bk_scores_of <- function(spec) {
  M <- spec$parameters$bins
  if (is.null(M)) bk_scores(spec$data) else bk_binned_scores(spec$data, M)
}

# Sums of the kernels (src/beta_kernel.h): at the nodes of a quadrature q
# (f; with `weighted`, also m, each score's kernel integrated by q), and at
# the scores (sum, and own: a score's kernel at itself). Counted in
# bk_counter().
bk_node_sums <- function(sc, b, q, weighted = FALSE) {
  bk_counted(cpp_bk_node_sums(sc$lx, sc$l1x, b, q$y, bk_lbeta(q$y, b), if (weighted) q$w else numeric(),
                              q$centre, q$half, bk_lbeta(q$centre, b), q$offset, sc$lw))
}

bk_score_sums <- function(sc, b) bk_counted(cpp_bk_score_sums(sc$lx, sc$l1x, sc$x, b, bk_lbeta(sc$x, b)))

# Kernel values summed and exp() calls made since the last reset (the
# repeatable measure of bench/margins.R).
bk_counts <- new.env(parent = emptyenv())
bk_counter <- function(reset = FALSE) {
  if (reset || is.null(bk_counts$values)) bk_counts$values <- bk_counts$exps <- 0
  c(values = bk_counts$values, exps = bk_counts$exps)
}

bk_counted <- function(r) {
  bk_counter()
  bk_counts$values <- bk_counts$values + r$values
  bk_counts$exps <- bk_counts$exps + r$exps
  r
}

# The least-squares cross-validation criterion at log bandwidth lb:
# int f^2 - 2 mean(f_-i(x_i)), both renormalised.
bk_cv <- function(lb, sc, q) {
  n <- length(sc$x)
  b <- exp(lb)
  nodes <- bk_node_sums(sc, b, q, weighted = TRUE)
  f <- nodes$f / n
  m <- nodes$m
  C <- mean(m)
  at <- bk_score_sums(sc, b)
  loo <- (at$sum - at$own) / (n * C - m)
  sum(q$w * f^2) / C^2 - 2 * mean(loo)
}

# (binned scores: `sc` from bk_binned_scores(), the search on the binned
# criterion)
bk_bandwidth <- function(x, rule, sc = NULL) {
  n <- length(x)
  b_range <- c(1e-3, 0.5)
  if (rule == "reference") return(min(max(stats::sd(x) * n^(-2 / 5), b_range[1]), b_range[2]))
  q <- bk_cv_quadrature
  r <- if (!is.null(sc) && length(sc$lw)) {
    bk_counted(cpp_bk_lscv_binned(sc$lx, sc$l1x, sc$lw, sc$x, sc$w, sc$n, bk_cv_grid, 0.01, q$y, q$w, q$centre,
                                  q$half, q$offset, bk_cv_grid_lbeta))
  } else {
    sc <- bk_scores(x)
    bk_counted(cpp_bk_lscv(sc$lx, sc$l1x, sc$x, bk_cv_grid, 0.01, q$y, q$w, q$centre, q$half, q$offset,
                           bk_cv_grid_lbeta))
  }
  if (!r$found) fit_failure("the cross-validation criterion is not finite")
  if (r$replaced) warning("NA/Inf replaced by maximum positive value")
  r$bandwidth
}

# The log bandwidths of the cross-validation's grid. The search
# (cpp_bk_lscv(), src/beta_kernel.h) is bk_bandwidth_r()'s step for step,
# the criterion bk_cv()'s to the bit, in one C++ call.
bk_cv_grid <- seq(log(1e-3), log(0.5), length.out = 16L)

# lbeta() at the cross-validation's nodes and centres for each grid
# bandwidth (a column each): what the search computes there for any scores,
# so it is computed once.
bk_cv_grid_lbeta <- vapply(bk_cv_grid, function(lb) {
  c(bk_lbeta(bk_cv_quadrature$y, exp(lb)), bk_lbeta(bk_cv_quadrature$centre, exp(lb)))
}, numeric(length(bk_cv_quadrature$y) + length(bk_cv_quadrature$centre)))

# The search in R: bk_cv() on the grid, then optimize() between the best
# value's neighbours (the reference of the C++ search; tests).
bk_bandwidth_r <- function(x) {
  sc <- bk_scores(x)
  cv <- function(lb) bk_cv(lb, sc, bk_cv_quadrature)
  grid <- bk_cv_grid
  vals <- vapply(grid, cv, 0)
  if (!any(is.finite(vals))) fit_failure("the cross-validation criterion is not finite")
  k <- which.min(vals)
  lo <- grid[max(k - 1L, 1L)]
  hi <- grid[min(k + 1L, length(grid))]
  r <- stats::optimize(cv, c(lo, hi), tol = 0.01)
  exp(if (is.finite(r$objective) && r$objective < vals[k]) r$minimum else grid[k])
}

# The estimate at the nodes of the fine quadrature (before renormalisation).
# The fit (its mass) and the table (its moments) ask for the same scores and
# bandwidth in turn: the last one is kept.
bk_fine_density <- function(sc, b) {
  last <- bk_fine_last$value
  if (!is.null(last) && identical(last$b, b) && identical(last$x, sc$x) && identical(last$lw, sc$lw)) return(last$f)
  f <- bk_node_sums(sc, b, bk_quadrature_fine)$f / sc$n
  bk_fine_last$value <- list(x = sc$x, lw = sc$lw, b = b, f = f)
  f
}
bk_fine_last <- new.env(parent = emptyenv())

# The estimate's mass on [0, 1] (quadrature), log-likelihood and effective
# degrees of freedom at bandwidth b.
bk_mass <- function(sc, b) sum(bk_quadrature_fine$w * bk_fine_density(sc, b))

# (binned scores: the sums at the scores x from the grid's)
bk_loglik_df <- function(sc, b, mass, x = NULL) {
  at <- if (length(sc$lw)) bk_score_sums_binned(sc, b, x) else bk_score_sums(sc, b)
  list(loglik = sum(log(at$sum / sc$n / mass)), df = sum(at$own / at$sum))
}

fit_beta_kernel <- function(obs) {
  rule <- obs$beta_bandwidth
  bins <- kernel_bins_of(obs)
  if (is.null(bins)) {
    b <- bk_bandwidth(obs$x, rule)
    sc <- bk_scores(obs$x)
  } else {
    sc <- bk_binned_scores(obs$x, bins)
    b <- bk_bandwidth(obs$x, rule, sc)
  }
  mass <- bk_mass(sc, b)
  ll <- bk_loglik_df(sc, b, mass, obs$x)
  par <- list(bandwidth = b, rule = rule, mass = mass)
  if (!is.null(bins)) par <- c(par, list(bins = bins, bin_error = bk_bin_error(bins, b)))
  list(one_fit("beta_kernel", par, ll$loglik, ll$df, bandwidth = b))
}

# The CDF and 1 - F at every q: quadrature on the breaks with the q's
# added, cumulated (3 nodes per interval when the q's make the intervals
# short).
bk_cdf_both <- function(spec, q) {
  nd <- if (identical(q, bk_knot_nodes$q)) bk_knot_nodes else bk_table_nodes(q)
  sc <- bk_scores_of(spec)
  f <- bk_node_sums(sc, spec$parameters$bandwidth, nd)$f / sc$n
  # each interval's nodes added in order, as rowsum() adds them
  wf <- matrix(nd$w * f, nd$rule)
  parts <- wf[1L, ]
  for (g in seq_len(nd$rule)[-1L]) parts <- parts + wf[g, ]
  # rowsum()'s names stay in the table: the intervals' names, attached once
  # to each result (as c() and `[` of the named sums would carry them)
  at <- nd$at
  total <- sum(parts)
  lower <- c(0, cumsum(parts))[at] / total
  upper <- c(rev(cumsum(rev(parts))), 0)[at] / total
  names(lower) <- nd$lower_names
  names(upper) <- nd$upper_names
  list(lower = lower, upper = upper)
}

# The quadrature of the CDF at q (the breaks with the q's added) and where
# the q's are among its breaks; for the simulator's knots it is made once.
bk_table_nodes <- function(q) {
  br <- sort(unique(c(bk_breaks, q)))
  rule <- if (length(q) > 500L) gl3 else gl5
  at <- match(q, br)
  names <- as.character(seq_len(length(br) - 1L))
  c(bk_quadrature(br, rule), list(q = q, at = at, rule = length(rule$x), lower_names = c("", names)[at],
                                  upper_names = c(names, "")[at]))
}
bk_knot_nodes <- bk_table_nodes(margin_knots())

# The estimate at the points y (before renormalisation): the C++ sums.
bk_density_sums <- function(sc, b, y) {
  bk_counted(cpp_bk_point_sums(sc$lx, sc$l1x, sc$lw, b, y, bk_lbeta(y, b)))$sum / sc$n
}

bk_moments <- function(spec) {
  nd <- bk_quadrature_fine
  f <- nd$w * bk_fine_density(bk_scores_of(spec), spec$parameters$bandwidth)
  c(sum(f * nd$y), sum(f * nd$y^2)) / sum(f)
}

beta_kernel_family <- margin_family(
  "beta_kernel", "continuous", label = "Chen's beta kernel", fit = fit_beta_kernel,
  df = function(spec) {
    bk_loglik_df(bk_scores_of(spec), spec$parameters$bandwidth, spec$parameters$mass, spec$data)$df
  },
  d = function(spec, y) {
    if (is.null(spec$parameters$bins)) {
      return(colMeans(bk_weights(y, cap_scores(spec$data), spec$parameters$bandwidth)) / spec$parameters$mass)
    }
    bk_density_sums(bk_scores_of(spec), spec$parameters$bandwidth, y) / spec$parameters$mass
  },
  q = function(spec, u, table) {
    # Newton's density from the C++ sums (the R matrix of d() holds scores x points)
    newton_quantile(spec, u, table, function(spec, y) {
      bk_density_sums(bk_scores_of(spec), spec$parameters$bandwidth, y) / spec$parameters$mass
    }, function(spec, q) bk_cdf_both(spec, q)$lower)
  },
  p = function(spec, q, lower = TRUE) bk_cdf_both(spec, q)[[if (lower) "lower" else "upper"]],
  cdf_both = bk_cdf_both, moments = bk_moments, sets = study_family_sets, inflated = study_twin_sets)

# Discrete kernel -------------------------------------------------------------------

# Wang-van Ryzin weights of the observed indices `u` (rows) at the support
# indices `at` (columns; all of them are 0..K).
dk_weights <- function(u, at, lambda) {
  D <- abs(outer(u, at, "-"))
  W <- (1 - lambda) / 2 * lambda^D
  W[D == 0] <- 1 - lambda
  W
}

# colSums(cnt * W) (the estimate at 0..K before division by n) and
# rowSums(W) of the weights of `u` at 0..K, in blocks (see row_blocks()).
dk_col_sums <- function(u, cnt, K, lambda) {
  out <- numeric(K + 1)
  for (b in row_blocks(K + 1, length(u))) out[b] <- colSums(cnt * dk_weights(u, b - 1, lambda))
  out
}
dk_row_sums <- function(u, K, lambda) {
  out <- numeric(length(u))
  for (b in row_blocks(length(u), K + 1)) out[b] <- rowSums(dk_weights(u[b], 0:K, lambda))
  out
}

# The distinct indices and their counts.
dk_counts <- function(idx) {
  u <- sort(unique(idx))
  list(u = u, cnt = tabulate(match(idx, u), length(u)), n = length(idx))
}

# The pmf at 0..K, log-likelihood and effective degrees of freedom at lambda.
dk_estimate <- function(tab, K, lambda) {
  raw <- dk_col_sums(tab$u, tab$cnt, K, lambda) / tab$n
  pmf <- raw / sum(raw)
  list(pmf = pmf, loglik = sum(tab$cnt * log(pmf[tab$u + 1L])),
       df = sum(tab$cnt * (1 - lambda) / (tab$n * raw[tab$u + 1L])))
}

fit_discrete_kernel <- function(obs) {
  K <- obs$K
  tab <- dk_counts(obs$idx)
  u <- tab$u
  cnt <- tab$cnt
  n <- tab$n
  cv <- function(lambda) {
    raw <- dk_col_sums(u, cnt, K, lambda) / n
    S <- sum(raw)
    loo <- (n * raw[u + 1L] - (1 - lambda)) / (n * S - dk_row_sums(u, K, lambda))
    sum((raw / S)^2) - 2 * sum(cnt * loo) / n
  }
  grid <- seq(0, 0.99, by = 0.01)
  vals <- vapply(grid, cv, 0)
  k <- which.min(vals)
  lambda <- grid[k]
  if (k > 1L) {
    r <- stats::optimize(cv, c(grid[k - 1L], grid[min(k + 1L, length(grid))]), tol = 1e-6)
    if (r$objective < vals[k]) lambda <- r$minimum
  }
  lambdas <- lambda
  if (lambda > 0) lambdas <- c(lambdas, Filter(function(l) l < 1, lambda * c(2, 5, 10)))
  lapply(lambdas, function(l) {
    est <- dk_estimate(tab, K, l)
    one_fit("discrete_kernel", list(bandwidth = l), est$loglik, est$df, bandwidth = l)
  })
}

dk_estimate_of <- function(spec) {
  dk_estimate(dk_counts(nearest_support(spec$data, spec$support)), length(spec$support) - 1L,
              spec$parameters$bandwidth)
}

discrete_kernel_family <- margin_family(
  "discrete_kernel", "discrete", label = "Wang-van Ryzin ordered kernel", fit = fit_discrete_kernel,
  df = function(spec) dk_estimate_of(spec)$df, pmf = function(spec) dk_estimate_of(spec)$pmf,
  sets = study_family_sets)
