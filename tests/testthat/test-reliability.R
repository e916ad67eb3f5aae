test_that("Cronbach's alpha: spec example and psych::alpha", {
  x <- rbind(c(.20, .35, .10, .50), c(.25, .40, .05, .55), c(.10, .20, .00, .30),
             c(.30, .45, .15, .60), c(.15, .30, .10, .35))
  expect_equal(cronbach_alpha(x), 0.9330514447, tolerance = 1e-9)
  expect_equal(cronbach_alpha(t(x)), 0.9855182927, tolerance = 1e-9)   # wrong orientation differs
  skip_if_not_installed("psych")
  expect_equal(cronbach_alpha(x), psych::alpha(x, warnings = FALSE)$total$raw_alpha)
  set.seed(2)
  y <- matrix(runif(60), 10)
  expect_equal(cronbach_alpha(y), suppressWarnings(psych::alpha(y, warnings = FALSE, check.keys = FALSE))$total$raw_alpha)
})

test_that("G-study reproduces Brennan's synthetic data set 4", {
  s4 <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv", package = "irtopics"))
  g <- g_study(s4)
  v <- setNames(g$components$variance, g$components$component)
  expect_equal(unname(round(v, 4)), c(.6258, .8840, 2.7872))
  expect_equal(round(g$Erho2, 3), .729)
  expect_equal(round(g$Phi, 3), .672)
  expect_equal(round(cronbach_alpha(s4), 4), .7293)
  expect_equal(g$Erho2, cronbach_alpha(s4))
  # the same components from lm()'s ANOVA table
  df <- as.data.frame(s4)
  tab <- anova(lm(value ~ factor(system) + factor(topic), data = df))
  ms <- tab[["Mean Sq"]]
  expect_equal(unname(g$mean_squares), ms)
  d <- d_study(g, c(12, 24, 100))
  expect_equal(d$Erho2[1], g$Erho2)
  expect_equal(d$Phi[2], v[["system"]] / (v[["system"]] + (v[["topic"]] + v[["residual"]]) / 24))
  expect_equal(d_study(s4, 12)$Phi, g$Phi)
  expect_output(print(g), "Erho2")
  expect_output(print(d), "d_study")
})

test_that("edge cases and errors", {
  expect_identical(cronbach_alpha(matrix(1:3, 3)), NA_real_)
  expect_identical(cronbach_alpha(matrix(c(1, 1, 2, 2), 2)), NA_real_)
  neg <- cbind(c(1, 2, 3), c(3, 1, 2))
  expect_equal(cronbach_alpha(neg), -2)
  g <- g_study(cbind(c(1, 2, 3, 4), c(4, 3, 2, 1), c(2, 2, 3, 3)), truncate = TRUE)
  expect_true(all(g$components$variance >= 0))
  expect_error(d_study(g, 0), class = "irtopics_error_argument")
  # a constant matrix has no variance at all: NA (as alpha), not NaN
  g0 <- g_study(matrix(.5, 3, 3))
  expect_identical(g0$Erho2, NA_real_)
  expect_identical(g0$Phi, NA_real_)
  expect_true(all(is.na(g0$components$percent)) && !any(is.nan(g0$components$percent)))
  expect_identical(d_study(g0, c(5, 10))$Erho2, c(NA_real_, NA_real_))
  expect_identical(cronbach_alpha(matrix(.5, 3, 3)), NA_real_)
  # every system's total is 1 in exact arithmetic, but the parsed decimals
  # sum to different doubles: the total variance is ~4e-33 and alpha was -6.9e31
  eq <- rbind(c(.69, .24, .07), c(.08, .42, .50), c(.35, .08, .57), c(.35, .60, .05))
  expect_gt(var(rowSums(eq)), 0)
  expect_identical(cronbach_alpha(eq), NA_real_)
  expect_identical(g_study(eq)$Erho2, NA_real_)
  expect_error(g_study(matrix(1:3, 1)), class = "irtopics_error_argument")
  expect_error(cronbach_alpha(matrix(c(1, NA, 2, 3), 2)), class = "irtopics_error_data")
})
