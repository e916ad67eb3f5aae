# Bivariate copulas of src/copula*.h (the family records), their named
# sets (R/calibration-copula.R) and the distribution functions of
# src/distributions.h (test calibration by stochastic simulation). Textbook
# checks first (run without VineCopula), then VineCopula's BiCopPDF,
# BiCopHfunc1/2, BiCopHinv1, BiCopPar2Tau and BiCopSelect.

# Families as (family, par, par2), one per family and rotation, moderate
# dependence; and some at the fitting bounds.
copula_cases <- list(
  c(1, 0.6, 0), c(1, -0.7, 0), c(2, 0.5, 4.5), c(2, -0.3, 12),
  c(3, 2.5, 0), c(4, 2, 0), c(5, 6, 0), c(5, -4, 0), c(6, 2.2, 0),
  c(13, 1.5, 0), c(14, 3, 0), c(16, 1.7, 0),
  c(23, -2.5, 0), c(24, -2, 0), c(26, -1.8, 0),
  c(33, -1.2, 0), c(34, -1.4, 0), c(36, -3, 0)
)
copula_extreme <- list(c(3, 28, 0), c(4, 17, 0), c(5, 35, 0), c(5, -35, 0), c(6, 30, 0),
                       c(2, 0.9999, 2.0001), c(1, -0.9999, 0), c(36, -30, 0), c(23, -1e-4, 0))

# Copula CDFs written from their textbook formulas (Joe 2014, ch. 4), with
# VineCopula's rotations.
copula_cdf_base <- function(family, th, u, v) {
  switch(as.character(family),
    "3" = (u^-th + v^-th - 1)^(-1 / th),
    "4" = exp(-((-log(u))^th + (-log(v))^th)^(1 / th)),
    "5" = -log(1 + (exp(-th * u) - 1) * (exp(-th * v) - 1) / (exp(-th) - 1)) / th,
    "6" = 1 - ((1 - u)^th + (1 - v)^th - (1 - u)^th * (1 - v)^th)^(1 / th)
  )
}
copula_cdf <- function(family, par, u, v) {
  base <- family %% 10
  switch(as.character(family %/% 10),
    "0" = copula_cdf_base(base, par, u, v),
    "1" = u + v - 1 + copula_cdf_base(base, par, 1 - u, 1 - v),
    "2" = v - copula_cdf_base(base, -par, 1 - u, v),
    "3" = u - copula_cdf_base(base, -par, u, 1 - v)
  )
}

# Mixed second difference and first differences of the CDF.
num_pdf <- function(family, par, u, v, h = 1e-4) {
  (copula_cdf(family, par, u + h, v + h) - copula_cdf(family, par, u + h, v - h) -
     copula_cdf(family, par, u - h, v + h) + copula_cdf(family, par, u - h, v - h)) / (4 * h^2)
}
num_h1 <- function(family, par, u, v, h = 1e-6) {
  (copula_cdf(family, par, u + h, v) - copula_cdf(family, par, u - h, v)) / (2 * h)
}
num_h2 <- function(family, par, u, v, h = 1e-6) {
  (copula_cdf(family, par, u, v + h) - copula_cdf(family, par, u, v - h)) / (2 * h)
}

grid_uv <- expand.grid(u1 = c(0.03, 0.1, 0.3, 0.5, 0.75, 0.9, 0.97),
                       u2 = c(0.05, 0.2, 0.4, 0.6, 0.8, 0.95))

rel_err <- function(a, b) max(abs(a - b) / pmax(abs(b), 1e-300))

test_that("pt, qt and qnorm agree with R's to about 1e-10 relative", {
  p <- c(1e-12, 1e-8, 1e-6, 1e-4, 0.001, 0.01, 0.05, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99, 0.999,
         1 - 1e-6, 1 - 1e-12)
  expect_lt(rel_err(cpp_qnorm(p), qnorm(p)), 1e-14)
  expect_lt(rel_err(cpp_qnorm(c(1e-300, 1e-100, 1e-20)), qnorm(c(1e-300, 1e-100, 1e-20))), 1e-14)
  expect_identical(cpp_qnorm(c(0, 1)), c(-Inf, Inf))
  x <- c(-1e8, -1e4, -100, -10, -3, -1, -0.1, -1e-8, 0, 1e-8, 0.5, 2, 10, 1e3, 1e6)
  for (df in c(0.3, 1, 2, 2.0001, 2.5, 3, 4.7, 10, 29.99, 30, 100, 1000)) {
    expect_lt(rel_err(cpp_pt(x, df), pt(x, df)), 1e-12)
    pp <- p[p != 0.5]
    # R's qt is off by 1e-4 relative at p = 1 - 1e-12 with df = 0.3 (our
    # answer solves pt(q, 0.3) = p to 1e-12: the round trip below)
    pr <- if (df < 1) pp[pp < 1 - 1e-8] else pp
    expect_lt(rel_err(cpp_qt(pr, df), qt(pr, df)), 1e-10)
    expect_equal(cpp_qt(0.5, df), 0)
    # round trip through our own cdf
    expect_lt(max(abs(cpp_pt(cpp_qt(pp, df), df) - pp) / pmin(pp, 1 - pp)), 1e-11)
  }
  expect_error(cpp_qt(0.5, 0), "`df` must be positive", class = "irtopics_error_argument")
})

