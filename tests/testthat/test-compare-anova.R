test_that("anova_scores() reproduces Sakai's Table 5.1 ANOVA (inference spec, section 8)", {
  fit <- anova_scores(sakai_table51())
  tab <- fit$table
  expect_equal(tab$sum_sq[1:3], c(.10833, 1.02933, .83167), tolerance = 5e-5)
  expect_equal(fit$residual_variance, .021886, tolerance = 5e-5)
  expect_equal(tab$statistic[1], 2.4750, tolerance = 5e-5)
  expect_equal(tab$p.value[1], .09764, tolerance = 5e-5)
  expect_identical(tab$df, c(2, 19, 38, 59))
  expect_identical(fit$residual_df, 38)
})

test_that("anova_scores() equals anova(lm()) on the long form of real matrices", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
                                package = "irtopics"), measure = "AP")[1:12, 1:40]
  long <- data.frame(score = as.vector(ap),
                     system = factor(rep(rownames(ap), ncol(ap))),
                     topic = factor(rep(colnames(ap), each = nrow(ap))))
  ref <- stats::anova(stats::lm(score ~ system + topic, data = long))
  fit <- anova_scores(ap)
  expect_equal(fit$table$sum_sq[1:3], unname(ref[["Sum Sq"]]), tolerance = 1e-12)
  expect_equal(fit$table$statistic[1:2], unname(ref[["F value"]][1:2]), tolerance = 1e-10)
  expect_equal(fit$table$p.value[1:2], unname(ref[["Pr(>F)"]][1:2]), tolerance = 1e-10)
  expect_equal(fit$residual_variance, ref[["Mean Sq"]][3], tolerance = 1e-12)
  expect_equal(fit$system_means, rowMeans(unclass(ap)), ignore_attr = TRUE)
  expect_identical(as.data.frame(fit), fit$table)
})

test_that("anova_scores() refuses NA and too small matrices with classed errors", {
  x <- unclass(sakai_table51())
  x[2, 3] <- NA
  expect_error(anova_scores(x), class = "irtopics_error_data")
  expect_error(anova_scores(x[1, , drop = FALSE]), class = "irtopics_error_argument")
  expect_error(anova_scores(x[, 1, drop = FALSE]), class = "irtopics_error_argument")
})

test_that("anova_scores() on a matrix without residual variation gives NA F, not NaN noise", {
  x <- outer(c(a = .1, b = .3), c(t1 = .2, t2 = .4, t3 = .5), "+")
  fit <- anova_scores(x)
  expect_equal(fit$residual_variance, 0, tolerance = 1e-15)
  expect_true(all(is.na(fit$table$statistic)))
  expect_output(print(fit), "two-way ANOVA")
})
