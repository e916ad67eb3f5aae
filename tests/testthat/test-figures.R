# Figures at real scale (issue 18): every requested system drawn, layouts
# past what colour tells apart, comparison plots of many pairs, plots that
# say what they show, and the interpolated precision-recall curves.

robust <- function(measure = "AP") {
  f <- if (measure == "AP") "robust2004_ap.csv" else "robust2004_p10.csv"
  read_scores(system.file("extdata", "score-matrices", f, package = "irtopics"), measure = measure)
}
best <- function(m, k) names(sort(rowMeans(unclass(m)), decreasing = TRUE))[seq_len(k)]
# The best k systems without sys69, a copy of sys67 (a t-test of the two is undefined).
best_distinct <- function(m, k) setdiff(best(m, k + 1L), "sys69")[seq_len(k)]

# Layers of a built plot whose geom is `cls`.
layers_of <- function(p, cls) {
  b <- ggplot2::ggplot_build(p)
  keep <- vapply(p$layers, function(l) inherits(l$geom, cls), logical(1))
  b$data[keep]
}

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

test_that("evaluations and robust summaries pass the layout on", {
  ap <- robust()
  rs <- robust_summary(ap)
  p <- ggplot2::autoplot(rs, systems = best(ap, 12), layout = "facets")
  expect_identical(nrow(ggplot2::ggplot_build(p)$layout$layout), 12L)
  expect_error(ggplot2::autoplot(rs, type = "gmap", layout = "lines"), class = "irtopics_error_argument")
  ev <- structure(list(AP = ap, `P@10` = robust("P@10")), class = c("ir_evaluation", "list"))
  expect_message(pe <- ggplot2::autoplot(ev, systems = best(ap, 17)), class = "irtopics_message_layout")
  # two measures: highlight (facets of systems x measures do not fit), one panel per measure
  expect_identical(nrow(ggplot2::ggplot_build(pe)$layout$layout), 2L)
  expect_identical(length(unique(ggplot2::layer_data(pe, 1)$group)), 17L)
  expect_error(ggplot2::autoplot(ev, layout = "facets"), class = "irtopics_error_argument")
  pl <- ggplot2::autoplot(ev, systems = best(ap, 10), layout = "lines")
  expect_false(any(ggplot2::layer_data(pl, 1)$linetype == "blank"))
})

test_that("scatter labels: all points when they fit, else the top 5", {
  ap <- robust()
  rs17 <- robust_summary(ap[best(ap, 17), ])
  lab <- function(p) {
    for (i in seq_along(p$layers)) {
      d <- ggplot2::layer_data(p, i)
      if ("label" %in% names(d)) return(d$label[nzchar(d$label)])
    }
    character()
  }
  expect_setequal(lab(ggplot2::autoplot(rs17, type = "gmap")), best(ap, 17))
  rs <- robust_summary(ap)
  expect_setequal(lab(ggplot2::autoplot(rs, type = "gmap")), best(ap, 5))
  expect_length(lab(ggplot2::autoplot(rs, type = "gmap", label = NULL)), 0L)
})

test_that("comparison forest: significant only, baseline, subset, order by effect", {
  ap <- robust()
  s <- best_distinct(ap, 17)
  cmp <- compare_systems(ap[s, ])
  tab <- cmp$table
  expect_message(p <- ggplot2::autoplot(cmp), class = "irtopics_message_layout")  # 136 pairs
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
  seg <- layers_of(pb, "GeomSegment")[[1]]
  expect_true(all(seg$x < seg$xend))
  expect_true(all(abs((seg$x + seg$xend) / 2 - d$x[match(seg$y, d$y)]) < 1e-12))
  # a subset of systems: the pairs among them
  expect_identical(nrow(layers_of(ggplot2::autoplot(cmp, systems = s[1:4]), "GeomPoint")[[1]]), 6L)
  # labels sized to fit: 9 pt for few pairs, 5 pt for many
  expect_identical(pb$theme$axis.text.y$size, 9)
  expect_identical(p$theme$axis.text.y$size, 5)
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
  expect_identical(grepl("p < 0.05", tiles$verdict), tiles$p < 0.05)
  expect_true(any(grepl("p < 0.05", levels(tiles$verdict))))
  # systems by mean score, best first
  expect_identical(levels(tiles$col), unname(names(sort(m, decreasing = TRUE))))
  # p-values in the cells for up to 12 systems, not beyond
  txt <- layers_of(p, "GeomText")
  expect_length(txt, 1L)
  expect_identical(nrow(txt[[1]]), 56L)
  cmp17 <- compare_systems(ap[best_distinct(ap, 17), ])
  expect_length(layers_of(ggplot2::autoplot(cmp17, type = "heatmap"), "GeomText"), 0L)
  expect_identical(nrow(ggplot2::autoplot(cmp17, type = "heatmap", systems = s[1:3])$data), 6L)
  # 110 systems: one in 3 named (37 labels), with a message
  cmp110 <- suppressWarnings(compare_systems(ap))
  expect_message(p110 <- ggplot2::autoplot(cmp110, type = "heatmap"), "one in 3 is named",
                 class = "irtopics_message_layout")
  b <- ggplot2::ggplot_build(p110)
  expect_length(b$layout$panel_params[[1]]$x$get_labels(), 37L)
  expect_identical(nrow(p110$data), 110L * 109L)
  # a pair without p-value (two identical runs) is neither better nor worse
  dup <- suppressWarnings(compare_systems(ap[c("sys67", "sys69", "sys1"), ]))
  tiles <- ggplot2::autoplot(dup, type = "heatmap")$data
  expect_identical(as.character(tiles$verdict[is.na(tiles$p)]), c("no p-value", "no p-value"))
})