test_that("the Gaussian and t copula densities are the bivariate densities over their margins", {
  for (rho in c(-0.9, -0.3, 0.2, 0.8)) {
    x <- qnorm(grid_uv$u1); y <- qnorm(grid_uv$u2)
    dens2 <- exp(-(x^2 - 2 * rho * x * y + y^2) / (2 * (1 - rho^2))) / (2 * pi * sqrt(1 - rho^2))
    expect_lt(rel_err(cpp_copula_pdf(1, rho, 0, grid_uv$u1, grid_uv$u2), dens2 / (dnorm(x) * dnorm(y))), 1e-12)
    for (nu in c(2.5, 5, 17.3)) {
      x <- qt(grid_uv$u1, nu); y <- qt(grid_uv$u2, nu)
      dens2 <- gamma((nu + 2) / 2) / (gamma(nu / 2) * nu * pi * sqrt(1 - rho^2)) *
        (1 + (x^2 - 2 * rho * x * y + y^2) / (nu * (1 - rho^2)))^(-(nu + 2) / 2)
      expect_lt(rel_err(cpp_copula_pdf(2, rho, nu, grid_uv$u1, grid_uv$u2), dens2 / (dt(x, nu) * dt(y, nu))), 1e-10)
    }
  }
})

test_that("Archimedean densities and h-functions are derivatives of their CDFs (all rotations)", {
  for (cs in copula_cases) {
    f <- cs[1]; p <- cs[2]
    if (f %% 10 %in% c(1, 2)) next
    u <- grid_uv$u1; v <- grid_uv$u2
    expect_lt(rel_err(cpp_copula_pdf(f, p, 0, u, v), num_pdf(f, p, u, v)), 1e-5)
    expect_lt(max(abs(cpp_copula_h1(f, p, 0, u, v) - num_h1(f, p, u, v))), 1e-7)
    expect_lt(max(abs(cpp_copula_h2(f, p, 0, u, v) - num_h2(f, p, u, v))), 1e-7)
  }
})

test_that("h-functions are integrals of the density, hinv1 inverts h1", {
  for (cs in c(copula_cases, copula_extreme)) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    pts <- if (list(cs) %in% copula_cases) list(c(0.2, 0.7), c(0.6, 0.3), c(0.9, 0.95)) else list()
    for (pt_ in pts) {
      u <- pt_[1]; v <- pt_[2]
      h1 <- integrate(function(s) cpp_copula_pdf(f, p, p2, rep(u, length(s)), s), 0, v,
                      rel.tol = 1e-10, subdivisions = 1000L)$value
      h2 <- integrate(function(s) cpp_copula_pdf(f, p, p2, s, rep(v, length(s))), 0, u,
                      rel.tol = 1e-10, subdivisions = 1000L)$value
      expect_equal(cpp_copula_h1(f, p, p2, u, v), h1, tolerance = 1e-7)
      expect_equal(cpp_copula_h2(f, p, p2, u, v), h2, tolerance = 1e-7)
    }
    u <- rep(c(1e-9, 1e-4, 0.05, 0.5, 0.95, 1 - 1e-4, 1 - 1e-9), each = 7)
    w <- rep(c(1e-9, 1e-4, 0.05, 0.5, 0.95, 1 - 1e-4, 1 - 1e-9), 7)
    v <- cpp_copula_hinv1(f, p, p2, u, w)
    expect_true(all(v >= 0 & v <= 1))
    back <- cpp_copula_h1(f, p, p2, u, v)
    # Absolute everywhere, up to what rounding v to a double allows (the
    # density times an ulp: near u, v = 1 the density reaches 1e8); relative
    # where w is small (w near 1 has only about 1e-16 / (1 - w) relative
    # precision left, and the 180/270 degree rotations solve for 1 - w).
    slack <- 4e-16 * cpp_copula_pdf(f, p, p2, u, pmin(pmax(v, 1e-300), 1 - 1e-16))
    expect_true(all(abs(back - w) <= 1e-10 + slack))
    small <- w <= 0.5
    rel <- if (f %/% 10 %in% c(1, 3)) 1e-4 else 1e-6
    expect_true(all(abs(back - w)[small] <= rel * w[small] + slack[small]))
  }
})

test_that("no NaN or infinite values at the edges of the unit square and at the bounds", {
  e <- c(1e-12, 1e-6, 0.5, 1 - 1e-6, 1 - 1e-12)
  g <- expand.grid(u = e, v = e)
  for (cs in c(copula_cases, copula_extreme)) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    d <- cpp_copula_pdf(f, p, p2, g$u, g$v)
    expect_true(all(is.finite(d) & d >= 0))
    for (h in list(cpp_copula_h1(f, p, p2, g$u, g$v), cpp_copula_h2(f, p, p2, g$u, g$v),
                   cpp_copula_hinv1(f, p, p2, g$u, g$v))) {
      expect_true(all(is.finite(h) & h >= 0 & h <= 1))
    }
  }
})

test_that("densities integrate to 1 over the unit square", {
  # Gauss-Legendre on the probit scale: u = pnorm(x), du = dnorm(x) dx.
  # Nodes and weights by Golub-Welsch (the Jacobi matrix of Legendre).
  gl <- function(n) {
    j <- seq_len(n - 1)
    m <- matrix(0, n, n)
    m[cbind(j, j + 1)] <- m[cbind(j + 1, j)] <- j / sqrt(4 * j^2 - 1)
    e <- eigen(m, symmetric = TRUE)
    list(x = e$values, w = 2 * e$vectors[1, ]^2)
  }
  q <- gl(100)
  x <- 7 * q$x; wx <- 7 * q$w * dnorm(x)
  g <- expand.grid(i = seq_along(x), j = seq_along(x))
  for (cs in copula_cases) {
    d <- cpp_copula_pdf(cs[1], cs[2], cs[3], pnorm(x[g$i]), pnorm(x[g$j]))
    expect_equal(sum(d * wx[g$i] * wx[g$j]), 1, tolerance = 1e-4)
  }
})

