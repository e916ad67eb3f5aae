# The candidate families of fit_margin() (R/calibration-margins.R): fitting
# (maximum likelihood or bandwidth selection, log-likelihood and degrees of
# freedom) and the density, CDF, quantiles and moments of each. Formulas:
# the truncated normal (closed forms through log Phi differences), the beta,
# Chen (1999)'s beta kernel estimator, a truncated Gaussian kernel estimate,
# the beta-binomial and Wang and van Ryzin (1981)'s ordered categorical
# kernel. A family is described by a `spec`: list(family, parameters, data,
# support).

score_cap <- 1e-6
cap_scores <- function(x) pmin(pmax(x, score_cap), 1 - score_cap)

# Quadrature ------------------------------------------------------------------------

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

# Fitting --------------------------------------------------------------------------

# One fit: list(family, parameters, loglik, df, bandwidth, note). Each
# function returns a list of fits (the discrete kernel gives several).
fit_continuous_family <- function(family, x, beta_bandwidth) {
  switch(family,
         truncnorm = list(fit_truncnorm(x)),
         beta = list(fit_beta(x)),
         normal_kernel = list(fit_normal_kernel(x)),
         beta_kernel = list(fit_beta_kernel(x, beta_bandwidth)))
}

fit_discrete_family <- function(family, idx, K) {
  switch(family,
         beta_binomial = list(fit_beta_binomial(idx, K)),
         discrete_kernel = fit_discrete_kernel(idx, K))
}

one_fit <- function(family, parameters, loglik, df, bandwidth = NA_real_) {
  if (!is.finite(loglik)) fit_failure(sprintf("the log-likelihood of the %s fit is not finite", family))
  list(family = family, parameters = parameters, loglik = loglik, df = df, bandwidth = bandwidth, note = "")
}

# Best of several L-BFGS-B starts.
optim_best <- function(starts, fn, gr = NULL, lower, upper) {
  best <- NULL
  for (s in starts) {
    r <- tryCatch(stats::optim(s, fn, gr, method = "L-BFGS-B", lower = lower, upper = upper,
                               control = list(factr = 1e5, maxit = 500)),
                  error = function(e) NULL)
    if (!is.null(r) && is.finite(r$value) && (is.null(best) || r$value < best$value)) best <- r
  }
  if (is.null(best)) fit_failure("the likelihood could not be maximised")
  best
}

# Truncated normal ------------------------------------------------------------------

# log(Phi(hi) - Phi(lo)) for lo <= hi, accurate in both tails.
log_pnorm_diff <- function(lo, hi) {
  upper <- lo > 0
  out <- numeric(length(lo))
  if (any(upper)) {
    a <- stats::pnorm(lo[upper], lower.tail = FALSE, log.p = TRUE)
    b <- stats::pnorm(hi[upper], lower.tail = FALSE, log.p = TRUE)
    out[upper] <- a + log1p(-exp(b - a))
  }
  if (any(!upper)) {
    a <- stats::pnorm(hi[!upper], log.p = TRUE)
    b <- stats::pnorm(lo[!upper], log.p = TRUE)
    out[!upper] <- a + log1p(-exp(b - a))
  }
  out
}

tn_logmass <- function(mu, s) log_pnorm_diff(-mu / s, (1 - mu) / s)

fit_truncnorm <- function(x) {
  n <- length(x)
  nll <- function(p) {
    s <- exp(p[2])
    -(sum(stats::dnorm(x, p[1], s, log = TRUE)) - n * tn_logmass(p[1], s))
  }
  s0 <- max(stats::sd(x), 0.05)
  r <- optim_best(list(c(mean(x), log(s0)), c(0, log(2 * s0)), c(1, log(2 * s0))), nll,
                  lower = c(-5, log(0.05)), upper = c(6, log(10)))
  one_fit("truncnorm", list(mean = r$par[1], sd = exp(r$par[2])), -r$value, 2)
}

# Beta ---------------------------------------------------------------------------------

