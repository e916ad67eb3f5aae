test_that("17 systems as lines: 17 distinct lines, none blank", {
  ap <- robust()
  s <- best(ap, 17)
  p <- ggplot2::autoplot(ap, systems = s, layout = "lines")
  d <- ggplot2::layer_data(p, 1)
  expect_identical(length(unique(d$group)), 17L)
  expect_false(any(d$linetype %in% c("blank", NA)))
  # 17 different colour-linetype combinations
  expect_identical(nrow(unique(d[c("colour", "linetype")])), 17L)
  # each line has the system's 249 sorted scores
  expect_identical(as.vector(table(d$group)), rep(249L, 17))
  expect_equal(max(d$y[d$group == 1]), max(ap[s[1], ]))
})

test_that("layout = 'auto' switches to facets and highlight with a message", {
  ap <- robust()
  expect_message(p <- ggplot2::autoplot(ap, systems = best(ap, 17)), class = "irtopics_message_layout")
  b <- ggplot2::ggplot_build(p)
  expect_identical(nrow(b$layout$layout), 17L)  # one panel per system
  expect_setequal(as.character(b$layout$layout$system), best(ap, 17))
  front <- ggplot2::layer_data(p, 2)
  expect_identical(length(unique(front$PANEL)), 17L)
  # the grey context: all 17 systems in every panel
  back <- ggplot2::layer_data(p, 1)
  expect_identical(nrow(back), 17L * 17L * 249L)
  # 8 or fewer: plain lines, no message
  expect_no_message(p8 <- ggplot2::autoplot(ap, systems = best(ap, 8)))
  expect_identical(length(unique(ggplot2::layer_data(p8, 1)$group)), 8L)
  # 110: highlight; every system drawn in grey, three in colour with their names
  expect_message(p110 <- ggplot2::autoplot(ap, systems = rownames(ap)), class = "irtopics_message_layout")
  grey <- ggplot2::layer_data(p110, 1)
  expect_identical(length(unique(grey$group)), 110L)
  hi <- ggplot2::layer_data(p110, 2)
  expect_identical(length(unique(hi$group)), 3L)
  means <- rowMeans(unclass(ap))
  labs <- ggplot2::layer_data(p110, 3)$label
  expect_setequal(labs, c(names(which.max(means)), names(which.min(means)),
                          names(sort(means, decreasing = TRUE))[55]))
  # chosen highlights; no silent misuse
  p3 <- ggplot2::autoplot(ap, systems = rownames(ap), highlight = c("sys1", "sys2"))
  expect_setequal(ggplot2::layer_data(p3, 3)$label, c("sys1", "sys2"))
  expect_error(ggplot2::autoplot(ap, systems = best(ap, 5), highlight = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ap, layout = "lines", highlight = "sys1"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ap, systems = rownames(ap), highlight = rownames(ap)[1:9]),
               class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ap, layout = "grid"), class = "irtopics_error_argument")
})

test_that("label = 'auto' names up to 20 points, else the top 5; end labels work without ggrepel", {
  df <- data.frame(id = sprintf("s%02d", 1:21), v = 21:1)
  expect_identical(irtopics:::label_rows(df[1:20, ], "auto", "id", "v"), 1:20)
  expect_identical(irtopics:::label_rows(df, "auto", "id", "v"), 1:5)
  ends <- data.frame(system = factor(c("a", "b")), x = c(10, 10), y = c(0.2, 0.8))
  l <- irtopics:::end_labels(ends, "x", "y", use_repel = FALSE)
  expect_s3_class(l$geom, "GeomText")
  expect_identical(l$data$.label, c("a", "b"))
})

test_that("empty ir_scores print, summarise and convert", {
  m <- as_ir_scores(matrix(numeric(), 0, 0), measure = "AP")
  expect_output(print(m), "0 systems x 0 topics, mean NA")
  expect_identical(nrow(as.data.frame(m)), 0L)
  expect_named(as.data.frame(m), c("system", "topic", "measure", "value"))
  e <- as_ir_scores(matrix(numeric(), 2, 0, dimnames = list(c("a", "b"), NULL)), measure = "AP")
  expect_output(print(e), "2 systems x 0 topics")
  expect_error(mean_scores(e), class = "irtopics_error_argument")  # nothing to average
  expect_identical(unname(mean_scores(as_ir_scores(matrix(c(NA, 1), 2, 1)))), c(NA_real_, 1))
  expect_no_warning(s <- summary(e))
  expect_output(print(s), "over 0 topics")
  ev <- structure(list(AP = e), class = c("ir_evaluation", "list"), missing = "drop")
  expect_output(print(ev), "2 systems x 0 topics")
})

test_that("subsetting keeps the class; base functions see a matrix", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  sub <- ap[1:3, 1:25]
  expect_s3_class(sub, "ir_scores")
  expect_equal(dim(sub), c(3L, 25L))
  expect_equal(attr(sub, "measure"), "AP")
  expect_false(is_ir_scores(ap[1, ]))
  expect_equal(rowMeans(ap), mean_scores(ap))
  expect_true(is.matrix(ap))
})

