# assisted_plan(): the labelled-set size that meets a target half-width,
# n_eff, the fixed-collection search and the curve.

plan_case <- function(seed, systems = 3, n = 15, N = 45, noise = 0.05) {
  set.seed(seed)
  topics <- paste0("q", seq_len(n + N))
  truth <- matrix(stats::runif(systems * (n + N)), systems, dimnames = list(paste0("s", seq_len(systems)), topics))
  judge <- truth + matrix(stats::rnorm(length(truth), 0, noise), systems)
  lab <- sample(topics, n)
  list(ref = truth[, lab], judge = judge, lab = lab, unl = setdiff(topics, lab))
}

# The spec's half-width at n labelled and N unlabelled topics from the
# pilot's moments, for one system; PPI++'s lambda retuned at (n, N).
direct_half <- function(Y, f, fu, method, n, N, z = stats::qnorm(0.975)) {
  vY <- stats::var(Y)
  cc <- stats::cov(Y, f)
  vf <- stats::var(f)
  lam <- switch(method, classical = 0, ppi = 1,
                `ppi++` = cc / ((1 + n / N) * stats::var(c(f, fu))))
  z * sqrt((vY - 2 * lam * cc + lam^2 * vf) / n + lam^2 * stats::var(fu) / N)
}

test_that("the n found gives the target half-width, and n - 1 does not", {
  cs <- plan_case(1)
  am <- assisted_means(cs$ref, cs$judge)
  pl <- assisted_plan(am, half_width = c(0.02, 0.05, 0.1))
  tab <- as.data.frame(pl)
  N <- length(cs$unl)
  for (i in seq_len(nrow(tab))) {
    r <- tab[i, ]
    Y <- cs$ref[r$system, ]
    f <- cs$judge[r$system, cs$lab]
    fu <- cs$judge[r$system, cs$unl]
    if (is.finite(r$n_needed)) {
      expect_lte(direct_half(Y, f, fu, r$method, r$n_needed, N), r$half_width * (1 + 1e-9))
      if (r$n_needed > 2) expect_gt(direct_half(Y, f, fu, r$method, r$n_needed - 1, N), r$half_width)
    } else {
      # PPI: the judge's own term alone is wider than the target
      expect_equal(r$method, "ppi")
      expect_gt(stats::qnorm(0.975) * sqrt(stats::var(fu) / N), r$half_width)
    }
  }
  # classical: the closed form z^2 var(Y) / h^2, rounded up
  cl <- tab[tab$method == "classical", ]
  vY <- apply(cs$ref[cl$system, ], 1, stats::var)
  expect_equal(cl$n_needed, ceiling(stats::qnorm(0.975)^2 * unname(vY) / cl$half_width^2))
  # the pilot's half-width and n_eff = var(Y) / se^2
  means <- as.data.frame(am)
  for (m in am$methods) {
    r <- tab[tab$method == m & tab$half_width == 0.05, ]
    a <- means[means$method == m, ]
    expect_equal(r$pilot_half_width, stats::qnorm(0.975) * a$std.error, tolerance = 1e-12)
    expect_equal(r$n_eff, unname(apply(cs$ref, 1, stats::var)) / a$std.error^2, tolerance = 1e-12)
    expect_equal(r$lambda, a$lambda, tolerance = 1e-12)
  }
  expect_equal(tab$n_eff[tab$method == "classical"], rep(length(cs$lab), 3 * nrow(cs$ref)))
  # needed: the largest over systems
  nd <- pl$needed
  for (i in seq_len(nrow(nd))) {
    expect_equal(nd$n_needed[i], max(tab$n_needed[tab$method == nd$method[i] & tab$half_width == nd$half_width[i]]))
  }
  # a good judge is worth more human-labelled topics than it has
  expect_true(all(tab$n_eff[tab$method == "ppi++"] > length(cs$lab)))
})

test_that("in a fixed collection the smallest n of every n is found; n_unlabelled rescales N", {
  cs <- plan_case(2, noise = 0.15)
  am <- assisted_means(cs$ref, cs$judge)
  pl <- assisted_plan(am, half_width = 0.08, n_topics = 150)
  tab <- as.data.frame(pl)
  for (i in seq_len(nrow(tab))) {
    r <- tab[i, ]
    Y <- cs$ref[r$system, ]
    f <- cs$judge[r$system, cs$lab]
    fu <- cs$judge[r$system, cs$unl]
    ok <- vapply(2:148, function(n) direct_half(Y, f, fu, r$method, n, 150 - n) <= 0.08 * (1 + 1e-12), logical(1))
    want <- if (any(ok)) (2:148)[which(ok)[1]] else Inf
    expect_equal(r$n_needed, want)
  }
  pl2 <- assisted_plan(am, half_width = 0.08, n_unlabelled = 500)
  tab2 <- as.data.frame(pl2)
  r <- tab2[tab2$method == "ppi" & tab2$system == "s1", ]
  if (is.finite(r$n_needed)) {
    expect_lte(direct_half(cs$ref["s1", ], cs$judge["s1", cs$lab], cs$judge["s1", cs$unl], "ppi", r$n_needed, 500), 0.08)
  }
  expect_error(assisted_plan(am, half_width = -1), class = "irtopics_error_argument")
  expect_error(assisted_plan(am, half_width = 0.1, n_unlabelled = 10, n_topics = 100), class = "irtopics_error_argument")
  expect_error(assisted_plan(cs$ref, half_width = 0.1), class = "irtopics_error_argument")
})

