test_that("reliability plots: D-study curves of Erho2 and Phi", {
  x <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv", package = "irtopics"))
  g <- g_study(x)
  ds <- d_study(g, c(5, 10, 40))
  d <- ggplot2::layer_data(ggplot2::autoplot(ds), 2)
  expect_equal(d$x, c(5, 10, 40, 5, 10, 40))
  expect_equal(d$y, c(ds$Erho2, ds$Phi))
  pg <- ggplot2::autoplot(g)
  dg <- ggplot2::layer_data(pg, 2)
  expect_equal(dg$x[dg$group == 1], seq_len(2 * g$n_topics))
  # at the observed number of topics Erho2 is Cronbach's alpha
  expect_equal(dg$y[dg$group == 1][g$n_topics], cronbach_alpha(x))
  expect_equal(ggplot2::layer_data(pg, length(pg$layers))$xintercept, g$n_topics)  # the last layer
  rib <- ggplot2::layer_data(ggplot2::autoplot(ds), 3)
  expect_equal(rib$ymin, c(ds$Erho2_low, ds$Phi_low))
  expect_equal(rib$ymax, c(ds$Erho2_high, ds$Phi_high))
})

# Collection diagnostics --------------------------------------------------------------

test_that("collection_diagnostics(): the table is the parts", {
  mats <- design_pair(10)
  cd <- collection_diagnostics(mats, n_topics = 20, B = 100, trials = 30, seed = 7)
  tab <- cd$table
  expect_equal(tab$measure, c("AP", "P@10"))
  dp <- discriminative_power(mats, B = 100, seed = 7)
  expect_equal(tab$discriminative_power, dp$summary$discriminative_power)
  for (k in 1:2) {
    sw <- swap_error_rates(mats[[k]], sizes = 20, trials = 30, seed = 7)
    expect_equal(tab$swap_error_rate[k], sw$error$error_rate)
    d <- d_study(g_study(mats[[k]]), 20, target = .95)
    expect_equal(tab$Erho2[k], d$Erho2)
    expect_equal(tab$Phi[k], d$Phi)
    need <- topics_needed(d)
    expect_equal(c(tab$topics_needed[k], tab$topics_needed_low[k], tab$topics_needed_high[k]),
                 unlist(need[1, c("n_topics", "conf.low", "conf.high")], use.names = FALSE))
  }
  expect_output(print(cd), "topics needed")
  expect_identical(as.data.frame(cd), tab)
  expect_equal(nrow(ggplot2::layer_data(ggplot2::autoplot(cd), 1)), 2 * 45)
  expect_error(collection_diagnostics(mats, n_topics = 26), class = "irtopics_error_argument", regexp = "n_topics")
  expect_error(collection_diagnostics(mats, target = 1.5), class = "irtopics_error_argument", regexp = "target")
  bad <- mats
  bad$AP <- bad$AP[-1, ]
  expect_error(collection_diagnostics(bad), class = "irtopics_error_data", regexp = "systems")
})

test_that("collection_diagnostics() and topics_needed() agree at the same drop, and print it", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  ap <- ap[order(-rowMeans(ap))[1:40], ]
  for (drop in c(0, 0.25)) {
    cd <- collection_diagnostics(list(AP = ap), B = 20, trials = 5, seed = 1, drop = drop)
    need <- topics_needed(g_study(ap, drop = drop))
    expect_equal(cd$table$topics_needed, need$n_topics[1])
    expect_equal(c(cd$table$topics_needed_low, cd$table$topics_needed_high),
                 c(need$conf.low[1], need$conf.high[1]))
    setting <- if (drop == 0) "all 40 systems, drop = 0" else "30 of 40 systems, drop = 0.25"
    expect_match(paste(format(cd), collapse = "\n"), setting, fixed = TRUE)
    expect_match(paste(format(need), collapse = "\n"), setting, fixed = TRUE)
    expect_match(paste(format(d_study(g_study(ap, drop = drop), 50)), collapse = "\n"), setting, fixed = TRUE)
  }
  # The two settings give different answers: the setting is what tells them apart.
  expect_false(identical(topics_needed(g_study(ap))$n_topics, topics_needed(g_study(ap, drop = .25))$n_topics))
  expect_s3_class(as.data.frame(topics_needed(g_study(ap))), "data.frame", exact = TRUE)
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
  expect_match(pc$labels$subtitle, "^AP; ")  # the measure leads the subtitle
  expect_error(ggplot2::autoplot(cv, target = 2), class = "irtopics_error_argument")
})

