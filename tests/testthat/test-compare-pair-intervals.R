# pair_intervals(): intervals that exclude 0 exactly when the corrected
# decision is significant, checked over the registry's tests and every
# correction on 17 and 110 Robust 2004 runs; values against t.test() and
# TukeyHSD().

excludes_zero <- function(tab) tab$conf.low > 0 | tab$conf.high < 0

test_that("over every correction, a t interval excludes 0 exactly when the pair is significant (17 and 110 runs)", {
  ap <- robust()
  s17 <- best_distinct(ap, 17)
  for (runs in list(ap[s17, ], ap)) {
    for (corr in stats::p.adjust.methods) {
      cmp <- suppressWarnings(compare_systems(runs, correction = corr))
      tab <- pair_intervals(cmp)$table
      has <- !is.na(tab$p.value)
      expect_true(all(!is.na(tab$conf.low[has])))
      expect_identical(excludes_zero(tab)[has], tab$significant[has], label = sprintf("%s on %d runs", corr, nrow(runs)))
      # the decisions are the comparison's
      expect_identical(sum(tab$significant), sum(cmp$table$significant))
      expect_identical(unique(tab$adjusted[has]), corr != "none")
    }
  }
})

test_that("the t intervals are t.test()'s at the correction's level", {
  ap <- robust()
  x <- ap[best_distinct(ap, 8), ]
  pair_ci <- function(tab, i, level) {
    stats::t.test(unclass(x)[tab$system1[i], ], unclass(x)[tab$system2[i], ], paired = TRUE,
                  conf.level = level)$conf.int
  }
  m <- choose(8, 2)
  # Bonferroni: every pair at 1 - alpha / m
  tab <- pair_intervals(compare_systems(x, correction = "bonferroni"))$table
  for (i in c(1, 7, 20)) {
    expect_equal(c(tab$conf.low[i], tab$conf.high[i]), as.vector(pair_ci(tab, i, 1 - 0.05 / m)), tolerance = 1e-10)
  }
  expect_equal(tab$conf.level, rep(1 - 0.05 / m, m))
  # Holm: the smallest p-value's step is 1 - alpha / m, the r-th 1 - alpha / (m - r + 1), the
  # non-significant pairs at the level where the step-down stopped
  cmp <- compare_systems(x, correction = "holm")
  tab <- pair_intervals(cmp)$table
  r <- rank(tab$p.value, ties.method = "first")
  k <- sum(tab$significant)
  expect_true(k > 0 && k < m)
  first <- which(r == 1)
  expect_equal(tab$conf.level[first], 1 - 0.05 / m)
  expect_equal(c(tab$conf.low[first], tab$conf.high[first]), as.vector(pair_ci(tab, first, 1 - 0.05 / m)),
               tolerance = 1e-10)
  third <- which(r == 3)
  expect_equal(tab$conf.level[third], 1 - 0.05 / (m - 2))
  last <- which(r == m)
  expect_equal(tab$conf.level[last], 1 - 0.05 / (m - k))
  expect_equal(c(tab$conf.low[last], tab$conf.high[last]), as.vector(pair_ci(tab, last, 1 - 0.05 / (m - k))),
               tolerance = 1e-10)
  # the step-down by hand: p(r) < alpha / (m - r + 1) up to the k-th
  p_sorted <- sort(tab$p.value)
  expect_equal(k, sum(cumprod(p_sorted < 0.05 / (m - seq_len(m) + 1))))
  # BH: the false-coverage-rate level 1 - k alpha / m for every pair
  tab <- pair_intervals(compare_systems(x, correction = "BH"))$table
  k <- sum(tab$significant)
  expect_equal(tab$conf.level, rep(1 - k * 0.05 / m, m))
  expect_equal(c(tab$conf.low[2], tab$conf.high[2]), as.vector(pair_ci(tab, 2, 1 - k * 0.05 / m)), tolerance = 1e-10)
  # no correction: the comparison's own interval
  cmp <- compare_systems(x, correction = "none")
  tab <- pair_intervals(cmp, orientation = "table")$table
  expect_equal(tab$conf.low, cmp$table$conf.low, tolerance = 1e-12)
  expect_equal(tab$conf.high, cmp$table$conf.high, tolerance = 1e-12)
})