test_that("as.data.frame gives the long form", {
  m <- matrix(c(.2, .4, .1, .5, .3, NA), nrow = 2,
              dimnames = list(c("A", "B"), c("401", "402", "403")))
  x <- as_ir_scores(m, "AP")
  df <- as.data.frame(x)
  expect_named(df, c("system", "topic", "measure", "value"))
  expect_equal(nrow(df), 6L)
  expect_equal(df$system, c("A", "A", "A", "B", "B", "B"))
  expect_equal(df$value[df$system == "B" & df$topic == "402"], .5)
  expect_equal(nrow(as.data.frame(x, na.rm = TRUE)), 5L)
  # missing topics are left out of means ("drop" semantics)
  expect_equal(unname(mean_scores(x)), c(mean(c(.2, .1, .3)), mean(c(.4, .5))))
})

test_that("bad inputs give classed errors", {
  expect_error(read_scores(tempfile()), class = "irtopics_error_file")
  bad <- tempfile(fileext = ".csv")
  writeLines(c("topic,a,b", "1,0.1,0.2", "2,0.3,x"), bad)
  expect_error(read_scores(bad), "Line 3", class = "irtopics_error_parse")
  expect_error(as_ir_scores("a"), class = "irtopics_error_argument")
  expect_error(as_ir_scores(matrix(1:4, 2, dimnames = list(c("a", "a"), NULL))),
               class = "irtopics_error_argument")
})

test_that("autoplot() of scores with a system without any score, or of no systems, is classed (issue 29)", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")[1:4, ]
  na <- ap
  na[2, ] <- NA
  expect_warning(p <- ggplot2::autoplot(na), class = "irtopics_warning_data", regexp = rownames(ap)[2])
  d <- ggplot2::ggplot_build(p)$data[[1]]
  expect_identical(length(unique(d$group)), 3L)
  expect_identical(nrow(d), 3L * ncol(ap))
  expect_setequal(d$y, as.vector(unclass(ap)[-2, ]))
  # asked for by name, alone: nothing to draw
  expect_error(ggplot2::autoplot(na, systems = rownames(ap)[2]), class = "irtopics_error_data", regexp = "no score")
  all_na <- ap
  all_na[] <- NA
  expect_error(ggplot2::autoplot(all_na), class = "irtopics_error_data", regexp = "no score")
  expect_error(ggplot2::autoplot(ap[0, ]), class = "irtopics_error_data", regexp = "nothing to draw")
  expect_error(ggplot2::autoplot(ap[, 0]), class = "irtopics_error_data", regexp = "nothing to draw")
  # more than 8 systems: the 8 best drawn, a system without scores is not among them
  big <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                     measure = "AP")[1:12, ]
  best <- rownames(big)[order(-rowMeans(big))][1:8]
  big[best[8], ] <- NA
  expect_message(b <- ggplot2::ggplot_build(ggplot2::autoplot(big)), "4 not drawn", class = "irtopics_message_layout")
  expect_identical(length(unique(b$data[[1]]$group)), 8L)
  expect_identical(nrow(b$data[[1]]), 8L * ncol(big))
})

# Figures for papers (issue 25) ---------------------------------------------------

test_that("the sorted-scores figure fits a column and a page in each layout, in the user's theme", {
  ap <- robust()
  s17 <- best(ap, 17)
  figs <- list(lines = function() ggplot2::autoplot(ap[s17, ]),
               facets = function() ggplot2::autoplot(ap, systems = s17, layout = "facets"),
               highlight = function() ggplot2::autoplot(ap, systems = rownames(ap), layout = "highlight"))
  for (f in figs) {
    make <- function() suppressMessages(f())
    expect_follows_user_theme(make)
    # 17 panels in one column: five rows of strips leave each panel little height
    expect_figure_ready(make(), min_panel = 0.3)
    expect_figure_ready(make(), width = 7, height = 4.5)
    expect_lte(legend_width(make()), 3.5)
  }
})

test_that("the default systems: the 8 best by mean, ties by name, best first, and it says what it dropped", {
  m <- as_ir_scores(matrix(c(5, 5, 9, 1, 7, 7, 3, 2, 8, 6, 4, 0.5), 12, 2,
                           dimnames = list(c("k", "b", "c", "d", "z", "a", "g", "h", "i", "j", "e", "l"), NULL)),
                    measure = "AP")
  # means: c 9, i 8, a = z 7 (a first by name), j 6, b = k 5 (b first), e 4
  expected <- c("c", "i", "a", "z", "j", "b", "k", "e")
  expect_identical(irtopics:::best_systems(rowMeans(unclass(m))), expected)
  expect_message(p <- ggplot2::autoplot(m), "8 best of 12 systems by mean AP; 4 not drawn",
                 class = "irtopics_message_layout")
  b <- ggplot2::ggplot_build(p)
  expect_identical(b$plot$scales$get_scales("colour")$get_limits(), expected)
  expect_match(b$plot$labels$caption, "4 not drawn")
  # colours in that order: system_colours()
  d <- ggplot2::layer_data(p, 1)
  expect_identical(as.vector(tapply(d$colour, d$group, unique)), unname(system_colours(expected)))
  # titles off: no caption, the message still
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(q <- ggplot2::autoplot(m), "4 not drawn", class = "irtopics_message_layout")
  expect_null(q$labels$caption)
  # all 8 or fewer: no message, best first
  expect_no_message(p8 <- ggplot2::autoplot(m[expected, ]))
  expect_identical(ggplot2::ggplot_build(p8)$plot$scales$get_scales("colour")$get_limits(), expected)
  # given systems keep the user's order
  p2 <- ggplot2::autoplot(m, systems = c("l", "a"))
  expect_identical(ggplot2::ggplot_build(p2)$plot$scales$get_scales("colour")$get_limits(), c("l", "a"))
})