test_that("Kendall's tau: closed forms, Frank's and Joe's integrals, simulated pairs", {
  expect_equal(cpp_copula_tau(3, 2.5, 0), 2.5 / 4.5, tolerance = 1e-14)
  expect_equal(cpp_copula_tau(23, -2.5, 0), -2.5 / 4.5, tolerance = 1e-14)
  expect_equal(cpp_copula_tau(14, 3, 0), 1 - 1 / 3, tolerance = 1e-14)
  expect_equal(cpp_copula_tau(34, -3, 0), -(1 - 1 / 3), tolerance = 1e-14)
  expect_equal(cpp_copula_tau(1, 0.6, 0), 2 / pi * asin(0.6), tolerance = 1e-14)
  expect_equal(cpp_copula_tau(2, -0.3, 5), 2 / pi * asin(-0.3), tolerance = 1e-14)
  expect_equal(cpp_copula_tau(0, 0, 0), 0)
  debye <- function(th) integrate(function(t) ifelse(t == 0, 1, t / expm1(t)), 0, th, rel.tol = 1e-13)$value / th
  for (th in c(1e-3, 0.5, 1.99, 2, 2.01, 6, 20, 35)) {
    # absolute: the reference formula cancels for small theta (tau ~ theta / 9)
    expect_lt(abs(cpp_copula_tau(5, th, 0) - (1 - 4 / th * (1 - debye(th)))), 1e-9)
    expect_equal(cpp_copula_tau(5, -th, 0), -cpp_copula_tau(5, th, 0))
  }
  # Joe: tau = 1 + 4 int_0^1 phi(t) / phi'(t) dt, phi(t) = -log(1 - (1 - t)^th)
  joe_tau <- function(th) {
    g <- function(t) { s <- 1 - t; (1 - s^th) * log1p(-s^th) / (th * s^(th - 1)) }
    1 + 4 * integrate(g, 0, 1, rel.tol = 1e-12)$value
  }
  for (th in c(1.0001, 1.5, 2, 3.3, 8, 30)) {
    expect_lt(abs(cpp_copula_tau(6, th, 0) - joe_tau(th)), 1e-9)
    expect_lt(abs(cpp_copula_tau(36, -th, 0) + joe_tau(th)), 1e-9)
  }
  # Simulated pairs (1e5): empirical tau (O(n log n) Kendall) within Monte
  # Carlo error (sd about 0.002) of the family's tau; uniform margins.
  for (k in seq_along(copula_cases)) {
    cs <- copula_cases[[k]]
    s <- cpp_copula_sim(cs[1], cs[2], cs[3], 100000L, 20260101, k)
    expect_lt(abs(cpp_kendall(s[, 1], s[, 2], TRUE) - cpp_copula_tau(cs[1], cs[2], cs[3])), 0.01,
              label = paste("family", cs[1]))
    s <- s[1:5000, ]
    expect_gt(suppressWarnings(ks.test(s[, 1], "punif")$p.value), 1e-3)
    expect_gt(suppressWarnings(ks.test(s[, 2], "punif")$p.value), 1e-3)
  }
})

test_that("simulation is a pure function of (key, stream) and its uniforms are never 0 or 1", {
  a <- cpp_copula_sim(4, 2, 0, 1000L, 7, 3)
  expect_identical(a, cpp_copula_sim(4, 2, 0, 1000L, 7, 3))
  expect_false(identical(a, cpp_copula_sim(4, 2, 0, 1000L, 7, 4)))
  expect_true(all(a > 0 & a < 1))
  ind <- cpp_copula_sim(0, 0, 0, 1000L, 7, 3)
  expect_identical(ind[, 1], a[, 1])
  expect_error(cpp_copula_sim(11, 1, 0, 10L, 1, 1), "Unknown copula family 11", class = "irtopics_error_argument")
  expect_error(cpp_copula_pdf(3, -1, 0, 0.5, 0.5), "out of range", class = "irtopics_error_argument")
  expect_error(cpp_copula_pdf(23, 1, 0, 0.5, 0.5), "out of range", class = "irtopics_error_argument")
})

# Pairs of systems of adhoc8_ap.csv (every column is a system), as
# pseudo-observations rank(x, ties = "random") / (n + 1).
real_pairs <- function(n_pairs, seed = 1) {
  path <- system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics")
  x <- as.matrix(utils::read.csv(path))
  set.seed(seed)
  U <- apply(x, 2, function(v) rank(v, ties.method = "random") / (length(v) + 1))
  pr <- t(replicate(n_pairs, sample.int(ncol(U), 2)))
  list(U = U, i = pr[, 1] - 1L, j = pr[, 2] - 1L)
}
all_families <- c(0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 23, 24, 26, 33, 34, 36)

