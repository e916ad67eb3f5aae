# Figures of family 6 (issue 25): undefined indicators said wherever they are
# left out, identical systems visible, the figure mechanism.

# Three topics: in t1 system b's query q2 returns no relevant document; t3
# has one distinct query (q2 duplicates q1).
undefined_orders <- function() {
  b1 <- spec_queries
  b1$q2 <- rep(1001, 6)
  combine_orders(make_orders(list(a = spec_queries, b = b1), topic = "t1"),
                 make_orders(list(a = spec_queries, b = lapply(spec_queries, rev)), topic = "t2"),
                 make_orders(list(a = spec_queries[c("q1", "q1")] |> stats::setNames(c("q1", "q2")),
                                  b = spec_queries[c("q3", "q3")] |> stats::setNames(c("q1", "q2"))),
                             topic = "t3"))
}

test_that("undefined U, C, S: how many topics and why, in the warning, print, summary and differences", {
  o <- undefined_orders()
  expect_warning(ind <- topic_indicators(o),
                 "NA for 2 of 3 topics.*no relevant document \\(1\\); fewer than two distinct queries \\(1\\)",
                 class = "irtopics_warning_data")
  expect_identical(ind$undefined,
                   data.frame(topic = c("t1", "t3", "t3"), system = c("b", "a", "b"),
                              reason = c("a selected query returns no relevant document",
                                         "fewer than two distinct queries", "fewer than two distinct queries")))
  df <- ind$indicators
  expect_identical(is.na(df$U), paste(df$topic, df$system) %in% c("t1 b", "t3 a", "t3 b"))
  expect_false(anyNA(df$E))
  expect_match(format(ind)[2], "U, C and S are NA for 2 of 3 topics")
  s <- summary(ind)
  expect_identical(s$table$undefined, c(1L, 2L))
  expect_match(s$title[2], "2 of 3 topics")
  # the mean over the finite values, by hand
  expect_equal(s$table$U[s$table$system == "a"], mean(df$U[df$system == "a" & df$topic != "t3"]))
  dif <- indicator_differences(ind, "a", "b")
  expect_identical(nrow(dif$undefined), 3L)
  expect_match(format(dif)[2], "differences are NA for 2 of 3 topics")
  expect_match(summary(dif)$title[2], "2 of 3 topics")
  expect_identical(summary(dif)$table$topics[summary(dif)$table$indicator == "U"], 1L)
})

test_that("plots that leave out undefined topics say how many and why", {
  ind <- suppressWarnings(topic_indicators(undefined_orders()))
  dif <- indicator_differences(ind, "a", "b")
  p <- ggplot2::autoplot(dif)
  expect_identical(ggplot2::layer_data(p, 3)$label, "t2")
  caption <- gsub("\n", " ", p$labels$caption)
  expect_match(caption, "2 of 3 topics not drawn \\(E or U undefined\\)")
  expect_match(caption, "no relevant document \\(1\\); fewer than two distinct queries \\(1\\)")
  q <- ggplot2::autoplot(ind, type = "ap", indicator = "U")
  expect_equal(nrow(ggplot2::layer_data(q, 1)), 3L)
  expect_match(q$labels$caption, "3 of 6 topic-system pairs not drawn")
  # E is defined everywhere: nothing dropped, no note
  expect_null(ggplot2::autoplot(ind, type = "ap")$labels$caption)
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(p2 <- ggplot2::autoplot(dif), "2 of 3 topics not drawn", class = "irtopics_message_layout")
  expect_null(p2$labels$caption)
})

test_that("identical systems stay visible side by side in the exclusion plot", {
  o <- make_orders(list(a = spec_queries, b = spec_queries, c = lapply(spec_queries, rev)))
  ex <- exclusion_measure(o)
  p <- ggplot2::autoplot(ex)
  ld <- ggplot2::layer_data(p)
  expect_equal(nrow(ld), 12L)
  expect_identical(ld$y, p$data$row)
  pa <- ld[p$data$system == "a", ]
  pb <- ld[p$data$system == "b", ]
  expect_identical(pa$x, pb$x)
  expect_true(all(pa$y != pb$y))
  expect_true(all(abs(pa$y - pb$y) < 0.5))
  expect_length(unique(ld$shape), 3L)
  expect_length(unique(ld$colour), 3L)
  # labels: the query text cut to text_width characters, or the id alone
  o2 <- make_orders(list(a = spec_queries), text = c(q1 = strrep("long words ", 5), q2 = "short",
                                                     q3 = NA, q4 = "four"))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(exclusion_measure(o2), text_width = 12))
  labs <- b$layout$panel_params[[1]]$y$get_labels()
  expect_true(all(nchar(labs) <= nchar("q1: ") + 12))
  expect_true("q3" %in% labs)
  expect_true("q1: long word..." %in% labs)
  b0 <- ggplot2::ggplot_build(ggplot2::autoplot(exclusion_measure(o2), text_width = 0))
  expect_setequal(b0$layout$panel_params[[1]]$y$get_labels(), names(spec_queries))
  expect_error(ggplot2::autoplot(ex, text_width = -1), class = "irtopics_error_argument")
})

