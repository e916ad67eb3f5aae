# The plots of a comparison (R/compare-plots.R): forest plot with the
# intervals of pair_intervals(), heat map, per-topic differences; each read
# from ggplot_build() and checked at one column and a page, under the user's
# theme.

test_that("autoplot draws the forest plot, the p-value heat map and the per-topic differences", {
  x <- robust20()[1:5, ]
  cmp <- compare_systems(x, test = "t")
  forest <- ggplot2::layer_data(ggplot2::autoplot(cmp), 3)
  expect_equal(sort(forest$x), sort(abs(cmp$table$estimate)))
  seg <- ggplot2::layer_data(ggplot2::autoplot(cmp), 2)
  expect_equal(sort(seg$xmin), sort(pair_intervals(cmp)$table$conf.low))
  heat <- ggplot2::layer_data(ggplot2::autoplot(cmp, type = "heatmap"), 1)
  expect_equal(nrow(heat), 2 * nrow(cmp$table))
  p <- ggplot2::autoplot(cmp, type = "topics", pair = c("sys2", "sys4"))
  bars <- ggplot2::layer_data(p, 1)
  d <- unclass(x)["sys2", ] - unclass(x)["sys4", ]
  expect_equal(bars$ymin + bars$ymax, unname(sort(d)))
  expect_match(p$labels$subtitle, sprintf("^%d wins", sum(d > 0)))
  # no interval: points only
  rt <- compare_systems(x, test = "rthsd", B = 200, seed = 1)
  expect_equal(length(ggplot2::autoplot(rt)$layers), 2L)
  expect_error(ggplot2::autoplot(cmp, type = "topics", pair = c("sys2", "zzz")),
               class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(cmp, measure = "P@10"), class = "irtopics_error_argument")
})

