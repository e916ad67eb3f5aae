# The candidate families of fit_margin() (R/calibration-margins.R), one
# record per family made by margin_family() and collected in
# margin_registry (R/calibration-margins.R). A record carries everything
# the package does with a family: fitting (maximum likelihood or bandwidth
# selection, log-likelihood and degrees of freedom), density, CDF,
# quantiles, moments and the simulator's table; fit_margin(), d/p/qmargin(),
# transform_margin() and the plots only look records up. Here: the
# constructor, what families share, and the parametric families (the
# truncated normal through log Phi differences, the beta, the
# beta-binomial); the kernel families are in R/calibration-kernels.R. A
# fitted family is described by a `spec`: list(family, parameters, data,
# support).

# Records ----------------------------------------------------------------------------

# One margin family. `fit(obs)` fits it to the observations
# obs = list(x (the scores), idx (0-based support index of each score,
# discrete), K (the largest index), beta_bandwidth) and returns a list of
# one_fit()s (a kernel may give several candidates); `df(spec)` is the
# fit's degrees of freedom (effective for kernels). A continuous family
# gives d(spec, y) (density), p(spec, q, lower = TRUE) (CDF; `lower =
# FALSE`: 1 - F without cancellation), moments(spec) (c(E[X], E[X^2])) and
# optionally q(spec, u, table) (quantiles; default: Newton steps on p()
# from the tabulated CDF) and cdf_both(spec, q) (CDF and 1 - F at once). A
# discrete family gives pmf(spec), its probabilities at the support, and
# gets d, p, q and moments from it. Every record gets table(spec), the
# simulator's table of its type, unless it gives its own (a continuous
# family with point masses: R/calibration-inflated.R).
#
# Where it is used: `sets`, the named sets it belongs to (margin_set_info in
# R/calibration-margins.R: "default" is what fit_margin() and
# simulation_model() fit when not told otherwise; a record in no set is
# fitted only when asked for by name, so a new family changes no default);
# `inflated`, for a continuous family, the sets of its zero-one-inflated
# twin "zi_<name>", which the registry derives from it (NULL: no twin);
# `base`, for a twin, the name of the family it inflates (NA otherwise).
margin_family <- function(name, type = "continuous", label, fit, df, d = NULL, p = NULL,
                          q = NULL, moments = NULL, cdf_both = NULL, pmf = NULL, table = NULL,
                          sets = character(), inflated = NULL, base = NA_character_) {
  # The records below are built while the package loads, before
  # match_choice() (R/utils-choice.R, later in the collation order) exists:
  # its classed error, written out (stop_irtopics() runs only on a bad type).
  if (!is.character(type) || length(type) != 1L || !type %in% c("continuous", "discrete")) {
    stop_irtopics(c("{.arg type} must be one of \"continuous\", \"discrete\".", x = "Got {show_value(type)}."))
  }
  stopifnot(is.character(name), length(name) == 1L, is.character(label), is.function(fit), is.function(df),
            is.character(sets), is.null(inflated) || (is.character(inflated) && type == "continuous"),
            is.character(base), length(base) == 1L)
  if (type == "discrete") {
    stopifnot(is.function(pmf))
    d <- function(spec, y) pmf_at(pmf(spec), spec$support, y)
    p <- function(spec, q, lower = TRUE) pmf_cdf_at(pmf(spec), spec$support, q, lower)
    q <- function(spec, u, table) pmf_quantile(pmf(spec), spec$support, u)
    moments <- function(spec) pmf_moments(pmf(spec), spec$support)
    table <- function(spec) pmf_table(pmf(spec), spec$support)
  } else {
    stopifnot(is.function(d), is.function(p), is.function(moments))
    if (is.null(cdf_both)) cdf_both <- function(spec, q) list(lower = p(spec, q), upper = p(spec, q, lower = FALSE))
    if (is.null(q)) q <- function(spec, u, table) newton_quantile(spec, u, table, d, p)
    if (is.null(table)) table <- function(spec) continuous_table(cdf_both(spec, margin_knots()), moments(spec))
  }
  list(name = name, type = type, label = label, sets = sets, inflated = inflated, base = base, fit = fit, df = df,
       d = d, p = p, q = q, moments = moments, table = table)
}