fit_beta <- function(x) {
  xc <- cap_scores(x)
  n <- length(xc)
  sl <- sum(log(xc))
  sl1 <- sum(log1p(-xc))
  nll <- function(p) {
    a <- exp(p[1])
    b <- exp(p[2])
    -((a - 1) * sl + (b - 1) * sl1 - n * lbeta(a, b))
  }
  gr <- function(p) {
    a <- exp(p[1])
    b <- exp(p[2])
    dab <- digamma(a + b)
    -c(a * (sl - n * (digamma(a) - dab)), b * (sl1 - n * (digamma(b) - dab)))
  }
  m <- mean(xc)
  v <- stats::var(xc)
  k <- max(m * (1 - m) / v - 1, 2)
  start <- log(pmax(c(m * k, (1 - m) * k), 1))
  r <- optim_best(list(start, c(0, 0)), nll, gr, lower = c(0, 0), upper = rep(log(1e4), 2))
  one_fit("beta", list(shape1 = exp(r$par[1]), shape2 = exp(r$par[2])), -r$value, 2)
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

fit_normal_kernel <- function(x) {
  bw <- normal_kernel_bandwidth(x)
  h <- bw$h
  if (!is.finite(h) || h <= 0) fit_failure("no positive bandwidth")
  mass <- mean(stats::pnorm((1 - x) / h) - stats::pnorm(-x / h))
  K <- stats::dnorm(outer(x, x, "-") / h)
  raw <- rowMeans(K) / h
  loglik <- sum(log(raw / mass))
  df <- sum(stats::dnorm(0) / rowSums(K))
  one_fit("normal_kernel", list(bandwidth = h, rule = bw$rule, mass = mass), loglik, df, bandwidth = h)
}

# Beta kernel --------------------------------------------------------------------------

# Kernel weights: rows the (capped) scores, columns the points y:
# dbeta(x_i; y/b + 1, (1 - y)/b + 1), its log computed as one matrix product.
bk_weights <- function(y, xc, b) {
  A <- cbind(log(xc), log1p(-xc), 1)
  B <- rbind(y / b, (1 - y) / b, -lbeta(y / b + 1, (1 - y) / b + 1))
  exp(A %*% B)
}

fit_beta_kernel <- function(x, rule = "lscv") {
  xc <- cap_scores(x)
  n <- length(xc)
  nodes <- quad_nodes(bk_cv_breaks, gl3)
  b_range <- c(1e-3, 0.5)
  b <- if (rule == "reference") {
    min(max(stats::sd(x) * n^(-2 / 5), b_range[1]), b_range[2])
  } else {
    cv <- function(lb) {
      b <- exp(lb)
      W <- bk_weights(nodes$y, xc, b)
      f <- colMeans(W)
      m <- drop(W %*% nodes$w)
      C <- mean(m)
      Kx <- bk_weights(xc, xc, b)
      S <- colSums(Kx)
      loo <- (S - diag(Kx)) / (n * C - m)
      sum(nodes$w * f^2) / C^2 - 2 * mean(loo)
    }
    grid <- seq(log(b_range[1]), log(b_range[2]), length.out = 16L)
    vals <- vapply(grid, cv, 0)
    if (!any(is.finite(vals))) fit_failure("the cross-validation criterion is not finite")
    k <- which.min(vals)
    lo <- grid[max(k - 1L, 1L)]
    hi <- grid[min(k + 1L, length(grid))]
    r <- stats::optimize(cv, c(lo, hi), tol = 0.01)
    exp(if (is.finite(r$objective) && r$objective < vals[k]) r$minimum else grid[k])
  }
  nodes <- quad_nodes(bk_breaks)
  mass <- sum(nodes$w * colMeans(bk_weights(nodes$y, xc, b)))
  Kx <- bk_weights(xc, xc, b)
  S <- colSums(Kx)
  loglik <- sum(log(S / n / mass))
  df <- sum(diag(Kx) / S)
  one_fit("beta_kernel", list(bandwidth = b, rule = rule, mass = mass), loglik, df, bandwidth = b)
}

# Beta-binomial -----------------------------------------------------------------------

fit_beta_binomial <- function(idx, K) {
  k <- 0:K
  cnt <- tabulate(idx + 1L, K + 1L)
  n <- sum(cnt)
  lc <- sum(cnt * lchoose(K, k))
  nll <- function(p) {
    a <- exp(p[1])
    b <- exp(p[2])
    -(lc + sum(cnt * lbeta(k + a, K - k + b)) - n * lbeta(a, b))
  }
  gr <- function(p) {
    a <- exp(p[1])
    b <- exp(p[2])
    dt <- digamma(K + a + b)
    dab <- digamma(a + b)
    -c(a * (sum(cnt * (digamma(k + a) - dt)) - n * (digamma(a) - dab)),
       b * (sum(cnt * (digamma(K - k + b) - dt)) - n * (digamma(b) - dab)))
  }
  p <- min(max(mean(idx) / K, 0.01), 0.99)
  v <- stats::var(idx)
  rho <- if (K > 1) (v / (K * p * (1 - p)) - 1) / (K - 1) else 0.5
  ab <- if (is.finite(rho) && rho > 0 && rho < 1) 1 / rho - 1 else 10
  start <- log(pmax(c(p * ab, (1 - p) * ab), 1))
  r <- optim_best(list(start, c(0, 0)), nll, gr, lower = c(0, 0), upper = rep(log(1e6), 2))
  one_fit("beta_binomial", list(shape1 = exp(r$par[1]), shape2 = exp(r$par[2])), -r$value, 2)
}

bb_pmf <- function(K, a, b) {
  k <- 0:K
  exp(lchoose(K, k) + lbeta(k + a, K - k + b) - lbeta(a, b))
}

# Discrete kernel -------------------------------------------------------------------

# Wang-van Ryzin weights of the observed indices `u` (rows) at 0..K (columns).
dk_weights <- function(u, K, lambda) {
  D <- abs(outer(u, 0:K, "-"))
  W <- (1 - lambda) / 2 * lambda^D
  W[D == 0] <- 1 - lambda
  W
}

fit_discrete_kernel <- function(idx, K) {
  n <- length(idx)
  u <- sort(unique(idx))
  cnt <- tabulate(match(idx, u), length(u))
  cv <- function(lambda) {
    W <- dk_weights(u, K, lambda)
    raw <- colSums(cnt * W) / n
    S <- sum(raw)
    loo <- (n * raw[u + 1L] - (1 - lambda)) / (n * S - rowSums(W))
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
    W <- dk_weights(u, K, l)
    raw <- colSums(cnt * W) / n
    pmf <- raw / sum(raw)
    loglik <- sum(cnt * log(pmf[u + 1L]))
    df <- sum(cnt * (1 - l) / (n * raw[u + 1L]))
    one_fit("discrete_kernel", list(bandwidth = l), loglik, df, bandwidth = l)
  })
}