test_that("printed forms", {
  fx <- methods_fixtures()
  for (cls in c("ir_qrels", "ir_run", "ir_runs", "swap_error_rates", "critical_values",
                "robust_summary", "prediction_curves", "g_study", "ir_smoothed")) {
    expect_snapshot(print(fx[[cls]]))
  }
  expect_snapshot(print(summary(fx$g_study)))
  expect_snapshot(print(summary(fx$swap_error_rates)))
})

test_that("the new summaries agree with direct computations", {
  fx <- methods_fixtures()
  # qrels: judgements per topic against table()
  q <- as.data.frame(fx$ir_qrels)
  s <- as.data.frame(summary(fx$ir_qrels))
  expect_identical(s$relevant, as.vector(table(factor(q$topic, levels = s$topic)[q$rel > 0])))
  expect_identical(sum(s$judged) + sum(s$unjudged), nrow(q))
  # runs: lines per topic from the long form
  r <- as.data.frame(fx$ir_runs)
  s <- as.data.frame(summary(fx$ir_runs))
  per <- table(r$system, r$topic)
  expect_identical(s$lines, as.vector(table(r$system)[s$system]))
  expect_equal(s$max_per_topic, unname(apply(per, 1, function(v) max(v[v > 0])))[match(s$system, rownames(per))])
  # g_study: the topics needed reach the target in d_study() and one fewer does not
  gs <- as.data.frame(summary(fx$g_study))
  n80 <- gs$topics_for_0.80[1]
  dd <- d_study(fx$g_study, c(n80 - 1, n80))
  expect_lt(dd$Erho2[1], 0.8)
  expect_gte(dd$Erho2[2], 0.8)
  n95 <- gs$topics_for_0.95[2]
  dd <- d_study(fx$g_study, c(n95 - 1, n95))
  expect_lt(dd$Phi[1], 0.95)
  expect_gte(dd$Phi[2], 0.95)
  # return orders: the long form holds every position of the matrices
  ro <- fx$ir_return_orders
  lf <- as.data.frame(ro)
  m <- ro$orders[["sim02"]]
  sub <- lf[lf$topic == "sim02" & lf$list == colnames(m)[3], ]
  expect_identical(sub$docno, rownames(m))
  expect_identical(sub$position, unname(ifelse(m[, 3] > ro$depth, NA_integer_, m[, 3])))
  s <- as.data.frame(summary(ro))
  expect_identical(s$max_returned, unname(vapply(ro$orders, function(m) max(colSums(m <= ro$depth)), 0)))
  # dist: one row per pair, the values of as.matrix()
  d <- fx$ir_return_order_dist
  dl <- as.data.frame(d)
  expect_identical(nrow(dl), length(d))
  mm <- as.matrix(d)
  expect_identical(dl$dissimilarity, mm[cbind(dl$list1, dl$list2)])
  # swap summary: the error at the largest size
  e <- fx$swap_error_rates
  se <- as.data.frame(summary(e))
  expect_identical(se$error_largest, sprintf("%.2f%%", 100 * e$error$error_rate[which.max(e$error$size)]))
  # weighting correlations: the range over the collections
  wc <- fx$ir_weighting_correlations
  sw <- as.data.frame(summary(wc))
  expect_equal(sw$max[1], max(wc$MAP_E_s))
  expect_equal(sw$min[4], min(wc$AAP_A_t))
  # smoothed: rank changes between the new and smoothed means
  sm <- fx$ir_smoothed
  ss <- as.data.frame(summary(sm))
  expect_equal(ss$max_abs_shift, max(abs(sm$means$smoothed_mean - sm$means$new_mean)))
  expect_identical(ss$with_prior, sum(!is.na(sm$means$prior_mean)))
})

