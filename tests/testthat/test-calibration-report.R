# The methods and plots of ir_calibration (R/calibration-report.R).

test_that("print says which tests are liberal or conservative; summary and data frame", {
  cal <- test_calibration(cal_model(), n_topics = c(20, 50), delta = c(0.02, 0.05), trials = 400, B = 200,
                          seed = 1, progress = FALSE)
  out <- format(cal)
  expect_true(any(grepl("^Type I error at alpha = 0.05", out)))
  expect_true(any(grepl("^  20 topics: liberal: ", out)))
  expect_true(any(grepl("^Power at alpha = 0.05", out)))
  s <- summary(cal)
  expect_s3_class(s, "irtopics_summary")
  expect_setequal(unique(s$table$error), c("type1", "power", "type3"))
  tab <- as.data.frame(cal)
  expect_setequal(unique(tab$error), c("type1", "power", "type2", "type3"))
  expect_true(all(calibration_alpha_grid %in% tab$alpha))
})

test_that("verdicts come from an exact binomial test of the rejection count, not from the rate's SE", {
  # Issue 29: 0 rejections in 500 trials at alpha = .001 happens with
  # probability .999^500 = .606 for a calibrated test: not "conservative".
  expect_equal(0.999^500, dbinom(0, 500, 0.001))
  expect_identical(calibration_verdict(0, 500, 0.001), "at nominal")
  # the boundaries against binom.test(): at 99%, liberal iff the one-sided
  # exact p-value P(X >= k) is at most .005
  n <- 1000
  for (k in c(0:120)) {
    up <- binom.test(k, n, 0.05, alternative = "greater")$p.value
    lo <- binom.test(k, n, 0.05, alternative = "less")$p.value
    want <- if (k > 50 && up <= 0.005) "liberal" else if (k < 50 && lo <= 0.005) "conservative" else "at nominal"
    expect_identical(calibration_verdict(k / n, n, 0.05), want, label = paste("k =", k))
  }
  # the first liberal and last conservative counts: 70 and 32 of 1000 at .05
  expect_identical(calibration_verdict(c(69, 70, 32, 33) / n, n, 0.05),
                   c("at nominal", "liberal", "conservative", "at nominal"))
  # a rate of exactly alpha, 0 and 1 with few trials
  expect_identical(calibration_verdict(c(0, 1, 0.5), 10, 0.5), c("conservative", "liberal", "at nominal"))
  expect_identical(calibration_verdict(c(0, 0.2), 10, 0.05), c("at nominal", "at nominal"))
  # the level is the user's
  expect_identical(calibration_verdict(64 / n, n, 0.05, level = 0.99), "at nominal")
  expect_identical(calibration_verdict(64 / n, n, 0.05, level = 0.9), "liberal")
})

test_that("print() and summary() use the exact verdict (0 of 500 at .001 is at nominal)", {
  cal <- test_calibration(cal_model(), tests = c("t", "sign"), n_topics = 20, delta = NULL,
                          alpha = c(0.001, 0.05), trials = 500, B = 50, seed = 3, progress = FALSE)
  t1 <- cal$table[cal$table$error == "type1" & cal$table$alternative == "two.sided" &
                    cal$table$alpha == 0.001, ]
  # whatever the counts, the printed marks are the exact test's
  want <- calibration_verdict(t1$rate, t1$trials, 0.001)
  s <- summary(cal)$table
  got <- s$verdict[s$error == "type1" & s$alpha == 0.001]
  expect_identical(got, want[match(s$test[s$error == "type1" & s$alpha == 0.001], t1$test)])
  out <- format(cal)
  expect_true(any(grepl("exact binomial test of the count at 99%", out, fixed = TRUE)))
  # a planted table: 0 rejections of 500 at .001 is not conservative
  cal$table$rate[cal$table$error == "type1" & cal$table$alpha == 0.001] <- 0
  cal$table$se[cal$table$error == "type1" & cal$table$alpha == 0.001] <- 0
  out <- format(cal)
  block <- out[seq(grep("alpha = 0.001", out)[1], grep("alpha = 0.05", out)[1] - 1)]
  expect_true(any(grepl("20 topics: liberal: none; conservative: none.", block, fixed = TRUE)))
  expect_false(any(grepl("-$", block)))
  expect_identical(unique(summary(cal)$table$verdict[summary(cal)$table$alpha == 0.001 &
                                                         summary(cal)$table$error == "type1"]), "at nominal")
  expect_error(format(cal, level = 1), class = "irtopics_error_argument")
  expect_error(summary(cal, level = NA), class = "irtopics_error_argument")
})

