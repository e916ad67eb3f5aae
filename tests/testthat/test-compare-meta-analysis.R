# meta_analysis(): per-collection effects by hand and against metafor's
# escalc(); pooled models, heterogeneity and prediction intervals against
# metafor::rma() to 1e-8, on the shipped TREC-5..8 matrices and hand-made cases.

adhoc_ap <- function(years = c("adhoc5", "adhoc6", "adhoc7", "adhoc8")) {
  lapply(stats::setNames(years, years), function(y) {
    read_scores(system.file("extdata", "score-matrices", paste0(y, "_ap.csv"), package = "irtopics"),
                measure = "AP")
  })
}

# Every pooled number of `ma` against rma(yi, vi, method = ...) (`...` to rma()).
expect_rma <- function(ma, tol = 1e-8, ...) {
  y <- ma$studies$yi
  v <- ma$studies$vi
  for (m in c("FE", "DL", "REML")) {
    # (metafor warns that Knapp-Hartung is not meant for a fixed-effect model; it computes it all the same)
    r <- withCallingHandlers(metafor::rma(y, v, method = m, ...), warning = function(w) {
      if (grepl("Knapp & Hartung", conditionMessage(w))) invokeRestart("muffleWarning")
    })
    p <- stats::predict(r)
    row <- ma$pooled[ma$pooled$method == m, ]
    expect_equal(row$estimate, c(r$b), tolerance = tol, label = paste(m, "estimate"))
    expect_equal(row$std.error, r$se, tolerance = tol, label = paste(m, "se"))
    expect_equal(row$statistic, r$zval, tolerance = tol, label = paste(m, "z"))
    expect_equal(row$p.value, r$pval, tolerance = tol, label = paste(m, "p"))
    expect_equal(c(row$conf.low, row$conf.high), c(r$ci.lb, r$ci.ub), tolerance = tol, label = paste(m, "ci"))
    expect_equal(row$tau2, r$tau2, tolerance = tol, label = paste(m, "tau2"))
    expect_equal(row$I2, r$I2, tolerance = tol, label = paste(m, "I2"))
    expect_equal(row$H2, r$H2, tolerance = tol, label = paste(m, "H2"))
    # metafor gives no prediction interval for a fixed-effect model: it is the CI
    expect_equal(c(row$pi.low, row$pi.high), c(p$pi.lb %||% p$ci.lb, p$pi.ub %||% p$ci.ub), tolerance = tol,
                 label = paste(m, "prediction interval"))
    expect_equal(ma$Q, r$QE, tolerance = tol)
    expect_equal(ma$Q_p, r$QEp, tolerance = tol)
    expect_equal(unname(ma$weights[, m]), unname(stats::weights(r)), tolerance = tol, label = paste(m, "weights"))
  }
}

test_that("per-collection effects equal the hand computation, t.test() and metafor's escalc()", {
  x <- adhoc_ap(c("adhoc7", "adhoc8"))
  ma <- meta_analysis(x, system = c("run9", "run16"), baseline = c("run38", "run67"))
  d <- x$adhoc8["run16", ] - x$adhoc8["run67", ]
  st <- ma$studies[2, ]
  expect_equal(st$md, mean(d))
  expect_equal(st$md, unname(t.test(x$adhoc8["run16", ], x$adhoc8["run67", ], paired = TRUE)$estimate))
  expect_equal(st$md_var, var(d) / 50)
  expect_equal(c(st$md_low, st$md_high), mean(d) + c(-1, 1) * qnorm(0.975) * sd(d) / sqrt(50))
  J <- gamma(49 / 2) / (sqrt(49 / 2) * gamma(48 / 2))
  expect_equal(J, 1 - 3 / (4 * 49 - 1), tolerance = 1e-4)   # the approximate form
  expect_equal(st$smd, J * mean(d) / sd(d))
  expect_equal(st$smd_var, 1 / 50 + st$smd^2 / 100)
  skip_if_not_installed("metafor")
  e <- metafor::escalc("SMCC", m1i = st$mean_system, m2i = st$mean_baseline, sd1i = sd(d), sd2i = 0, ri = 0,
                       ni = 50)
  # SMCC standardises by the sd of the change scores: sd1i = sd(d), sd2i = 0, ri = 0 gives exactly that
  expect_equal(st$smd, c(e$yi), tolerance = 1e-10)
  expect_equal(st$smd_var, c(e$vi), tolerance = 1e-10)
  no_j <- meta_analysis(x, system = c("run9", "run16"), baseline = c("run38", "run67"), hedges = FALSE)
  expect_equal(no_j$studies$smd[2], mean(d) / sd(d))
  expect_equal(ma$studies$n_topics, c(50L, 50L))
})