test_that("reliability curves show the target and no marker at each of 500 sizes", {
  ap <- robust()
  g <- g_study(ap)
  p <- ggplot2::autoplot(g)
  expect_length(layers_of(p, "GeomPoint"), 0L)
  h <- layers_of(p, "GeomHline")
  expect_length(h, 1L)
  expect_identical(h[[1]]$yintercept, 0.95)
  expect_match(p$labels$title, "AP")
  expect_length(layers_of(ggplot2::autoplot(g, target = NULL), "GeomHline"), 0L)
  pd <- ggplot2::autoplot(d_study(g, c(10, 50, 100)), target = 0.9)
  expect_identical(nrow(layers_of(pd, "GeomPoint")[[1]]), 6L)
  expect_identical(layers_of(pd, "GeomHline")[[1]]$yintercept, 0.9)
  cv <- alpha_curve(ap[, 1:40], sizes = c(5, 20, 40), trials = 20, seed = 1)
  pc <- ggplot2::autoplot(cv)
  expect_identical(layers_of(pc, "GeomHline")[[1]]$yintercept, 0.95)
  expect_match(pc$labels$title, "of AP")
  expect_error(ggplot2::autoplot(cv, target = 2), class = "irtopics_error_argument")
})

test_that("the swap method's default sizes give a curve on 100 topics", {
  ap <- robust()
  e <- swap_error_rates(ap[best(ap, 20), 1:100], trials = 20, seed = 1)
  expect_identical(e$sizes, seq(5L, 50L, by = 5L))
  p <- ggplot2::autoplot(e)
  expect_identical(nrow(layers_of(p, "GeomPoint")[[1]]), 10L)
  expect_match(p$labels$title, "MAP")
  expect_identical(irtopics:::default_swap_sizes(124), c(seq(13L, 117L, by = 13L), 124L))
  expect_identical(irtopics:::default_swap_sizes(1), 1L)
  ec <- swap_error_rates(ap[best(ap, 20), ], sizes = c(10, 20), aggregate = "area", trials = 20, seed = 1)
  expect_match(ggplot2::autoplot(critical_values(ec))$labels$x, "area")
})

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
  expect_error(pr_curve(res[c("AP")]), class = "irtopics_error")
  # autoplot(<ir_evaluation>, type = "pr") draws the same 11 points
  pp <- ggplot2::layer_data(ggplot2::autoplot(res, type = "pr"), 1)
  expect_equal(pp$y, d$precision)
  expect_equal(pp$x, d$recall)
  expect_error(ggplot2::autoplot(res, type = "pr", measures = "AP"), class = "irtopics_error_argument")
  expect_error(pr_curve(te_data("results.test")), class = "irtopics_error_argument")
  expect_output(print(pr), "interpolated precision")
})

test_that("pr_curve() of several runs and its plot", {
  run <- utils::read.table(te_data("results.test"), colClasses = "character")
  files <- vapply(1:10, function(k) {
    r <- run
    r$V6 <- sprintf("run%02d", k)
    set.seed(k)
    r$V5 <- format(as.numeric(r$V5) + stats::rnorm(nrow(r), sd = k / 2))
    f <- tempfile(fileext = ".txt")
    utils::write.table(r, f, quote = FALSE, row.names = FALSE, col.names = FALSE)
    f
  }, "")
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

test_that("label = 'auto' names up to 20 points, else the top 5; end labels work without ggrepel", {
  df <- data.frame(id = sprintf("s%02d", 1:21), v = 21:1)
  expect_identical(irtopics:::label_rows(df[1:20, ], "auto", "id", "v"), 1:20)
  expect_identical(irtopics:::label_rows(df, "auto", "id", "v"), 1:5)
  ends <- data.frame(system = factor(c("a", "b")), x = c(10, 10), y = c(0.2, 0.8))
  l <- irtopics:::end_labels(ends, "x", "y", use_repel = FALSE)
  expect_s3_class(l$geom, "GeomText")
  expect_identical(l$data$.label, c("a", "b"))
})