test_that("copula selection: AIC of the fit, thread-independent, candidates by tau", {
  rp <- real_pairs(60)
  a <- cpp_copula_select(rp$U, rp$i, rp$j, all_families, 1L)
  b <- cpp_copula_select(rp$U, rp$i, rp$j, all_families, 2L)
  expect_identical(a, b)
  npar <- ifelse(a$family == 0, 0, ifelse(a$family == 2, 2, 1))
  expect_equal(a$aic, -2 * a$loglik + 2 * npar)
  for (k in seq_along(a$family)) {
    u1 <- rp$U[, rp$i[k] + 1]; u2 <- rp$U[, rp$j[k] + 1]
    expect_equal(a$tau_empirical[k], cor(u1, u2, method = "kendall"))
    ll <- if (a$family[k] == 0) 0 else sum(log(cpp_copula_pdf(a$family[k], a$par[k], a$par2[k], u1, u2)))
    expect_equal(a$loglik[k], ll, tolerance = 1e-10)
    expect_equal(a$tau[k], cpp_copula_tau(a$family[k], a$par[k], a$par2[k]))
    # the fitted parameter is a maximum: the log-likelihood drops nearby
    if (a$family[k] %in% c(3, 4, 6, 13, 14, 16) && a$par[k] > 1.01 && a$par[k] < 16) {
      for (d in c(-1e-3, 1e-3))
        expect_lte(sum(log(cpp_copula_pdf(a$family[k], a$par[k] + d, 0, u1, u2))), a$loglik[k] + 1e-9)
    }
  }
  # negative dependence only gets 90/270 rotations, positive only 0/180
  pos <- a$tau_empirical > 0
  expect_true(all(a$family[pos] %in% c(0, 1, 2, 3, 4, 5, 6, 13, 14, 16)))
  expect_true(all(a$family[!pos] %in% c(0, 1, 2, 5, 23, 24, 26, 33, 34, 36)))
  # preselection by the sign of tau only: a superset of the candidates, so
  # an AIC at least as low
  s <- cpp_copula_select(rp$U, rp$i, rp$j, all_families, 2L, quadrant_presel = FALSE)
  expect_true(all(s$aic <= a$aic + 1e-9))
  expect_true(all(s$family[pos] %in% c(0, 1, 2, 3, 4, 5, 6, 13, 14, 16)))
  # a smaller family set is respected
  c1 <- cpp_copula_select(rp$U, rp$i, rp$j, c(1, 5), 2L)
  expect_true(all(c1$family %in% c(1, 5)))
  expect_error(cpp_copula_select(rp$U, rp$i, rp$j, c(1, 11), 1L), "Unknown copula family 11",
               class = "irtopics_error_argument")
  expect_error(cpp_copula_select(rp$U, rp$i, rp$j + 1000L, all_families, 1L), "Column index out of range",
               class = "irtopics_error_argument")
  bad <- rp$U; bad[1, 1] <- 1
  expect_error(cpp_copula_select(bad, 0L, 1L, all_families, 1L), "strictly inside \\(0, 1\\)",
               class = "irtopics_error_argument")
})

test_that("densities, h-functions, inverses and tau agree with VineCopula", {
  skip_if_not_installed("VineCopula")
  # VineCopula clamps h-functions to [1e-12, 1 - 1e-12]; its hinv1 of Gumbel
  # and Joe is a numerical inversion to about 1e-7 (1e-9 in the centre).
  clamp <- function(h) pmin(pmax(h, 1e-12), 1 - 1e-12)
  # relative 1e-6, or 1e-14 absolute (VineCopula's clamped 1e-12 is 1 - (1 - 1e-12))
  close <- function(a, b) max(abs(a - b) - 1e-6 * abs(b))
  u <- grid_uv$u1; v <- grid_uv$u2
  for (cs in c(copula_cases, copula_extreme)) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    lab <- paste("family", f, "par", p)
    expect_lt(rel_err(cpp_copula_pdf(f, p, p2, u, v), VineCopula::BiCopPDF(u, v, f, p, p2)), 1e-6, label = lab)
    expect_lt(close(clamp(cpp_copula_h1(f, p, p2, u, v)), VineCopula::BiCopHfunc1(u, v, f, p, p2)), 1e-14, label = lab)
    expect_lt(close(clamp(cpp_copula_h2(f, p, p2, u, v)), VineCopula::BiCopHfunc2(u, v, f, p, p2)), 1e-14, label = lab)
    expect_lt(close(cpp_copula_hinv1(f, p, p2, u, v), VineCopula::BiCopHinv1(u, v, f, p, p2)), 1e-14, label = lab)
    # VineCopula's Frank tau comes from a coarser integral (about 5e-4 off)
    expect_equal(cpp_copula_tau(f, p, p2), VineCopula::BiCopPar2Tau(f, p, p2), tolerance = if (f == 5) 1e-3 else 1e-8, label = lab)
  }
})

# The big BiCopSelect loops (200 pairs each, VineCopula taking 20-300 ms a
# pair) run in full only as long tests; a fast subset, the first pairs of
# the same sample, always runs.
long_copula_tests <- function() identical(Sys.getenv("IRTOPICS_LONG_TESTS"), "true")
copula_agreement_pairs <- function(n_fast) {
  rp <- real_pairs(200, seed = 20260101)
  keep <- seq_len(if (long_copula_tests()) 200L else n_fast)
  list(U = rp$U, i = rp$i[keep], j = rp$j[keep])
}
bicopselect_loop <- function(rp, ...) {
  vc <- lapply(seq_along(rp$i), function(k) {
    VineCopula::BiCopSelect(rp$U[, rp$i[k] + 1], rp$U[, rp$j[k] + 1], selectioncrit = "AIC", ...)
  })
  list(family = vapply(vc, `[[`, numeric(1), "family"), loglik = vapply(vc, `[[`, numeric(1), "logLik"),
       aic = vapply(vc, `[[`, numeric(1), "AIC"), emptau = vapply(vc, `[[`, numeric(1), "emptau"))
}

test_that("copula selection agrees with VineCopula's BiCopSelect on real pairs", {
  skip_if_not_installed("VineCopula")
  rp <- copula_agreement_pairs(25)
  ours <- cpp_copula_select(rp$U, rp$i, rp$j, all_families, 2L)
  vc <- bicopselect_loop(rp, familyset = all_families)
  same <- vc$family == ours$family
  # Measured on this branch: 200 of 200 pairs agree; loglik within 1e-6.
  expect_gte(mean(same), 0.95)
  expect_true(all(abs(ours$loglik[same] - vc$loglik[same]) <= 0.01))
  expect_equal(ours$tau_empirical, vc$emptau)
})

# ---------------------------------------------------------------------------
# Two-parameter families: BB1 (7), BB6 (8), BB7 (9), BB8 (10) and Tawn type 1
# (104) and type 2 (204), with their 180 (17-20, 114, 214), 90 (27-30, 124,
# 224) and 270 degree (37-40, 134, 234) rotations. For 90/270 VineCopula
# negates par and, for BB1-BB8, par2; its rotated Tawn 124/134 are built from
# type 2 and 224/234 from type 1.