test_that("pooled models equal metafor::rma() on TREC-5..8 AP: best vs median run, both effects", {
  skip_if_not_installed("metafor")
  x <- adhoc_ap()
  best <- sapply(x, function(m) names(which.max(rowMeans(m))))
  median_run <- sapply(x, function(m) names(sort(rowMeans(m)))[ceiling(nrow(m) / 2)])
  for (effect in c("smd", "md")) {
    ma <- meta_analysis(x, system = best, baseline = median_run, effect = effect)
    expect_equal(ma$k, 4)
    expect_rma(ma)
    expect_gt(ma$pooled$tau2[ma$pooled$method == "REML"], 0)  # heterogeneous: a real test of tau2
  }
  # and with REML run to convergence (both sides tighter)
  ma <- meta_analysis(x, system = best, baseline = median_run, threshold = 1e-12)
  expect_rma(ma, control = list(threshold = 1e-12))
})

test_that("AT&T's best automatic run vs the median automatic run, TREC-6..8 (the vignette's case)", {
  skip_if_not_installed("metafor")
  years <- c("adhoc6", "adhoc7", "adhoc8")
  auto <- subset(trec_runs(), type == "automatic")
  runs <- sapply(years, function(y) {
    a <- auto[auto$collection == y, ]
    att <- a[a$participant == "ATT", ]
    c(att$system[which.max(att$map)], a$system[order(a$map)][ceiling(nrow(a) / 2)])
  })
  expect_equal(unname(runs[1, ]), c("run8", "run9", "run16"))
  ma <- meta_analysis(adhoc_ap(years), system = runs[1, ], baseline = runs[2, ])
  expect_rma(ma)
  expect_equal(ma$method, "REML")
  expect_equal(ma$estimate, ma$pooled$estimate[3])
})

test_that("Knapp-Hartung intervals equal metafor's test = \"knha\"", {
  skip_if_not_installed("metafor")
  x <- adhoc_ap()
  best <- sapply(x, function(m) names(which.max(rowMeans(m))))
  median_run <- sapply(x, function(m) names(sort(rowMeans(m)))[ceiling(nrow(m) / 2)])
  ma <- meta_analysis(x, system = best, baseline = median_run, test = "knha")
  z <- meta_analysis(x, system = best, baseline = median_run)
  expect_rma(ma, test = "knha")
  expect_equal(ma$pooled$df, c(3, 3, 3))
  expect_equal(z$pooled$df, c(Inf, Inf, Inf))
  # the same tau2 and estimate, a different standard error: s.e. times sqrt(weighted RSS / (k - 1))
  expect_equal(ma$pooled$tau2, z$pooled$tau2)
  w <- 1 / (ma$studies$vi + ma$pooled$tau2[3])
  rss <- sum(w * (ma$studies$yi - ma$pooled$estimate[3])^2)
  expect_equal(ma$pooled$std.error[3], z$pooled$std.error[3] * sqrt(rss / 3))
  expect_true(any(grepl("Knapp-Hartung t on 3 df", format(ma))))
  expect_error(meta_analysis(x[1], system = best[1], baseline = median_run[1], test = "knha"),
               class = "irtopics_error_data", regexp = "2 collections")
})

