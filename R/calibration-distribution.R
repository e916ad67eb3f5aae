# The distribution of a margin (R/calibration-margins.R): density, CDF and
# quantiles through the family formulas (R/calibration-families.R) and the
# transformation of its expected value (Urbano & Nagler, SIGIR 2018, §3.4:
# F' = pbeta(F, a, b) with one exponent), solved on the tabulated CDF the
# simulator uses.

# Distribution functions ---------------------------------------------------------

#' Density, distribution function and quantiles of a margin
#'
#' `dmargin()` is the density of a continuous margin (the probability mass
#' of a discrete one, 0 off the support), `pmargin()` its cumulative
#' distribution function and `qmargin()` its quantile function (for a
#' discrete margin the smallest support value whose CDF is at least `p`).
#' They use the family's formulas (the quantiles of the kernel families by
#' Newton steps on the exact CDF from the tabulated one), not the table
#' of the simulator, and follow a [transform_margin()]:
#' \eqn{F'(x) = F(x)^a} or \eqn{1 - (1 - F(x))^b}. The expected value is
#' `margin$mean`.
#'
#' @param x,q Scores.
#' @param p Probabilities in \eqn{[0, 1]}.
#' @param margin An `ir_margin` object ([fit_margin()]).
#' @return A numeric vector as long as the first argument (`NA` where it is `NA`).
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' m <- fit_margin(ap[5, ])
#' dmargin(c(0.1, 0.5), m)
#' pmargin(c(0.1, 0.5), m)
#' qmargin(pmargin(c(0.1, 0.5), m), m)
#' @name margin_distribution
NULL

#' @rdname margin_distribution
#' @export
dmargin <- function(x, margin) {
  check_margin(margin)
  on_values(check_numeric_arg(x, "x"), function(y) {
    if (margin$discrete) {
      pmf <- diff(c(0, margin_cdf_at_support(margin)))
      k <- nearest_support(y, margin$support)
      return(ifelse(is.na(k), 0, pmf[k + 1L]))
    }
    inside <- y >= 0 & y <= 1
    d <- numeric(length(y))
    spec <- margin_spec(margin)
    if (any(inside)) {
      fam <- margin_family_of(spec$family)
      f <- fam$d(spec, y[inside])
      rc <- margin$recentre
      tr <- margin$transform
      if (!is.null(rc) || !is.null(tr)) {
        Fy <- fam$p(spec, y[inside])
        if (!is.null(rc)) f <- f * recentre_density_factor(Fy, rc)
        if (!is.null(tr)) f <- f * transform_density_factor(recentre_cdf(Fy, rc), tr)
      }
      d[inside] <- f
    }
    d
  })
}

#' @rdname margin_distribution
#' @export
pmargin <- function(q, margin) {
  check_margin(margin)
  on_values(check_numeric_arg(q, "q"), function(y) {
    if (margin$discrete) {
      k <- findInterval(y + 1e-9, margin$support)
      return(c(0, margin_cdf_at_support(margin))[k + 1L])
    }
    spec <- margin_spec(margin)
    Fy <- margin_family_of(spec$family)$p(spec, pmin(pmax(y, 0), 1))
    # (F(0) is the mass at 0 of a zero-inflated margin)
    Fy[y < 0] <- 0
    Fy[y >= 1] <- 1
    transform_cdf(recentre_cdf(pmin(pmax(Fy, 0), 1), margin$recentre), margin$transform)
  })
}