# (base family, par, par2) of the unrotated copulas; every case is also run
# in its three rotations.
copula_bases2 <- list(
  c(7, 0.8, 1.7), c(7, 3, 4), c(8, 1.5, 2.2), c(8, 4, 1.3), c(9, 2, 1.5), c(9, 1.3, 0.3),
  c(10, 3, 0.7), c(10, 5, 0.95), c(104, 2, 0.6), c(104, 8, 0.3), c(204, 3, 0.4), c(204, 1.5, 0.9)
)
rotate_case <- function(cs, r) {
  f <- cs[1]; p <- cs[2]; p2 <- cs[3]
  f <- f + c(0, 10, 20, 30)[r]
  if (r >= 3) { p <- -p; if (cs[1] < 100) p2 <- -p2 }
  c(f, p, p2)
}
rotate_all <- function(bases) unlist(lapply(bases, function(cs) lapply(1:4, function(r) rotate_case(cs, r))),
                                     recursive = FALSE)
copula_cases2 <- rotate_all(copula_bases2)
# without the strongest dependence (tau about 0.9 for BB1 (3, 4) and 0.75 for
# BB6 (4, 1.3), Tawn (8, 0.3) is nearly singular), where finite differences of
# the CDF lose accuracy
copula_moderate2 <- rotate_all(copula_bases2[-c(2, 4, 10)])
# at VineCopula's fitting bounds
copula_extreme2 <- list(c(7, 5, 6), c(7, 0.001, 1.001), c(8, 6, 6), c(8, 1.001, 1.001), c(9, 5, 6), c(9, 1.001, 0.001),
                        c(10, 6, 1), c(10, 1.001, 0.001), c(104, 20, 0.99), c(104, 1.001, 1e-4), c(204, 20, 0.99),
                        c(234, -20, 0.5), c(40, -6, -0.001), c(19, 5, 6))

# Textbook CDFs (Joe 2014, sections 4.17 and 4.15; Tawn 1988) of the base
# copulas, with psi1 = par2 (type 1) or psi2 = par2 (type 2) for Tawn.
copula_cdf2_base <- function(base, th, de, u, v) {
  ub <- 1 - u; vb <- 1 - v
  tawn <- function(p1, p2) {
    x <- -log(u); y <- -log(v)
    exp(-((1 - p1) * x + (1 - p2) * y + ((p1 * x)^th + (p2 * y)^th)^(1 / th)))
  }
  switch(as.character(base),
    "7" = (1 + ((u^-th - 1)^de + (v^-th - 1)^de)^(1 / de))^(-1 / th),
    "8" = 1 - (1 - exp(-((-log(1 - ub^th))^de + (-log(1 - vb^th))^de)^(1 / de)))^(1 / th),
    "9" = 1 - (1 - ((1 - ub^th)^-de + (1 - vb^th)^-de - 1)^(-1 / de))^(1 / th),
    "10" = (1 - (1 - (1 - (1 - de * u)^th) * (1 - (1 - de * v)^th) / (1 - (1 - de)^th))^(1 / th)) / de,
    "104" = tawn(de, 1),
    "204" = tawn(1, de)
  )
}
copula_cdf2 <- function(family, par, par2, u, v) {
  tawn <- family > 100
  r <- if (tawn) (family %% 100) %/% 10 else (family - 1) %/% 10
  base <- if (!tawn) family - 10 * r else if (r %in% c(2, 3)) 304 - 100 * (family %/% 100) else 100 * (family %/% 100) + 4
  if (r >= 2) { par <- -par; if (!tawn) par2 <- -par2 }
  C <- function(a, b) copula_cdf2_base(base, par, par2, a, b)
  switch(as.character(r),
    "0" = C(u, v), "1" = u + v - 1 + C(1 - u, 1 - v), "2" = v - C(1 - u, v), "3" = u - C(u, 1 - v))
}

test_that("two-parameter families: density and h-functions are derivatives of the CDF", {
  u <- grid_uv$u1; v <- grid_uv$u2
  for (cs in copula_moderate2) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    lab <- paste("family", f, "par", p, p2)
    num_pdf2 <- (copula_cdf2(f, p, p2, u + 1e-4, v + 1e-4) - copula_cdf2(f, p, p2, u + 1e-4, v - 1e-4) -
                   copula_cdf2(f, p, p2, u - 1e-4, v + 1e-4) + copula_cdf2(f, p, p2, u - 1e-4, v - 1e-4)) / 4e-8
    expect_lt(rel_err(cpp_copula_pdf(f, p, p2, u, v), num_pdf2), 1e-4, label = lab)
    h <- 1e-6
    expect_lt(max(abs(cpp_copula_h1(f, p, p2, u, v) -
                        (copula_cdf2(f, p, p2, u + h, v) - copula_cdf2(f, p, p2, u - h, v)) / (2 * h))), 1e-7, label = lab)
    expect_lt(max(abs(cpp_copula_h2(f, p, p2, u, v) -
                        (copula_cdf2(f, p, p2, u, v + h) - copula_cdf2(f, p, p2, u, v - h)) / (2 * h))), 1e-7, label = lab)
  }
})

