mandl_x <- rbind(s1 = c(.05, .40, .00, .70, .20, .55, .10, .90), s2 = c(.10, .35, .02, .60, .25, .50, .00, .85),
                 s3 = c(.00, .45, .05, .75, .15, .40, .12, .80), s4 = c(.08, .30, .01, .65, .30, .60, .06, .95),
                 s5 = c(.02, .20, .00, .50, .10, .45, .03, .70), s6 = c(.12, .50, .04, .80, .22, .35, .09, .75))
colnames(mandl_x) <- paste0("t", 1:8)


test_that("group agreement plot: bars for MAP and GMAP, points for alpha", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"), measure = "AP")
  ga <- group_agreement(ap)
  p <- ggplot2::autoplot(ga)
  bars <- ggplot2::layer_data(p, 1)
  pts <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(bars), 8)
  expect_setequal(bars$y, c(ga$groups$cor_map[1:4], ga$groups$cor_gmap[1:4]))
  expect_equal(pts$y, ga$groups$alpha[1:4])
})

test_that("the spec's quartile example (section 5.3)", {
  d <- topic_difficulty(mandl_x)
  expect_equal(d$difficulty, c(.061667, .366667, .02, .666667, .203333, .475, .066667, .825), tolerance = 1e-5)
  g <- difficulty_groups(mandl_x)
  expect_equal(g$topic, c("t3", "t1", "t7", "t5", "t2", "t6", "t4", "t8"))
  expect_equal(g$group, rep(1:4, each = 2))
  ga <- group_agreement(mandl_x)
  q <- ga$groups
  expect_equal(q$cor_map[1:4], c(0.2760262237, 0.8666666667, 0.6900655593, 0.9309493363), tolerance = 1e-9)
  expect_equal(q$cor_gmap[1:4], c(0.5520524475, 0.5520524475, 0.2760262237, 0.5520524475), tolerance = 1e-9)
  expect_equal(q$alpha, c(0.05933250927, -0.3311546841, -1.92, 0.256227758, 0.6776642257), tolerance = 1e-9)
  expect_equal(ga$cor_map_gmap, 0.7333333333, tolerance = 1e-9)
  full_gmap <- c(0.1041646608, 0.09040600505, 0.09964563593, 0.188596659, 0.06089164763, 0.2370756587)
  expect_equal(unname(gmean_scores(mandl_x, eps = 1e-4, method = "replace0")), full_gmap, tolerance = 1e-9)
})

test_that("group agreement equals cor() and psych::alpha on TREC-8", {
  skip_if_not_installed("psych")
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"), measure = "AP")
  m <- unclass(ap); attr(m, "measure") <- NULL
  ga <- group_agreement(ap, method = "spearman")
  g <- ga$topics
  full <- rowMeans(m)
  for (k in 1:4) {
    sub <- m[, g$topic[g$group == k]]
    expect_equal(ga$groups$cor_map[k], cor(rowMeans(sub), full, method = "spearman"))
    expect_equal(ga$groups$alpha[k], suppressWarnings(psych::alpha(sub, warnings = FALSE))$total$raw_alpha,
                 tolerance = 1e-10)
  }
  kd <- group_agreement(ap)
  sub <- m[, g$topic[g$group == 1]]
  gm <- function(x) apply(x, 1, function(v) exp(mean(log(ifelse(v == 0, 1e-4, v)))))
  expect_equal(kd$groups$cor_gmap[1], cor(gm(sub), gm(m), method = "kendall"))
  expect_equal(as.vector(table(g$group)), c(12, 13, 12, 13))   # floor(j * 50 / 4)
})

test_that("boundaries floor(j T / k), ties by topic id, exclusions and top", {
  m <- matrix(c(.1, .1, .3, .2, .5), 1, dimnames = list("s", c("5", "3", "4", "10", "1")))
  m <- rbind(m, m * 2)
  rownames(m) <- c("s1", "s2")
  g <- difficulty_groups(m, k = 2)
  expect_equal(g$topic, c("3", "5", "10", "4", "1"))   # 0.1 tie: 3 before 5
  expect_equal(g$group, c(1, 1, 2, 2, 2))
  expect_equal(difficulty_groups(m, k = 5)$group, 1:5)
  expect_equal(topic_difficulty(m, by = "var")$difficulty, c(.1, .1, .3, .2, .5)^2 / 2)
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"))
  ga <- group_agreement(ap, top = 10, exclude = rownames(ap)[1])
  expect_equal(ga$n_systems, 10)
  expect_false(rownames(ap)[1] %in% ga$systems)
  best <- names(sort(rowMeans(unclass(ap)[-1, ]), decreasing = TRUE))[1:10]
  expect_setequal(ga$systems, best)
  expect_equal(group_agreement(ap, method = "tau_ap")$groups$cor_map[1],
               kendall_tau(rowMeans(unclass(ap)[, difficulty_groups(ap)$topic[1:12]]), rowMeans(unclass(ap)), "ap"))
  expect_output(print(ga), "group_agreement")
})