test_that("autoplot draws Type I against alpha with the diagonal, and power against delta", {
  cal <- test_calibration(cal_model(), n_topics = c(20, 50), delta = c(0.02, 0.05), trials = 300, B = 100,
                          seed = 1, progress = FALSE)
  b <- ggplot2::ggplot_build(ggplot2::autoplot(cal))
  abl <- b$data[[1]]
  expect_equal(unique(abl$slope), 1)
  expect_equal(unique(abl$intercept), 0)
  lines <- b$data[[3]]
  expect_equal(length(unique(lines$colour)), 5L)
  expect_equal(sort(unique(lines$PANEL)), factor(1:2))
  expect_equal(nrow(lines), 5L * 2L * length(calibration_alpha_grid))
  pw <- ggplot2::ggplot_build(ggplot2::autoplot(cal, type = "power"))
  expect_setequal(unique(pw$data[[2]]$x), c(0.02, 0.05))
  t1 <- cal$table
  want <- t1$rate[t1$error == "power" & t1$alpha == 0.05 & t1$alternative == "two.sided"]
  expect_setequal(round(pw$data[[2]]$y, 12), round(want, 12))
  expect_s3_class(ggplot2::autoplot(cal, type = "type3"), "ggplot")
  expect_error(ggplot2::autoplot(cal, type = "power", alpha = 0.5), class = "irtopics_error_argument")
  t1only <- test_calibration(cal_model(), n_topics = 20, delta = NULL, trials = 50, B = 50, seed = 1,
                             progress = FALSE)
  expect_error(ggplot2::autoplot(t1only, type = "power"), class = "irtopics_error_argument")
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("calibration figures follow the user's theme and fit a column and a page", {
  cal <- test_calibration(cal_model(), n_topics = c(20, 50), delta = c(0.01, 0.02, 0.05), trials = 60, B = 50,
                          seed = 1, progress = FALSE)
  for (type in c("type1", "power", "type3")) {
    make <- function() ggplot2::autoplot(cal, type = type)
    expect_follows_user_theme(make)
    # two facets, 5 tests in two rows of keys, title and subtitle: the
    # panels get a quarter of the height at 2.6 in
    expect_figure_ready(make(), min_panel = 0.24)
    expect_figure_ready(make(), width = 7, height = 4.5)
    th <- ggplot2::theme_get() + make()$theme
    expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
  }
  # alpha and delta as symbols on the axes
  expect_true(is.expression(ggplot2::autoplot(cal)$labels$x))
  expect_true(is.expression(ggplot2::autoplot(cal, type = "power")$labels$x))
})

test_that("Type III intervals are bars side by side, not bands on top of each other", {
  cal <- test_calibration(cal_model(), n_topics = 20, delta = c(0.02, 0.05), trials = 60, B = 50,
                          seed = 1, progress = FALSE)
  p <- ggplot2::autoplot(cal, type = "type3")
  expect_length(layers_of(p, "GeomRibbon"), 0L)
  bars <- layers_of(p, "GeomLinerange")
  expect_length(bars, 1L)
  bars <- bars[[1]]
  tab <- cal$table[cal$table$error == "type3" & cal$table$alternative == "two.sided" & cal$table$alpha == 0.05, ]
  # each test's bar is the rate +- 1.96 SE (clipped to [0, 1]), at its own x near its delta
  expect_equal(sort(bars$ymax), sort(pmin(1, tab$rate + qnorm(0.975) * tab$se)))
  expect_equal(sort(bars$ymin), sort(pmax(0, tab$rate - qnorm(0.975) * tab$se)))
  for (d in c(0.02, 0.05)) {
    at <- bars$x[abs(bars$x - d) < 0.01]
    expect_length(unique(round(at, 10)), nlevels(tab$test))
  }
  expect_match(p$labels$subtitle, "bars")
  # and the power plot keeps its bands
  expect_length(layers_of(ggplot2::autoplot(cal, type = "power"), "GeomRibbon"), 1L)
})
