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
# pilot's moments, for one system; PPI++'s lambda the one minimising it,
# found numerically by optimize() (the package uses the closed form).
direct_half <- function(Y, f, fu, method, n, N, z = stats::qnorm(0.975), lambda = direct_lambda(Y, f, fu, method, n, N)) {
  z * sqrt(stats::var(Y - lambda * f) / n + lambda^2 * stats::var(fu) / N)
}
direct_lambda <- function(Y, f, fu, method, n, N) {
  switch(method, classical = 0, ppi = 1,
         `ppi++` = stats::optimize(function(l) stats::var(Y - l * f) / n + l^2 * stats::var(fu) / N,
                                   c(-10, 10), tol = 1e-12)$minimum)
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
  # the pilot's half-width (its own, jackknife se for PPI++), the plan's se
  # at the pilot's size, se_ratio, n_eff = var(Y) / se^2 and the planning
  # lambda (the optimum, to optimize()'s tolerance)
  means <- as.data.frame(am)
  n0 <- length(cs$lab)
  for (m in am$methods) {
    r <- tab[tab$method == m & tab$half_width == 0.05, ]
    a <- means[means$method == m, ]
    expect_equal(r$pilot_half_width, stats::qnorm(0.975) * a$std.error, tolerance = 1e-12)
    plan_se <- vapply(r$system, function(s) {
      direct_half(cs$ref[s, ], cs$judge[s, cs$lab], cs$judge[s, cs$unl], m, n0, N, z = 1)
    }, 1)
    expect_equal(r$se_ratio, a$std.error / unname(plan_se), tolerance = 1e-8)
    expect_equal(r$n_eff, unname(apply(cs$ref, 1, stats::var)) / unname(plan_se)^2, tolerance = 1e-8)
    want_l <- vapply(r$system, function(s) direct_lambda(cs$ref[s, ], cs$judge[s, cs$lab], cs$judge[s, cs$unl], m, n0, N), 1)
    expect_equal(r$lambda, unname(want_l), tolerance = 1e-6)
    if (m != "ppi++") expect_equal(r$se_ratio, rep(1, nrow(r)), tolerance = 1e-12)
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
  pp <- tab[tab$method == "ppi++", ]
  expect_equal(pp$n_eff, 20 * cl$std.error^2 / (means$std.error[means$method == "ppi++"] / pp$se_ratio)^2,
               tolerance = 1e-12)
  # the planning lambda per stratum minimises the stratified se^2 at the pilot's size
  for (s in rownames(cs$ref)) {
    se2 <- function(l, h) {
      lab <- cs$lab[strata[cs$lab] == h]
      unl <- cs$unl[strata[cs$unl] == h]
      stats::var(cs$ref[s, lab] - l * cs$judge[s, lab]) / length(lab) + l^2 * stats::var(cs$judge[s, unl]) / length(unl)
    }
    w <- c(a = 0.4, b = 0.6)
    total <- sum(vapply(names(w), function(h) {
      w[[h]]^2 * se2(stats::optimize(se2, c(-10, 10), h = h, tol = 1e-12)$minimum, h)
    }, 1))
    expect_equal(stats::qnorm(0.975) * sqrt(total), pp$pilot_half_width[pp$system == s] / pp$se_ratio[pp$system == s],
                 tolerance = 1e-8)
  }
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

test_that("PPI++'s planned n is never above PPI's nor human only's, even with a judge more variable off the pilot", {
  # the judge's scores vary 0.3 times as much on the unlabelled topics: the
  # pilot's tuned lambda (variance over all topics) then plans more topics
  # than PPI; the planning lambda cannot
  set.seed(21)
  n <- 20
  N <- 80
  topics <- paste0("q", seq_len(n + N))
  truth <- matrix(stats::runif(4 * (n + N)), 4, dimnames = list(paste0("s", 1:4), topics))
  judge <- truth + matrix(stats::rnorm(length(truth), 0, 0.05), 4)
  judge[, (n + 1):(n + N)] <- 0.5 + 0.3 * (judge[, (n + 1):(n + N)] - 0.5)
  am <- assisted_means(truth[, 1:n], judge)
  for (args in list(list(), list(n_topics = 300), list(n_unlabelled = 1000))) {
    pl <- do.call(assisted_plan, c(list(am, half_width = c(0.03, 0.05, 0.08)), args))
    tab <- as.data.frame(pl)
    key <- paste(tab$system, tab$half_width)
    pp <- tab[tab$method == "ppi++", ]
    for (other in c("ppi", "classical")) {
      o <- tab[tab$method == other, ]
      expect_true(all(pp$n_needed <= o$n_needed[match(paste(pp$system, pp$half_width), paste(o$system, o$half_width))]))
    }
    # and the curve too, at every n
    cv <- pl$curve
    for (other in c("ppi", "classical")) {
      expect_true(all(cv$half_width[cv$method == "ppi++"] <= cv$half_width[cv$method == other] * (1 + 1e-12)))
    }
  }
  # the pilot's own lambda would have planned more than PPI here (the defect fixed)
  s <- "s1"
  Y <- truth[s, 1:n]; f <- judge[s, 1:n]; fu <- judge[s, (n + 1):(n + N)]
  half <- function(l, k) stats::qnorm(0.975) * sqrt(stats::var(Y - l * f) / k + l^2 * stats::var(fu) / N)
  tuned <- stats::cov(Y, f) / ((1 + 60 / N) * stats::var(c(f, fu)))
  expect_gt(half(tuned, 60), 1.5 * half(1, 60))
})

test_that("the figure's axis stops at 1.5 times PPI++'s and human only's largest n, the cut said in a caption", {
  cs <- plan_case(5, noise = 0.3)
  am <- assisted_means(cs$ref, cs$judge)
  pl <- assisted_plan(am, half_width = c(0.04, 0.08))
  nd <- pl$needed
  own <- nd$n_needed[nd$method %in% c("ppi++", "classical")]
  axis <- ceiling(1.5 * max(own))
  expect_true(any(nd$method == "ppi" & nd$n_needed > axis))
  p <- ggplot2::autoplot(pl)
  b <- ggplot2::ggplot_build(p)
  expect_equal(b$layout$panel_params[[1]]$x.range[2], axis, tolerance = 0.06 * axis)
  expect_lte(max(b$data[[2]]$x, na.rm = TRUE), axis)
  # the curve is dense on the axis: at least 100 points per method
  expect_true(all(table(b$data[[2]]$group) >= 100))
  cut <- nd[nd$n_needed > axis, ]
  expect_match(p$labels$caption, "Beyond the axis")
  for (i in seq_len(nrow(cut))) {
    want <- if (is.finite(cut$n_needed[i])) format(cut$n_needed[i], big.mark = ",") else "out of reach"
    expect_match(p$labels$caption, want, fixed = TRUE)
  }
  # the points drawn are the n needed on the axis
  expect_equal(sort(b$data[[3]]$x), sort(nd$n_needed[nd$n_needed <= axis]))
  # a fixed collection: the axis is at most the collection
  pl2 <- assisted_plan(am, half_width = 0.08, n_topics = 120)
  b2 <- ggplot2::ggplot_build(ggplot2::autoplot(pl2))
  expect_lte(max(b2$data[[2]]$x), 118)
  # nothing cut: no caption
  pl3 <- assisted_plan(am, half_width = 0.3)
  expect_null(ggplot2::autoplot(pl3)$labels$caption)
})
