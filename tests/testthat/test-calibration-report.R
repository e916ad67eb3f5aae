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
  # the verdict rule: 2.58 standard errors
  expect_equal(calibration_verdict(c(0.08, 0.02, 0.051), c(0.005, 0.005, 0.005), 0.05),
               c("liberal", "conservative", "at nominal"))
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