test_that("Tukey's intervals equal TukeyHSD() on aov() and agree with the decisions (17 and 110 runs)", {
  ap <- robust()
  for (runs in list(ap[best_distinct(ap, 17), ], ap)) {
    cmp <- suppressWarnings(compare_systems(runs, test = "tukey"))
    pi <- pair_intervals(cmp, orientation = "table")
    tab <- pi$table
    expect_identical(excludes_zero(tab), tab$significant)
    expect_identical(pi$interval, "simultaneous")
    expect_true(all(tab$adjusted))
    if (nrow(runs) > 20L) next
    long <- data.frame(score = as.vector(unclass(runs)),
                       system = factor(rep(rownames(runs), ncol(runs)), levels = rownames(runs)),
                       topic = factor(rep(colnames(runs), each = nrow(runs))))
    ref <- stats::TukeyHSD(stats::aov(score ~ system + topic, data = long), "system")$system
    # TukeyHSD writes later - earlier ("b-a"); the table has earlier - later
    key <- paste(tab$system2, tab$system1, sep = "-")
    expect_equal(tab$estimate, -unname(ref[key, "diff"]), tolerance = 1e-10)
    expect_equal(tab$conf.low, -unname(ref[key, "upr"]), tolerance = 1e-10)
    expect_equal(tab$conf.high, -unname(ref[key, "lwr"]), tolerance = 1e-10)
    expect_equal(tab$p.value, unname(ref[key, "p adj"]), tolerance = 1e-6)
  }
})

test_that("level = \"simultaneous\" gives Bonferroni intervals whatever the correction, and says so", {
  ap <- robust()
  x <- ap[best_distinct(ap, 17), ]
  m <- choose(17, 2)
  holm <- compare_systems(x, correction = "holm")
  pi <- pair_intervals(holm, level = "simultaneous")
  bonf <- pair_intervals(compare_systems(x, correction = "bonferroni"))
  expect_equal(pi$table$conf.low, bonf$table$conf.low, tolerance = 1e-12)
  expect_equal(pi$table$conf.level, rep(1 - 0.05 / m, m))
  expect_match(pi$interval_label, "not matched to the decisions of the Holm correction", fixed = TRUE)
  expect_true(all(pi$table$adjusted))
  # Holm rejects at least what Bonferroni does: every interval that excludes 0 is a Holm rejection
  expect_true(all(pi$table$significant[excludes_zero(pi$table)]))
  expect_match(pair_intervals(compare_systems(x[1:4, ], correction = "none"), level = "simultaneous")$interval_label,
               "without correction")
  expect_error(pair_intervals(holm, level = "joint"), class = "irtopics_error_argument")
})

test_that("tests without a matching interval draw none; a user's interval is kept, not adjusted", {
  ap <- robust()
  x <- ap[best_distinct(ap, 17), ]
  tests <- ir_tests()
  for (test in tests$name[grepl("compare_systems", tests$used_by) & tests$interval == "none"]) {
    cmp <- suppressWarnings(compare_systems(x, test = test, B = 200, seed = 1))
    pi <- pair_intervals(cmp)
    expect_identical(pi$interval, "none", label = test)
    expect_true(all(is.na(pi$table$conf.low)))
    expect_false(any(pi$table$adjusted))
    expect_match(pi$interval_label, "no interval")
  }
  mine <- function(x, y) stats::t.test(x, y, paired = TRUE)
  cmp <- compare_systems(x[1:4, ], test = mine, correction = "holm")
  pi <- pair_intervals(cmp, orientation = "table")
  expect_identical(pi$interval, "own")
  expect_equal(pi$table$conf.low, cmp$table$conf.low)
  expect_false(any(pi$table$adjusted))
  expect_match(pi$interval_label, "not adjusted")
  # a user's record that says it has none: none, though its function returns one
  none <- pair_intervals(compare_systems(x[1:4, ], test = new_ir_test("mine", mine, interval = "none")))
  expect_identical(none$interval, "none")
  expect_true(all(is.na(none$table$conf.low)))
})

