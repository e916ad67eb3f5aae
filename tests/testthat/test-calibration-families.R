# The margin family records (R/calibration-families.R): the parametric
# families' density, CDF and quantiles against textbook formulas written
# here (and other packages when installed), maximum likelihood against
# optim() / MASS::fitdistr(), and every record of the registry checked for
# completeness and consistency.

test_that("truncnorm: density, CDF and quantiles are the truncated normal's", {
  x <- beta_sample()
  m <- fit_margin(x, families = "truncnorm")
  mu <- m$parameters$mean
  s <- m$parameters$sd
  Z <- pnorm((1 - mu) / s) - pnorm(-mu / s)
  y <- c(0, 0.01, 0.2, 0.5, 0.93, 1)
  expect_equal(dmargin(y, m), dnorm((y - mu) / s) / s / Z, tolerance = 1e-10)
  expect_equal(pmargin(y, m), (pnorm((y - mu) / s) - pnorm(-mu / s)) / Z, tolerance = 1e-10)
  p <- c(0.001, 0.1, 0.5, 0.9, 0.999)
  expect_equal(qmargin(p, m), mu + s * qnorm(pnorm(-mu / s) + p * Z), tolerance = 1e-9)
  a <- -mu / s
  b <- (1 - mu) / s
  expect_equal(m$mean, mu + s * (dnorm(a) - dnorm(b)) / Z, tolerance = 1e-10)
  skip_if_not_installed("truncnorm")
  expect_equal(dmargin(y, m), truncnorm::dtruncnorm(y, 0, 1, mu, s), tolerance = 1e-9)
  expect_equal(pmargin(y, m), truncnorm::ptruncnorm(y, 0, 1, mu, s), tolerance = 1e-9)
  expect_equal(qmargin(p, m), truncnorm::qtruncnorm(p, 0, 1, mu, s), tolerance = 1e-6)
  expect_equal(m$var, truncnorm::vtruncnorm(0, 1, mu, s), tolerance = 1e-8)
})

test_that("truncnorm: the MLE matches optim() on the same likelihood", {
  x <- beta_sample(80, seed = 2)
  m <- fit_margin(x, families = "truncnorm")
  nll <- function(p) {
    s <- exp(p[2])
    -sum(log(dnorm((x - p[1]) / s) / s / (pnorm((1 - p[1]) / s) - pnorm(-p[1] / s))))
  }
  ref <- optim(c(0.5, log(0.3)), nll, control = list(reltol = 1e-14, maxit = 5000))
  expect_gt(exp(ref$par[2]), 0.05)  # the optimum is inside the constraint
  expect_equal(m$loglik, -ref$value, tolerance = 1e-4 / abs(ref$value))
  expect_equal(m$parameters$mean, ref$par[1], tolerance = 1e-3)
})

test_that("truncnorm: the C++ log-density sum is sum(dnorm(log = TRUE)) to the last bit", {
  withr::with_seed(16, for (k in 1:200) {
    x <- runif(sample(3:300, 1))
    mu <- runif(1, -5, 6)
    s <- exp(runif(1, log(0.05), log(10)))
    expect_identical(irtopics:::cpp_normal_log_density_sum(x, mu, s), sum(dnorm(x, mu, s, log = TRUE)))
  })
  expect_identical(irtopics:::tn_logmass1(0.3, 0.2), irtopics:::tn_logmass(0.3, 0.2))
  expect_identical(irtopics:::tn_logmass1(-1, 0.2), irtopics:::tn_logmass(-1, 0.2))
  # the whole objective in one C++ call (issue 26), both tails of the mass
  x <- beta_sample(80, seed = 4)
  for (p in list(c(0.3, log(0.2)), c(-1, log(0.2)), c(1.7, log(0.05)), c(6, log(10)), c(-5, log(0.05)))) {
    expect_identical(irtopics:::cpp_tn_nll(x, p[1], p[2]), irtopics:::tn_nll_r(x, p))
  }
})