# The sets of the 2019 study's families and of their zero-one-inflated
# twins (margin_set_info, R/calibration-margins.R).
study_family_sets <- c("default", "study2019", "study2019_zi")
study_twin_sets <- c("default", "study2019_zi")

# The fields every record has (checked by the registry's completeness test).
margin_family_fields <- c("name", "type", "label", "sets", "inflated", "base", "fit", "df", "d", "p", "q",
                          "moments", "table")

# The registry as a named list, checked: the records, then the
# zero-one-inflated twin of every record whose `inflated` asks for one (in
# the records' order, so a type's candidates are its bases, then their
# twins); unique names, every field, sets among `set_names`, which no
# family takes as its name.
margin_registry_of <- function(records, set_names) {
  twins <- lapply(Filter(function(r) !is.null(r$inflated), records), inflated_family)
  records <- c(records, twins)
  names(records) <- vapply(records, `[[`, "", "name")
  bad <- c(if (anyDuplicated(names(records))) "two records have one name",
           if (any(names(records) %in% set_names)) "a family has the name of a set",
           if (!all(vapply(records, function(r) identical(names(r), margin_family_fields), TRUE))) {
             "a record lacks fields"
           },
           if (!all(unlist(lapply(records, function(r) c(r$sets, r$inflated))) %in% set_names)) {
             "a record names an unknown set"
           })
  # (rlang's abort: the registry is built while the package loads, before
  # stop_irtopics() exists; the classes are its)
  if (length(bad)) {
    rlang::abort(paste0("The margin registry is inconsistent: ", paste(bad, collapse = "; "), "."),
                 class = c("irtopics_error_internal", "irtopics_error"))
  }
  records
}

# The record of a family name (a transformed margin's family is its base's).
margin_family_of <- function(name) {
  rec <- margin_registry[[name]]
  if (is.null(rec)) stop_irtopics("Unknown margin family {.val {name}}.", kind = "internal")
  rec
}

# The names of the families of a type, in the registry's order: all of
# them, or those of one set.
margin_family_names <- function(type, set = NULL) {
  keep <- vapply(margin_registry, function(r) r$type == type && (is.null(set) || set %in% r$sets), NA)
  names(margin_registry)[keep]
}

# Tables -------------------------------------------------------------------------------

# Knots of the tabulated CDF of a continuous margin (the simulator inverts
# it by linear interpolation between them).
margin_grid_size <- 4097L
margin_knots <- function() seq(0, 1, length.out = margin_grid_size)

# The simulator's table of a continuous family from its CDF and 1 - F at
# the knots (made monotone, ends exact) and its moments.
continuous_table <- function(both, moments) {
  cdf <- cummax(both$lower)
  sf <- rev(cummax(rev(both$upper)))
  n <- length(cdf)
  cdf[c(1L, n)] <- c(0, 1)
  sf[c(1L, n)] <- c(1, 0)
  list(knots = margin_knots(), cdf = cdf, sf = sf, pmf = NULL, moments = moments)
}

pmf_table <- function(pmf, support) {
  list(knots = support, cdf = cdf_from_pmf(pmf), sf = c(rev(cumsum(rev(pmf[-1]))), 0), pmf = pmf,
       moments = pmf_moments(pmf, support))
}

cdf_from_pmf <- function(pmf) {
  cdf <- pmin(cumsum(pmf), 1)
  cdf[length(cdf)] <- 1
  cdf
}

# A discrete family's probability at y (0 off the support), CDF (or
# 1 - F), quantiles (the smallest support value whose CDF reaches u) and
# moments, from its probabilities at the support.
pmf_at <- function(pmf, support, y) {
  k <- nearest_support(y, support)
  ifelse(is.na(k), 0, pmf[k + 1L])
}

pmf_cdf_at <- function(pmf, support, q, lower = TRUE) {
  k <- findInterval(q + 1e-9, support)
  if (lower) c(0, cdf_from_pmf(pmf))[k + 1L] else c(1, rev(cumsum(rev(pmf[-1]))), 0)[k + 1L]
}

