# Ten runs of trec_eval's test collection: its run with noise of growing size.
noisy_runs <- function(n = 10L) {
  run <- utils::read.table(te_data("results.test"), colClasses = "character")
  vapply(seq_len(n), function(k) {
    r <- run
    r$V6 <- sprintf("run%02d", k)
    set.seed(k)
    r$V5 <- format(as.numeric(r$V5) + stats::rnorm(nrow(r), sd = k / 2))
    f <- tempfile(fileext = ".txt")
    utils::write.table(r, f, quote = FALSE, row.names = FALSE, col.names = FALSE)
    f
  }, "")
}

test_that("pr_curve() averages trec_eval's 11 interpolated precisions", {
  exp <- read_trec_eval_output(te_expected("out.test"))
  exp <- exp[startsWith(exp$measure, "iprec_at_recall"), ]
  pr <- pr_curve(te_data("results.test"), te_data("qrels.test"))
  expect_s3_class(pr, "ir_pr_curve")
  d <- as.data.frame(pr)
  expect_identical(d$recall, seq(0, 1, by = 0.1))
  expect_identical(sprintf("%.4f", d$precision), exp$value)
  expect_identical(sub("iprec_at_recall_", "", exp$measure), sprintf("%.2f", d$recall))
  # the same from an evaluation holding the 11 measures (trec_eval's names)
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("AP", exp$measure))
  expect_equal(as.data.frame(pr_curve(res)), d)
  # the mean of the 11 points is 11pt_avg
  e11 <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = "11pt_avg")
  expect_equal(mean(d$precision), unname(mean_scores(e11[[1]])))
  expect_error(pr_curve(res[c("AP")]), "interpolated precision", class = "irtopics_error_data")
  # autoplot(<ir_evaluation>, type = "pr") draws the same 11 points
  pp <- ggplot2::layer_data(ggplot2::autoplot(res, type = "pr"), 1)
  expect_equal(pp$y, d$precision)
  expect_equal(pp$x, d$recall)
  expect_error(ggplot2::autoplot(res, type = "pr", measures = "AP"), class = "irtopics_error_argument")
  expect_error(pr_curve(te_data("results.test")), class = "irtopics_error_argument")
  expect_output(print(pr), "interpolated precision")
})

test_that("pr_curve() of several runs and its plot", {
  files <- noisy_runs()
  pr <- pr_curve(files, te_data("qrels.test"))
  d <- as.data.frame(pr)
  expect_identical(nrow(d), 110L)
  one <- as.data.frame(pr_curve(files[3], te_data("qrels.test")))
  expect_equal(d$precision[d$system == "run03"], one$precision)
  p <- ggplot2::autoplot(pr, systems = 1:2)
  ld <- ggplot2::layer_data(p, 1)
  expect_identical(length(unique(ld$group)), 2L)
  expect_identical(nrow(layers_of(p, "GeomPoint")[[1]]), 22L)
  expect_message(pf <- ggplot2::autoplot(pr, systems = 1:10), class = "irtopics_message_layout")
  expect_identical(nrow(ggplot2::ggplot_build(pf)$layout$layout), 10L)
  expect_identical(p$labels$x, "Recall")
})

test_that("pr_curve() of an empty selection is a classed error (issue 29)", {
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = sprintf("IPrec@%.1f", 0:10 / 10))
  expect_s3_class(pr_curve(res[1, ]), "ir_pr_curve")
  for (empty in list(res[0, ], res[, 0], res[0, 0], res[character(), ])) {
    expect_error(pr_curve(empty), class = "irtopics_error_data", regexp = "nothing to compute")
    expect_error(ggplot2::autoplot(empty, type = "pr"), class = "irtopics_error_data")
  }
  expect_error(pr_curve(res[0]), class = "irtopics_error_data", regexp = "no measure")
})

# Figures for papers (issue 25) ---------------------------------------------------

# Colour and line type of each system in a lines figure, from what ggplot2 built.
system_keys <- function(p) {
  b <- ggplot2::ggplot_build(p)
  systems <- b$plot$scales$get_scales("colour")$get_limits()
  d <- b$data[[1]]
  key <- paste(tapply(d$colour, d$group, unique), tapply(d$linetype, d$group, unique))
  stats::setNames(key, systems)
}

