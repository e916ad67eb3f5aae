# Many lines in one plot (R/eval-lines.R): legend rows and facet columns
# sized for one column from the user's base size (issue 25).

test_that("legend_rows() keeps ggplot2's 5 keys a row when they fit 3.5 in, else asks for more rows", {
  expect_null(irtopics:::legend_rows(c("a", "b")))
  expect_null(irtopics:::legend_rows(sprintf("s%d", 1:8)))
  long <- c("MU03rob01", "pircRB04t3", "uogRobLWR10", "NLPR04okapi", "JuruDesAggr", "SABIR04FA",
            "humR04d5e", "fub04Tdge")
  # base 11: a key with "uogRobLWR10" (11 characters at 0.75 x 11 pt) takes about
  # 0.5 + 0.6 * 11 * 8.25 / 72 = 1.26 in: 2 a row, 4 rows
  expect_identical(irtopics:::legend_rows(long), 4L)
  old <- ggplot2::theme_set(ggplot2::theme_bw(base_size = 8))
  withr::defer(ggplot2::theme_set(old))
  # base 8: 0.36 + 0.6 * 11 * 6 / 72 = 0.91 in: 3 a row, 3 rows
  expect_identical(irtopics:::legend_rows(long), 3L)
})

test_that("facet_columns() gives long names fewer columns than ggplot2's own, never more", {
  expect_identical(irtopics:::facet_columns(sprintf("s%d", 1:17)), as.integer(ggplot2::wrap_dims(17)[2]))
  expect_identical(irtopics:::facet_columns(c("a", "b")), 2L)
  long <- c(sprintf("uogRobLWR%02d", 1:17))
  # 0.6 * 11 * 0.65 * 11 / 72 + 0.06 = 0.72 in a strip, 2.6 in for the panels: 3 columns
  expect_identical(irtopics:::facet_columns(long), 3L)
})

test_that("the highlight layout names its systems in the user's text size and greys the rest", {
  ap <- robust()
  old <- ggplot2::theme_set(ggplot2::theme_bw(base_size = 8))
  withr::defer(ggplot2::theme_set(old))
  p <- ggplot2::autoplot(ap, systems = rownames(ap), highlight = c("sys1", "sys2"))
  b <- ggplot2::ggplot_build(p)
  expect_equal(unique(b$data[[3]]$size), 0.8 * 8 / ggplot2::.pt)
  expect_identical(unique(b$data[[1]]$colour), "grey80")
  # the colours and line types of sys1 and sys2 among all 110 by mean AP
  all <- irtopics:::best_systems(rowMeans(unclass(ap)), k = 110)
  d <- b$data[[2]]
  expect_identical(as.vector(tapply(d$colour, d$group, unique)), unname(system_colours(all)[c("sys1", "sys2")]))
  expect_identical(as.vector(tapply(d$linetype, d$group, unique)), unname(system_linetypes(all)[c("sys1", "sys2")]))
  expect_match(b$plot$labels$caption, "Grey: the other 108 systems")
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(q <- ggplot2::autoplot(ap, systems = rownames(ap), highlight = c("sys1", "sys2")),
                 "108 systems", class = "irtopics_message_layout")
  expect_null(q$labels$caption)
})