test_that("every autoplot method refuses unknown arguments", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  objs <- list(ap, robust_summary(ap), gawm(ap), hits(ap), group_agreement(ap), g_study(ap),
               d_study(g_study(ap), 10))
  for (o in objs) {
    expect_error(ggplot2::autoplot(o, sytems = 1), class = "irtopics_error_argument",
                 info = class(o)[1])
  }
  e <- swap_error_rates(ap, sizes = c(5, 10), trials = 10, seed = 1)
  expect_error(ggplot2::autoplot(e, measure = "MAP"), "Unused argument", class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(critical_values(e), 1), class = "irtopics_error_argument")
})

test_that("g_study(drop = 0.25) and d_study() reproduce gt4ireval on adhoc3 (5 significant digits)", {
  g <- g_study(adhoc3(), drop = 0.25)
  expect_equal(g$n_systems, 30)
  expect_length(g$dropped, 10)
  v <- setNames(g$components$variance, g$components$component)
  expect_equal(signif(unname(v), 5), c(.0028117, .028093, .010152))
  d <- d_study(g, 50, target = 0.95, alpha = 0.025)
  expect_equal(signif(c(d$Erho2, d$Erho2_low, d$Erho2_high), 5), c(.93265, .89311, .96287))
  expect_equal(signif(c(d$Phi, d$Phi_low, d$Phi_high), 5), c(.78613, .66141, .88039))
  need <- topics_needed(d)
  expect_equal(need$coefficient, c("Erho2", "Phi"))
  expect_equal(need$n_topics, c(69, 259))
  expect_equal(need$conf.low, c(37, 130))
  expect_equal(need$conf.high, c(114, 487))
  expect_identical(topics_needed(g), need)
  # the dropped systems are the ones below the first quartile of system means
  means <- rowMeans(adhoc3())
  expect_setequal(g$dropped, names(means)[means < quantile(means, .25)])
  # several targets; the projections are the closed forms at each size
  d2 <- d_study(g, c(10, 100), target = c(.8, .9, .95))
  expect_equal(nrow(attr(d2, "topics_needed")), 6)
  expect_equal(d2$Erho2, v[["system"]] / (v[["system"]] + v[["residual"]] / c(10, 100)))
  expect_output(print(d2), "Topics needed")
  expect_output(print(g), "10 systems below the 0.25 quantile")
})

test_that("G/D-study bad input: classed errors naming the argument", {
  x <- adhoc3()
  expect_error(g_study(x, drop = 1), class = "irtopics_error_argument", regexp = "drop")
  expect_error(g_study(x, drop = -0.1), class = "irtopics_error_argument", regexp = "drop")
  expect_error(g_study(x, drop = NA), class = "irtopics_error_argument", regexp = "drop")
  small <- rbind(a = c(.1, .2, .3), b = c(.4, .5, .6), c = c(.7, .8, .9))
  expect_error(g_study(small, drop = 0.9), class = "irtopics_error_data", regexp = "leaves 1 system")
  g <- g_study(x)
  expect_error(d_study(g, 10, target = 1), class = "irtopics_error_argument", regexp = "target")
  expect_error(d_study(g, 10, target = 0), class = "irtopics_error_argument", regexp = "target")
  expect_error(d_study(g, 10, target = c(.9, NA)), class = "irtopics_error_argument", regexp = "target")
  expect_error(d_study(g, 10, alpha = 0.5), class = "irtopics_error_argument", regexp = "alpha")
  # no positive system variance: no number of topics reaches the target
  flat <- rbind(c(1, 2, 3, 4), c(2, 1, 4, 3), c(1.5, 1.5, 3.5, 3.5))
  need <- topics_needed(g_study(flat))
  expect_true(all(is.infinite(need$n_topics) | is.na(need$n_topics)))
})

