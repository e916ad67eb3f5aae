test_that("autoplot of a GAWM fit draws E_s against MAP and E_t against AAP", {
  P <- spec_gawm_matrix()
  g <- gawm(P)
  p <- ggplot2::autoplot(g)
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p, 2)
  expect_equal(d$x, unname(rowMeans(P)))
  expect_equal(d$y, unname(g$E_s))
  pt <- ggplot2::autoplot(g, type = "topics")
  dt <- ggplot2::layer_data(pt, 2)
  expect_equal(dt$x, unname(colMeans(P)))
  expect_equal(dt$y, unname(g$E_t))
  expect_equal(order(dt$size), order(g$W_t))
  expect_error(ggplot2::autoplot(g, type = "pairs"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(hits(P), type = "pairs"), class = "irtopics_error_argument")
})

test_that("autoplot of HITS draws A(s) against MAP and A(t) against AAP", {
  P <- spec_gawm_matrix()
  h <- hits(P)
  d <- ggplot2::layer_data(ggplot2::autoplot(h), 2)
  expect_equal(d$x, unname(rowMeans(P)))
  expect_equal(d$y, unname(h$A_s))
  dt <- ggplot2::layer_data(ggplot2::autoplot(h, type = "topics"), 2)
  expect_equal(dt$y, unname(h$A_t))
})

test_that("autoplot of a smoothing experiment draws one box per lambda and the baseline", {
  ap <- real_scores("robust2004_ap.csv")
  ex <- smoothing_experiment(ap, reps = 60, seed = 2)
  p <- ggplot2::autoplot(ex)
  expect_s3_class(p, "ggplot")
  line <- ggplot2::layer_data(p, 1)
  expect_equal(line$yintercept, median(ex$tau[, "baseline"]))
  box <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(box), 5L)
  expect_equal(box$middle, unname(apply(ex$tau, 2, median)))
  expect_equal(length(unique(box$fill)), 2L)
})

test_that("autoplot of smoothed scores draws new, prior and smoothed means", {
  ap <- spec_smoothing_matrix()
  prior <- ap[, 1:4]
  prior[c("s1", "s2"), c("t3", "t4")] <- NA
  prior[c("s3", "s4"), c("t1", "t2")] <- NA
  prior["s4", ] <- NA
  sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.8)
  p <- ggplot2::autoplot(sm)
  seg <- ggplot2::layer_data(p, 1)
  expect_equal(sort(seg$x), sort(sm$means$new_mean))
  expect_equal(sort(seg$xend), sort(sm$means$smoothed_mean))
  pts <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(pts), 4 * 3 - 1)   # s4 has no prior point
  expect_equal(sort(pts$x), sort(c(sm$means$new_mean, sm$means$prior_mean[1:3], sm$means$smoothed_mean)))
})
