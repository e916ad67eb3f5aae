# Zero-one-inflated margin families (records as in R/calibration-families.R):
# point masses at 0 and at 1 plus one of the continuous families fitted to
# the scores strictly inside (0, 1). Measures such as nDCG@20 and ERR@20 on
# web collections score exactly 0 on a fifth of the topics; a continuous
# family puts almost no mass there (a beta kernel about 3.5% on
# [0, 0.001] against 18% of zeros), so its expected value is too high and
# the simulated scores have too few ties at 0. The masses are the shares of
# scores at 0 and at 1 (their maximum likelihood estimates), so the
# margin's expected value is p1 + (1 - p0 - p1) E[continuous part].
#
# A fitted spec's parameters are list(p0, p1, <the base family's
# parameters>); the base family sees the interior scores as its data.

# An atom (0 or 1) is modelled when at least this share of the scores sits
# on it (fit_margin(atom_share =)); below it the scores stay with the
# continuous families (capped), as before inflated families existed.
default_atom_share <- 0.1

# The base family's spec of an inflated spec: its parameters, and as data
# the scores off the modelled atoms (a score at an unmodelled boundary stays
# with the base family, which caps it).
inflated_base_spec <- function(spec, base) {
  par <- spec$parameters
  list(family = base, parameters = par[setdiff(names(par), c("p0", "p1"))],
       data = off_atoms(spec$data, par$p0 > 0, par$p1 > 0), support = NULL)
}

off_atoms <- function(x, at0, at1) x[(!at0 | x > 0) & (!at1 | x < 1)]

inflated_masses <- function(spec) {
  p0 <- spec$parameters$p0
  p1 <- spec$parameters$p1
  c(p0 = p0, p1 = p1, w = 1 - p0 - p1)
}

# The record of the zero-one-inflated version of the continuous family
# record `rec`, in the sets `rec$inflated` names (margin_registry_of()
# makes one for every record that asks for it).
inflated_family <- function(rec) {
  base <- rec$name
  name <- paste0("zi_", base)
  base_of <- function(spec) inflated_base_spec(spec, base)
  fit <- function(obs) {
    x <- obs$x
    n <- length(x)
    share <- obs$atom_share %||% default_atom_share
    n0 <- sum(x == 0)
    n1 <- sum(x == 1)
    use0 <- n0 > 0 && n0 / n >= share
    use1 <- n1 > 0 && n1 / n >= share
    # not a candidate for these scores (no atom reaches the share)
    if (!use0 && !use1) return(list())
    inner <- off_atoms(x, use0, use1)
    if (length(inner) < 3L || max(inner) - min(inner) == 0) {
      fit_failure("fewer than 3 different scores besides those at 0 and 1")
    }
    p0 <- if (use0) n0 / n else 0
    p1 <- if (use1) n1 / n else 0
    # the base family on the scores off the modelled atoms (an unmodelled
    # boundary score stays with the base family, capped)
    base_fits <- rec$fit(utils::modifyList(obs, list(x = inner)))
    lapply(base_fits, function(bf) {
      # the likelihood on the mixed measure: probabilities at the atoms,
      # densities elsewhere
      ll <- bf$loglik + length(inner) * log(1 - p0 - p1) + (if (use0) n0 * log(p0) else 0) +
        (if (use1) n1 * log(p1) else 0)
      one_fit(name, c(list(p0 = p0, p1 = p1), bf$parameters), ll, bf$df + use0 + use1, bandwidth = bf$bandwidth)
    })
  }
  df <- function(spec) rec$df(base_of(spec)) + (spec$parameters$p0 > 0) + (spec$parameters$p1 > 0)
  d <- function(spec, y) {
    a <- inflated_masses(spec)
    a[["w"]] * rec$d(base_of(spec), y)
  }
  p <- function(spec, q, lower = TRUE) {
    a <- inflated_masses(spec)
    if (lower) a[["p0"]] * (q >= 0) + a[["w"]] * rec$p(base_of(spec), q) + a[["p1"]] * (q >= 1)
    else a[["p1"]] * (q < 1) + a[["w"]] * rec$p(base_of(spec), q, lower = FALSE)
  }
  # the smallest x with F(x) >= u: 0 up to p0, 1 above 1 - p1, else the
  # base's quantile of the rescaled u (its table recovered from ours)
  q <- function(spec, u, table) {
    a <- inflated_masses(spec)
    out <- ifelse(u <= a[["p0"]], 0, 1)
    mid <- u > a[["p0"]] & u <= 1 - a[["p1"]]
    if (any(mid)) {
      # drop the doubled knots of the atoms
      cdf <- table$cdf
      if (a[["p0"]] > 0) cdf <- cdf[-1L]
      if (a[["p1"]] > 0) cdf <- cdf[-length(cdf)]
      btab <- list(knots = margin_knots(), cdf = pmin(pmax((cdf - a[["p0"]]) / a[["w"]], 0), 1))
      out[mid] <- rec$q(base_of(spec), pmin((u[mid] - a[["p0"]]) / a[["w"]], 1), btab)
    }
    out
  }
  moments <- function(spec) {
    a <- inflated_masses(spec)
    a[["w"]] * rec$moments(base_of(spec)) + a[["p1"]]
  }
  # the simulator's table: the base's, scaled by w, with the knot 0 (and 1)
  # doubled so that the CDF jumps by p0 at 0 (and p1 at 1)
  table <- function(spec) {
    a <- inflated_masses(spec)
    bt <- rec$table(base_of(spec))
    knots <- bt$knots
    cdf <- a[["p0"]] + a[["w"]] * bt$cdf
    sf <- a[["p1"]] + a[["w"]] * bt$sf
    if (a[["p0"]] > 0) {
      knots <- c(0, knots)
      cdf <- c(0, cdf)
      sf <- c(1, sf)
    }
    if (a[["p1"]] > 0) {
      knots <- c(knots, 1)
      cdf <- c(cdf[-length(cdf)], 1 - a[["p1"]], 1)
      sf <- c(sf[-length(sf)], a[["p1"]], 0)
    }
    list(knots = knots, cdf = cdf, sf = sf, pmf = NULL, moments = moments(spec))
  }
  margin_family(name, "continuous", label = sprintf("%s with masses at 0 and 1", rec$label), fit = fit, df = df,
                d = d, p = p, q = q, moments = moments, table = table, sets = rec$inflated, base = base)
}

