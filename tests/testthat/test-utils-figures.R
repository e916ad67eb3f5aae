# The shared look of figures (R/utils-figures.R): the user's theme, titles
# that can be turned off, one colour per system across figures.

test_that("system_colours() gives one colour per system and honours pinned colours", {
  expect_identical(unname(system_colours(c("a", "b"))), unname(grDevices::palette.colors(9L, "Okabe-Ito")[2:3]))
  expect_named(system_colours(c("b", "a")), c("b", "a"))
  withr::local_options(irtopics.system_colours = c(b = "#000000", zz = "red"))
  cols <- system_colours(c("a", "b"))
  expect_identical(cols[["b"]], "#000000")
  expect_identical(cols[["a"]], unname(grDevices::palette.colors(9L, "Okabe-Ito")[2]))
  expect_identical(system_linetypes(c("x", "y"))[["y"]], "22")
  # beyond 8 systems the colours repeat, each round with the line types
  # shifted by one: no two of the first 64 systems look alike (it gave 20
  # evenly spaced hues to 20 systems before issue 40, nearly equal for
  # neighbours of 110)
  s <- paste0("s", 1:65)
  key <- paste(system_colours(s), system_linetypes(s))
  expect_length(unique(system_colours(s)), 8)
  expect_identical(anyDuplicated(key[1:64]), 0L)
  expect_identical(key[[65]], key[[1]])
  expect_identical(unname(system_linetypes(s)[c(1, 9, 10, 16)]), c("solid", "22", "42", "solid"))
  expect_error(system_colours(c("a", "a")), class = "irtopics_error_argument")
  withr::local_options(irtopics.system_colours = c("red", "blue"))
  expect_error(system_colours("a"), class = "irtopics_error_argument")
})

test_that("a pinned colour that is not one is refused when read, naming the option and the system (issue 43)", {
  # before: accepted, and the figure failed only when printed, with ggplot2's error
  m <- as_ir_scores(rbind(A = c(0.5, 0.3, 0.2), B = c(0.3, 0.4, 0.1)), measure = "AP")
  for (bad in list(c(A = "notacolour"), c(A = NA_character_), c(B = "red", A = ""))) {
    withr::local_options(irtopics.system_colours = bad)
    err <- expect_error(system_colours(c("A", "B")), class = "irtopics_error_argument",
                        regexp = "irtopics.system_colours")
    expect_match(conditionMessage(err), "\"A\"")
    expect_error(ggplot2::autoplot(m), class = "irtopics_error_argument", regexp = "irtopics.system_colours")
  }
  withr::local_options(irtopics.system_colours = stats::setNames("red", NA))
  expect_error(system_colours("A"), class = "irtopics_error_argument")
  # names, codes with alpha and palette numbers are colours
  withr::local_options(irtopics.system_colours = c(A = "#FF000080", B = "steelblue", C = "2"))
  expect_identical(unname(system_colours(c("A", "B"))), c("#FF000080", "steelblue"))
})

test_that("wins, ties and losses have one colour in every figure that colours them", {
  # A against B: two wins, two ties, two losses
  m <- rbind(A = c(0.5, 0.3, 0.2, 0.4, 0.6, 0.1),
             B = c(0.3, 0.3, 0.4, 0.2, 0.6, 0.3),
             C = c(0.2, 0.5, 0.1, 0.3, 0.2, 0.4))
  colnames(m) <- paste0("t", 1:6)
  m <- as_ir_scores(m, measure = "AP")
  cmp <- compare_systems(m)
  risk <- risk_summary(m, baseline = "B")
  # the bars of per-topic outcomes: the comparison's topic figure and the risk figure
  cmp_bars <- ggplot2::layer_data(ggplot2::autoplot(cmp, type = "topics", pair = c("A", "B")), 1)
  risk_bars <- ggplot2::layer_data(ggplot2::autoplot(risk, system = "A"), 2)
  # a bar spans 0 to its value
  colour_of <- function(bars, sg) unique(bars$fill[sign(round(bars$ymin + bars$ymax, 12)) == sg])
  for (sg in c(1, 0, -1)) {
    expect_length(colour_of(cmp_bars, sg), 1L)
    expect_identical(colour_of(risk_bars, sg), colour_of(cmp_bars, sg), info = sg)
  }
  win <- colour_of(cmp_bars, 1)
  loss <- colour_of(cmp_bars, -1)
  # blue and red, as the comparing-systems vignette says of the heat map
  expect_identical(c(win, loss), unname(irtopics:::outcome_palette[c("win", "loss")]))
  # verdicts: a significant gain over the baseline has a win's colour, a risk a loss's; the heat
  # map's significant wins of the row and of the column system are the same two colours
  scale_colours <- function(p, aes, keys) {
    unname(ggplot2::ggplot_build(p)$plot$scales$get_scales(aes)$map(keys))
  }
  expect_identical(scale_colours(ggplot2::autoplot(risk, type = "systems"), "colour", c("gain", "risk")),
                   c(win, loss))
  heat <- ggplot2::autoplot(cmp, type = "heatmap")
  expect_identical(scale_colours(heat, "fill", levels(heat$data$verdict)[c(1, 4)]), c(win, loss))
  expect_error(irtopics:::outcome_colours("victory"), class = "irtopics_error_internal")
})