# Issue 42: the interval is the record's field, not the test's name, so a
# test added to the registry gets the interval its record names.
test_that("a test record added with an interval kind gets its intervals", {
  ap <- robust()
  x <- ap[best_distinct(ap, 8), ]
  reg <- test_registry()
  t_like <- new_ir_test("t_again", label = "paired t-test (again)", p_rule = "distribution", rows = rows_t,
                        interval = "t")
  hsd_like <- new_ir_test("hsd_again", label = "Tukey HSD (again)", p_rule = "distribution", needs = "matrix",
                          rows = rows_tukey, interval = "simultaneous")
  for (rec in list(t_like, hsd_like)) {
    register_ir_test(rec)
    withr::defer(unregister_ir_test(rec$name))
  }
  for (pair in list(c("t", "t_again"), c("tukey", "hsd_again"))) {
    for (corr in c("holm", "BH")) {
      a <- pair_intervals(compare_systems(x, test = pair[1], correction = corr))
      b <- pair_intervals(compare_systems(x, test = pair[2], correction = corr))
      expect_identical(b$interval, a$interval, label = pair[2])
      expect_identical(b$table, a$table, label = pair[2])
      expect_identical(excludes_zero(b$table), b$table$significant, label = pair[2])
    }
  }
  expect_identical(pair_intervals(compare_systems(x, test = "hsd_again"))$interval_label,
                   "Tukey HSD intervals (simultaneous 95%)")
  # a comparison made before comparisons kept the field asks the registry
  old <- compare_systems(x, test = "t_again")
  old$interval <- NULL
  expect_identical(pair_intervals(old)$interval, "t")
})

test_that("pairs are oriented better first, by the baseline, or as in the table, and the table says so", {
  ap <- robust()
  s <- best_distinct(ap, 6)
  x <- ap[rev(s), ]  # worst first: every pair of the table has a negative difference
  cmp <- compare_systems(x)
  expect_true(all(cmp$table$estimate < 0))
  pi <- pair_intervals(cmp)
  tab <- pi$table
  m <- rowMeans(unclass(x))
  expect_true(all(tab$estimate > 0))
  expect_equal(tab$estimate, unname(m[tab$system1] - m[tab$system2]))
  expect_true(all(tab$mean1 > tab$mean2))
  expect_identical(unique(tab$orientation), "higher mean first")
  expect_true(all(tab$conf.low < tab$estimate & tab$estimate < tab$conf.high))
  # the same intervals as in table order, mirrored
  tt <- pair_intervals(cmp, orientation = "table")$table
  expect_identical(unique(tt$orientation), "table order")
  expect_equal(tt$conf.low, -tab$conf.high)
  expect_identical(tt$system1, cmp$table$system1)
  # against a baseline: other - baseline, selected from all pairs (levels over all 15)
  pb <- pair_intervals(cmp, baseline = s[6])
  expect_identical(unique(pb$table$system2), s[6])
  expect_identical(nrow(pb$table), 5L)
  expect_equal(pb$table$estimate, unname(m[pb$table$system1] - m[s[6]]))
  expect_identical(unique(pb$table$orientation), sprintf("system - %s", s[6]))
  expect_match(format(pb)[2], sprintf("system - %s", s[6]), fixed = TRUE)
  # a comparison against its baseline keeps that orientation
  cb <- compare_systems(x, baseline = s[1])
  expect_identical(pair_intervals(cb)$table$system2, rep(s[1], 5))
  expect_error(pair_intervals(cmp, baseline = "nope"), class = "irtopics_error_argument")
  expect_error(pair_intervals(cmp, orientation = "up"), class = "irtopics_error_argument")
  expect_error(pair_intervals(x), class = "irtopics_error_argument")
})

test_that("with several measures a pair is written the same way in each, by the first measure's means", {
  res <- four_system_evaluation()[c("P_2", "map")]
  cmp <- suppressWarnings(compare_systems(res, correction = "none"))
  tab <- pair_intervals(cmp)$table
  first <- tab[tab$measure == "P@2", ]
  second <- tab[tab$measure == "AP", ]
  expect_identical(paste(first$system1, first$system2), paste(second$system1, second$system2))
  expect_true(all(first$estimate >= 0))
  expect_identical(unique(tab$orientation), "higher mean of P@2 first")
  m <- rowMeans(unclass(res$map))
  expect_equal(second$estimate, unname(m[second$system1] - m[second$system2]))
})

test_that("print, summary and the words of the decision", {
  ap <- robust()
  cmp <- compare_systems(ap[best_distinct(ap, 5), ])
  pi <- pair_intervals(cmp)
  expect_output(print(pi), "t intervals at Holm's step-down levels")
  expect_match(pi$decision_label, "p after Holm's correction < 0.05", fixed = TRUE)
  s <- summary(pi)
  expect_identical(s$table$excluding_zero, s$table$significant)
  expect_identical(pair_intervals(compare_systems(ap[1:3, ], correction = "none"))$decision_label,
                   "p < 0.05, no correction")
  expect_identical(pair_intervals(compare_systems(ap[1:3, ], test = "tukey"))$decision_label,
                   "Tukey HSD p < 0.05")
  # NA p-values do not count as comparisons (as in p.adjust())
  expect_identical(irtopics:::decision_alphas(c(0.01, NA, 0.5), c(0.02, NA, 1), "bonferroni", 0.05), c(0.025, NA, 0.025))
})