# The atoms fit_margin() models for scores x: 0 and/or 1 when at least
# `share` of the scores sit there.
modelled_atoms <- function(x, share) {
  n <- length(x)
  at <- c(sum(x == 0), sum(x == 1))
  c(0, 1)[at > 0 & at / n >= share]
}

# On scores with a modelled atom the continuous families are no candidates:
# a density gives no probability to a score of exactly 0, so its likelihood
# there measures only the height of the density at the boundary, and a
# beta kernel whose cross-validated bandwidth collapsed on the tied zeros
# (a spike of little mass, and spikes at every other score) wins on height
# alone. They stay in the candidates' table with NA numbers and a note.
# (Only when an inflated family is among the fitted candidates: asked for
# alone, a continuous family is fitted as it always was.)
continuous_without_atoms <- function(fits, x, share) {
  atoms <- modelled_atoms(x, share)
  twin <- function(f) !is.na(margin_family_of(f$family)$base)
  inflated <- vapply(fits, function(f) twin(f) && is.finite(f$loglik), NA)
  if (!length(atoms) || !any(inflated)) return(fits)
  why <- sprintf("not a candidate: %s of the scores are exactly %s (atom_share = %s)",
                 paste(sprintf("%.3g%%", 100 * vapply(atoms, function(a) mean(x == a), 0)), collapse = " and "),
                 paste(atoms, collapse = " and "), format(share))
  lapply(fits, function(f) {
    if (twin(f) || margin_family_of(f$family)$type != "continuous") return(f)
    f$loglik <- NA_real_
    f$df <- NA_real_
    f$note <- why
    f
  })
}

# The point masses of a continuous margin (after any recentring or
# transformation) with the share of scores there: a data frame x, mass, share.
margin_atoms <- function(object) {
  par <- object$parameters
  at <- c(0, 1)[c((par$p0 %||% 0) > 0, (par$p1 %||% 0) > 0)]
  if (!length(at)) return(data.frame(x = numeric(), mass = numeric(), share = numeric()))
  mass <- ifelse(at == 0, pmargin(0, object), 1 - pmargin(1 - 1e-12, object))
  data.frame(x = at, mass = mass, share = vapply(at, function(a) mean(object$data == a), 0))
}