pmf_quantile <- function(pmf, support, u) {
  cdf <- cdf_from_pmf(pmf)
  support[pmin(findInterval(u, cdf, left.open = TRUE), length(cdf) - 1L) + 1L]
}

pmf_moments <- function(pmf, support) c(sum(support * pmf), sum(support^2 * pmf))

# Quantiles of a continuous family at u by Newton steps on its exact CDF,
# started from the tabulated one (table$knots, table$cdf: a monotone table,
# inverted by linear interpolation) and kept inside the table's bracket
# (a step that leaves the bracket, or a density that is 0, bisects it). A
# value stops once its CDF is within 1e-14 of u (or its bracket cannot be
# split further): each step evaluates the CDF and the density only at the
# values still moving (issue 43: 1e5 probabilities on a kernel margin of
# 2,000 scores took 8 evaluations at every value, about 50 s), at most 8.
newton_quantile <- function(spec, u, table, density, cdf) {
  out <- u
  inner <- u > 0 & u < 1
  if (!any(inner)) return(out)
  p <- u[inner]
  knots <- table$knots
  tab <- table$cdf
  k <- findInterval(p, tab, rightmost.closed = TRUE, all.inside = TRUE)
  lo <- knots[k]
  hi <- knots[k + 1L]
  dF <- tab[k + 1L] - tab[k]
  q <- ifelse(dF > 0, lo + (p - tab[k]) / dF * (hi - lo), (lo + hi) / 2)
  active <- seq_along(p)
  for (iter in 1:8) {
    a <- active
    err <- cdf(spec, q[a]) - p[a]
    moving <- which(abs(err) >= 1e-14 & hi[a] - lo[a] > 4 * .Machine$double.eps * pmax(abs(q[a]), 1e-300))
    a <- a[moving]
    err <- err[moving]
    if (!length(a)) break
    lo[a] <- ifelse(err < 0, q[a], lo[a])
    hi[a] <- ifelse(err > 0, q[a], hi[a])
    step <- q[a] - err / density(spec, q[a])
    bad <- !is.finite(step) | step <= lo[a] | step >= hi[a]
    q[a] <- ifelse(err == 0, q[a], ifelse(bad, (lo[a] + hi[a]) / 2, step))
    active <- a
  }
  out[inner] <- q
  out
}

# Fitting ---------------------------------------------------------------------------

score_cap <- 1e-6
cap_scores <- function(x) pmin(pmax(x, score_cap), 1 - score_cap)

# One fit: list(family, parameters, loglik, df, bandwidth, note).
one_fit <- function(family, parameters, loglik, df, bandwidth = NA_real_) {
  if (!is.finite(loglik)) fit_failure(sprintf("the log-likelihood of the %s fit is not finite", family))
  list(family = family, parameters = parameters, loglik = loglik, df = df, bandwidth = bandwidth, note = "")
}