test_that("with strata the pilot's own size gives the stratified standard error", {
  cs <- plan_case(3, n = 20, N = 40)
  topics <- colnames(cs$judge)
  strata <- stats::setNames(rep(c("a", "b"), length.out = length(topics)), topics)
  am <- assisted_means(cs$ref, cs$judge, strata = strata, weights = c(a = 0.4, b = 0.6))
  pl <- assisted_plan(am, half_width = 0.05)
  tab <- as.data.frame(pl)
  means <- as.data.frame(am)
  for (m in am$methods) {
    expect_equal(tab$pilot_half_width[tab$method == m], stats::qnorm(0.975) * means$std.error[means$method == m],
                 tolerance = 1e-12)
  }
  cl <- means[means$method == "classical", ]
  expect_equal(tab$n_eff[tab$method == "ppi++"],
               20 * cl$std.error^2 / means$std.error[means$method == "ppi++"]^2, tolerance = 1e-12)
})

test_that("the curve is the widest system's half-width, with the targets and the n needed", {
  cs <- plan_case(4)
  am <- assisted_means(cs$ref, cs$judge)
  pl <- assisted_plan(am, half_width = c(0.04, 0.08))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(pl))
  expect_equal(sort(unique(b$data[[1]]$yintercept)), c(0.04, 0.08))
  lines <- b$data[[2]]
  expect_equal(length(unique(lines$group)), 3L)
  cv <- pl$curve[pl$curve$method == "classical", ]
  N <- length(cs$unl)
  want <- vapply(cv$n, function(n) max(vapply(rownames(cs$ref), function(s) {
    direct_half(cs$ref[s, ], cs$judge[s, cs$lab], cs$judge[s, cs$unl], "classical", n, N)
  }, 1)), 1)
  expect_equal(cv$half_width, want, tolerance = 1e-12)
  pts <- b$data[[3]]
  finite <- pl$needed[is.finite(pl$needed$n_needed), ]
  expect_equal(sort(pts$x), sort(finite$n_needed))
  expect_s3_class(summary(pl), "summary.ir_assisted_plan")
  expect_true(any(grepl("<ir_assisted_plan>", format(pl))))
})

test_that("planning from the judge's agreement follows its closed forms", {
  ag <- data.frame(system = c("a", "b"), sd = c(0.2, 0.25), correlation = c(0.8, 0.5), sd_judge = c(0.18, 0.3))
  pl <- assisted_plan(ag, half_width = 0.03, n_unlabelled = 300)
  tab <- as.data.frame(pl)
  z <- stats::qnorm(0.975)
  N <- 300
  half <- function(method, i, n) {
    s <- ag$sd[i]; r <- ag$correlation[i]; sj <- ag$sd_judge[i]
    se2 <- switch(method, classical = s^2 / n, `ppi++` = s^2 / n * (1 - r^2 * N / (n + N)),
                  ppi = (s^2 + sj^2 - 2 * r * s * sj) / n + sj^2 / N)
    z * sqrt(se2)
  }
  for (k in seq_len(nrow(tab))) {
    r <- tab[k, ]
    i <- match(r$system, ag$system)
    if (is.finite(r$n_needed)) {
      expect_lte(half(r$method, i, r$n_needed), 0.03 * (1 + 1e-9))
      expect_gt(half(r$method, i, r$n_needed - 1), 0.03)
    } else {
      expect_gt(z * ag$sd_judge[i] / sqrt(N), 0.03)
    }
  }
  pp <- tab[tab$method == "ppi++", ]
  i <- match(pp$system, ag$system)
  expect_equal(pp$n_eff, pp$n_needed / (1 - ag$correlation[i]^2 * N / (pp$n_needed + N)), tolerance = 1e-12)
  expect_equal(pp$lambda, ag$correlation[i] * ag$sd[i] / (ag$sd_judge[i] * (1 + pp$n_needed / N)), tolerance = 1e-12)
  expect_true(all(is.na(tab$n_labelled)))
  expect_equal(pl$source, "agreement")
  expect_match(format(pl)[2], "agreement")
  # no judge sd: PPI++ and human only
  pl2 <- assisted_plan(data.frame(sd = 0.2, correlation = 0.9), half_width = 0.03, n_topics = 200)
  expect_equal(pl2$methods, c("ppi++", "classical"))
  expect_error(assisted_plan(data.frame(sd = 0.2, correlation = 0.9), half_width = 0.03),
               class = "irtopics_error_argument")
  expect_error(assisted_plan(data.frame(sd = 0.2, correlation = 2), half_width = 0.03, n_topics = 100),
               class = "irtopics_error_argument")
  expect_error(assisted_plan(data.frame(sd = 0.2), half_width = 0.03, n_topics = 100),
               class = "irtopics_error_argument")
})
