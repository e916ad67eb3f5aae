# g_study_replicates(): mean squares against aov(), components by the expected
# mean squares worked in the test, the D-study and replicates needed by hand,
# and the link to g_study() on the averaged replicates.

replicate_fixture <- function(ns = 3, nr = 4, nt = 25, seed = 7) {
  set.seed(seed)
  sys <- paste0("s", seq_len(ns))
  runs <- paste0(rep(sys, each = nr), "_r", seq_len(nr))
  x <- outer(rep(rnorm(ns, 0, 0.04), each = nr) + rnorm(ns * nr, 0, 0.02), rnorm(nt, 0.3, 0.1), "+") +
    matrix(rnorm(ns * nt, 0, 0.03), ns, nt)[rep(seq_len(ns), each = nr), ] + rnorm(ns * nr * nt, 0, 0.05)
  dimnames(x) <- list(runs, paste0("t", seq_len(nt)))
  list(x = x, system = rep(sys, each = nr), runs = runs)
}

test_that("mean squares equal aov()'s and the components solve the expected mean squares", {
  f <- replicate_fixture()
  g <- g_study_replicates(f$x, replicate = f$system)
  d <- data.frame(score = as.vector(f$x), run = factor(rep(f$runs, ncol(f$x))),
                  system = factor(rep(f$system, ncol(f$x))), topic = factor(rep(colnames(f$x), each = nrow(f$x))))
  a <- summary(stats::aov(score ~ system + topic + system:run + system:topic, data = d))[[1]]
  ms <- stats::setNames(a[["Mean Sq"]], trimws(rownames(a)))
  expect_equal(unname(g$mean_squares), unname(ms[c("system", "system:run", "topic", "system:topic", "Residuals")]),
               tolerance = 1e-10)
  expect_equal(unname(g$df), a$Df[c(1, 3, 2, 4, 5)])
  # EMS of the (r:s) x t design, solved by hand: ns = 3, nr = 4, nt = 25
  e <- ms[["Residuals"]]
  st <- (ms[["system:topic"]] - e) / 4
  rs <- (ms[["system:run"]] - e) / 25
  tp <- (ms[["topic"]] - ms[["system:topic"]]) / (3 * 4)
  s <- (ms[["system"]] - 4 * st - 25 * rs - e) / (4 * 25)
  v <- stats::setNames(g$components$variance, g$components$component)
  expect_equal(unname(v), c(s, rs, tp, st, e), tolerance = 1e-10)
  expect_equal(sum(g$components$percent[g$components$variance > 0]), 100)
  # D-study at the observed design, by hand
  rel <- st / 25 + rs / 4 + e / 100
  expect_equal(g$Erho2, s / (s + rel), tolerance = 1e-10)
  expect_equal(g$Phi, s / (s + rel + tp / 25), tolerance = 1e-10)
  expect_equal(g$n_replicates, 4)
  expect_equal(g$systems$s2, c("s2_r1", "s2_r2", "s2_r3", "s2_r4"))
})

test_that("averaging replicates first folds their variance into g_study()'s components", {
  f <- replicate_fixture(ns = 4, nr = 3, nt = 30, seed = 3)
  g <- g_study_replicates(f$x, replicate = f$system)
  means <- rowsum(f$x, f$system) / 3
  g0 <- g_study(means)
  v <- stats::setNames(g$components$variance, g$components$component)
  v0 <- stats::setNames(g0$components$variance, g0$components$component)
  expect_equal(v0[["system"]], v[["system"]] + v[["replicate:system"]] / 3, tolerance = 1e-10)
  expect_equal(v0[["topic"]], v[["topic"]], tolerance = 1e-10)
  expect_equal(v0[["residual"]], v[["system:topic"]] + v[["residual"]] / 3, tolerance = 1e-10)
})

test_that("the projection and the replicates needed follow the D-study formulas (worked by hand)", {
  f <- replicate_fixture()
  g <- g_study_replicates(f$x, replicate = f$system, n_topics = c(10, 50), n_replicates = 1:30,
                          target = c(0.8, 0.9))
  v <- stats::setNames(g$components$variance, g$components$component)
  row <- g$projection[g$projection$n_topics == 50 & g$projection$n_replicates == 7, ]
  rel <- v[["system:topic"]] / 50 + v[["replicate:system"]] / 7 + v[["residual"]] / 350
  expect_equal(row$Erho2, v[["system"]] / (v[["system"]] + rel))
  expect_equal(row$Phi, v[["system"]] / (v[["system"]] + rel + v[["topic"]] / 50))
  expect_equal(nrow(g$projection), 60)
  # replicates needed: the first n_r of a fine search whose Erho2 reaches the target
  for (nt in c(10, 50)) for (p in c(0.8, 0.9)) {
    r <- 1:100000
    e <- v[["system"]] / (v[["system"]] + v[["system:topic"]] / nt + v[["replicate:system"]] / r +
                            v[["residual"]] / (r * nt))
    want <- if (any(e >= p)) min(r[e >= p]) else Inf
    got <- g$replicates_needed$Erho2[g$replicates_needed$n_topics == nt & g$replicates_needed$target == p]
    expect_equal(got, want, label = sprintf("Erho2 at %d topics, target %g", nt, p))
  }
  # a target beyond the limit of infinitely many replicates is Inf
  lim <- v[["system"]] / (v[["system"]] + v[["system:topic"]] / 2)
  expect_lt(lim, 0.99)
  h <- g_study_replicates(f$x, replicate = f$system, n_topics = 2, target = lim + (1 - lim) / 2)
  expect_equal(h$replicates_needed$Erho2, Inf)
})