test_that("summary(g_study) and topics_needed() give the same topics needed (one rule)", {
  # sigma2(s) = sigma2(e) = 1 exactly, so Erho2(n) = n / (n + 1): .8 at 4
  # topics and .9 at 9 (0.8 / (1 - 0.8) is 4.000000000000001 in doubles;
  # a plain ceiling() said 5 and 10).
  m <- rbind(s1 = c(3, 4, 1), s2 = c(1, 4, 3), s3 = c(0, 2, 0))
  colnames(m) <- paste0("t", 1:3)
  g <- g_study(m)
  expect_equal(g$components$variance, c(1, 1, 1))
  s <- as.data.frame(summary(g))
  expect_equal(s$topics_for_0.80[1], 4)
  expect_equal(s$topics_for_0.90[1], 9)
  need <- topics_needed(g, target = c(.8, .9, .95))
  expect_equal(c(s$topics_for_0.80, s$topics_for_0.90, s$topics_for_0.95), need$n_topics)
})

test_that("plots of degenerate results draw (bands over undefined intervals are left out)", {
  x <- rbind(a = c(.1, .2, .3, .4), b = c(.1, .2, .3, .4), c = c(.1, .2, .3, .4))
  colnames(x) <- paste0("t", 1:4)
  g <- g_study(x)
  expect_true(all(is.na(d_study(g, c(5, 10))$Erho2_low)))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  plots <- list(ggplot2::autoplot(g), ggplot2::autoplot(d_study(g, c(5, 10))),
                ggplot2::autoplot(alpha_curve(x, sizes = c(2, 3), trials = 5, seed = 1)),
                suppressWarnings(ggplot2::autoplot(compare_systems(x[1:2, ], test = "t"), type = "forest")))
  # (ggplot2 says that it leaves out the undefined values: expected here)
  for (p in plots) expect_s3_class(suppressWarnings(ggplot2::ggplotGrob(p)), "gtable")
})

test_that("identical systems give undefined reliabilities, never values above 1", {
  x <- rbind(a = c(.1, .2, .3, .4), b = c(.1, .2, .3, .4), c = c(.1, .2, .3, .4))
  colnames(x) <- paste0("t", 1:4)
  g <- g_study(x)
  expect_identical(unname(g$mean_squares[c("system", "residual")]), c(0, 0))
  d <- d_study(g, c(5, 10, 50))
  expect_true(all(is.na(d$Erho2)))
  expect_true(all(is.na(d$Erho2) | d$Erho2 <= 1))
  expect_equal(d$Phi, c(0, 0, 0))
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("D-study figures follow the user's theme, fit a column, and write E rho^2 and Phi as symbols", {
  ap <- real_scores("robust2004_ap.csv")
  # 2 systems: drawn, with the warning that the numbers mean nothing (tested below)
  quiet <- function(expr) suppressWarnings(expr, classes = "irtopics_warning_too_few")
  for (n in c(2L, 17L, 110L)) {
    g <- quiet(g_study(ap[seq_len(n), ]))
    for (make in list(function() quiet(ggplot2::autoplot(g)),
                      function() quiet(ggplot2::autoplot(d_study(g, c(10, 25, 50, 100, 200)))))) {
      expect_follows_user_theme(make)
      # title, subtitle, legend and caption (what the lines are) take a
      # little more than half of 2.6 in
      expect_figure_ready(make(), min_panel = 0.4)
      expect_figure_ready(make(), width = 7, height = 4.5)
    }
  }
  p <- ggplot2::autoplot(g_study(ap[1:17, ]))
  b <- ggplot2::ggplot_build(p)
  # one legend for colour, shape and fill, its keys the symbols (not "Erho2")
  for (aes in c("colour", "shape", "fill")) {
    labs <- b$plot$scales$get_scales(aes)$get_labels()
    # plotmath: an expression (ggplot2 3.4), a list of calls and symbols (ggplot2 4)
    expect_true(is.expression(labs) || (is.list(labs) && all(vapply(labs, is.language, logical(1)))))
    expect_identical(vapply(labs, deparse, ""), c("E * rho^2", "Phi"))
  }
  expect_true(is.language(p$labels$subtitle))
  expect_false(grepl("Erho2", paste(deparse(p$labels$subtitle), collapse = "")))
  th <- ggplot2::theme_get() + p$theme
  expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
  # the dashed and dotted lines are said in the caption, or in a message without titles
  expect_match(p$labels$caption, "Dashed: the target, 0.95. Dotted: the 249 topics observed.", fixed = TRUE)
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(ggplot2::autoplot(g_study(ap[1:17, ])), "Dotted", class = "irtopics_message_layout")
})