# Distribution functions -------------------------------------------------------------

# Probabilities of a discrete family at its support.
family_pmf <- function(spec, idx = nearest_support(spec$data, spec$support)) {
  K <- length(spec$support) - 1L
  par <- spec$parameters
  switch(spec$family,
         beta_binomial = bb_pmf(K, par$shape1, par$shape2),
         discrete_kernel = {
           u <- sort(unique(idx))
           cnt <- tabulate(match(idx, u), length(u))
           raw <- colSums(cnt * dk_weights(u, K, par$bandwidth))
           raw / sum(raw)
         })
}

# Density of a continuous family at y in [0, 1].
family_density <- function(spec, y) {
  par <- spec$parameters
  x <- spec$data
  switch(spec$family,
         truncnorm = exp(stats::dnorm(y, par$mean, par$sd, log = TRUE) - tn_logmass(par$mean, par$sd)),
         beta = stats::dbeta(y, par$shape1, par$shape2),
         normal_kernel = rowMeans(stats::dnorm(outer(y, x, "-") / par$bandwidth)) / par$bandwidth / par$mass,
         beta_kernel = colMeans(bk_weights(y, cap_scores(x), par$bandwidth)) / par$mass)
}

# CDF of a continuous family at q in [0, 1] (`lower = FALSE`: the survival
# function 1 - F, computed without cancellation in the upper tail; the beta
# kernel's `lower = NA`: both, as family_cdf_both()).
family_cdf <- function(spec, q, lower = TRUE) {
  par <- spec$parameters
  x <- spec$data
  switch(spec$family,
         truncnorm = {
           mu <- par$mean
           s <- par$sd
           z <- (q - mu) / s
           ends <- rep(if (lower) -mu / s else (1 - mu) / s, length(q))
           lo <- if (lower) ends else pmin(z, ends)
           hi <- if (lower) pmax(z, ends) else ends
           exp(log_pnorm_diff(lo, hi) - tn_logmass(mu, s))
         },
         beta = stats::pbeta(q, par$shape1, par$shape2, lower.tail = lower),
         normal_kernel = {
           h <- par$bandwidth
           Z <- if (lower) {
             stats::pnorm(outer(q, x, "-") / h) - rep(stats::pnorm(-x / h), each = length(q))
           } else {
             stats::pnorm(outer(q, x, "-") / h, lower.tail = FALSE) -
               rep(stats::pnorm((1 - x) / h, lower.tail = FALSE), each = length(q))
           }
           pmin(pmax(rowMeans(Z) / par$mass, 0), 1)
         },
         beta_kernel = {
           # quadrature up to (or from) every q: the breaks with the q's
           # added, cumulated (3 nodes per interval when the q's make the
           # intervals short)
           br <- sort(unique(c(bk_breaks, q)))
           nd <- quad_nodes(br, if (length(q) > 500L) gl3 else gl5)
           f <- colMeans(bk_weights(nd$y, cap_scores(x), par$bandwidth))
           parts <- rowsum(nd$w * f, nd$interval, reorder = TRUE)[, 1]
           at <- match(q, br)
           lo <- c(0, cumsum(parts))[at] / sum(parts)
           up <- c(rev(cumsum(rev(parts))), 0)[at] / sum(parts)
           if (is.na(lower)) list(lower = lo, upper = up) else if (lower) lo else up
         })
}