test_that("hand-made cases: k = 1, k = 2, identical effects, tau2 at the boundary", {
  skip_if_not_installed("metafor")
  set.seed(11)
  base <- matrix(runif(3 * 30), 3, 30, dimnames = list(c("a", "b", "c"), paste0("t", 1:30)))
  one <- meta_analysis(list(only = base), system = "a", baseline = "b")
  expect_rma(one)
  expect_equal(one$Q, 0)
  expect_equal(one$Q_p, 1)
  expect_equal(one$pooled$tau2, c(0, 0, 0))
  expect_equal(one$pooled$estimate, rep(one$studies$smd, 3))
  two <- meta_analysis(list(c1 = base, c2 = base[, 1:20]), system = "a", baseline = "c", effect = "md")
  expect_rma(two)
  # the same collection three times: identical effects, Q = 0, tau2 = 0, I2 = 0
  same <- meta_analysis(list(a = base, b = base, c = base), system = "a", baseline = "b")
  expect_rma(same)
  expect_equal(same$Q, 0, tolerance = 1e-12)
  expect_equal(same$pooled$tau2, c(0, 0, 0))
  expect_equal(same$pooled$estimate, rep(same$studies$yi[1], 3))
  # effects closer than their variances allow: DL and REML truncate tau2 at 0
  shift <- function(m, by) { m["a", ] <- m["a", ] + by; m }
  near <- meta_analysis(list(a = shift(base, 0.1), b = shift(base, 0.11), c = shift(base, 0.12)),
                        system = "a", baseline = "b", effect = "md")
  expect_rma(near)
  expect_equal(near$pooled$tau2, c(0, 0, 0))
  expect_equal(near$pooled$estimate[1], near$pooled$estimate[3])
})

test_that("replicates on the same topics: an error by default, averaged per topic, or independent when asked", {
  # 10 seeds of one system against one baseline on the same 50 topics: the
  # system's scores vary by seed around a topic effect, the baseline's not
  set.seed(3)
  u <- rnorm(50, 0, 0.1)
  base <- runif(50, 0.1, 0.5)
  seeds <- lapply(1:10, function(s) {
    m <- rbind(sys = base + 0.03 + u + rnorm(50, 0, 0.03), bl = base, other = runif(50))
    colnames(m) <- as.character(301:350)
    m
  })
  names(seeds) <- paste0("seed", 1:10)
  expect_error(meta_analysis(seeds, system = "sys", baseline = "bl"), class = "irtopics_error_data",
               regexp = "\"seed1\" and \"seed2\" share 50 topics")
  expect_error(meta_analysis(seeds, system = "sys", baseline = "bl", shared_topics = "pool"),
               class = "irtopics_error_argument")
  # averaged: one study whose scores are the seeds' means per topic
  avg <- meta_analysis(seeds, system = "sys", baseline = "bl", effect = "md", shared_topics = "average")
  sys_mean <- Reduce(`+`, lapply(seeds, function(m) m["sys", ])) / 10
  by_hand <- meta_analysis(list(mean = rbind(sys = sys_mean, bl = base)), system = "sys", baseline = "bl",
                           effect = "md")
  expect_equal(avg$k, 1)
  expect_identical(avg$studies$replicates, 10L)
  expect_identical(avg$studies$collection, "seed1+...+seed10")
  expect_equal(avg$studies$md_var, by_hand$studies$md_var)
  expect_equal(avg$pooled$std.error, by_hand$pooled$std.error)
  expect_match(paste(format(avg), collapse = "\n"), "averaged per topic first: seed1\\+\\.\\.\\.\\+seed10 \\(10\\)")
  # independent, as before: 10 identical seeds would give 1/sqrt(10) of one seed's standard error
  ind <- meta_analysis(seeds, system = "sys", baseline = "bl", effect = "md", shared_topics = "independent")
  expect_equal(ind$k, 10)
  expect_identical(ind$studies$replicates, rep(1L, 10))
  copies <- stats::setNames(rep(seeds[1], 10), paste0("copy", 1:10))
  one <- meta_analysis(seeds[1], system = "sys", baseline = "bl", effect = "md")
  expect_equal(meta_analysis(copies, system = "sys", baseline = "bl", effect = "md",
                             shared_topics = "independent")$pooled$std.error, one$pooled$std.error / sqrt(10))
  expect_equal(meta_analysis(copies, system = "sys", baseline = "bl", effect = "md",
                             shared_topics = "average")$pooled$std.error, one$pooled$std.error)
  # three collections of two seeds each: three averaged studies; topics
  # shared in part join their collections, names t1, t2, ... do not count
  # as shared unless averaging is asked for
  coll <- function(m, topics) {
    colnames(m) <- topics
    m
  }
  x <- list(a1 = coll(seeds$seed1, 1:50), a2 = coll(seeds$seed2, 1:50), b1 = coll(seeds$seed3, 51:100),
            b2 = coll(seeds$seed4[, 1:30], 71:100), c1 = coll(seeds$seed5, 101:150), c2 = coll(seeds$seed6, 101:150))
  three <- meta_analysis(x, system = "sys", baseline = "bl", shared_topics = "average")
  expect_identical(three$studies$collection, c("a1+a2", "b1+b2", "c1+c2"))
  expect_identical(three$studies$n_topics, c(50L, 50L, 50L))
  expect_error(meta_analysis(x[c("b1", "b2")], system = "sys", baseline = "bl"), class = "irtopics_error_data",
               regexp = "share 30 topics")
  anonymous <- lapply(seeds[1:3], function(m) coll(m, paste0("t", 1:50)))
  expect_equal(meta_analysis(anonymous, system = "sys", baseline = "bl")$k, 3)
  expect_equal(meta_analysis(anonymous, system = "sys", baseline = "bl", shared_topics = "average")$k, 1)
  # a topic one replicate did not score is averaged over the others
  gap <- seeds[1:2]
  gap$seed2["sys", 1] <- NA
  g <- meta_analysis(gap, system = "sys", baseline = "bl", effect = "md", shared_topics = "average")
  d <- c(seeds$seed1["sys", 1], (seeds$seed1["sys", -1] + seeds$seed2["sys", -1]) / 2) - base
  expect_equal(g$studies$md, mean(d))
})