test_that("family 6 figures follow the user's theme and fit a column and a page", {
  fx <- class_fixtures()
  ind <- fx$ir_topic_indicators
  dif <- fx$ir_indicator_differences
  makers <- list(exclusion = function() ggplot2::autoplot(fx$ir_exclusion),
                 queries = function() ggplot2::autoplot(ind),
                 ap = function() ggplot2::autoplot(ind, type = "ap"),
                 EU = function() ggplot2::autoplot(dif),
                 CS = function() ggplot2::autoplot(dif, type = "CS"))
  for (nm in names(makers)) {
    make <- makers[[nm]]
    expect_follows_user_theme(make)
    expect_figure_ready(make())
    expect_figure_ready(make(), width = 7, height = 4.5)
    # one colour and shape per system, the same colours as system_colours()
    b <- ggplot2::ggplot_build(make())
    if (nm %in% c("exclusion", "queries", "ap")) {
      expect_setequal(unique(b$data[[1]]$colour), unname(system_colours(unique(ind$indicators$system))))
    }
  }
  # a subset keeps each system's colour and shape (issue 40: the second
  # system took the first's colour when drawn alone)
  all <- sort_bytes(unique(ind$indicators$system))
  key <- function(p) {
    d <- ggplot2::layer_data(p, 1)
    sort(unique(paste(d$colour, d$shape)))
  }
  for (one in all) {
    want <- paste(system_colours(all)[[one]], system_shapes(length(all))[match(one, all)])
    expect_identical(key(ggplot2::autoplot(ind, type = "ap", systems = one)), want)
    expect_identical(key(ggplot2::autoplot(ind, systems = one)), want)
    expect_identical(key(ggplot2::autoplot(fx$ir_exclusion, systems = one)), want)
  }
  # the query panel does not collapse at one column: labels are cut to fit
  lay <- figure_layout(makers$queries())
  expect_gt(lay$panel_width, 0.45)
})

test_that("of more than 8 systems, the plots draw the 8 best and say how many they left out", {
  set.seed(3)
  lists <- lapply(stats::setNames(1:10, sprintf("s%02d", 1:10)), function(i) {
    lapply(spec_queries, function(q) ifelse(q > 1000, q, q + i - 1))
  })
  o <- make_orders(lists)
  ex <- exclusion_measure(o)
  p <- ggplot2::autoplot(ex)
  # s01 returns everything earliest: the best mean exclusion; the per-query
  # plot draws 4 systems (a point per system in every query's row)
  expect_setequal(unique(as.character(p$data$system)), sprintf("s%02d", 1:4))
  expect_match(gsub("\n", " ", p$labels$caption), "Showing 4 of 10 systems: best mean exclusion")
  means <- tapply(ex$lists$exclusion, ex$lists$system, mean)
  expect_true(all(means[sprintf("s%02d", 1:4)] >= max(means[sprintf("s%02d", 5:10)])))
  p2 <- ggplot2::autoplot(ex, systems = c("s10", "s02"))
  expect_setequal(unique(as.character(p2$data$system)), c("s02", "s10"))
  expect_null(p2$labels$caption)
  expect_error(ggplot2::autoplot(ex, systems = "nope"), class = "irtopics_error_argument")
  ind <- suppressWarnings(topic_indicators(o))
  q <- ggplot2::autoplot(ind, type = "ap")
  expect_equal(nrow(ggplot2::layer_data(q)), 8L)
  expect_match(gsub("\n", " ", q$labels$caption), "Showing 8 of 10 systems: best mean AP")
  m <- suppressMessages(query_map_mds(return_order_dissimilarity(o, topic = "t1")))
  mp <- ggplot2::autoplot(m)
  expect_equal(nrow(ggplot2::layer_data(mp)), 8L * 4L)
  caption <- gsub("\n", " ", mp$labels$caption)
  expect_match(caption, "Showing 8 of 10 systems: the first by name")
  expect_match(caption, "40 of 40 lists share 4 points .*s01 = s02 = s03 = 7 more")
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(ggplot2::autoplot(ex), "4 of 10 systems", class = "irtopics_message_layout")
})

test_that("difference axes are titled Delta E, Delta U in plotmath, with the pair where it fits", {
  ind <- suppressWarnings(topic_indicators(undefined_orders()))
  p <- ggplot2::autoplot(indicator_differences(ind, "a", "b"))
  expect_identical(deparse(p$labels$x), "Delta * \"E\" ~ \"(\" * \"a - b\" * \")\"")
  expect_identical(deparse(p$labels$y), "Delta * \"U\" ~ \"(\" * \"a - b\" * \")\"")
  ind$indicators$system[ind$indicators$system == "a"] <- "a_rather_long_system_name"
  ind$undefined$system[ind$undefined$system == "a"] <- "a_rather_long_system_name"
  q <- ggplot2::autoplot(indicator_differences(ind, "a_rather_long_system_name", "b"), type = "CS")
  expect_identical(deparse(q$labels$y), "Delta * \"S\"")
  expect_match(deparse(q$labels$x), "a_rather_long_system_name - b", fixed = TRUE)
  # one topic is drawn: the x range has zero width and ggplot2's breaks of it
  # are long numbers, so only the layout is checked here
  expect_figure_ready(q, check_x = FALSE)
})