test_that("plot_labels() drops title, subtitle and caption when titles are off, and says the note", {
  l <- irtopics:::plot_labels("T", "S", note = "Grey: 9 other systems.", x = "AP")
  expect_identical(l$caption, "Grey: 9 other systems.")
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(l <- irtopics:::plot_labels("T", "S", note = "Grey: 9 other systems."),
                 "9 other", class = "irtopics_message_layout")
  expect_null(l$title)
  expect_identical(l$x, NULL)
  expect_true("title" %in% names(l))
})

test_that("the figure checks catch a complete theme, a cut title and a squeezed panel", {
  df <- data.frame(x = 1:3, y = 1:3, g = letters[1:3])
  ok <- ggplot2::ggplot(df, ggplot2::aes(x, y)) + ggplot2::geom_point() + irtopics:::title_theme()
  expect_figure_ready(ok)
  expect_follows_user_theme(function() ok)
  expect_named(figure_problems(ok + ggplot2::theme_bw()), "theme")
  expect_named(figure_problems(ok + ggplot2::theme(axis.text = ggplot2::element_text(size = 9))), "sizes")
  expect_named(figure_problems(ok + ggplot2::labs(title = strrep("a long title ", 6))), "title")
  wide <- ggplot2::ggplot(df, ggplot2::aes(x, y, colour = paste0(g, strrep("x", 60)))) + ggplot2::geom_point()
  expect_named(figure_problems(wide, check_x = FALSE), "panel_width")
  expect_named(theme_problems(function() ok + ggplot2::theme_grey() + ggplot2::labs(title = "T")),
               c("base_size", "theme", "titles"))
  crowded <- ggplot2::ggplot(data.frame(x = 1:40 / 1000 + 0.95, y = 1), ggplot2::aes(x, y)) +
    ggplot2::geom_point() + ggplot2::scale_x_continuous(breaks = 1:40 / 1000 + 0.95)
  expect_true(x_labels_overlap(crowded))
})

# Every result class's default figure, built from the class fixtures: it takes
# its look from theme_get(), its titles go with irtopics.plot_titles, and it
# fits one column (3.5 x 2.6 in) and a page (7 x 4.5 in).
local({
  fx <- class_fixtures()
  plotted <- Filter(function(cls) !is.null(utils::getS3method("autoplot", cls, optional = TRUE,
                                                             envir = asNamespace("irtopics"))),
                    names(fx))
  for (cls in plotted) {
    test_that(sprintf("autoplot(<%s>) follows the user's theme and fits a column", cls), {
      make <- function() suppressMessages(ggplot2::autoplot(fx[[cls]]))
      expect_follows_user_theme(make)
      expect_figure_ready(make(), width = 3.5, height = 2.6, min_panel = 0.3)
      expect_figure_ready(make(), width = 7, height = 4.5)
    })
  }
})

test_that("rows_legend() puts keys in rows below the panel and in one column on the right", {
  df <- data.frame(x = rep(1:2, 6), y = 1:12, g = rep(paste0("series_", 1:6), each = 2))
  p <- ggplot2::ggplot(df, ggplot2::aes(x, y, colour = g)) + ggplot2::geom_line() + irtopics:::title_theme(legend = TRUE)
  rows <- p + ggplot2::guides(colour = irtopics:::rows_legend(nrow = 2))
  plain <- p + ggplot2::guides(colour = ggplot2::guide_legend(nrow = 2))
  # below: two rows, as asked (the same as ggplot2's guide)
  expect_equal(legend_width(rows), legend_width(plain))
  # on the right: one column, so the panel keeps its width at 3.5 in
  right <- function(q) q + ggplot2::theme(legend.position = "right")
  expect_lt(legend_width(right(rows)), legend_width(right(plain)) / 2)
  expect_gte(figure_layout(right(rows))$panel_width, 0.45)
  expect_lt(figure_layout(right(plain))$panel_width, 0.45)
})

test_that("legend rows below the panel touch under every ggplot2 (3.5 and later put 5.5 pt between them)", {
  th <- legend_theme()
  if (ggplot2_has_key_spacing()) {
    expect_identical(as.numeric(th$legend.key.spacing.y), 0)
    # with the default spacing, 8 systems in 4 rows left the panel a quarter of a 2.6 in figure
    d <- data.frame(x = rep(1:3, 8), y = runif(24), g = rep(sprintf("system%02d", 1:8), each = 3))
    p <- ggplot2::ggplot(d, ggplot2::aes(.data$x, .data$y, colour = .data$g)) + ggplot2::geom_line() +
      ggplot2::labs(title = "A title") + th + ggplot2::guides(colour = ggplot2::guide_legend(ncol = 2))
    expect_gt(figure_layout(p, 3.5, 2.6)$panel_height,
              figure_layout(p + ggplot2::theme(legend.key.spacing.y = NULL), 3.5, 2.6)$panel_height)
  } else {
    expect_null(th$legend.key.spacing.y)
  }
})