test_that("a legend only with more than one system, below the panel, in rows that fit a column", {
  ap <- robust()
  expect_false(has_legend(ggplot2::autoplot(ap, systems = "sys1")))
  expect_true(has_legend(ggplot2::autoplot(ap, systems = c("sys1", "sys2"))))
  long <- ap[best(ap, 8), ]
  rownames(long) <- c("MU03rob01", "pircRB04t3", "uogRobLWR10", "NLPR04okapi", "JuruDesAggr", "SABIR04FA",
                      "humR04d5e", "fub04Tdge")
  p <- suppressMessages(ggplot2::autoplot(long))
  expect_identical(ggplot2::calc_element("legend.position", ggplot2::theme_get() + p$theme), "bottom")
  expect_lte(legend_width(p, 3.5, 2.6), 3.5)
  expect_lte(legend_width(p + ggplot2::theme(legend.position = "right"), 7, 4.5), 7 * 0.4)
  # titles, a caption and three rows of legend keys at 3.5 x 2.6 in; without titles the usual bar
  expect_figure_ready(p, min_panel = 0.35)
  withr::with_options(list(irtopics.plot_titles = FALSE),
                      expect_figure_ready(suppressMessages(ggplot2::autoplot(long))))
  # the option pins colours across figures
  withr::local_options(irtopics.system_colours = c(MU03rob01 = "#000000"))
  d <- ggplot2::layer_data(suppressMessages(ggplot2::autoplot(long)), 1)
  expect_identical(unique(d$colour[d$group == 1]), "#000000")
})

test_that("facet strips show whole system names at one column", {
  ap <- robust()[1:17, ]
  rownames(ap) <- c(sprintf("MU03rob%02d", 1:8), "CL99SDopt2", "pircRB04t3", sprintf("uogRobLWR%02d", 1:7))
  p <- suppressMessages(ggplot2::autoplot(ap, systems = rownames(ap), layout = "facets"))
  expect_false(strip_labels_clipped(p, 3.5, 2.6))
  expect_false(strip_labels_clipped(p, 7, 4.5))
  # ggplot2's own 5 columns would cut them
  wide <- p + ggplot2::facet_wrap(ggplot2::vars(.data$system), ncol = 5)
  expect_true(strip_labels_clipped(wide, 3.5, 2.6))
  # the user's smaller base size, without titles
  withr::local_options(irtopics.plot_titles = FALSE)
  old <- ggplot2::theme_set(ggplot2::theme_bw(base_size = 8))
  withr::defer(ggplot2::theme_set(old))
  q <- suppressMessages(ggplot2::autoplot(ap, systems = rownames(ap), layout = "facets"))
  expect_false(strip_labels_clipped(q, 3.5, 2.6))
})

test_that("a score matrix carries its measure's record: subsets, renames, print and summary (issue 40)", {
  err <- error_matrix()
  expect_identical(attr(err, "direction"), "lower")
  expect_identical(attr(err[1:3, 2:5], "direction"), "lower")
  expect_identical(attr(as_ir_scores(err, measure = "my error"), "direction"), "lower")
  expect_identical(attr(as_ir_scores(err, measure = "AP"), "direction"), "higher")
  expect_null(attr(t(err), "direction"))
  expect_error(as_ir_scores(unclass(err), measure = 3), "`measure`", class = "irtopics_error_argument")
  # summary(): best first is the lowest mean
  s <- summary(err)$table
  expect_identical(s$system, names(sort(rowMeans(unclass(err)))))
  expect_identical(s$system[1], "sysF")
  # the default systems of a figure: the lowest first
  expect_identical(as.vector(plot_systems(err, NULL)), names(sort(rowMeans(unclass(err)))))
  # gm_map: its print says geometric mean, its summary has it and orders by it
  ap <- robust()[1:20, ]
  gm <- as_ir_scores(ap, measure = "gm_map")
  expect_match(format(gm)[1], sprintf("geometric mean %.4f", exp(mean(log(pmax(unclass(ap), 1e-5))))), fixed = TRUE)
  expect_match(format(ap)[1], sprintf("mean %.4f", mean(unclass(ap))), fixed = TRUE)
  t_gm <- summary(gm)$table
  expect_identical(names(t_gm)[1:3], c("system", "gmean", "mean"))
  expect_identical(t_gm$system, names(sort(-mean_scores(gm))))
  expect_false(identical(t_gm$system, summary(ap)$table$system))  # GMAP and MAP order these runs differently
})
