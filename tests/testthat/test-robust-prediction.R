ex_ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
ex_pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)


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

test_that("autoplot(prediction_curves, systems =) draws those runs' curves", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  pred <- t(apply(ap, 1, function(v) rank(-v + seq_along(v) / 100, ties.method = "first")))
  pc <- prediction_curves(ap, pred)
  # 40 runs: the default is the scatter ...
  expect_identical(nrow(ggplot2::layer_data(ggplot2::autoplot(pc))), 40L)
  # ... but naming runs draws their curves (the vignette's Figure 1)
  p <- ggplot2::autoplot(pc, systems = "sys5")
  ld <- ggplot2::layer_data(p)
  cur <- pc$curves[pc$curves$system == "sys5", ]
  expect_identical(nrow(ld), nrow(cur))
  expect_equal(sort(ld$y), sort(cur$MAP))
  # the scatter restricted to named runs
  p2 <- ggplot2::autoplot(pc, type = "scatter", systems = c("sys1", "sys2"))
  expect_equal(sort(ggplot2::layer_data(p2)$x), sort(pc$runs$tau[pc$runs$system %in% c("sys1", "sys2")]))
  expect_error(ggplot2::autoplot(pc, systems = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(pc, type = "curves", label = 2), class = "irtopics_error_argument")
})

test_that("the spec's worked example (section 2.5)", {
  pc <- prediction_curves(ex_ap, ex_pred)
  expect_equal(pc$y_min, 10)
  expect_equal(pc$runs$tau, 0.8397191228, tolerance = 1e-9)
  expect_equal(pc$runs$tau, cor(-ex_pred, ex_ap, method = "kendall"))
  expect_equal(pc$runs$area_between, 0.005, tolerance = 1e-12)
  act <- pc$curves[pc$curves$ranking == "actual", ]
  prd <- pc$curves[pc$curves$ranking == "predicted", ]
  expect_equal(act$MAP, c(0.2341666667, 0.2554545455, 0.281), tolerance = 1e-9)
  expect_equal(prd$MAP, c(0.2341666667, 0.2554545455, 0.276), tolerance = 1e-9)
  expect_equal(prediction_curves(ex_ap, ex_pred, tau = "a")$runs$tau, 0.8333333333, tolerance = 1e-9)
  expect_equal(prediction_curves(ex_ap, ex_pred, area = "trapezoid")$runs$area_between,
               0.005 - (0 + 0.005) / 2)
})

test_that("vectorised over runs, matching topics by name and re-ranking", {
  set.seed(1)
  ap <- matrix(round(runif(4 * 30), 3), 4, dimnames = list(paste0("r", 1:4), 101:130))
  pred <- t(apply(ap + matrix(rnorm(120, sd = .3), 4), 1, function(v) rank(-v, ties.method = "first")))
  # the predictions rank one more topic (dropped from the evaluation)
  extra <- cbind(pred + 1, `999` = 1)
  colnames(extra) <- c(colnames(ap), "999")
  dimnames(pred) <- dimnames(ap)
  pc <- prediction_curves(ap, extra[, c(31, 30:1)])
  pc0 <- prediction_curves(ap, pred)
  expect_equal(pc$runs, pc0$runs)
  for (s in 1:4) {
    v <- ap[s, ]; r <- pred[s, ]
    y <- 30:24
    act <- sapply(y, function(k) mean(sort(v, decreasing = TRUE)[1:k]))
    prd <- sapply(y, function(k) mean(v[order(r)][1:k]))
    expect_equal(pc$runs$area_between[s], sum(act - prd))
    expect_equal(pc$runs$tau[s], cor(-r, v, method = "kendall"))
  }
  expect_output(print(pc), "prediction_curves")
  expect_length(as.data.frame(summary(pc)), 4)
})

test_that("bad inputs give classed errors", {
  expect_error(prediction_curves(ex_ap, ex_pred[-1]), class = "irtopics_error_argument")
  # an unnamed prediction with an extra rank can't be matched by position
  # (it used to be cut silently to the first length(ap) ranks)
  expect_error(prediction_curves(ex_ap, c(ex_pred, 13)), class = "irtopics_error_argument")
  named_ap <- stats::setNames(ex_ap, paste0("t", 1:12))
  expect_equal(prediction_curves(named_ap, c(stats::setNames(ex_pred, names(named_ap)), t99 = 13))$runs,
               prediction_curves(ex_ap, ex_pred)$runs)
  expect_error(prediction_curves(ex_ap, replace(ex_pred, 1, 9)), class = "irtopics_error_data")
  expect_error(prediction_curves(ex_ap, ex_pred, y_min = 20), class = "irtopics_error_argument")
  expect_error(prediction_curves(replace(ex_ap, 1, NA), ex_pred), class = "irtopics_error_data")
})

test_that("an unnamed prediction matrix of the same shape is taken in order", {
  ap <- matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), c("x", "y", "z")))
  pred <- matrix(c(3, 1, 2, 3, 1, 2), 2)
  named <- pred; dimnames(named) <- dimnames(ap)
  expect_equal(prediction_curves(ap, pred)$runs, prediction_curves(ap, named)$runs)
})

test_that("tau = 'ap' evaluates the predicted ranking against the actual one", {
  expect_equal(prediction_curves(ex_ap, ex_pred, tau = "ap")$runs$tau,
               kendall_tau(-ex_pred, ex_ap, type = "ap"))
})

test_that("prediction figures fit a column and a page, in the user's theme, and say which runs they drop", {
  ap <- robust()
  m <- unclass(ap[best(ap, 17), ])
  set.seed(1)
  pred <- t(apply(m, 1, function(v) rank(-v + stats::rnorm(length(v), sd = 0.1))))
  pc <- prediction_curves(ap[best(ap, 17), ], pred)
  for (type in c("curves", "scatter")) {
    make <- function() suppressMessages(ggplot2::autoplot(pc, type = type))
    expect_follows_user_theme(make)
    expect_figure_ready(make(), min_panel = 0.3)
    expect_figure_ready(make(), width = 7, height = 4.5)
    expect_lte(legend_width(make()), 3.5)
  }
  expect_message(p <- ggplot2::autoplot(pc, type = "curves"), "first 4 of 17 runs; 13 not drawn",
                 class = "irtopics_message_layout")
  expect_false(strip_labels_clipped(p))
  # the scatter's x axis names tau in plotmath
  s <- ggplot2::autoplot(pc, type = "scatter")
  expect_type(s$labels$x, "language")
  expect_true("tau" %in% all.names(s$labels$x))
})