# Errors inside a family's fit that make it a failed candidate (not a bug).
fit_failure <- function(message) {
  rlang::abort(message, class = "irtopics_margin_fit_failure")
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

# The same for one mu and s (the likelihood's inner loop: no vector bookkeeping).
tn_logmass1 <- function(mu, s) {
  lo <- -mu / s
  hi <- (1 - mu) / s
  if (lo > 0) {
    a <- stats::pnorm(lo, lower.tail = FALSE, log.p = TRUE)
    b <- stats::pnorm(hi, lower.tail = FALSE, log.p = TRUE)
  } else {
    a <- stats::pnorm(hi, log.p = TRUE)
    b <- stats::pnorm(lo, log.p = TRUE)
  }
  a + log1p(-exp(b - a))
}

# (The likelihood's sum is sum(dnorm(x, mu, s, log = TRUE)) to the last bit,
# in C++: L-BFGS-B's path, hence the parameters to 1e-8, depends on the
# last bits of each value. The whole objective is one C++ call,
# cpp_tn_nll() (src/truncated_normal.h), tn_nll_r()'s value to the bit.)
fit_truncnorm <- function(obs) {
  x <- obs$x
  nll <- function(p) cpp_tn_nll(x, p[1], p[2])
  s0 <- max(stats::sd(x), 0.05)
  r <- optim_best(list(c(mean(x), log(s0)), c(0, log(2 * s0)), c(1, log(2 * s0))), nll,
                  lower = c(-5, log(0.05)), upper = c(6, log(10)))
  list(one_fit("truncnorm", list(mean = r$par[1], sd = exp(r$par[2])), -r$value, 2))
}

# The objective of fit_truncnorm() in R (the reference of cpp_tn_nll()).
tn_nll_r <- function(x, p) {
  s <- exp(p[2])
  -(cpp_normal_log_density_sum(x, p[1], s) - length(x) * tn_logmass1(p[1], s))
}

tn_density <- function(spec, y) {
  par <- spec$parameters
  exp(stats::dnorm(y, par$mean, par$sd, log = TRUE) - tn_logmass(par$mean, par$sd))
}

tn_cdf <- function(spec, q, lower = TRUE) {
  mu <- spec$parameters$mean
  s <- spec$parameters$sd
  z <- (q - mu) / s
  ends <- rep(if (lower) -mu / s else (1 - mu) / s, length(q))
  lo <- if (lower) ends else pmin(z, ends)
  hi <- if (lower) pmax(z, ends) else ends
  exp(log_pnorm_diff(lo, hi) - tn_logmass(mu, s))
}

# Closed form: Phi^-1(Phi(a) + u Z), through logs in either tail.
tn_quantile <- function(spec, u, table = NULL) {
  mu <- spec$parameters$mean
  s <- spec$parameters$sd
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
  pmin(pmax(mu + s * z, 0), 1)
}

tn_moments <- function(spec) {
  mu <- spec$parameters$mean
  s <- spec$parameters$sd
  a <- -mu / s
  b <- (1 - mu) / s
  lz <- tn_logmass(mu, s)
  ra <- exp(stats::dnorm(a, log = TRUE) - lz)
  rb <- exp(stats::dnorm(b, log = TRUE) - lz)
  m <- mu + s * (ra - rb)
  v <- s^2 * (1 + a * ra - b * rb - (ra - rb)^2)
  c(m, v + m^2)
}

two_parameters <- function(spec) 2

truncnorm_family <- margin_family(
  "truncnorm", "continuous", label = "normal truncated to [0, 1]", fit = fit_truncnorm, df = two_parameters,
  d = tn_density, p = tn_cdf, q = tn_quantile, moments = tn_moments, sets = study_family_sets,
  inflated = study_twin_sets)

# Beta ---------------------------------------------------------------------------------

fit_beta <- function(obs) {
  xc <- cap_scores(obs$x)
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
  list(one_fit("beta", list(shape1 = exp(r$par[1]), shape2 = exp(r$par[2])), -r$value, 2))
}

beta_family <- margin_family(
  "beta", "continuous", label = "beta", fit = fit_beta, df = two_parameters,
  sets = study_family_sets, inflated = study_twin_sets,
  d = function(spec, y) stats::dbeta(y, spec$parameters$shape1, spec$parameters$shape2),
  p = function(spec, q, lower = TRUE) stats::pbeta(q, spec$parameters$shape1, spec$parameters$shape2,
                                                   lower.tail = lower),
  q = function(spec, u, table = NULL) stats::qbeta(u, spec$parameters$shape1, spec$parameters$shape2),
  moments = function(spec) {
    a <- spec$parameters$shape1
    b <- spec$parameters$shape2
    m <- a / (a + b)
    c(m, m * (a + 1) / (a + b + 1))
  })

# Beta-binomial -----------------------------------------------------------------------

fit_beta_binomial <- function(obs) {
  idx <- obs$idx
  K <- obs$K
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
  list(one_fit("beta_binomial", list(shape1 = exp(r$par[1]), shape2 = exp(r$par[2])), -r$value, 2))
}

beta_binomial_family <- margin_family(
  "beta_binomial", "discrete", label = "beta-binomial", fit = fit_beta_binomial, df = two_parameters,
  sets = study_family_sets,
  pmf = function(spec) {
    K <- length(spec$support) - 1L
    k <- 0:K
    a <- spec$parameters$shape1
    b <- spec$parameters$shape2
    exp(lchoose(K, k) + lbeta(k + a, K - k + b) - lbeta(a, b))
  })
