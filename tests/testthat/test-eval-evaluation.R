test_that("as.data.frame() is tidy long over all measures and matches the parts", {
  res <- two_system_evaluation()
  df <- as.data.frame(res)
  expect_named(df, c("system", "topic", "measure", "value"))
  expect_identical(nrow(df), 3L * 2L * 3L)
  expect_identical(unique(df$measure), c("AP", "P@2", "RR"))
  for (m in names(res)) {
    d <- df[df$measure == m, ]
    expect_identical(d$value, as.vector(t(unclass(res[[m]]))[, 1:2][cbind(rep(1:3, 2), rep(1:2, each = 3))]))
    # hand values: sysA on 301 returns d1 (rel), d2, d3 (rel): AP = (1 + 2/3) / 2
    if (m == "AP") expect_equal(d$value[d$system == "sysA" & d$topic == "301"], (1 + 2 / 3) / 2)
  }
  expect_true(is.na(df$value[df$system == "sysB" & df$topic == "303" & df$measure == "RR"]))
  expect_identical(nrow(as.data.frame(res, na.rm = TRUE)), 15L)
  tb <- tibble::as_tibble(res)
  expect_s3_class(tb, "tbl_df")
  expect_identical(as.data.frame(tb), df)
})

test_that("summary() reports each measure's size, NAs and system means", {
  res <- two_system_evaluation()
  s <- summary(res)
  expect_s3_class(s, "irtopics_summary")
  tab <- as.data.frame(s)
  expect_identical(tab$measure, names(res))
  expect_identical(tab$unanswered, c(1L, 1L, 1L))
  expect_equal(tab$max_mean, vapply(res, function(m) max(rowMeans(unclass(m), na.rm = TRUE)), 0),
               ignore_attr = TRUE)
  expect_snapshot(print(s))
})

test_that("print() is cat(format()) with the system means", {
  res <- two_system_evaluation()
  expect_identical(capture.output(print(res)), format(res))
  expect_snapshot(print(res))
  # no "... 0 more systems" line
  expect_false(any(grepl("more system", format(res))))
  expect_match(format(res, n = 1)[5], "# ... 1 more system$")
})

