# Decisions that B (or the number of topics) makes impossible: the smallest
# p-value of each rule, and the warning of compare_systems(),
# discriminative_power() and test_calibration() (issue 40).

undecidable <- "irtopics_warning_undecidable"

test_that("the smallest p-value of each rule is attained: 1/(B + 1), 2/2^n, none for distributions", {
  rec <- function(name) irtopics:::registered_ir_test(name)
  expect_identical(irtopics:::smallest_p(rec("bootstrap_studentized"), 999, 50), 1 / 1000)
  expect_identical(irtopics:::smallest_p(rec("rthsd"), 999, 50), 1 / 1000)
  expect_identical(irtopics:::smallest_p(rec("randomization"), 999, 50, exact = FALSE), 1 / 1000)
  expect_identical(irtopics:::smallest_p(rec("randomization"), 999, 6, exact = TRUE), 2 / 64)
  expect_identical(irtopics:::smallest_p(rec("randomization"), 999, 6), 2 / 64)     # 2^6 <= B: enumerated
  expect_identical(irtopics:::smallest_p(rec("randomization"), 999, 10), 1 / 1000)  # 2^10 > B: drawn
  expect_identical(irtopics:::smallest_p(rec("t"), 999, 6), 0)
  expect_identical(irtopics:::smallest_p(rec("permutation_2019"), 999, 6), 0)      # c / B can be 0
  # a system better on all 6 topics reaches both floors
  x <- rbind(a = c(.9, .8, .7, .9, .8, .7), b = c(.1, .2, .3, .1, .2, .3))
  colnames(x) <- paste0("t", 1:6)
  expect_identical(compare_systems(x, test = "randomization", exact = TRUE)$table$p.value, 2 / 64)
  # drawn sign vectors: over 30 topics none is as extreme (chance 2/2^30 each), p = (0 + 1)/(B + 1)
  x30 <- x[, rep(1:6, 5)]
  colnames(x30) <- paste0("t", 1:30)
  expect_identical(compare_systems(x30, test = "randomization", exact = FALSE, B = 999, seed = 1)$table$p.value,
                   1 / 1000)
})

test_that("136 pairs, Holm, B = 2000: no pair can be significant, and the warning says B >= 2720", {
  ap <- real_scores("adhoc8_ap.csv")
  top <- ap[order(-rowMeans(ap))[1:17], ]
  # Holm's smallest adjusted p-value: 136 / 2001 = 0.068 > 0.05; 136 / 2721 < 0.05 <= 136 / 2720
  expect_warning(x <- compare_systems(top, test = "randomization", B = 2000, seed = 1), "B >= 2720",
                 class = undecidable)
  expect_identical(sum(x$table$significant), 0L)
  expect_equal(min(x$table$p.adjusted), 136 / 2001)
  expect_warning(compare_systems(top, test = "randomization", B = 2719, seed = 1), class = undecidable)
  expect_no_warning(y <- compare_systems(top, test = "randomization", B = 2720, seed = 1))
  expect_gt(sum(y$table$significant), 0L)
  # against a baseline: 16 pairs, 16 / 2001 < 0.05
  expect_no_warning(compare_systems(top, baseline = rownames(top)[17], test = "randomization", B = 2000, seed = 1))
})

test_that("every resampling test and correction: the B that would do is the smallest that can decide", {
  ap <- real_scores("adhoc8_ap.csv")
  five <- ap[order(-rowMeans(ap))[1:5], ]
  # Benjamini-Yekutieli over 10 pairs: all p equal to f give f * sum(1/i) = f * 7381/2520;
  # 7381/2520 / (B + 1) < 0.05 from B = 58 on
  expect_warning(compare_systems(five, test = "bootstrap", B = 57, seed = 1, correction = "BY"), "B >= 58",
                 class = undecidable)
  expect_no_warning(compare_systems(five, test = "bootstrap", B = 58, seed = 1, correction = "BY"))
  # Benjamini-Hochberg: all p at 1/(B + 1) stay 1/(B + 1): B = 20 decides, 19 not
  expect_warning(compare_systems(five, test = "bootstrap", B = 19, seed = 1, correction = "BH"), "B >= 20",
                 class = undecidable)
  expect_no_warning(compare_systems(five, test = "bootstrap", B = 20, seed = 1, correction = "BH"))
  # the randomised Tukey HSD controls the familywise error itself: 1/(B + 1) against alpha
  expect_warning(compare_systems(five, test = "rthsd", B = 15, seed = 1), "B >= 20", class = undecidable)
  expect_no_warning(compare_systems(five, test = "rthsd", B = 20, seed = 1))
  # Bonferroni at alpha = 0.01 over 10 pairs: 10 / (B + 1) < 0.01 from B = 1000
  expect_warning(compare_systems(five, test = "randomization", B = 999, seed = 1, alpha = 0.01,
                                 correction = "bonferroni", exact = FALSE), "B >= 1000", class = undecidable)
  # exact enumeration over 6 topics, Holm over 10 pairs: 10 * 2/2^n < 0.05 from n = 9
  expect_warning(compare_systems(five[, 1:6], test = "randomization", exact = TRUE), "at least 9 topics",
                 class = undecidable)
  expect_no_warning(compare_systems(five[, 1:9], test = "randomization", exact = TRUE))
  # tests with a reference distribution never warn
  expect_no_warning(compare_systems(five[, 1:3], test = "t"))
})

test_that("discriminative power and test calibration warn when B or the topics leave no decision", {
  ap <- real_scores("adhoc8_ap.csv")
  five <- ap[order(-rowMeans(ap))[1:5], ]
  expect_warning(dp <- discriminative_power(five, B = 10, seed = 1), "B >= 20", class = undecidable)
  expect_identical(dp$summary$n_significant, 0L)
  expect_no_warning(discriminative_power(five, B = 20, seed = 1))
  expect_warning(discriminative_power(five, method = "rthsd", B = 18, seed = 1), class = undecidable)
  small <- ap[1:6, 1:12]
  sm <- simulation_model(small, copulas = "basic", seed = 1)
  # 3 topics: the randomisation test enumerates 2^3 sign vectors, p >= 2/8
  expect_warning(test_calibration(sm, tests = c("randomization", "t"), n_topics = c(3, 6), delta = NULL,
                                  trials = 5, B = 20, seed = 1, progress = FALSE),
                 "at least 6 topics", class = undecidable)
  expect_warning(test_calibration(sm, tests = "bootstrap", n_topics = 6, delta = NULL, trials = 5, B = 10,
                                  seed = 1, progress = FALSE), "B >= 20", class = undecidable)
})