test_that("the per-topic and the precision-recall figures choose the same systems, in the same colours", {
  files <- noisy_runs()
  ev <- evaluate(files, te_data("qrels.test"), measures = c("AP", sprintf("IPrec@%.1f", 0:10 / 10)))
  map <- rowMeans(unclass(ev$AP))
  expected <- names(map)[order(-map, names(map))][1:8]
  expect_message(sorted <- ggplot2::autoplot(ev, measures = "AP"), "8 best of 10 systems by mean AP; 2 not drawn",
                 class = "irtopics_message_layout")
  expect_message(pr_ev <- ggplot2::autoplot(ev, type = "pr"), "2 not drawn", class = "irtopics_message_layout")
  # pr_curve() of the run files ranks by AP too
  pr <- pr_curve(files, te_data("qrels.test"))
  expect_identical(pr$ranking_measure, "AP")
  expect_equal(pr$ranking, map)
  expect_message(pr_runs <- ggplot2::autoplot(pr), "2 not drawn", class = "irtopics_message_layout")
  keys <- lapply(list(sorted, pr_ev, pr_runs), system_keys)
  for (k in keys) expect_identical(names(k), expected)
  expect_identical(keys[[2]], keys[[1]])
  expect_identical(keys[[3]], keys[[1]])
  expect_identical(unname(keys[[1]]), paste(system_colours(expected), system_linetypes(expected)))
  # the caption says it, with titles on
  expect_match(ggplot2::ggplot_build(pr_runs)$plot$labels$caption, "8 best of 10 systems")
})

test_that("a system's colour and line type follow its name, whatever subset and order is drawn", {
  files <- noisy_runs()
  res <- evaluate(files, te_data("qrels.test"), measures = c("AP", sprintf("IPrec@%.1f", 0:10 / 10)))
  eight <- suppressMessages(system_keys(ggplot2::autoplot(res$AP)))
  # two of the 8 best, the 8th first; before issue 40 they took the first two
  # colours of the palette whatever their place among the best
  sy <- names(eight)[c(8, 3)]
  two <- system_keys(ggplot2::autoplot(res$AP, systems = sy))
  expect_identical(names(two), sy)
  expect_identical(two, eight[sy])
  expect_identical(system_keys(ggplot2::autoplot(pr_curve(res), systems = rev(sy))), eight[rev(sy)])
  expect_identical(system_keys(ggplot2::autoplot(res, systems = sy, measures = "AP")), eight[sy])
  # a system outside the 8 best: the colour and line type of its place among all 10
  all <- irtopics:::best_systems(rowMeans(unclass(res$AP)), k = 10)
  low <- c(all[10], sy[1])
  keys <- system_keys(ggplot2::autoplot(res$AP, systems = low))
  expect_identical(unname(keys), paste(system_colours(all), system_linetypes(all))[match(low, all)])
  expect_identical(system_keys(ggplot2::autoplot(pr_curve(res), systems = rev(low))), keys[rev(low)])
  # the highlight layout too
  b <- ggplot2::ggplot_build(ggplot2::autoplot(res$AP, systems = all, layout = "highlight", highlight = sy))
  d <- b$data[[2]]
  hi <- paste(tapply(d$colour, d$group, unique), tapply(d$linetype, d$group, unique))
  expect_identical(hi, unname(eight[sy]))
})

test_that("the precision-recall figure fits a column and a page, in the user's theme", {
  pr <- pr_curve(noisy_runs(), te_data("qrels.test"))
  make <- function() suppressMessages(ggplot2::autoplot(pr))
  expect_follows_user_theme(make)
  # title, subtitle, caption and three rows of legend keys at 3.5 x 2.6 in leave the panel
  # a third of the height; without titles the usual bar
  expect_figure_ready(make(), min_panel = 0.3)
  withr::with_options(list(irtopics.plot_titles = FALSE), expect_figure_ready(make()))
  expect_figure_ready(make(), width = 7, height = 4.5)
  expect_lte(legend_width(make()), 3.5)
  expect_false(has_legend(ggplot2::autoplot(pr, systems = "run03")))
  facets <- function() suppressMessages(ggplot2::autoplot(pr, systems = 1:10))
  expect_follows_user_theme(facets)
  expect_figure_ready(facets(), min_panel = 0.3)
  expect_false(strip_labels_clipped(facets()))
})