test_that("beta: d/p/q are dbeta/pbeta/qbeta, and the MLE matches MASS::fitdistr()", {
  x <- beta_sample(100, seed = 3)
  m <- fit_margin(x, families = "beta")
  a <- m$parameters$shape1
  b <- m$parameters$shape2
  y <- c(0, 0.1, 0.4, 0.8, 1)
  expect_equal(dmargin(y, m), dbeta(y, a, b))
  expect_equal(pmargin(y, m), pbeta(y, a, b))
  p <- c(0.01, 0.3, 0.7, 0.99)
  expect_equal(qmargin(p, m), qbeta(p, a, b))
  expect_equal(m$mean, a / (a + b))
  expect_equal(m$var, a * b / ((a + b)^2 * (a + b + 1)))
  ref <- suppressWarnings(MASS::fitdistr(x, "beta", start = list(shape1 = 1.5, shape2 = 3), lower = c(1, 1)))
  expect_lt(abs(m$loglik - ref$loglik), 1e-4)
  expect_equal(c(a, b), unname(ref$estimate), tolerance = 1e-3)
})

test_that("beta: shapes stay at least 1 (bounded density) on U-shaped data", {
  x <- withr::with_seed(4, c(rbeta(40, 0.3, 0.3), 0, 1))
  m <- fit_margin(x, families = "beta")
  expect_gte(m$parameters$shape1, 1)
  expect_gte(m$parameters$shape2, 1)
  xc <- pmin(pmax(x, 1e-6), 1 - 1e-6)
  expect_equal(m$loglik, sum(dbeta(xc, m$parameters$shape1, m$parameters$shape2, log = TRUE)))
})

test_that("every continuous family: density integrates to 1, mean and quantiles agree", {
  x <- beta_sample(50, seed = 8)
  for (f in c("truncnorm", "beta", "normal_kernel", "beta_kernel")) {
    m <- fit_margin(x, families = f)
    f1 <- function(y) dmargin(y, m)
    expect_equal(integrate(f1, 0, 1, rel.tol = 1e-10)$value, 1, tolerance = 1e-7, info = f)
    expect_equal(integrate(function(y) y * f1(y), 0, 1, rel.tol = 1e-10)$value, m$mean, tolerance = 1e-7,
                 info = f)
    ex2 <- integrate(function(y) y^2 * f1(y), 0, 1, rel.tol = 1e-10)$value
    expect_equal(m$var, ex2 - m$mean^2, tolerance = 1e-6, info = f)
    y <- c(0.01, 0.1, 0.3, 0.5, 0.7, 0.95)
    expect_equal(qmargin(pmargin(y, m), m), y, tolerance = 1e-8, info = f)
    p <- c(0.001, 0.05, 0.5, 0.9, 0.999)
    expect_equal(pmargin(qmargin(p, m), m), p, tolerance = 1e-8, info = f)
    expect_identical(qmargin(c(0, 1), m), c(0, 1), info = f)
  }
})

test_that("beta_binomial: the pmf is choose(K,k) B(k+a, K-k+b) / B(a,b), MLE as optim()", {
  s <- score_support("P@10")
  x <- withr::with_seed(9, rbinom(80, 10, rbeta(80, 3, 2)) / 10)
  m <- fit_margin(x, type = "discrete", support = s, families = "beta_binomial")
  a <- m$parameters$shape1
  b <- m$parameters$shape2
  k <- 0:10
  ref <- choose(10, k) * beta(k + a, 10 - k + b) / beta(a, b)
  expect_equal(dmargin(s, m), ref, tolerance = 1e-12)
  expect_equal(pmargin(s, m), cumsum(ref), tolerance = 1e-12)
  expect_equal(m$mean, sum(s * ref), tolerance = 1e-12)
  kx <- round(x * 10)
  nll <- function(p) -sum(log(choose(10, kx) * beta(kx + p[1], 10 - kx + p[2]) / beta(p[1], p[2])))
  opt <- optim(c(2, 2), nll, method = "L-BFGS-B", lower = c(1, 1), control = list(factr = 1))
  expect_lt(abs(m$loglik + opt$value), 1e-4)
  skip_if_not_installed("extraDistr")
  expect_equal(dmargin(s, m), extraDistr::dbbinom(k, 10, a, b), tolerance = 1e-10)
})