test_that("REML: Fisher scoring converges from the Hedges start, with step halving, as metafor", {
  skip_if_not_installed("metafor")
  set.seed(5)
  y <- rnorm(30, 0, 1)
  v <- runif(30, 0.001, 0.5)
  r <- metafor::rma(y, v, method = "REML")
  fit <- tau2_reml(y, v, 1e-5, 100L)
  expect_equal(fit$tau2, r$tau2, tolerance = 1e-10)
  # at the optimum the REML score is 0 (checked with a tight threshold)
  t2 <- tau2_reml(y, v, 1e-14, 1000L)$tau2
  w <- 1 / (v + t2)
  mu <- sum(w * y) / sum(w)
  score <- sum(w^2 * (y - mu)^2) - (sum(w) - sum(w^2) / sum(w))
  expect_lt(abs(score), 1e-8 * sum(w))
})

test_that("REML: where Fisher scoring oscillates (metafor stops), a line search finds the maximum", {
  skip_if_not_installed("metafor")
  # a draw of bench/meta-analysis.R: Fisher scoring alternates between ~0 and ~2e-4
  y <- c(0.0375375980630899, 0.015958350475879, 0.0389523461189456, 0.0248796988919375, 0.0563352457466109,
         0.0113354465958114, 0.025015253784475, 0.0223470854151712, 0.00646705414061252, 0.0257539395737888)
  v <- c(0.000893028474617097, 0.000363169795671776, 0.000499661909484579, 0.000366424820018558,
         0.000142835304286366, 0.000395733333237049, 0.000374058056197409, 0.000310410681445638,
         0.00047736514347564, 0.000383844075280254)
  failed <- tryCatch(metafor::rma(y, v, method = "REML"), error = function(e) conditionMessage(e))
  expect_match(failed, "did not converge")
  expect_warning(fit <- tau2_reml(y, v, 1e-5, 100L), class = "irtopics_warning_convergence")
  expect_true(is.na(fit$iterations))
  # metafor's remedy (half steps) converges to the same maximum
  r <- metafor::rma(y, v, method = "REML", control = list(stepadj = 0.5, threshold = 1e-12))
  expect_equal(fit$tau2, r$tau2, tolerance = 1e-8)
  expect_gt(reml_loglik(y, v, fit$tau2), reml_loglik(y, v, 0))
})