test_that("two-parameter families: densities integrate to 1, hinv1 inverts h1, finite at the edges", {
  # the trapezoidal rule on the probit scale (u = pnorm(x), du = dnorm(x) dx),
  # spectrally accurate for smooth integrands decaying on the real line
  x <- seq(-8, 8, by = 0.05); wx <- 0.05 * dnorm(x)  # pnorm(8.5) rounds to 1
  g <- expand.grid(i = seq_along(x), j = seq_along(x))
  for (cs in copula_cases2) {
    d <- cpp_copula_pdf(cs[1], cs[2], cs[3], pnorm(x[g$i]), pnorm(x[g$j]))
    expect_equal(sum(d * wx[g$i] * wx[g$j]), 1, tolerance = 1e-4, label = paste("family", cs[1]))
  }
  e <- c(1e-12, 1e-6, 0.5, 1 - 1e-6, 1 - 1e-12)
  ge <- expand.grid(u = e, v = e)
  for (cs in c(copula_cases2, copula_extreme2)) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    lab <- paste("family", f, "par", p, p2)
    uu <- rep(c(1e-9, 1e-4, 0.05, 0.5, 0.95, 1 - 1e-4, 1 - 1e-9), each = 7)
    w <- rep(c(1e-9, 1e-4, 0.05, 0.5, 0.95, 1 - 1e-4, 1 - 1e-9), 7)
    vv <- cpp_copula_hinv1(f, p, p2, uu, w)
    expect_true(all(vv >= 0 & vv <= 1), label = lab)
    back <- cpp_copula_h1(f, p, p2, uu, vv)
    slack <- 4e-16 * cpp_copula_pdf(f, p, p2, uu, pmin(pmax(vv, 1e-300), 1 - 1e-16))
    expect_true(all(abs(back - w) <= 1e-10 + slack), label = lab)
    d <- cpp_copula_pdf(f, p, p2, ge$u, ge$v)
    expect_true(all(is.finite(d) & d >= 0), label = lab)
    for (h in list(cpp_copula_h1(f, p, p2, ge$u, ge$v), cpp_copula_h2(f, p, p2, ge$u, ge$v),
                   cpp_copula_hinv1(f, p, p2, ge$u, ge$v))) {
      expect_true(all(is.finite(h) & h >= 0 & h <= 1), label = lab)
    }
  }
})

test_that("two-parameter families: Kendall's tau from its integrals and from simulated pairs", {
  # BB1 closed form; Tawn and BB6 from R's integrate of the textbook formulas
  expect_equal(cpp_copula_tau(7, 0.8, 1.7), 1 - 2 / (1.7 * 2.8), tolerance = 1e-14)
  expect_equal(cpp_copula_tau(37, -0.8, -1.7), -(1 - 2 / (1.7 * 2.8)), tolerance = 1e-14)
  tawn_tau <- function(th, psi) {
    A <- function(t) (1 - psi) * (1 - t) + ((psi * (1 - t))^th + t^th)^(1 / th)
    A2 <- function(t, h = 1e-4) (A(t + h) - 2 * A(t) + A(t - h)) / h^2
    integrate(function(t) t * (1 - t) * A2(t) / A(t), 1e-4, 1 - 1e-4, rel.tol = 1e-10)$value
  }
  expect_equal(cpp_copula_tau(104, 3, 0.6), tawn_tau(3, 0.6), tolerance = 1e-5)
  expect_equal(cpp_copula_tau(204, 3, 0.6), tawn_tau(3, 0.6), tolerance = 1e-5)
  bb6_tau <- function(th, de) {
    1 + 4 * integrate(function(t) {
      b <- 1 - (1 - t)^th
      log(b) * b / (de * th * (1 - t)^(th - 1))
    }, 0, 1, rel.tol = 1e-12)$value
  }
  expect_equal(cpp_copula_tau(8, 2, 1.5), bb6_tau(2, 1.5), tolerance = 1e-9)
  expect_equal(cpp_copula_tau(8, 1, 1), 0, tolerance = 1e-12)  # independence
  expect_equal(cpp_copula_tau(10, 3, 1), cpp_copula_tau(6, 3, 0), tolerance = 1e-9)  # BB8 with delta 1 is Joe
  expect_equal(cpp_copula_tau(9, 1, 2), 2 / 4, tolerance = 1e-9)  # BB7 with theta 1 is Clayton
  # 5e4 simulated pairs per case: empirical tau within Monte Carlo error
  # (sd below 0.004) of the family's; uniform margins (Kolmogorov-Smirnov on
  # the first 5000)
  sims <- lapply(seq_along(copula_cases2), function(k) {
    cs <- copula_cases2[[k]]
    cpp_copula_sim(cs[1], cs[2], cs[3], 50000L, 20260102, k)
  })
  fams <- vapply(copula_cases2, `[`, numeric(1), 1)
  emp <- vapply(sims, function(s) cpp_kendall(s[, 1], s[, 2], TRUE), numeric(1))
  theo <- vapply(copula_cases2, function(cs) cpp_copula_tau(cs[1], cs[2], cs[3]), numeric(1))
  expect_true(all(abs(emp - theo) < 0.015), label = paste("families", toString(fams[abs(emp - theo) >= 0.015])))
  ks_p <- vapply(sims, function(s) {
    suppressWarnings(min(ks.test(s[1:5000, 1], "punif")$p.value, ks.test(s[1:5000, 2], "punif")$p.value))
  }, numeric(1))
  expect_true(all(ks_p > 1e-3), label = paste("families", toString(fams[ks_p <= 1e-3])))
  # parameters out of range: BB1 delta < 1, BB8 delta > 1, rotated BB1 needs
  # par2 <= -1, Tawn psi > 1, rotated Tawn needs par <= -1
  for (cs in list(c(7, 1, 0.5), c(10, 2, 1.5), c(27, -1, 2), c(104, 2, 1.2), c(124, 2, 0.5))) {
    expect_error(cpp_copula_pdf(cs[1], cs[2], cs[3], 0.5, 0.5),
                 paste("out of range for copula family", cs[1]), class = "irtopics_error_argument")
  }
})