# The CDF and 1 - F at q: list(lower, upper) (one quadrature for the beta kernel).
family_cdf_both <- function(spec, q) {
  if (spec$family == "beta_kernel") return(family_cdf(spec, q, lower = NA))
  list(lower = family_cdf(spec, q), upper = family_cdf(spec, q, lower = FALSE))
}

# Quantiles of a continuous family at u: closed forms, or Newton steps on
# the exact CDF started from the tabulated one (knots, cdf) and kept inside
# the table's bracket.
family_quantile <- function(spec, u, knots, cdf) {
  par <- spec$parameters
  if (spec$family == "beta") return(stats::qbeta(u, par$shape1, par$shape2))
  if (spec$family == "truncnorm") {
    mu <- par$mean
    s <- par$sd
    a <- -mu / s
    lz <- tn_logmass(mu, s)
    z <- if (a <= 0) {
      la <- stats::pnorm(a, log.p = TRUE)
      # log(Phi(a) + u Z)
      stats::qnorm(pmax(la, log(u) + lz) + log1p(exp(-abs(la - log(u) - lz))), log.p = TRUE)
    } else {
      lqa <- stats::pnorm(a, lower.tail = FALSE, log.p = TRUE)
      # log(Q(a) - u Z)
      stats::qnorm(lqa + log1p(-u * exp(lz - lqa)), lower.tail = FALSE, log.p = TRUE)
    }
    return(pmin(pmax(mu + s * z, 0), 1))
  }
  out <- u
  inner <- u > 0 & u < 1
  if (!any(inner)) return(out)
  p <- u[inner]
  k <- findInterval(p, cdf, rightmost.closed = TRUE, all.inside = TRUE)
  lo <- knots[k]
  hi <- knots[k + 1L]
  dF <- cdf[k + 1L] - cdf[k]
  q <- ifelse(dF > 0, lo + (p - cdf[k]) / dF * (hi - lo), (lo + hi) / 2)
  for (iter in 1:8) {
    err <- family_cdf(spec, q) - p
    if (max(abs(err)) < 1e-14) break
    lo <- ifelse(err < 0, q, lo)
    hi <- ifelse(err > 0, q, hi)
    step <- q - err / family_density(spec, q)
    bad <- !is.finite(step) | step <= lo | step >= hi
    q <- ifelse(err == 0, q, ifelse(bad, (lo + hi) / 2, step))
  }
  out[inner] <- q
  out
}

# c(E[X], E[X^2]) of a continuous family.
family_moments <- function(spec) {
  par <- spec$parameters
  x <- spec$data
  switch(spec$family,
         truncnorm = {
           mu <- par$mean
           s <- par$sd
           a <- -mu / s
           b <- (1 - mu) / s
           lz <- tn_logmass(mu, s)
           ra <- exp(stats::dnorm(a, log = TRUE) - lz)
           rb <- exp(stats::dnorm(b, log = TRUE) - lz)
           m <- mu + s * (ra - rb)
           v <- s^2 * (1 + a * ra - b * rb - (ra - rb)^2)
           c(m, v + m^2)
         },
         beta = {
           a <- par$shape1
           b <- par$shape2
           m <- a / (a + b)
           c(m, m * (a + 1) / (a + b + 1))
         },
         normal_kernel = {
           h <- par$bandwidth
           a <- -x / h
           b <- (1 - x) / h
           P <- stats::pnorm(b) - stats::pnorm(a)
           D <- stats::dnorm(a) - stats::dnorm(b)
           e1 <- x * P + h * D
           e2 <- x^2 * P + 2 * x * h * D + h^2 * (P + a * stats::dnorm(a) - b * stats::dnorm(b))
           c(mean(e1), mean(e2)) / par$mass
         },
         beta_kernel = {
           nd <- quad_nodes(bk_breaks)
           f <- nd$w * colMeans(bk_weights(nd$y, cap_scores(x), par$bandwidth))
           c(sum(f * nd$y), sum(f * nd$y^2)) / sum(f)
         })
}