test_that("comparison forest: significant only, baseline, subset, order by effect", {
  ap <- robust()
  s <- best_distinct(ap, 17)
  cmp <- compare_systems(ap[s, ])
  tab <- cmp$table
  expect_message(p <- ggplot2::autoplot(cmp), "136 pairs .* one in 6 is named, in labels of 7 pt \\(about 24 fit 4.5 in, 9 fit 2.6 in",
                 class = "irtopics_message_layout")
  pts <- layers_of(p, "GeomPoint")[[1]]
  expect_identical(nrow(pts), 136L)
  # ordered by effect: y position increases with the estimate
  expect_true(all(diff(pts$x[order(pts$y)]) >= 0))
  expect_no_message(ps <- ggplot2::autoplot(cmp, significant_only = TRUE))
  expect_identical(nrow(layers_of(ps, "GeomPoint")[[1]]), sum(tab$significant))
  # against a baseline: 16 pairs, other minus baseline, from the means
  pb <- ggplot2::autoplot(cmp, baseline = s[17])
  d <- layers_of(pb, "GeomPoint")[[1]]
  expect_identical(nrow(d), 16L)
  m <- rowMeans(unclass(ap[s, ]))
  lbl <- levels(pb$data$label)[d$y]
  expect_equal(d$x, unname(m[lbl] - m[s[17]]))
  # the interval flips with the difference
  seg <- layers_of(pb, "GeomErrorbar")[[1]]
  expect_true(all(seg$xmin < seg$xmax))
  expect_true(all(abs((seg$xmin + seg$xmax) / 2 - d$x[match(seg$y, d$y)]) < 1e-12))
  # a subset of systems: the pairs among them
  expect_identical(nrow(layers_of(ggplot2::autoplot(cmp, systems = s[1:4]), "GeomPoint")[[1]]), 6L)
  # labels sized by the package's one rule for crowded axes, relative to the theme: the axis
  # text itself for 16 pairs, 0.8 of it for many, of which one in 6 is named (23 of 136)
  expect_equal(as.numeric(pb$theme$axis.text.y$size), 1)
  expect_equal(as.numeric(p$theme$axis.text.y$size), 0.8)
  expect_length(ggplot2::ggplot_build(p)$layout$panel_params[[1]]$y$get_labels(), 23L)
  # the named labels keep apart: evenly spaced rows, at most 24 in a figure 4.5 in tall
  named <- ggplot2::ggplot_build(p)$layout$panel_params[[1]]$y$get_labels()
  expect_identical(unique(diff(sort(match(named, levels(p$data$label))))), 6L)
  # titles say the measure and the test, and fit 3.5 in (<= 42 characters a line)
  expect_match(pb$labels$title, "^AP: ")
  expect_match(pb$labels$subtitle, "paired t-test, Holm correction, alpha = 0.05", fixed = TRUE)
  expect_true(all(nchar(strsplit(p$labels$title, "\n")[[1]]) <= 42))
  # arguments the type does not use are refused
  expect_error(ggplot2::autoplot(cmp, type = "topics", baseline = s[1]), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(cmp, baseline = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(cmp, systems = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(cmp, colour = "red"), class = "irtopics_error_argument")
})

test_that("comparison heat map: direction, alpha and p-values", {
  ap <- robust()
  s <- best_distinct(ap, 8)
  cmp <- compare_systems(ap[s, ])
  p <- ggplot2::autoplot(cmp, type = "heatmap")
  tiles <- p$data
  expect_identical(nrow(tiles), 8L * 7L)
  m <- rowMeans(unclass(ap[s, ]))
  # the colour says which of row and column has the higher mean, and whether p < alpha
  row_better <- m[as.character(tiles$row)] > m[as.character(tiles$col)]
  expect_identical(startsWith(as.character(tiles$verdict), "row better"), unname(row_better))
  expect_identical(grepl("\nsignificant", tiles$verdict), tiles$p < 0.05)
  # the decision rule in words in the legend's title, not as an R name
  expect_identical(gsub("\n", " ", p$scales$get_scales("fill")$name),
                   "Significant: p after Holm's correction < 0.05")
  # systems by mean score, best first
  expect_identical(levels(tiles$col), unname(names(sort(m, decreasing = TRUE))))
  # p-values in the cells for up to 12 systems, not beyond
  txt <- layers_of(p, "GeomText")
  expect_length(txt, 1L)
  expect_identical(nrow(txt[[1]]), 56L)
  cmp17 <- compare_systems(ap[best_distinct(ap, 17), ])
  expect_length(layers_of(ggplot2::autoplot(cmp17, type = "heatmap"), "GeomText"), 0L)
  expect_identical(nrow(ggplot2::autoplot(cmp17, type = "heatmap", systems = s[1:3])$data), 6L)
  # 110 systems: one in 5 named (22 labels), with a message saying what fits
  cmp110 <- suppressWarnings(compare_systems(ap))
  expect_message(p110 <- ggplot2::autoplot(cmp110, type = "heatmap"),
                 "one in 5 is named .*about 27 names fit 7 x 4.5 in, 11 fit 3.5 x 2.6 in",
                 class = "irtopics_message_layout")
  b <- ggplot2::ggplot_build(p110)
  expect_length(b$layout$panel_params[[1]]$x$get_labels(), 22L)
  expect_identical(nrow(p110$data), 110L * 109L)
  # a pair without p-value (two identical runs) is neither better nor worse
  dup <- suppressWarnings(compare_systems(ap[c("sys67", "sys69", "sys1"), ]))
  tiles <- ggplot2::autoplot(dup, type = "heatmap")$data
  expect_identical(as.character(tiles$verdict[is.na(tiles$p)]), c("no p-value", "no p-value"))
})

test_that("the forest plot's intervals exclude 0 exactly where its points are coloured significant", {
  ap <- robust()
  s <- best_distinct(ap, 17)
  for (corr in c("holm", "bonferroni", "BH", "none")) {
    cmp <- compare_systems(ap[s, ], baseline = s[17], correction = corr)
    b <- ggplot2::ggplot_build(ggplot2::autoplot(cmp))
    pts <- b$data[[3]]
    seg <- b$data[[2]]
    seg <- seg[match(pts$y, seg$y), ]
    red <- pts$colour == "#b2182b"
    expect_identical(seg$xmin > 0 | seg$xmax < 0, red, label = corr)
    expect_identical(sum(red), sum(cmp$table$significant))
  }
  # the issue's case: against the best system, unadjusted 95% intervals exclude 0 for two pairs
  # Holm does not reject; the figure's intervals for them include 0
  cmp <- compare_systems(ap[s, ], baseline = s[1])
  t95 <- cmp$table$conf.low > 0 | cmp$table$conf.high < 0
  wrong <- cmp$table$system1[t95 & !cmp$table$significant]
  expect_length(wrong, 2L)
  p <- ggplot2::autoplot(cmp)
  seg <- ggplot2::layer_data(p, 2)
  drawn <- levels(p$data$label)[seg$y]
  expect_true(all(seg$xmin[drawn %in% wrong] < 0 & seg$xmax[drawn %in% wrong] > 0))
})

test_that("the forest plot says in words what is drawn: decision, intervals, orientation", {
  ap <- robust()
  s <- best_distinct(ap, 6)
  cmp <- compare_systems(ap[rev(s), ])
  p <- ggplot2::autoplot(cmp)
  b <- ggplot2::ggplot_build(p)
  # better system first: every difference at least 0, the label names the better one first
  expect_true(all(b$data[[3]]$x >= 0))
  m <- rowMeans(unclass(ap[s, ]))
  lab <- strsplit(as.character(p$data$label), " - ", fixed = TRUE)
  expect_true(all(vapply(lab, function(l) m[[l[1]]] > m[[l[2]]], TRUE)))
  expect_match(p$labels$x, "(higher mean first);", fixed = TRUE)
  expect_match(gsub("\n", " ", p$labels$x), "t intervals at Holm's step-down levels", fixed = TRUE)
  # the legend: the decision rule in words, no R name
  expect_identical(levels(p$data$decision), c("yes", "no"))
  rule <- p$scales$get_scales("colour")$name
  expect_identical(rule, "Holm-adjusted p < 0.05:")
  expect_false(any(grepl("p.adjusted", c(rule, unlist(p$labels)), fixed = TRUE)))
  # in table order the differences keep the comparison's sign
  pt <- ggplot2::autoplot(cmp, orientation = "table")
  expect_true(all(ggplot2::layer_data(pt, 3)$x < 0))
  expect_match(pt$labels$x, "(system1 - system2);", fixed = TRUE)
  # Tukey: simultaneous intervals, said so
  pk <- ggplot2::autoplot(compare_systems(ap[s, ], test = "tukey"))
  expect_match(gsub("\n", " ", pk$labels$x), "Tukey HSD intervals (simultaneous 95%)", fixed = TRUE)
  expect_identical(pk$scales$get_scales("colour")$name, "Tukey HSD p < 0.05:")
  expect_identical(ggplot2::autoplot(compare_systems(ap[s, ], correction = "none"))$scales$get_scales("colour")$name,
                   "p < 0.05 (no correction):")
  # a test without an interval: points only, and the axis says why
  pw <- ggplot2::autoplot(compare_systems(ap[s, ], test = "wilcoxon"))
  expect_length(layers_of(pw, "GeomErrorbar"), 0L)
  expect_match(gsub("\n", " ", pw$labels$x), "no interval: the Wilcoxon signed-rank test has none", fixed = TRUE)
  # an ir_pair_intervals draws the same figure
  pi <- pair_intervals(cmp)
  expect_equal(ggplot2::layer_data(ggplot2::autoplot(pi), 3)$x, b$data[[3]]$x)
  expect_error(ggplot2::autoplot(pi, measure = "P@10"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(pi, colour = "red"), class = "irtopics_error_argument")
})

test_that("comparison figures follow the user's theme and fit a column and a page (2, 17, 110 systems)", {
  ap <- robust()
  s17 <- best_distinct(ap, 17)
  c2 <- compare_systems(ap[s17[1:2], ])
  c17 <- compare_systems(ap[s17, ])
  c110 <- suppressWarnings(compare_systems(ap, baseline = "sys1"))
  figs <- list(
    forest2 = function() ggplot2::autoplot(c2),
    forest17 = function() ggplot2::autoplot(c17, baseline = s17[17]),
    forest17_all = function() suppressMessages(ggplot2::autoplot(c17)),
    forest110 = function() suppressMessages(ggplot2::autoplot(c110)),
    heatmap2 = function() ggplot2::autoplot(c2, type = "heatmap"),
    heatmap17 = function() ggplot2::autoplot(c17, type = "heatmap"),
    topics = function() ggplot2::autoplot(c17, type = "topics"),
    pair_intervals = function() ggplot2::autoplot(pair_intervals(c17, baseline = s17[1])),
    forest_measures = function() ggplot2::autoplot(suppressWarnings(
      compare_systems(four_system_evaluation()[c("P_2", "map")], correction = "none")))
  )
  for (nm in names(figs)) {
    expect_follows_user_theme(figs[[nm]])
    # the heat map's panel is square (coord_fixed): at 3.5 x 2.6 in the legend takes the side
    small_panel <- if (startsWith(nm, "heatmap")) 0.3 else 0.45
    # a panel per measure adds strips: at one column it fits with titles off (a LaTeX caption replaces them)
    small <- if (nm == "forest_measures") withr::with_options(list(irtopics.plot_titles = FALSE), figs[[nm]]()) else
      figs[[nm]]()
    expect_figure_ready(small, 3.5, 2.6, min_panel = small_panel)
    expect_figure_ready(figs[[nm]](), 7, 4.5, min_panel = small_panel)
  }
  # label sizes relative to the theme's (crowded_text()): full size for 20 pairs or fewer
  expect_s3_class(figs$forest2()$theme$axis.text.y$size, "rel")
  expect_equal(as.numeric(figs$forest2()$theme$axis.text.y$size), 1)
  expect_equal(as.numeric(figs$forest17()$theme$axis.text.y$size), 1)
})

test_that("the forest plot keeps its rows in order of effect when a pair has no interval", {
  # two identical runs: their pair has p = NA and no interval, so the interval layer lacks a
  # level; ggplot2 then sorted the rows by name (labels named one in k landed next to each
  # other and overprinted) until the levels became the scale's limits
  ap <- robust()
  s <- c(setdiff(best_distinct(ap, 16), c("sys67", "sys69"))[1:15], "sys67", "sys69")
  cmp <- suppressWarnings(compare_systems(ap[s, ]))
  expect_true(anyNA(pair_intervals(cmp)$table$conf.low))
  p <- suppressMessages(ggplot2::autoplot(cmp))
  b <- ggplot2::ggplot_build(p)
  pts <- b$data[[3]]
  expect_true(all(diff(pts$x[order(pts$y)]) >= 0))
  expect_equal(as.numeric(pts$y), as.numeric(p$data$label))
  named <- b$layout$panel_params[[1]]$y$get_labels()
  expect_identical(unique(diff(sort(match(named, levels(p$data$label))))), 6L)
})

test_that("crowded axes: one size rule, never below 6 pt, and a step from what fits", {
  old <- ggplot2::theme_set(ggplot2::theme_grey())
  on.exit(ggplot2::theme_set(old))
  # the theme's axis text (8.8 pt at base 11) up to 20 rows, 0.8 of it from 25 rows
  expect_equal(as.numeric(crowded_text(10)), 1)
  expect_equal(as.numeric(crowded_text(22)), 20 / 22)
  expect_equal(as.numeric(crowded_text(200)), 0.8)
  expect_equal(crowded_pt(200), 0.8 * 8.8)
  # at 1.3 lines a label of 7.04 pt, 3.15 in holds floor(226.8 / 9.152) = 24 labels
  expect_identical(crowded_fit(136, c(3.15, 1.25)), c(24L, 9L))
  expect_identical(crowded_step(136, 3.15), 6L)
  expect_identical(crowded_step(19, 3.15), 1L)
  expect_identical(crowded_step(20, 3.15), 2L)
  # base size 8: axis text 6.4 pt, so the 6 pt floor holds (0.8 would be 5.1 pt)
  ggplot2::theme_set(ggplot2::theme_bw(base_size = 8))
  expect_equal(as.numeric(crowded_text(200)), 6 / 6.4)
  expect_equal(crowded_pt(200), 6)
  # a base size so small that the axis text is under 6 pt is not enlarged
  ggplot2::theme_set(ggplot2::theme_bw(base_size = 6))
  expect_equal(as.numeric(crowded_text(200)), 1)
})