test_that("the margin registry: every record is complete and consistent, for every family", {
  fields <- c("name", "type", "label", "sets", "inflated", "base", "fit", "df", "d", "p", "q", "moments", "table")
  reg <- irtopics:::margin_registry
  expect_identical(names(reg), unname(vapply(reg, `[[`, "", "name")))
  expect_setequal(vapply(reg, `[[`, "", "type"), c("continuous", "discrete"))
  expect_identical(irtopics:::margin_family_names("discrete"), c("beta_binomial", "discrete_kernel"))
  expect_error(irtopics:::margin_family_of("gamma"), class = "irtopics_error_internal")
  s <- score_support("P@10")
  # the continuous scores have 10 zeros and 6 ones: the inflated families
  # model both masses (shares .2 and .12), the others see them capped
  cont <- beta_sample(50, seed = 12)
  cont[c(3, 8, 13, 18, 23, 28, 33, 38, 43, 48)] <- 0
  cont[c(5, 15, 25, 35, 45, 50)] <- 1
  data <- list(continuous = cont,
               discrete = withr::with_seed(13, rbinom(60, 10, rbeta(60, 2, 3)) / 10))
  for (fam in reg) {
    info <- fam$name
    expect_identical(names(fam), fields, info = info)
    expect_true(is.character(fam$label) && nzchar(fam$label), info = info)
    expect_true(all(vapply(fam[setdiff(fields, c("name", "type", "label", "sets", "inflated", "base"))],
                           is.function, TRUE)), info = info)
    expect_true(all(fam$sets %in% names(margin_set_info)), info = info)
    # a twin is derived from its base, in the sets its base's `inflated` names
    if (!is.na(fam$base)) {
      expect_identical(fam$name, paste0("zi_", fam$base), info = info)
      expect_identical(fam$sets, reg[[fam$base]]$inflated, info = info)
    }
    if (!is.null(fam$inflated)) expect_identical(reg[[paste0("zi_", fam$name)]]$base, fam$name, info = info)
    discrete <- fam$type == "discrete"
    x <- data[[fam$type]]
    m <- fit_margin(x, type = fam$type, support = if (discrete) s, families = fam$name, mean_tol = Inf)
    i <- which(m$candidates$chosen)
    spec <- list(family = fam$name, parameters = m$candidate_parameters[[i]], data = x, support = m$support)
    # the record's df is the fit's, and positive
    df <- fam$df(spec)
    expect_gt(df, 0)
    expect_equal(df, m$candidates$df[i], tolerance = 1e-12, info = info)
    tab <- fam$table(spec)
    expect_identical(tab$cdf, m$cdf, info = info)
    if (discrete) {
      pr <- fam$d(spec, s)
      expect_equal(sum(pr), 1, tolerance = 1e-12, info = info)                      # sums to 1
      expect_equal(fam$p(spec, s), cumsum(pr), tolerance = 1e-12, info = info)      # p is the sum of d
      expect_equal(fam$p(spec, s, lower = FALSE), 1 - cumsum(pr), tolerance = 1e-12, info = info)
      expect_identical(fam$d(spec, 0.05), 0, info = info)                           # 0 off the support
      at <- s[pr > 0]
      expect_equal(fam$q(spec, fam$p(spec, at)), at, info = info)                   # q inverts p
      expect_equal(fam$moments(spec), c(sum(s * pr), sum(s^2 * pr)), tolerance = 1e-12, info = info)
    } else {
      # point masses (inflated families): 0 for the others
      p0 <- spec$parameters$p0 %||% 0
      p1 <- spec$parameters$p1 %||% 0
      if (!is.na(fam$base)) expect_identical(c(p0, p1), c(0.2, 0.12), info = info)
      f <- function(y) fam$d(spec, y)
      expect_equal(integrate(f, 0, 1, rel.tol = 1e-10)$value, 1 - p0 - p1, tolerance = 1e-7, info = info)
      y <- c(0.02, 0.2, 0.45, 0.8)
      prim <- p0 + vapply(y, function(v) integrate(f, 0, v, rel.tol = 1e-10)$value, 0)
      # p is the integral of d (plus the mass at 0); q inverts p
      expect_equal(fam$p(spec, y), prim, tolerance = 1e-7, ignore_attr = TRUE, info = info)
      expect_equal(fam$p(spec, y, lower = FALSE), 1 - prim, tolerance = 1e-7, ignore_attr = TRUE, info = info)
      expect_equal(fam$p(spec, 0), p0, ignore_attr = TRUE, info = info)
      u <- p0 + (1 - p0 - p1) * c(0.01, 0.3, 0.7, 0.99)
      expect_equal(fam$p(spec, fam$q(spec, u, tab)), u, tolerance = 1e-8, ignore_attr = TRUE, info = info)
      mom <- c(integrate(function(y) y * f(y), 0, 1, rel.tol = 1e-10)$value,
               integrate(function(y) y^2 * f(y), 0, 1, rel.tol = 1e-10)$value) + p1
      expect_equal(fam$moments(spec), mom, tolerance = 1e-7, info = info)           # the numeric moments
    }
  }
})