test_that("two-parameter families agree with VineCopula", {
  skip_if_not_installed("VineCopula")
  # VineCopula clamps h-functions to [1e-12, 1 - 1e-12] (not always for
  # these families): 1e-12 absolute slack. Its densities below about 1e-15
  # lose their digits (BiCopPDF(0.1, 0.8, 104, 20, 0.99) is 2e-308 where
  # the log-space formula gives 8e-19): relative comparison above 1e-8. Its
  # taus come from integrate() at its default tolerance: 1e-6 absolute, 1e-5
  # at the bounds (BB8 (6, 1) is Joe (6): VineCopula is 2e-6 off there).
  close <- function(a, b) max(abs(a - b) - 1e-6 * abs(b))
  u <- grid_uv$u1; v <- grid_uv$u2
  for (cs in c(copula_cases2, copula_extreme2)) {
    f <- cs[1]; p <- cs[2]; p2 <- cs[3]
    lab <- paste("family", f, "par", p, p2)
    ref <- VineCopula::BiCopPDF(u, v, f, p, p2)
    ok <- ref > 1e-8
    expect_lt(rel_err(cpp_copula_pdf(f, p, p2, u, v)[ok], ref[ok]), 1e-6, label = lab)
    expect_lt(close(cpp_copula_h1(f, p, p2, u, v), VineCopula::BiCopHfunc1(u, v, f, p, p2)), 1e-12, label = lab)
    expect_lt(close(cpp_copula_h2(f, p, p2, u, v), VineCopula::BiCopHfunc2(u, v, f, p, p2)), 1e-12, label = lab)
    expect_lt(close(cpp_copula_hinv1(f, p, p2, u, v), VineCopula::BiCopHinv1(u, v, f, p, p2)), 1e-12, label = lab)
    tol <- if (list(cs) %in% copula_cases2) 1e-6 else 1e-5
    expect_lt(abs(cpp_copula_tau(f, p, p2) - VineCopula::BiCopPar2Tau(f, p, p2)), tol, label = lab)
  }
})

copula_all_codes <- c(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 16, 17, 18, 19, 20, 23, 24, 26, 27, 28, 29, 30,
                      33, 34, 36, 37, 38, 39, 40, 104, 114, 124, 134, 204, 214, 224, 234)
copula_npar <- function(f) ifelse(f == 0, 0, ifelse(f %in% c(1, 3, 4, 5, 6, 13, 14, 16, 23, 24, 26, 33, 34, 36), 1, 2))

test_that("selection over all families: AIC of the fit, thread-independent, candidates by tau", {
  rp <- real_pairs(60, seed = 3)
  a <- cpp_copula_select(rp$U, rp$i, rp$j, copula_all_codes, 1L)
  expect_identical(a, cpp_copula_select(rp$U, rp$i, rp$j, copula_all_codes, 2L))
  expect_equal(a$aic, -2 * a$loglik + 2 * copula_npar(a$family))
  for (k in seq_along(a$family)) {
    u1 <- rp$U[, rp$i[k] + 1]; u2 <- rp$U[, rp$j[k] + 1]
    ll <- if (a$family[k] == 0) 0 else sum(log(cpp_copula_pdf(a$family[k], a$par[k], a$par2[k], u1, u2)))
    expect_equal(a$loglik[k], ll, tolerance = 1e-10)
  }
  pos <- a$tau_empirical > 0
  expect_true(all(a$family[pos] %in% c(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 16, 17, 18, 19, 20, 104, 114, 204, 214)))
  expect_true(all(a$family[!pos] %in% c(0, 1, 2, 5, 23, 24, 26, 27, 28, 29, 30, 33, 34, 36, 37, 38, 39, 40,
                                          124, 134, 224, 234)))
  expect_true(any(a$family > 6))
})

test_that("selection over all families agrees with VineCopula's BiCopSelect (default familyset)", {
  skip_if_not_installed("VineCopula")
  rp <- copula_agreement_pairs(25)
  ours <- cpp_copula_select(rp$U, rp$i, rp$j, copula_all_codes, 2L)
  vc <- bicopselect_loop(rp)
  same <- vc$family == ours$family
  tie <- !same & abs(ours$aic - vc$aic) <= 0.1
  # Measured: 200 of 200 pairs choose the same family; the log-likelihoods
  # agree within 1e-5 except one Tawn type 2 180 pair where ours is 2.26
  # higher: a mode of the Tawn likelihood VineCopula's L-BFGS-B does not
  # reach (on other pairs this makes VineCopula choose independence). Our
  # fit is never worse than VineCopula's by more than 0.01. The fast subset
  # (25 pairs) holds two-parameter choices too.
  expect_gte(mean(same | tie), 0.9)
  expect_true(all(ours$loglik[same] >= vc$loglik[same] - 0.01))
  expect_gte(mean(abs(ours$loglik[same] - vc$loglik[same]) <= 1e-3), 0.95)
  expect_true(any(vc$family > 6))
  if (long_copula_tests()) expect_true(any(vc$family > 100))
  expect_equal(ours$tau_empirical, vc$emptau)
})

test_that("the family table is the C++ code map: VineCopula's 40 codes, names and parameter counts", {
  # copula_all_codes is VineCopula's set (the BiCopSelect comparisons use it);
  # the map holds all of them, and any family added beside them
  fams <- cpp_copula_families()
  expect_true(all(copula_all_codes %in% fams$code))
  expect_false(anyDuplicated(fams$code) > 0)
  expect_equal(fams$npar[match(copula_all_codes, fams$code)], copula_npar(copula_all_codes))
  nm <- copula_families()
  expect_identical(names(nm), as.character(sort(fams$code)))
  expect_identical(unname(nm[c("0", "2", "13", "27", "40", "104", "124", "224", "234")]),
                   c("independence", "Student t", "Clayton 180", "BB1 90", "BB8 270", "Tawn type 1",
                     "Tawn type 1 90", "Tawn type 2 90", "Tawn type 2 270"))
  expect_identical(copula_set("basic"), c(0:6, 13L, 14L, 16L, 23L, 24L, 26L, 33L, 34L, 36L))
  expect_identical(copula_name(c(5L, 214L)), c("Frank", "Tawn type 2 180"))
  expect_error(check_copula_families(11), class = "irtopics_error_argument", regexp = "family codes among")
})

