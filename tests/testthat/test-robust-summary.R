ex_ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
ex_p10 <- c(0, .1, .2, .5, .6, 0, .9, 0, .3, .1, .7, .2)

test_that("robust_summary plots: sorted AP, MAP vs GMAP, per-set bars", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  rs <- robust_summary(ap, topic_sets = list(new = 651:700))
  runs <- rownames(ap)[1:3]
  d <- ggplot2::layer_data(ggplot2::autoplot(rs, systems = runs))
  expect_equal(nrow(d), 3 * 249)
  expect_equal(d$y[d$group == 1], unname(sort(unclass(ap)[runs[1], ])))
  g <- ggplot2::layer_data(ggplot2::autoplot(rs, type = "gmap"))
  all <- rs$table[rs$table$topic_set == "all", ]
  expect_equal(g$x, all$MAP)
  expect_equal(g$y, all$GMAP)
  b <- ggplot2::layer_data(ggplot2::autoplot(rs, type = "sets", systems = runs, measure = "area"))
  expect_equal(nrow(b), 6)
  expect_setequal(b$y, rs$table$area[rs$table$system %in% runs])
  expect_error(ggplot2::autoplot(rs, type = "gmap", topic_set = "old"), class = "irtopics_error_argument")
  # MAP per set carries its t interval over the set's topics
  pm <- ggplot2::autoplot(rs, type = "sets", systems = runs, measure = "MAP")
  eb <- ggplot2::layer_data(pm, 2)
  ref <- t.test(as.numeric(unclass(ap)[runs[2], rs$topic_sets$new]))$conf.int
  expect_true(any(abs(eb$ymin - ref[1]) < 1e-12 & abs(eb$ymax - ref[2]) < 1e-12))
  expect_equal(nrow(eb), 6)
  expect_match(ggplot2::ggplot_build(pm)$plot$labels$subtitle, "95% t intervals")
})