#' @rdname margin_distribution
#' @export
qmargin <- function(p, margin) {
  check_margin(margin)
  p <- check_numeric_arg(p, "p")
  if (any(p < 0 | p > 1, na.rm = TRUE)) {
    stop_irtopics("{.arg p} must be probabilities in [0, 1].")
  }
  # memory (issue 29): Newton steps keep about 24 doubles per value (the
  # kernel CDFs they call run in blocks)
  check_memory(length(p), 8 * 24, "p")
  on_values(p, function(u) {
    if (margin$discrete) {
      cdf <- margin_cdf_at_support(margin)
      # the smallest support value whose CDF reaches u
      k <- findInterval(u, cdf, left.open = TRUE)
      return(margin$support[pmin(k, length(cdf) - 1L) + 1L])
    }
    spec <- margin_spec(margin)
    # the family's own table (base_cdf is recentred)
    rc <- margin$recentre
    tab <- list(knots = margin$knots, cdf = recentre_quantile(margin$base_cdf, rc))
    margin_family_of(spec$family)$q(spec, recentre_quantile(transform_quantile(u, margin$transform), rc), tab)
  })
}

# fun() of the values of `v` that are not NA; NA stays NA.
on_values <- function(v, fun) {
  out <- rep(NA_real_, length(v))
  ok <- !is.na(v)
  if (any(ok)) out[ok] <- fun(v[ok])
  out
}

check_margin <- function(margin, arg = "margin", call = rlang::caller_env()) {
  if (!inherits(margin, "ir_margin")) {
    stop_irtopics("{.arg {arg}} must be an {.cls ir_margin} (from {.fn fit_margin}), not {show_value(margin)}.",
                  call = call)
  }
  invisible(margin)
}

check_numeric_arg <- function(x, arg, call = rlang::caller_env()) {
  if (!is.numeric(x) && !(is.logical(x) && all(is.na(x)))) {
    stop_irtopics("{.arg {arg}} must be numeric, not {show_value(x)}.", call = call)
  }
  as.double(x)
}

# What the family functions need: family, parameters, data, support.
margin_spec <- function(margin) {
  list(family = margin$candidates$family[margin$candidates$chosen], parameters = margin$parameters,
       data = margin$data, support = margin$support)
}

# The (transformed) CDF of a discrete margin at its support values.
margin_cdf_at_support <- function(margin) {
  transform_cdf(cdf_from_pmf(margin$pmf), margin$transform)
}

# The table for the simulator: knots and CDF (see fit_margin()).
margin_table <- function(m) {
  check_margin(m, "m")
  list(knots = m$knots, cdf = m$cdf, discrete = m$discrete)
}

# Transformation -----------------------------------------------------------------

