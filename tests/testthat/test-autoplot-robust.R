test_that("robust_summary plots: sorted AP, MAP vs GMAP, per-set bars", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  rs <- robust_summary(ap, topic_sets = list(new = 651:700))
  runs <- rownames(ap)[1:3]
  d <- ggplot2::layer_data(ggplot2::autoplot(rs, systems = runs))
  expect_equal(nrow(d), 3 * 249)
  expect_equal(d$y[d$group == 1], unname(sort(unclass(ap)[runs[1], ])))
  g <- ggplot2::layer_data(ggplot2::autoplot(rs, type = "gmap"))
  all <- rs$table[rs$table$topic_set == "all", ]
  expect_equal(g$x, all$MAP)
  expect_equal(g$y, all$GMAP)
  b <- ggplot2::layer_data(ggplot2::autoplot(rs, type = "sets", systems = runs, measure = "area"))
  expect_equal(nrow(b), 6)
  expect_setequal(b$y, rs$table$area[rs$table$system %in% runs])
  expect_error(ggplot2::autoplot(rs, type = "gmap", topic_set = "old"), class = "irtopics_error_argument")
})

test_that("prediction plots: curves (Figure 1) and scatter (Figure 2)", {
  ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
  pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)
  pc <- prediction_curves(ap, pred)
  d <- ggplot2::layer_data(ggplot2::autoplot(pc))
  expect_equal(nrow(d), 6)
  expect_equal(sort(d$y), sort(pc$curves$MAP))
  expect_equal(length(unique(d$shape)), 2)
  s <- ggplot2::layer_data(ggplot2::autoplot(pc, type = "scatter"))
  expect_equal(c(s$x, s$y), c(pc$runs$tau, pc$runs$area_between))
  expect_error(ggplot2::autoplot(pc, type = "bars"), class = "irtopics_error_argument")
})

test_that("error rates and critical values plots", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"), measure = "AP")
  e <- bind_error_rates(swap_error_rates(ap, sizes = c(5, 10), trials = 10, seed = 1),
                        swap_error_rates(ap, sizes = c(5, 10), aggregate = "gmean", trials = 10, seed = 1))
  d <- ggplot2::layer_data(ggplot2::autoplot(e))
  expect_equal(nrow(d), 4)
  expect_equal(sort(d$y), sort(100 * e$error$error_rate))
  expect_equal(length(unique(d$colour)), 2)
  t <- ggplot2::layer_data(ggplot2::autoplot(e, what = "ties"))
  expect_equal(sort(t$y), sort(100 * e$error$tie_rate))
  cv <- critical_values(swap_error_rates(ap, sizes = 10, trials = 10, seed = 1))
  c1 <- ggplot2::layer_data(ggplot2::autoplot(cv))
  expect_equal(c1$y, 100 * cv$curves$error_rate[!is.na(cv$curves$error_rate)])
})

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

test_that("reliability plots: D-study curves of Erho2 and Phi", {
  x <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv", package = "irtopics"))
  g <- g_study(x)
  ds <- d_study(g, c(5, 10, 40))
  d <- ggplot2::layer_data(ggplot2::autoplot(ds), 2)
  expect_equal(d$x, c(5, 10, 40, 5, 10, 40))
  expect_equal(d$y, c(ds$Erho2, ds$Phi))
  pg <- ggplot2::autoplot(g)
  dg <- ggplot2::layer_data(pg, 2)
  expect_equal(dg$x[dg$group == 1], seq_len(2 * g$n_topics))
  # at the observed number of topics Erho2 is Cronbach's alpha
  expect_equal(dg$y[dg$group == 1][g$n_topics], cronbach_alpha(x))
  expect_equal(ggplot2::layer_data(pg, length(pg$layers))$xintercept, g$n_topics)  # the last layer
  rib <- ggplot2::layer_data(ggplot2::autoplot(ds), 3)
  expect_equal(rib$ymin, c(ds$Erho2_low, ds$Phi_low))
  expect_equal(rib$ymax, c(ds$Erho2_high, ds$Phi_high))
})