# Issue 42: the sets of copula families are said on the R side, by code
# (copula_set_records in R/calibration-copula.R); the code map is the
# registry of families.
test_that("the R records of the copula sets name codes of the C++ map, each once; \"basic\" is the records' flag", {
  fams <- cpp_copula_families()
  codes <- unlist(lapply(copula_set_records, `[[`, "codes"))
  expect_identical(anyDuplicated(codes), 0L)
  expect_true(all(codes %in% fams$code))
  expect_true(all(unlist(lapply(copula_set_records, `[[`, "sets")) %in% names(copula_set_info)))
  # the C++ records' `basic` flag, which R no longer reads, says the same
  # of VineCopula's codes (onepar_family() sets it for any one-parameter
  # family, so a family added since may have it and be in no set)
  expect_identical(copula_set("basic"), sort(fams$code[fams$basic & fams$code %in% copula_all_codes]))
  # "study2019" (and its old name "all", the default before sets) is VineCopula's set of 40
  expect_identical(copula_set("study2019"), as.integer(sort(copula_all_codes)))
  expect_identical(check_copula_families("all"), copula_set("study2019"))
  expect_identical(check_copula_families("basic"), copula_set("basic"))
  expect_identical(check_copula_families("registered"), copula_family_codes())
  expect_identical(eval(formals(simulation_model)$copulas), "study2019")
})

test_that("a family added to the code map joins no set and no default, and is fitted when asked for (issue 42)", {
  real <- cpp_copula_families()
  before <- lapply(c("study2019", "all", "basic"), check_copula_families)
  fgm <- function() {
    list(code = c(real$code, 301L), name = c(real$name, "FGM"), npar = c(real$npar, 1L),
         basic = c(real$basic, TRUE))
  }
  local_namespace_value("cpp_copula_families", fgm)
  expect_identical(lapply(c("study2019", "all", "basic"), check_copula_families), before)
  expect_true(301L %in% check_copula_families("registered"))
  expect_identical(check_copula_families(c(301, 1)), c(1L, 301L))
  expect_identical(copula_name(301L), "FGM")
  err <- expect_error(check_copula_families(302), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "301 FGM", fixed = TRUE)
  expect_match(copula_sets_help(), "registered.*301")
  expect_false(grepl("study2019.*301", strsplit(copula_sets_help(), "\n")[[1]][1]))
})

# Issue 26 (fitting speed): the selections may not move. Every pair's family
# must be the one main chose before the work (fixture, see helper-calibration.R)
# and its log-likelihood within 1e-6, on Robust 2004 AP and P@10 and two
# TREC ad hoc sets. Every 40th pair always; every pair as a long test.
# Exception, 9 of the 17,432 pairs: BB8 and its 180 rotation with theta at its
# bound of 6, where the finite-difference climb stopped short of the bound
# (theta 5.99999x) and the exact-derivative fit reaches it, same family, with
# a higher log-likelihood (by 2.9e-6 to 0.0153): the fixture's `loglik` holds
# the new maxima there, `loglik_before` the old values, which the new must
# exceed (bench/README.md section 26). Likewise 2 one-parameter fits with
# theta at its upper bound, Gumbel (code 4) at 17 on Robust 2004 AP and Frank
# (5) at 35 on P@10, where Brent's method stopped 6e-5 short of the bound
# and the Newton fit reaches it, higher by 3.5e-5 and 4.5e-5 (section 29).
test_that("copula selections on real collections are those before the speed work (issue 26)", {
  fx <- sim_fixture()
  step <- if (long_copula_tests()) 1L else 40L
  for (name in names(fx)) {
    col <- sim_fixture_collection(name)
    expect_identical(colnames(col$pobs), fx[[name]]$systems, label = name)
    cb <- utils::combn(ncol(col$pobs), 2L)
    k <- seq(1L, ncol(cb), by = step)
    ours <- cpp_copula_select(col$pobs, cb[1, k] - 1L, cb[2, k] - 1L, copula_set(sim_fixture_set("copulas")), 2L)
    old <- fx[[name]]$copulas[k, ]
    expect_identical(as.integer(ours$family), old$family, label = name)
    expect_lte(max(abs(ours$loglik - old$loglik)), 1e-6)
    moved <- old$loglik != old$loglik_before
    expect_true(all(old$family[moved] %in% c(4L, 5L, 10L, 20L)), label = name)
    expect_true(all(ours$loglik[moved] > old$loglik_before[moved] + 1e-6), label = name)
  }
})

# The packed log-likelihood sums (src/copula_pack.h) have a copy compiled for
# AVX2, taken when the processor has it: both copies must give the same bits,
# on rank pseudo-observations (margins once per value) and on distinct
# values (every margin at its observation), with a last pack part filled
# (50 and 61 observations).
test_that("the AVX2 and baseline copies of the copula sums give the same bits", {
  col <- sim_fixture_collection("adhoc5_ap")
  cb <- utils::combn(ncol(col$pobs), 2L)
  k <- seq(1L, ncol(cb), by = 60L)
  U <- withr::with_seed(3, matrix(stats::runif(61 * 5), 61))
  select_both <- function() {
    list(
      ranks = cpp_copula_select(col$pobs, cb[1, k] - 1L, cb[2, k] - 1L, copula_family_codes(), 1L),
      distinct = cpp_copula_select(U, c(0L, 1L, 2L, 3L), c(1L, 2L, 3L, 4L), copula_family_codes(), 1L)
    )
  }
  on.exit(cpp_copula_wide(TRUE), add = TRUE)
  expect_false(cpp_copula_wide(FALSE))
  base <- select_both()
  skip_if_not(cpp_copula_wide(TRUE), "the processor has no AVX2: only the baseline copy runs here")
  wide <- select_both()
  expect_identical(wide, base)
  expect_gt(length(unique(base$ranks$family)), 3L)
})