#' Move the expected value of a margin
#'
#' Returns a margin whose expected value is `mean`, through the CDF
#' transformation of Urbano and Nagler (2018, §3.4), \eqn{F'(x) =
#' F_{\mathrm{Beta}(a, b)}(F(x))} with one exponent: \eqn{F'(x) = F(x)^a},
#' \eqn{a \ge 1}, raises the mean; \eqn{F'(x) = 1 - (1 - F(x))^b},
#' \eqn{b \ge 1}, lowers it. The exponent is found by root finding on the
#' mean of the tabulated CDF (the mean of the distribution the simulator
#' draws from: piecewise-linear CDF between the 4097 knots of a continuous
#' margin, the support of a discrete one), which is then `mean` within
#' \eqn{10^{-6}}; that of the exact transformed distribution differs from
#' it by the error of the trapezoidal rule on the knots (about
#' \eqn{10^{-7}}).
#'
#' The transformation always starts from the fitted distribution: a
#' transformed margin transformed again is the fitted one moved to the new
#' mean. The attainable means lie strictly between the lowest and the
#' highest score with positive probability (for a continuous margin, as
#' the table resolves them: about \eqn{[0.0001, 0.9999]}).
#'
#' @param margin An `ir_margin` object ([fit_margin()]).
#' @param mean The expected value wanted.
#' @return An `ir_margin` with family `"<family> (transformed)"`,
#'   `transform = list(a, b)` (one of them 1), and `cdf`, `mean`, `var`
#'   and the distribution functions of the transformed distribution
#'   (`base_cdf`, `parameters`, `loglik`, `df`, `aic` and `candidates`
#'   stay those of the fit).
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' m <- fit_margin(ap[5, ])
#' m2 <- transform_margin(m, 0.35)
#' m2$mean
#' m2$transform
#' @export
transform_margin <- function(margin, mean) {
  check_margin(margin)
  check_number(mean, "mean")
  G <- margin$base_cdf
  S <- margin$base_sf
  x <- margin$knots
  # The mean of the tabulated distribution with CDF values Fk at the knots:
  # last knot - integral of F, with F a step function (discrete) or
  # piecewise linear (continuous: the trapezoidal weights).
  gaps <- diff(x)
  w <- if (margin$discrete) c(gaps, 0) else (c(gaps, 0) + c(0, gaps)) / 2
  last <- x[length(x)]
  mean_at <- function(Fk) last - sum(w * Fk)
  # the limits: a -> Inf (F' = 1 only where 1 - F = 0) and b -> Inf (F' = 1 wherever F > 0)
  hi <- mean_at(as.double(S <= 0))
  lo <- mean_at(as.double(G > 0))
  if (!(mean > lo && mean < hi)) {
    stop_irtopics(c("{.arg mean} must be strictly between {signif(lo, 6)} and {signif(hi, 6)} for this margin.",
                    x = "Got {format(mean, digits = 15)}.",
                    i = "A transformation can only move the mean within the scores that have positive probability."))
  }
  # log F and log(1 - F), each from the smaller of F and 1 - F (no cancellation;
  # what ifelse() gives, names included, without computing both sides in full)
  logG <- log(G)
  logS <- log(S)
  names(logS) <- names(G)
  upper_half <- which(G > 0.5)
  lower_half <- which(G < 0.5)
  logG[upper_half] <- log1p(-S[upper_half])
  logS[lower_half] <- log1p(-G[lower_half])
  up <- function(t) mean_at(exp(exp(t) * logG)) - mean          # F^a, a = e^t
  down <- function(t) mean_at(-expm1(exp(t) * logS)) - mean     # 1 - (1-F)^b, b = e^t
  m0 <- mean_at(G)
  f <- if (mean >= m0) up else down
  # f at 0 and at the bracket's end once each (uniroot() is given them)
  f0 <- f(0)
  t_hi <- 1
  f_hi <- f(t_hi)
  while (sign(f_hi) == sign(f0) && t_hi < 700) {
    t_hi <- min(2 * t_hi, 700)
    f_hi <- f(t_hi)
  }
  if (sign(f_hi) == sign(f0)) {
    stop_irtopics(c("Can't move the mean of this margin to {.arg mean} = {format(mean, digits = 15)}.",
                    i = "It is too close to the end of the attainable range ({signif(lo, 6)}, {signif(hi, 6)})."))
  }
  t <- if (f0 == 0) 0 else stats::uniroot(f, c(0, t_hi), f.lower = f0, f.upper = f_hi, tol = 1e-11, maxiter = 200)$root
  tr <- if (mean >= m0) list(a = exp(t), b = 1) else list(a = 1, b = exp(t))
  cdf <- if (tr$b == 1) exp(tr$a * logG) else -expm1(tr$b * logS)
  cdf[length(cdf)] <- 1
  if (margin$discrete) {
    pmf <- diff(c(0, cdf))
    mom <- c(sum(x * pmf), sum(x^2 * pmf))
  } else {
    # the moments of the piecewise-linear CDF (uniform within each interval)
    pk <- diff(cdf)
    x0 <- x[-length(x)]
    x1 <- x[-1]
    mom <- c(sum(pk * (x0 + x1)) / 2, sum(pk * (x0^2 + x0 * x1 + x1^2)) / 3)
  }
  out <- unclass(margin)
  out$family <- paste(margin_spec(margin)$family, "(transformed)")
  out$cdf <- cdf
  out$mean <- mom[1]
  out$var <- max(mom[2] - mom[1]^2, 0)
  out$transform <- tr
  new_ir_margin(out)
}