test_that("the 'all' row correlates the full ranking with itself by the chosen coefficient", {
  # systems 3 and 4 tie on MAP (and on GMAP): tau-a of the full ranking with
  # itself is 5/6, not 1; with k = 1 the single group is the full set and
  # must agree with the "all" row
  x <- rbind(c(.1, .2, .3, .4), c(.4, .3, .2, .5), c(.2, .2, .2, .2), c(.2, .2, .2, .2))
  rownames(x) <- paste0("s", 1:4)
  for (method in c("kendall", "tau_a", "tau_ap", "spearman")) {
    ga <- group_agreement(x, k = 1, method = method)
    expect_equal(ga$groups$cor_map[2], ga$groups$cor_map[1], info = method)
    expect_equal(ga$groups$cor_gmap[2], ga$groups$cor_gmap[1], info = method)
  }
  expect_equal(group_agreement(x, k = 2, method = "tau_a")$groups$cor_map[3],
               kendall_tau(rowMeans(x), rowMeans(x), "a"))
  expect_lt(group_agreement(x, k = 2, method = "tau_a")$groups$cor_map[3], 1)
  expect_equal(group_agreement(x, k = 2)$groups$cor_map[3], 1)
})

test_that("bad inputs give classed errors", {
  expect_error(difficulty_groups(mandl_x, k = 9), class = "irtopics_error_argument")
  expect_error(group_agreement(mandl_x, k = 0), class = "irtopics_error_argument")
  expect_error(group_agreement(mandl_x, exclude = "nope"), class = "irtopics_error_argument")
  expect_error(group_agreement(mandl_x, method = "cosine"), class = "irtopics_error_argument")
  bad <- mandl_x; bad[2, 2] <- NA
  expect_error(topic_difficulty(bad), class = "irtopics_error_data")
  expect_error(group_agreement(-mandl_x), class = "irtopics_error_data")
})

test_that("printing and error messages are stable", {
  expect_snapshot(print(group_agreement(mandl_x)))
  expect_snapshot(difficulty_groups(mandl_x, k = 9), error = TRUE)
})

test_that("group_agreement(conf =) adds jackknife intervals over systems, by hand", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")[1:20, ]
  ga <- group_agreement(ap, conf = 0.9)
  plain <- group_agreement(ap)
  expect_identical(ga$groups[names(plain$groups)], plain$groups)
  ids <- ga$topics$topic[ga$topics$group == 2]
  x <- rowMeans(unclass(ap)[, ids])
  y <- rowMeans(unclass(ap))
  loo <- vapply(1:20, function(i) cor(x[-i], y[-i], method = "kendall"), 0)
  se <- sqrt(19 / 20 * sum((loo - mean(loo))^2))
  ref <- cor(x, y, method = "kendall") + c(-1, 1) * qnorm(0.95) * se
  expect_equal(c(ga$groups$cor_map_low[2], ga$groups$cor_map_high[2]), pmin(1, pmax(-1, ref)))
  expect_identical(tau_interval(x, y, method = "jackknife", conf = 0.9)$conf.low, ga$groups$cor_map_low[2])
  expect_error(group_agreement(ap, conf = 2), class = "irtopics_error_argument")
})

test_that("the group-agreement figure: correlations and alpha in two panels with their own y axes", {
  ap <- robust()
  ga <- group_agreement(ap[best(ap, 17), ])
  make <- function() ggplot2::autoplot(ga)
  p <- make()
  b <- ggplot2::ggplot_build(p)
  expect_identical(nrow(b$layout$layout), 2L)
  # free y scales: each panel's range is its own quantity's
  yr <- lapply(b$layout$panel_params, function(pp) pp$y.range)
  expect_true(yr[[1]][1] <= 0)
  expect_gt(yr[[2]][1], min(ga$groups$alpha) - 0.1)
  bars <- ggplot2::layer_data(p, 1)
  pts <- ggplot2::layer_data(p, 2)
  expect_identical(unique(as.integer(bars$PANEL)), 1L)
  expect_identical(unique(as.integer(pts$PANEL)), 2L)
  expect_equal(pts$y, ga$groups$alpha[ga$groups$group != "all"])
  # plotmath strip labels (tau_b, alpha), whole at one column
  expect_identical(as.character(b$layout$layout$panel), c('"Correlation ("*tau[b]*")"', "\"Cronbach's\"~alpha"))
  expect_false(strip_labels_clipped(p, parse = TRUE))
  expect_null(b$plot$labels$y)
  expect_follows_user_theme(make)
  expect_figure_ready(make())
  expect_figure_ready(make(), width = 7, height = 4.5)
  expect_lte(legend_width(make()), 3.5)
})
