
test_that("plots of degenerate results draw (bands over undefined intervals are left out)", {
  x <- rbind(a = c(.1, .2, .3, .4), b = c(.1, .2, .3, .4), c = c(.1, .2, .3, .4))
  colnames(x) <- paste0("t", 1:4)
  g <- g_study(x)
  expect_true(all(is.na(d_study(g, c(5, 10))$Erho2_low)))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  plots <- list(ggplot2::autoplot(g), ggplot2::autoplot(d_study(g, c(5, 10))),
                ggplot2::autoplot(alpha_curve(x, sizes = c(2, 3), trials = 5, seed = 1)),
                suppressWarnings(ggplot2::autoplot(compare_systems(x[1:2, ], test = "t"), type = "forest")))
  # (ggplot2 says that it leaves out the undefined values: expected here)
  for (p in plots) expect_s3_class(suppressWarnings(ggplot2::ggplotGrob(p)), "gtable")
})