# F' from F for the transformation list(a, b) (NULL: none).
transform_cdf <- function(Fx, tr) {
  if (is.null(tr)) return(Fx)
  if (tr$b == 1) Fx^tr$a else -expm1(tr$b * log1p(-Fx))
}

transform_quantile <- function(p, tr) {
  if (is.null(tr)) return(p)
  if (tr$b == 1) p^(1 / tr$a) else -expm1(log1p(-p) / tr$b)
}

# dF'/dF at F.
transform_density_factor <- function(Fx, tr) {
  if (tr$b == 1) tr$a * Fx^(tr$a - 1) else tr$b * (1 - Fx)^(tr$b - 1)
}

# A margin whose expected value is more than `tol` from its scores' mean,
# moved to that mean by the transformation of transform_margin(), which then
# becomes part of the fit: `recentre` = list(a, b, lo, w) (continuous
# margins: the distribution functions apply it to the family's CDF) or the
# pmf itself (discrete), and the table (cdf, base_cdf, base_sf) is the
# recentred one, from which transform_margin() starts. A margin with point
# masses p0 at 0 and p1 at 1 keeps them: only its continuous part (CDF
# values in [lo, lo + w] = [p0, 1 - p1]) is transformed, to the mean of
# the other scores.
recentre_margin <- function(m, tol) {
  target <- mean(m$data)
  if (abs(m$mean - target) <= tol) return(m)
  p0 <- m$parameters$p0 %||% 0
  p1 <- m$parameters$p1 %||% 0
  w <- 1 - p0 - p1
  # the continuous part's table (the doubled knots of the atoms dropped)
  inner <- seq_along(m$knots)
  if (p0 > 0) inner <- inner[-1L]
  if (p1 > 0) inner <- inner[-length(inner)]
  part <- unclass(m)
  part$knots <- m$knots[inner]
  part$base_cdf <- part$cdf <- pmin(pmax((m$base_cdf[inner] - p0) / w, 0), 1)
  part$base_sf <- pmin(pmax((m$base_sf[inner] - p1) / w, 0), 1)
  moved <- tryCatch(transform_margin(new_ir_margin(part), (target - p1) / w), irtopics_error = function(e) NULL)
  if (is.null(moved)) return(m)
  tr <- moved$transform
  sf <- if (tr$b == 1) -expm1(tr$a * log1p(-part$base_sf)) else part$base_sf^tr$b
  sf[moved$cdf >= 1] <- 0
  out <- unclass(m)
  out$base_cdf[inner] <- p0 + w * moved$cdf
  out$base_sf[inner] <- p1 + w * sf
  out$cdf <- out$base_cdf
  out$mean <- p1 + w * moved$mean
  out$var <- max(p1 + w * (moved$var + moved$mean^2) - out$mean^2, 0)
  if (m$discrete) out$pmf <- diff(c(0, out$cdf)) else out$recentre <- c(tr, list(lo = p0, w = w))
  new_ir_margin(out)
}

# The recentring of a continuous margin applied to (or undone from) its
# family's CDF values Fx; NULL: none. Only CDF values of the continuous
# part, [lo, lo + w], move; lo = 0 and w = 1 give transform_cdf() exactly.
recentre_cdf <- function(Fx, rc) {
  if (is.null(rc)) return(Fx)
  inside <- Fx <= rc$lo + rc$w
  Fx[inside] <- rc$lo + rc$w * transform_cdf(pmin(pmax((Fx[inside] - rc$lo) / rc$w, 0), 1), rc)
  Fx
}

recentre_quantile <- function(u, rc) {
  if (is.null(rc)) return(u)
  inside <- u > rc$lo & u <= rc$lo + rc$w
  u[inside] <- rc$lo + rc$w * transform_quantile(pmin((u[inside] - rc$lo) / rc$w, 1), rc)
  u
}

recentre_density_factor <- function(Fx, rc) {
  transform_density_factor(pmin(pmax((Fx - rc$lo) / rc$w, 0), 1), rc)
}