test_that("a family registered in no set changes no default; asked for by name, it is fitted (issue 42)", {
  x <- beta_sample(60, seed = 4)
  x[1:8] <- 0
  before <- list(fit = fit_margin(x), sets = lapply(names(margin_set_info), margin_family_names,
                                                    type = "continuous"))
  local({
    local_toy_margin()
    expect_true("toy_power" %in% names(irtopics:::margin_registry))
    expect_false("zi_toy_power" %in% names(irtopics:::margin_registry))
    after <- fit_margin(x)
    expect_identical(after$candidates, before$fit$candidates)
    expect_identical(fit_margin(x, families = NULL)$candidates, before$fit$candidates)
    expect_identical(lapply(names(margin_set_info), margin_family_names, type = "continuous"), before$sets)
    expect_identical(check_families(NULL, "continuous"), margin_family_names("continuous", "default"))
    toy <- fit_margin(x, families = "toy_power")
    expect_identical(toy$family, "toy_power")
    expect_equal(toy$parameters$a, -60 / sum(log(cap_scores(x))))
    expect_identical(fit_margin(x, families = c("beta", "toy_power"))$candidates$family, c("beta", "toy_power"))
  })
  # in "default", with its twin there too: the twin is derived from the record, not listed
  local({
    local_toy_margin(sets = "default", inflated = "default")
    reg <- irtopics:::margin_registry
    expect_identical(reg$zi_toy_power$base, "toy_power")
    expect_identical(reg$zi_toy_power$sets, "default")
    expect_identical(setdiff(margin_family_names("continuous", "default"), before$sets[[1]]),
                     c("toy_power", "zi_toy_power"))
    expect_identical(margin_family_names("continuous", "study2019"), before$sets[[2]])
    # 8 zeros of 60 reach no atom_share of 0.1: the twin is no candidate; at 0.1 of 80 it is
    expect_true("toy_power" %in% fit_margin(x)$candidates$family)
    y <- c(x, rep(0, 20))
    expect_true("zi_toy_power" %in% fit_margin(y)$candidates$family)
  })
  # set names and family names are apart; a record's sets are known ones
  expect_error(margin_registry_of(list(margin_family("default", "discrete", label = "x", fit = identity,
                                                    df = identity, pmf = identity)), names(margin_set_info)),
               class = "irtopics_error_internal", regexp = "name of a set")
  expect_error(margin_registry_of(list(margin_family("x", "discrete", label = "x", fit = identity,
                                                    df = identity, pmf = identity, sets = "mine")),
                                  names(margin_set_info)),
               class = "irtopics_error_internal", regexp = "unknown set")
})