test_that("better_first puts the better system first by the measure's direction (issue 40)", {
  err <- error_matrix()
  iv <- pair_intervals(compare_systems(err))
  expect_true(all(iv$table$estimate <= 0))
  expect_identical(iv$orientation, "lower mean first")
  neg <- pair_intervals(compare_systems(negated(err)))
  expect_identical(iv$table[c("system1", "system2", "significant")], neg$table[c("system1", "system2", "significant")])
})

test_that("a system that answered no topic is refused by name wherever systems are compared or averaged (issue 43)", {
  # before: compare_systems() gave NaN rows, pair_intervals() and the forest
  # plot stopped with base R's "missing values are not allowed in
  # subscripted assignments"
  ap <- robust()[1:5, ]
  x <- ap
  x[3, ] <- NA
  empty <- rownames(x)[3]
  refused <- function(expr) {
    err <- expect_error(expr, class = "irtopics_error_data", regexp = "answered no topic")
    expect_identical(err$systems, empty)
    expect_match(conditionMessage(err), empty, fixed = TRUE)
  }
  refused(compare_systems(x))
  refused(compare_systems(x, test = "randomization", B = 100, seed = 1))
  refused(compare_systems(x, test = "tukey"))
  refused(mean_intervals(x))
  refused(mean_intervals(x, interval = "bca", B = 100, seed = 1))
  refused(rank_intervals(x, B = 100, seed = 1))
  refused(tau_interval(x, ap, B = 100, seed = 1))
  refused(risk_summary(x, baseline = rownames(x)[1]))
  refused(meta_analysis(list(a = x, b = ap), system = empty, baseline = rownames(x)[1]))
  # in an evaluation, the measure is named
  ev <- structure(list(AP = as_ir_scores(ap, measure = "AP"), P10 = as_ir_scores(x, measure = "P@10")),
                  class = c("ir_evaluation", "list"))
  err <- expect_error(compare_systems(ev), class = "irtopics_error_data", regexp = "(P10)", fixed = TRUE)
  # a system with one answered topic is still compared (its pairs are undefined for the t-test)
  x[3, 1] <- 0.5
  expect_warning(cmp <- compare_systems(x), class = "irtopics_warning_undefined")
  expect_s3_class(pair_intervals(cmp), "ir_pair_intervals")
})

test_that("pairs with no topic in common keep an NA difference; the forest plot draws the others and says so (issue 43)", {
  ap <- robust()[1:4, ]
  half <- ncol(ap) %/% 2
  ap[1, seq_len(half)] <- NA
  ap[2, -seq_len(half)] <- NA
  expect_warning(cmp <- compare_systems(ap), class = "irtopics_warning_undefined")
  none <- cmp$table$system1 == rownames(ap)[1] & cmp$table$system2 == rownames(ap)[2]
  expect_true(is.na(cmp$table$estimate[none]))
  for (orientation in c("better_first", "table")) {
    tab <- pair_intervals(cmp, orientation = orientation)$table
    expect_identical(nrow(tab), 6L)
    expect_true(all(is.na(tab[is.na(tab$estimate), c("conf.low", "conf.high")])))
    expect_identical(sum(is.na(tab$estimate)), 1L)
  }
  expect_message(p <- ggplot2::autoplot(cmp), class = "irtopics_message_layout", regexp = "not drawn")
  expect_no_warning(b <- ggplot2::ggplot_build(p))
  points <- b$data[[length(b$data)]]
  expect_identical(nrow(points), 5L)
  expect_true(all(is.finite(points$x)))
  expect_no_warning(ggplot2::ggplot_build(ggplot2::autoplot(cmp, type = "heatmap")))
})

test_that("scores all below 1e-100 are refused where tests square them, with how to rescale (issue 43)", {
  # before: every t-test p NA with "zero variance", meta-analysis "differences all equal"
  ap <- robust()[1:4, 1:30]
  expect_error(compare_systems(ap * 1e-300), class = "irtopics_error_data", regexp = "1e-100")
  expect_error(meta_analysis(list(a = ap * 1e-300, b = robust()[1:4, 31:60]), system = rownames(ap)[2],
                             baseline = rownames(ap)[1]),
               class = "irtopics_error_data", regexp = "collection \"a\"")
  # 1e-90 is squared without loss: the same p-values
  expect_equal(compare_systems(ap * 1e-90)$table$p.value, compare_systems(ap)$table$p.value, tolerance = 1e-12)
})