test_that("analyses of one score matrix take a one-measure evaluation and name the choice otherwise", {
  res <- four_system_evaluation()
  expect_identical(robust_summary(res["AP"])$table, robust_summary(res$AP)$table)
  for (f in list(function(x) robust_summary(x), function(x) swap_error_rates(x, trials = 5, seed = 1),
                 function(x) cronbach_alpha(x), function(x) gawm(x), function(x) topic_difficulty(x))) {
    err <- expect_error(f(res), "not an <ir_evaluation> of 3 measures", class = "irtopics_error_argument")
    expect_match(conditionMessage(err), "res$AP", fixed = TRUE)
    expect_identical(err$measures, c("AP", "P@2", "RR"))
  }
  # subset_systems() keeps the same systems of every measure
  sub <- subset_systems(res, c("delta", "beta"))
  expect_s3_class(sub, "ir_evaluation")
  expect_identical(rownames(sub$RR), c("beta", "delta"))
  expect_error(subset_systems(res, "dleta"), "Did you mean.*delta", class = "irtopics_error_argument")
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

test_that("with it, the hard-set MAPs of Table 3 agree with the paper to 0.001", {
  f <- function(x) system.file("extdata", x, package = "irtopics")
  ap <- read_scores(f("score-matrices/robust2004_ap.csv"), measure = "AP")
  hard <- scan(f("robust2003_hard_topics.txt"), quiet = TRUE)
  rs <- robust_summary(ap, topic_sets = list(old = c(301:450, 601:650), new = 651:700,
                                             hard = hard))
  w <- as.data.frame(rs, wide = TRUE)
  paper <- data.frame(
    old = c(.317, .298, .305, .296, .278, .272, .255, .244, .239, .225),
    new = c(.401, .351, .325, .322, .299, .298, .271, .290, .270, .255),
    hard = c(.183, .145, .194, .136, .136, .136, .116, .115, .113, .083),
    all = c(.333, .309, .309, .301, .282, .277, .258, .253, .245, .231))
  # runs are anonymised: match each paper run by its (old, new, all) MAP
  idx <- vapply(seq_len(nrow(paper)), function(i) {
    which.min((w$MAP.old - paper$old[i])^2 + (w$MAP.new - paper$new[i])^2 +
                (w$MAP.all - paper$all[i])^2)
  }, 1L)
  expect_false(anyDuplicated(idx) > 0)
  expect_lte(max(abs(w$MAP.hard[idx] - paper$hard)), 0.001)
  # nine of ten equal at the printed precision
  expect_gte(sum(abs(w$MAP.hard[idx] - paper$hard) <= 0.0005), 9L)
})

test_that("one system, one topic, one run: singular words and no '0 more' lines", {
  one <- as_ir_scores(matrix(0.5, 1, 1, dimnames = list("s1", "t1")), measure = "AP")
  expect_identical(format(one)[1], "<ir_scores> AP: 1 system x 1 topic, mean 0.5000")
  expect_length(format(one), 3L)
  te <- system.file("extdata", "trec_eval-test", package = "irtopics")
  runs <- read_runs(te, pattern = "^results\\.test$")
  expect_identical(format(runs)[1], "<ir_runs> 1 run")
  ev <- evaluate(runs, file.path(te, "qrels.test"), measures = "AP")
  expect_match(format(ev)[1], "1 system x 3 topics, 1 measure ", fixed = TRUE)
  rs <- robust_summary(matrix(c(.1, .2, .3, .4), 1, dimnames = list("s1", paste0("t", 1:4))))
  expect_match(format(rs)[2], "Top 1 system by MAP", fixed = TRUE)
  for (x in list(one, runs, ev, rs)) {
    expect_false(any(grepl("\\b0 more|\\b1 [a-z]+s\\b", format(x))))
  }
})

test_that("MAP vs GMAP labels all, the top k by MAP, or named systems", {
  rs <- robust_summary(robust_ap())
  tab <- rs$table
  # by default the 5 best of these 110 (all of them would not fit)
  expect_setequal(label_data(ggplot2::autoplot(rs, type = "gmap"))$label,
                  utils::head(tab$system[order(-tab$MAP)], 5))
  expect_null(label_data(ggplot2::autoplot(rs, type = "gmap", label = NULL)))
  top3 <- utils::head(tab$system[order(-tab$MAP)], 3)
  d <- label_data(ggplot2::autoplot(rs, type = "gmap", label = 3))
  expect_setequal(d$label, top3)
  # labels sit at the systems' (MAP, GMAP)
  expect_equal(d$x[order(d$label)], tab$MAP[match(sort(d$label), tab$system)])
  expect_equal(d$y[order(d$label)], tab$GMAP[match(sort(d$label), tab$system)])
  expect_identical(nrow(label_data(ggplot2::autoplot(rs, type = "gmap", label = "all"))), nrow(tab))
  d2 <- label_data(ggplot2::autoplot(rs, type = "gmap", label = tab$system[c(5, 9)]))
  expect_setequal(d2$label, tab$system[c(5, 9)])
  expect_error(ggplot2::autoplot(rs, type = "gmap", label = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "gmap", label = -1), class = "irtopics_error_argument")
  # arguments of other types are refused, not ignored
  expect_error(ggplot2::autoplot(rs, type = "sorted", label = 3), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "sets", topic_set = "all"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(rs, type = "gmap", measure = "GMAP"), class = "irtopics_error_argument")
  # systems restricts the gmap points
  p <- ggplot2::autoplot(rs, type = "gmap", systems = tab$system[1:4])
  expect_identical(nrow(ggplot2::layer_data(p, 1)), 4L)
})

test_that("the spec's worked example (section 2.5)", {
  rs <- robust_summary(matrix(ex_ap, 1), matrix(ex_p10, 1))
  t <- rs$table
  expect_equal(t$MAP, 0.2341666667, tolerance = 1e-9)
  expect_equal(t$P10, 0.3)
  expect_equal(t$pct_no, 25)
  expect_equal(t$area, 0.002222222222, tolerance = 1e-9)
  expect_equal(t$GMAP, 0.0316370627, tolerance = 1e-9)
  expect_equal(robust_summary(matrix(ex_ap, 1), gmean_method = "floor")$table$GMAP, 0.03164378155, tolerance = 1e-9)
  expect_equal(robust_summary(matrix(ex_ap, 1), eps = 1e-4, gmean_method = "replace0")$table$GMAP,
               0.04644671938, tolerance = 1e-9)
  expect_true(is.na(robust_summary(matrix(c(.1, .2, .3), 1))$table$area))
})

test_that("topic sets on the Robust 2004 matrix agree with base R", {
  f <- function(x) system.file("extdata", "score-matrices", x, package = "irtopics")
  ap <- read_scores(f("robust2004_ap.csv"), measure = "AP")
  p10 <- read_scores(f("robust2004_p10.csv"), measure = "P@10")
  sets <- list(old = c(301:450, 601:650), new = 651:700)
  rs <- robust_summary(ap, p10, topic_sets = sets)
  expect_equal(levels(rs$table$topic_set), c("all", "old", "new"))
  expect_equal(vapply(rs$topic_sets, length, 1L), c(all = 249L, old = 200L, new = 49L))
  new <- rs$table[rs$table$topic_set == "new", ]
  cols <- colnames(ap) %in% as.character(651:700)
  expect_equal(new$MAP, unname(rowMeans(unclass(ap)[, cols])))
  expect_equal(new$pct_no, unname(100 * rowMeans(unclass(p10)[, cols] == 0)))
  one <- unclass(ap)[5, cols]
  w <- sort(one)[1:12]
  expect_equal(new$area[5], mean(cumsum(w) / 1:12))
  expect_equal(new$GMAP[5], exp(mean(log(one + 1e-5))) - 1e-5)
  wide <- as.data.frame(rs, wide = TRUE)
  expect_equal(nrow(wide), 110)
  expect_false(is.unsorted(-wide$MAP.all))
  expect_true(all(c("MAP.old", "GMAP.new", "pct_no.all") %in% names(wide)))
  # the best run's all-topic MAP, as in the paper's Table 7 (pircRB04td2, 0.359)
  expect_equal(round(max(wide$MAP.all), 3), 0.359)
  expect_output(print(rs), "robust_summary")
  expect_s3_class(as.data.frame(summary(rs)), "data.frame")
})

test_that("P@10 is matched by name and bad inputs give classed errors", {
  ap <- matrix(c(.1, .2, .3, .4, 0, .5), 2, dimnames = list(c("a", "b"), c("1", "2", "3")))
  p10 <- ap[2:1, 3:1]
  rs <- robust_summary(ap, p10)
  expect_equal(rs$table$P10, unname(rowMeans(ap)))
  expect_error(robust_summary(ap, p10[, 1:2]), class = "irtopics_error_argument")
  expect_error(robust_summary(ap, topic_sets = list(x = 10:20)), class = "irtopics_error_data")
  expect_error(robust_summary(ap, topic_sets = list(1:2)), class = "irtopics_error_argument")
  expect_error(robust_summary(ap, topic_sets = list(all = 1)), class = "irtopics_error_argument")
  bad <- ap; bad[1, 1] <- NA
  expect_error(robust_summary(bad), class = "irtopics_error_data")
  expect_error(robust_summary(-ap), class = "irtopics_error_data")
  expect_error(robust_summary("x"), class = "irtopics_error_argument")
})

test_that("area_divisor divides the sum of MAP(X) by a fixed number", {
  # Worked example: T = 12, Q = 3, MAP(1..3) = 0, 0, 0.02 / 3.
  rs <- robust_summary(matrix(ex_ap, 1), area_divisor = 12)
  expect_equal(rs$table$area, (0 + 0 + 0.02 / 3) / 12, tolerance = 1e-12)
  expect_equal(rs$table$area, robust_summary(matrix(ex_ap, 1))$table$area * 3 / 12, tolerance = 1e-12)
  expect_equal(rs$area_divisor, 12)
  expect_error(robust_summary(matrix(ex_ap, 1), area_divisor = -1), class = "irtopics_error_argument")
})

test_that("robust-summary figures fit a column and a page, in the user's theme; bars show the sorted plot's systems", {
  ap <- robust()
  rs <- robust_summary(ap[best(ap, 17), ])
  for (type in c("gmap", "sets")) {
    make <- function() suppressMessages(ggplot2::autoplot(rs, type = type))
    expect_follows_user_theme(make)
    expect_figure_ready(make(), min_panel = 0.3)
    expect_figure_ready(make(), width = 7, height = 4.5)
    expect_lte(legend_width(make()), 3.5)
  }
  # sets: the 8 best by MAP (the rule of the sorted plot), in that order, and it says so
  expect_message(p <- ggplot2::autoplot(rs, type = "sets"), "8 best of 17 systems by mean AP",
                 class = "irtopics_message_layout")
  expect_identical(ggplot2::ggplot_build(p)$layout$panel_params[[1]]$x$get_labels(), best(ap, 8))
  sorted <- suppressMessages(ggplot2::autoplot(rs))
  expect_identical(ggplot2::ggplot_build(sorted)$plot$scales$get_scales("colour")$get_limits(), best(ap, 8))
  expect_match(ggplot2::ggplot_build(p)$plot$labels$caption, "9 not drawn")
  # one topic set: no legend; two: a legend
  expect_false(has_legend(p))
  hard <- colnames(ap)[1:50]
  rs2 <- robust_summary(ap[best(ap, 17), ], topic_sets = list(hard = hard))
  expect_true(has_legend(suppressMessages(ggplot2::autoplot(rs2, type = "sets"))))
  expect_figure_ready(suppressMessages(ggplot2::autoplot(rs2, type = "sets")), min_panel = 0.3)
})
