test_that("labels use ggrepel when installed and geom_text otherwise", {
  df <- data.frame(system = c("a", "b", "c"), x = 1:3, y = c(2, 1, 3))
  l1 <- irtopics:::label_layer(df, 2, "system", "y", "x", "y", use_repel = FALSE)
  expect_s3_class(l1$geom, "GeomText")
  expect_setequal(l1$data$.label, c("a", "c"))
  skip_if_not_installed("ggrepel")
  l2 <- irtopics:::label_layer(df, "all", "system", "y", "x", "y")
  expect_s3_class(l2$geom, "GeomTextRepel")
})