test_that("an ir_comparison per collection gives the same numbers as its scores", {
  x <- adhoc_ap(c("adhoc7", "adhoc8"))
  sub <- lapply(x, function(m) m[c("run1", "run2", "run3"), ])
  cmp <- lapply(sub, compare_systems, test = "t", baseline = "run1")
  a <- meta_analysis(cmp, system = "run2")
  b <- meta_analysis(sub, system = "run2", baseline = "run1")
  expect_equal(a$pooled, b$pooled)
  expect_equal(a$studies$baseline, c("run1", "run1"))
  expect_error(meta_analysis(sub, system = "run2"), class = "irtopics_error_argument", regexp = "baseline")
  expect_equal(a$measure, "AP")
  expect_error(meta_analysis(cmp, system = "run2", measure = "P@10"), class = "irtopics_error_argument",
               regexp = "measure")
})

test_that("NA scores drop the topic for that collection; errors are classed and name what is wrong", {
  x <- adhoc_ap(c("adhoc7", "adhoc8"))
  y <- x
  y$adhoc7["run9", 1:5] <- NA
  ma <- meta_analysis(y, system = "run9", baseline = "run38")
  expect_equal(ma$studies$n_topics, c(45L, 50L))
  expect_equal(ma$studies$md[1], mean(x$adhoc7["run9", -(1:5)] - x$adhoc7["run38", -(1:5)]))
  expect_error(meta_analysis(unname(x), system = "run9", baseline = "run38"), class = "irtopics_error_argument",
               regexp = "named by collection")
  expect_error(meta_analysis(x$adhoc7, system = "run9", baseline = "run38"), class = "irtopics_error_argument",
               regexp = "named list")
  expect_error(meta_analysis(x, system = "nope", baseline = "run38"), class = "irtopics_error_argument",
               regexp = "adhoc7")
  expect_error(meta_analysis(x, system = c("run1", "run2", "run3"), baseline = "run38"),
               class = "irtopics_error_argument", regexp = "one per collection")
  expect_error(meta_analysis(x, system = c(adhoc7 = "run1", other = "run2"), baseline = "run38"),
               class = "irtopics_error_argument", regexp = "collections")
  expect_error(meta_analysis(x, system = "run9", baseline = "run9"), class = "irtopics_error_argument",
               regexp = "same system")
  expect_error(meta_analysis(x, system = "run9", baseline = "run38", effect = "or"),
               class = "irtopics_error_argument")
  expect_error(meta_analysis(x, system = "run9", baseline = "run38", conf = 95), class = "irtopics_error_argument")
  flat <- x
  flat$adhoc8["run9", ] <- flat$adhoc8["run38", ] + 0.1
  expect_error(meta_analysis(flat, system = "run9", baseline = "run38"), class = "irtopics_error_data",
               regexp = "all equal")
  two <- lapply(x, function(m) m[, 1:2])
  expect_error(meta_analysis(two, system = "run9", baseline = "run38"), class = "irtopics_error_data",
               regexp = "2 topics")
  expect_s3_class(meta_analysis(two, system = "run9", baseline = "run38", hedges = FALSE), "ir_meta_analysis")
})

test_that("named system vectors are matched to the collections", {
  x <- adhoc_ap(c("adhoc7", "adhoc8"))
  a <- meta_analysis(x, system = c(adhoc8 = "run16", adhoc7 = "run9"), baseline = "run1")
  expect_equal(a$studies$system, c("run9", "run16"))
})