test_that("autoplot() draws one panel per measure with sorted scores", {
  res <- two_system_evaluation()
  p <- ggplot2::autoplot(res)
  ld <- ggplot2::layer_data(p)
  expect_identical(sort(unique(as.integer(ld$PANEL))), 1:3)
  # panel 1 (AP): sysA's sorted AP values
  a <- ld[ld$PANEL == 1 & ld$group == 1, ]
  expect_equal(a$y, sort(unclass(res$AP)["sysA", ]), ignore_attr = TRUE)
  p2 <- ggplot2::autoplot(res, measures = "RR", systems = "sysB")
  expect_identical(nrow(ggplot2::layer_data(p2)), 2L)
  expect_error(ggplot2::autoplot(res, sytems = "sysA"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(res, measures = "MAP"), class = "irtopics_error_argument")
  # type = "means": each mean with its t interval, one panel per measure
  pm <- ggplot2::autoplot(res, type = "means", measures = c("AP", "RR"))
  eb <- ggplot2::layer_data(pm, 1)
  ap <- as.numeric(unclass(res$AP)["sysA", ])
  ref <- t.test(ap[!is.na(ap)])$conf.int
  expect_true(any(abs(eb$xmin - ref[1]) < 1e-12 & abs(eb$xmax - ref[2]) < 1e-12))
  expect_identical(nrow(ggplot2::layer_data(pm, 2)), 4L)
})

test_that("an ir_scores converts to the same long tibble as its evaluation", {
  skip_if_not_installed("tibble")
  res <- two_system_evaluation()
  tb <- tibble::as_tibble(res$AP)
  expect_s3_class(tb, "tbl_df")
  expect_identical(as.data.frame(tb), as.data.frame(res$AP))
  expect_identical(nrow(tibble::as_tibble(res$AP, na.rm = TRUE)), 5L)
})

test_that("res[systems, ] and res[, topics] subset every measure like a matrix", {
  res <- four_system_evaluation()
  s <- res[c("gamma", "alpha"), ]
  expect_s3_class(s, "ir_evaluation")
  expect_identical(names(s), names(res))
  for (m in names(res)) {
    expect_s3_class(s[[m]], "ir_scores")
    expect_identical(unclass(s[[m]])[, ], unclass(res[[m]])[c("gamma", "alpha"), ])
    expect_identical(attr(s[[m]], "measure"), attr(res[[m]], "measure"))
    expect_identical(attr(s[[m]], "aggregate"), attr(res[[m]], "aggregate"))
    expect_identical(attr(s[[m]], "direction"), attr(res[[m]], "direction"))
  }
  t2 <- res[, c("302", "304")]
  expect_identical(colnames(t2$RR), c("302", "304"))
  expect_identical(unclass(t2$RR)[, ], unclass(res$RR)[, c("302", "304")])
  one <- res[1, 2]  # never dropped to a vector
  expect_identical(dim(one$AP), c(1L, 1L))
  expect_identical(dim(res[-1, c(TRUE, FALSE)]$AP), c(3L, 2L))
  expect_identical(dim(res[rownames(res$AP) != "beta", , drop = TRUE]$AP), c(3L, 4L))
  expect_error(res["gama", ], "Did you mean.*gamma", class = "irtopics_error_argument")
  expect_error(res[, "399"], "must name topics", class = "irtopics_error_argument")
  expect_error(res[, 9], "must select topics", class = "irtopics_error_argument")
  expect_error(res[1, 1, 1], "two dimensions", class = "irtopics_error_argument")
})

test_that("an empty selection converts to empty tables; its means and plots are classed errors (issue 29)", {
  res <- four_system_evaluation()
  cols <- c("system", "topic", "value", "measure")
  for (empty in list(res[0, ], res[, 0], res[0, 0], res[character(), ], res[c(FALSE, FALSE, FALSE, FALSE), ])) {
    d <- as.data.frame(empty)
    expect_identical(nrow(d), 0L)
    expect_setequal(names(d), cols)
    expect_identical(nrow(generics::tidy(empty)), 0L)
    expect_identical(nrow(generics::glance(empty)), 1L)
    expect_error(mean_scores(empty), class = "irtopics_error_data", regexp = "nothing to compute")
    expect_error(ggplot2::autoplot(empty), class = "irtopics_error_data", regexp = "nothing to draw")
  }
  expect_error(mean_scores(res[0]), class = "irtopics_error_data", regexp = "no measure")
  expect_identical(nrow(as.data.frame(res[0])), 0L)
  # the neighbours that work keep working: one system, one topic
  expect_identical(nrow(as.data.frame(res[1, 1])), 3L)
  expect_identical(as.data.frame(res[1, 1])$measure, names(res))
})

test_that("glance() of an evaluation gives the numbers users want at a glance", {
  skip_if_not_installed("generics")
  runs <- file.path(tempdir(), c("full.txt", "trunc.txt"))
  file.copy(te_data(c("results.test", "results.trunc")), runs, overwrite = TRUE)
  res <- evaluate(runs, te_data("qrels.test"), measures = c("P@10", "AP"), name = "file")
  g <- generics::glance(res)
  expect_s3_class(g, "data.frame")
  expect_identical(nrow(g), 1L)
  m <- unclass(res$`P@10`)
  means <- rowMeans(m, na.rm = TRUE)  # by hand: each system's mean over its answered topics
  expect_identical(g$n_systems, 2L)
  expect_identical(g$n_topics, ncol(m))
  expect_identical(g$n_measures, 2L)
  expect_identical(g$n_unanswered, sum(is.na(m)))
  expect_gt(g$n_unanswered, 0L)  # trunc lacks topics
  expect_identical(g$topics_unanswered, sum(is.na(m["trunc", ])))
  expect_identical(g$measure, "P@10")
  expect_equal(c(g$min_mean, g$mean, g$max_mean), c(min(means), mean(means), max(means)))
  expect_identical(g$best, names(which.max(means)))
  expect_identical(g$depth, 1000)
  expect_identical(g$missing, "drop")
  expect_false(g$judged_only)
  expect_true(generics::glance(evaluate(runs[1], te_data("qrels.test"), measures = "AP", judged_only = TRUE))$judged_only)
  expect_match(format(evaluate(runs[1], te_data("qrels.test"), measures = "AP", judged_only = TRUE))[1],
               "judged documents only")
})

test_that("the sorted figure of an evaluation fits a column and a page, in the user's theme", {
  ap <- robust()
  s17 <- best(ap, 17)
  ev <- structure(list(AP = ap[s17, ], `P@10` = robust("P@10")[s17, ]), class = c("ir_evaluation", "list"))
  make <- function() suppressMessages(ggplot2::autoplot(ev))
  expect_follows_user_theme(make)
  expect_figure_ready(make(), min_panel = 0.3)
  expect_figure_ready(make(), width = 7, height = 4.5)
  expect_lte(legend_width(make()), 3.5)
  # two panels side by side: three x ticks (0, 100, 200), not "0 50 100150200250"
  bx <- ggplot2::ggplot_build(make())$layout$panel_params[[1]]$x$breaks
  expect_identical(as.numeric(stats::na.omit(bx)), c(0, 100, 200))
  # the 8 best by the first measure, also when another measure is drawn
  expect_message(p <- ggplot2::autoplot(ev, measures = "P@10"), "by mean AP", class = "irtopics_message_layout")
  b <- ggplot2::ggplot_build(p)
  expect_identical(b$plot$scales$get_scales("colour")$get_limits(), best(ap[s17, ], 8))
  # one measure: no facet, the measure on the y axis
  expect_identical(nrow(b$layout$layout), 1L)
  expect_identical(b$plot$labels$y, "P@10")
})

# Issue 40: every summary uses the measure's own aggregate ------------------------------

test_that("print(), mean_scores(), summary() and glance() of every all_trec measure show trec_eval's 'all' line", {
  # before: gm_map and gm_bpref showed the arithmetic mean (MAP 0.1785, bpref
  # 0.1981 where trec_eval prints gm_map 0.1051, gm_bpref 0.0083) and the
  # counts their mean per topic (num_ret 500 where trec_eval prints 1500)
  cases <- list(list("out.test.a.txt", "results.test", "qrels.test", list()),
                list("out.test.aqc", "results.trunc", "qrels.test", list(missing = "zero")),
                list("out.test.aqcM", "results.trunc", "qrels.test", list(missing = "zero", depth = 100)),
                list("out.test.aql", "results.test", "qrels.rel_level", list(relevance_level = 2)))
  withr::local_options(width = 10000)
  for (cs in cases) {
    exp <- read_trec_eval_output(te_expected(cs[[1]]))
    exp <- exp[exp$topic == "all" & supported_trec_measure(exp$measure), ]
    res <- do.call(evaluate, c(list(te_data(cs[[2]]), te_data(cs[[3]]), measures = "all_trec"), cs[[4]]))
    te <- trec_eval_measure_name(attr(res, "canonical"))
    expect_setequal(te, exp$measure)  # every measure of all_trec has its 'all' line
    want <- exp$value[match(te, exp$measure)]
    counts <- vapply(names(res), function(m) identical(attr(res[[m]], "aggregate"), "sum"), logical(1))
    ms <- unlist(mean_scores(res)[names(res)])
    shown <- ifelse(counts, sprintf("%d", as.integer(round(ms))), sprintf("%.4f", ms))
    expect_identical(unname(shown), want, label = paste(cs[[1]], "mean_scores()"))
    # the printed table: a header of measure names over the one system's values
    lines <- format(res)
    at <- grep("^System means", lines)
    header <- strsplit(trimws(lines[at + 1L]), " +")[[1]]
    values <- strsplit(trimws(lines[at + 2L]), " +")[[1]]
    expect_identical(header[-1], names(res))
    expect_identical(as.numeric(values[-1]), as.numeric(want), label = paste(cs[[1]], "print()"))
    expect_match(lines[at], "gm_map, gm_bpref: geometric means", fixed = TRUE)
    expect_match(lines[at], "NumRelRet, NumNonrelJudgedRet: sums over topics", fixed = TRUE)
    tab <- summary(res)$table
    expect_identical(tab$aggregate[match(c("gm_map", "NumRet", "AP"), tab$measure)], c("gmean", "sum", "mean"))
    expect_equal(tab$mean, unname(ms))
  }
  g <- generics::glance(res["gm_map"])
  expect_identical(g$aggregate, "gmean")
  expect_equal(g$mean, mean_scores(res$gm_map)[[1]])
})

test_that("a custom measure's record (lower is better) reaches glance(), summary() and the default systems", {
  miss2 <- custom_measure("Miss@2", function(grades, n_rel) as.numeric(!any(grades[1:2] >= 1, na.rm = TRUE)),
                          direction = "lower")
  res <- evaluate(rbind(four_system_runs(), transform(four_system_runs()[four_system_runs()$system == "gamma", ],
                                                      system = "omega", score = 5 - score)),
                  four_system_qrels(), measures = list(miss2, "P@2"))
  expect_identical(attr(res[["Miss@2"]], "direction"), "lower")
  expect_identical(attr(res[["Miss@2"]], "aggregate"), "mean")
  means <- mean_scores(res[["Miss@2"]])
  expect_true(length(unique(means)) > 1L)
  # the best system has the fewest misses (higher is better would pick the most)
  expect_identical(generics::glance(res)$best, names(means)[which.min(means)])
  expect_identical(summary(res[["Miss@2"]])$table$system[1], names(means)[which.min(means)])
  expect_identical(plot_systems(res[["Miss@2"]], NULL)[1], names(means)[which.min(means)])
})