test_that("the mapping can be named, unnamed or a data frame; rows in any order", {
  f <- replicate_fixture()
  a <- g_study_replicates(f$x, replicate = f$system)
  named <- stats::setNames(f$system, f$runs)
  shuffled <- f$x[c(5, 1, 12, 3, 2, 9, 4, 6, 8, 7, 11, 10), ]
  b <- g_study_replicates(shuffled, replicate = rev(named))
  expect_equal(a$components$variance, b$components$variance, tolerance = 1e-12)
  c2 <- g_study_replicates(f$x, replicate = data.frame(run = f$runs, system = f$system))
  expect_equal(a$components, c2$components)
  # exact rescaling: scores times 2^-900 give the same coefficients
  tiny <- g_study_replicates(f$x * 2^-900, replicate = f$system)
  expect_equal(tiny$Erho2, a$Erho2)
})

test_that("unbalanced or incomplete designs and bad arguments are classed errors", {
  f <- replicate_fixture()
  expect_error(g_study_replicates(f$x[-1, ], replicate = f$system[-1]), class = "irtopics_error_data",
               regexp = "balanced")
  expect_error(g_study_replicates(f$x, replicate = paste0("sys", 1:12)), class = "irtopics_error_data",
               regexp = "balanced")
  expect_error(g_study_replicates(f$x, replicate = f$system[-1]), class = "irtopics_error_argument",
               regexp = "one system per row")
  expect_error(g_study_replicates(f$x, replicate = stats::setNames(f$system[-1], f$runs[-1])),
               class = "irtopics_error_argument", regexp = "s1_r1")
  expect_error(g_study_replicates(f$x, replicate = data.frame(a = 1)), class = "irtopics_error_argument",
               regexp = "run")
  expect_error(g_study_replicates(f$x, replicate = f$system, n_replicates = 0), class = "irtopics_error_argument")
  expect_error(g_study_replicates(f$x, replicate = f$system, target = 1), class = "irtopics_error_argument")
  y <- f$x
  y[1, 1] <- NA
  expect_error(g_study_replicates(y, replicate = f$system), class = "irtopics_error_data")
})

test_that("print, summary, data frame and plot", {
  f <- replicate_fixture()
  g <- g_study_replicates(f$x, replicate = f$system, n_topics = c(25, 100), n_replicates = 1:6)
  out <- format(g)
  expect_match(out[1], "3 systems x 4 replicates x 25 topics")
  expect_true(any(grepl("replicate:system", out)))
  expect_true(any(grepl("Replicates needed", out)))
  expect_equal(as.data.frame(summary(g)), g$components)
  expect_identical(class(as.data.frame(g)), "data.frame")
  p <- ggplot2::autoplot(g)
  lines <- ggplot2::layer_data(p, 1)
  expect_equal(nrow(lines), 24)
  expect_equal(sort(lines$y), sort(c(g$projection$Erho2, g$projection$Phi)))
  expect_equal(unique(ggplot2::layer_data(p, 3)$xintercept), 4)    # one per panel
  expect_equal(unique(ggplot2::layer_data(p, 4)$yintercept), 0.95)
  b <- ggplot2::ggplot_build(p)
  expect_equal(levels(b$layout$layout$coefficient), c("Erho2", "Phi"))
  expect_equal(p$labels$colour, "Topics")
  expect_error(ggplot2::autoplot(g, tagret = 0.9), class = "irtopics_error_argument")
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("the replicates D-study follows the user's theme, fits a column and labels strips by symbol", {
  f <- replicate_fixture()
  g <- g_study_replicates(f$x, replicate = f$system, n_topics = c(25, 100), n_replicates = 1:6)
  make <- function() ggplot2::autoplot(g)
  expect_follows_user_theme(make)
  # title, subtitle, strips, the legend of topic-set sizes and the caption
  # (what the lines are): a third of 2.6 in is left to the panels
  expect_figure_ready(make(), min_panel = 0.3)
  expect_figure_ready(make(), width = 7, height = 4.5)
  # the strips are E rho^2 and Phi as plotmath (label_parsed), not "Erho2"
  lab <- make()$facet$params$labeller
  out <- lab(data.frame(coefficient = factor(c("Erho2", "Phi"))))[[1]]
  expect_true(all(vapply(out, is.expression, logical(1))))
  expect_identical(vapply(out, function(e) deparse(e[[1]]), ""), c("E * rho^2", "Phi"))
  th <- ggplot2::theme_get() + make()$theme
  expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
  # one topic-set size: no legend, the caption names it
  g1 <- g_study_replicates(f$x, replicate = f$system, n_topics = 25, n_replicates = 1:6)
  p1 <- ggplot2::autoplot(g1)
  expect_false(has_legend(p1))
  expect_match(p1$labels$caption, "25 topics")
})