test_that("print, summary, tidy rows and the forest plot show the numbers", {
  x <- adhoc_ap(c("adhoc6", "adhoc7", "adhoc8"))
  ma <- meta_analysis(x, system = c("run8", "run9", "run16"), baseline = c("run36", "run38", "run67"))
  out <- format(ma)
  expect_match(out[1], "^<ir_meta_analysis> .*3 collections, AP")
  expect_true(any(grepl("^Q = 5.311 \\(df 2", out)))
  expect_true(any(grepl("REML 0.4730 [0.1929, 0.7532]", out, fixed = TRUE)))
  s <- summary(ma)
  expect_equal(as.data.frame(s), ma$pooled)
  df <- as.data.frame(ma)
  expect_identical(class(df), "data.frame")
  expect_equal(df$term, c("adhoc6", "adhoc7", "adhoc8", "FE", "DL", "REML"))
  expect_equal(df$estimate, c(ma$studies$smd, ma$pooled$estimate))
  expect_equal(sum(df$weight, na.rm = TRUE), 100)
  p <- ggplot2::autoplot(ma)
  b <- ggplot2::ggplot_build(p)
  geoms <- vapply(p$layers, function(l) class(l$geom)[1], "")
  pts <- ggplot2::layer_data(p, which(geoms == "GeomPoint"))
  expect_equal(sort(pts$x), sort(ma$studies$smd))
  # every interval through interval_bars(): the prediction intervals first, then the collections'
  expect_identical(sum(geoms == "GeomErrorbar"), 2L)
  expect_false("GeomSegment" %in% geoms)
  bars <- ggplot2::layer_data(p, which(geoms == "GeomErrorbar")[2])
  expect_equal(sort(bars$xmin), sort(ma$studies$smd_low))
  dia <- ggplot2::layer_data(p, which(geoms == "GeomPolygon"))
  expect_equal(range(dia$x[dia$group == 3]), range(c(ma$pooled$conf.low[3], ma$pooled$conf.high[3])))
  seg <- ggplot2::layer_data(p, which(geoms == "GeomErrorbar")[1])
  expect_equal(sort(seg$xmin), sort(ma$pooled$pi.low[2:3]))
  expect_equal(sort(seg$xmax), sort(ma$pooled$pi.high[2:3]))
  # collections from the top in their order, then the models
  pp <- b$layout$panel_params[[1]]$y
  expect_equal(pp$get_labels()[order(-pp$get_breaks())],
               c("adhoc6", "adhoc7", "adhoc8", "FE (fixed)", "DL (random)", "REML (random)"))
  expect_match(p$labels$x, "Hedges' g")
  # heterogeneity as plotmath (tau^2, I^2 as symbols), the marks explained in the caption
  expect_true(is.call(p$labels$subtitle))
  expect_match(paste(deparse(p$labels$subtitle), collapse = ""), "I^2 == \"63%\"", fixed = TRUE)
  expect_match(paste(deparse(p$labels$subtitle), collapse = ""), "tau^2", fixed = TRUE)
  expect_match(p$labels$caption, "prediction\\s+intervals")
  expect_figure_ready(p)
  expect_figure_ready(p, width = 7, height = 4.5)
  expect_follows_user_theme(function() ggplot2::autoplot(ma))
  p2 <- ggplot2::autoplot(ma, models = "FE")
  expect_equal(nrow(ggplot2::layer_data(p2, 2)), 0)  # no prediction line for FE alone
  expect_error(ggplot2::autoplot(ma, models = "ML"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ma, colour = "red"), class = "irtopics_error_argument")
})

test_that("many collections: smaller labels, and a message past what fits", {
  set.seed(2)
  many <- lapply(1:40, function(i) matrix(runif(40), 2, 20, dimnames = list(c("a", "b"), paste0("t", 1:20))))
  names(many) <- sprintf("c%02d", 1:40)
  ma <- meta_analysis(many, system = "a", baseline = "b")
  # 40 collections, 3 pooled models and a gap: 44 rows of 7 pt labels, 24 of which fit 4.5 in
  expect_message(p <- ggplot2::autoplot(ma), "40 collections do not fit as labels of 7 pt in a 4.5 in figure",
                 class = "irtopics_message_layout")
  expect_message(ggplot2::autoplot(ma), "about 7 in tall to name all", class = "irtopics_message_layout")
  # labels that would overprint at the size drawn are left out
  expect_true(guide_checks_overlap(p))
  # sizes relative to the user's axis text: 0.8 of it past 25 rows, all of it for few
  expect_equal(unclass(p$theme$axis.text.y$size), 0.8)
  expect_s3_class(p$theme$axis.ticks.y, "element_blank")
  expect_silent(p3 <- ggplot2::autoplot(meta_analysis(many[1:3], system = "a", baseline = "b")))
  expect_equal(unclass(p3$theme$axis.text.y$size), 1)
})
