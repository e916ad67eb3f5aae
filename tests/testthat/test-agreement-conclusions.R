# Conclusion agreement (issue 27): decisions of both evaluations against
# t.test() + p.adjust(), on hand-made matrices whose flips are known.

# Three systems on 16 topics. Under the reference s1 is 0.2 above s2 and s3,
# and s2 and s3 have the same mean (their differences are +-0.05
# alternately: t = 0). Under the candidate s2 is 0.2 above s1 and s3, and
# s1 and s3 have the same mean. So (s1, s2) swaps, (s1, s3) loses its
# significance and (s2, s3) gains it.
flip_pair <- function() {
  set.seed(12)
  n <- 16
  e <- runif(n, 0.2, 0.5)
  n1 <- rnorm(n, 0, 0.03)
  n2 <- rnorm(n, 0, 0.03)
  alt <- rep(c(0.05, -0.05), n / 2)
  ref <- rbind(s1 = e + 0.2 + n1, s2 = e + n2, s3 = e + n2 + alt)
  cand <- rbind(s1 = e + n1, s2 = e + 0.2 + n2, s3 = e + n1 + alt)
  colnames(ref) <- colnames(cand) <- sprintf("t%02d", seq_len(n))
  list(ref = ref, cand = cand)
}

test_that("the pairs that flip are found, with t.test() + p.adjust() p-values", {
  p <- flip_pair()
  ca <- conclusion_agreement(p$ref, p$cand, test = "t", correction = "holm")
  pairs <- ca$pairs
  expect_identical(pairs$system1, c("s1", "s1", "s2"))
  expect_identical(pairs$system2, c("s2", "s3", "s3"))
  expect_identical(as.character(pairs$change), c("swapped", "lost", "gained"))
  expect_identical(as.character(pairs$decision_reference), c("better", "better", "not significant"))
  expect_identical(as.character(pairs$decision_candidate), c("worse", "not significant", "better"))
  for (side in c("reference", "candidate")) {
    m <- if (side == "reference") p$ref else p$cand
    raw <- c(t.test(m["s1", ], m["s2", ], paired = TRUE)$p.value,
             t.test(m["s1", ], m["s3", ], paired = TRUE)$p.value,
             t.test(m["s2", ], m["s3", ], paired = TRUE)$p.value)
    expect_equal(pairs[[paste0("p_", side)]], p.adjust(raw, "holm"), tolerance = 1e-12)
    est <- c(mean(m["s1", ] - m["s2", ]), mean(m["s1", ] - m["s3", ]), mean(m["s2", ] - m["s3", ]))
    expect_equal(pairs[[paste0("estimate_", side)]], est, tolerance = 1e-12)
  }
  expect_equal(pairs$estimate_shift, pairs$estimate_candidate - pairs$estimate_reference)
  expect_equal(pairs$p_shift, pairs$p_candidate - pairs$p_reference)
  s <- setNames(ca$summary$count, ca$summary$statistic)
  expect_identical(s, c(same_decision = 0L, gained = 1L, lost = 1L, swapped = 1L,
                        significant_reference = 2L, significant_candidate = 2L))
  expect_equal(ca$summary$share, ca$summary$count / 3)
  d <- ca$decisions
  expect_identical(nrow(d), 9L)
  expect_identical(sum(d$count), 3L)
  expect_identical(d$count[d$reference == "better" & d$candidate == "worse"], 1L)
  expect_identical(attr(ca, "test"), resolve_ir_test("t", "compare_systems")$label)
  expect_null(attr(ca, "seed"))
  # identical evaluations: every decision the same
  same <- conclusion_agreement(p$ref, p$ref)
  expect_true(all(same$pairs$change == "same"))
  expect_identical(same$summary$share[1], 1)
})

test_that("another test, correction and alpha: bonferroni at 0.01, and a resampling test under one seed", {
  p <- flip_pair()
  ca <- conclusion_agreement(p$ref, p$cand, test = "wilcoxon", correction = "bonferroni", alpha = 0.01)
  raw <- c(wilcox.test(p$cand["s1", ], p$cand["s2", ], paired = TRUE)$p.value,
           wilcox.test(p$cand["s1", ], p$cand["s3", ], paired = TRUE, exact = FALSE)$p.value,
           wilcox.test(p$cand["s2", ], p$cand["s3", ], paired = TRUE)$p.value)
  expect_equal(ca$pairs$p_candidate, pmin(1, 3 * raw), tolerance = 1e-12)
  expect_identical(ca$pairs$decision_candidate == "not significant", pmin(1, 3 * raw) >= 0.01)
  r <- conclusion_agreement(p$ref, p$cand, test = "randomization", B = 2000, seed = 4)
  expect_identical(attr(r, "seed"), 4)
  expect_identical(r$pairs$p_reference,
                   compare_systems(p$ref, test = "randomization", B = 2000, seed = 4)$table$p.adjusted)
  expect_identical(r$pairs$p_candidate,
                   compare_systems(p$cand, test = "randomization", B = 2000, seed = 4)$table$p.adjusted)
  set.seed(3); a <- conclusion_agreement(p$ref, p$cand, test = "randomization", B = 500)
  set.seed(3); b <- conclusion_agreement(p$ref, p$cand, test = "randomization", B = 500)
  expect_identical(a, b)
  # a familywise test (randomised Tukey HSD) decides on its own p-values
  t <- conclusion_agreement(p$ref, p$cand, test = "tukey")
  expect_identical(as.character(t$pairs$change), c("swapped", "lost", "gained"))
})

test_that("conclusion_agreement() refuses what compare_systems() refuses, with classes", {
  p <- flip_pair()
  expect_error(conclusion_agreement(p$ref, p$cand, test = "nope"), class = "irtopics_error_argument")
  expect_error(conclusion_agreement(p$ref, p$cand, correction = "nope"), class = "irtopics_error_argument")
  expect_error(conclusion_agreement(p$ref, p$cand[1:2, ]), class = "irtopics_error_data")
})

test_that("the flip matrix shows each pair once, coloured by its change", {
  p <- flip_pair()
  ca <- conclusion_agreement(p$ref, p$cand)
  g <- plot_flip_matrix(ca$pairs)
  expect_s3_class(g, "ggplot")
  b <- ggplot2::ggplot_build(g)
  d <- b$data[[1]]
  expect_identical(nrow(d), 3L)
  # lower triangle: row index (y, reversed scale: -row) above column index
  expect_true(all(-d$y > d$x))
  cols <- c(swapped = "#D55E00", lost = "#E69F00", gained = "#0072B2")
  key <- paste(d$x, -d$y)
  expect_identical(d$fill[match(c("1 2", "1 3", "2 3"), key)], unname(cols[c("swapped", "lost", "gained")]))
  expect_identical(b$layout$panel_params[[1]]$x$get_labels(), c("s1", "s2", "s3"))
  expect_match(b$plot$labels$subtitle, "changes: 3 of 3 (100.00%)", fixed = TRUE)
  # another order of the systems
  g2 <- ggplot2::ggplot_build(plot_flip_matrix(ca$pairs, systems = c("s3", "s2", "s1")))
  expect_identical(g2$layout$panel_params[[1]]$x$get_labels(), c("s3", "s2", "s1"))
  expect_true(all(-g2$data[[1]]$y > g2$data[[1]]$x))
  expect_identical(g2$layout$panel_params[[1]]$y$get_labels(), c("s3", "s2", "s1"))
  # names sized by the package's one rule for crowded axes: the theme's axis text for 3 systems,
  # 0.8 of it for 30, none past 40 (the subtitle says so)
  expect_equal(as.numeric(g$theme$axis.text.y$size), 1)
  set.seed(4)
  many <- function(n) {
    m <- matrix(runif(n * 25), n, 25, dimnames = list(sprintf("r%02d", seq_len(n)), paste0("t", 1:25)))
    conclusion_agreement(m, m + runif(n * 25, 0, 0.05))$pairs
  }
  g30 <- plot_flip_matrix(many(30))
  expect_equal(as.numeric(g30$theme$axis.text.y$size), 0.8)
  expect_equal(as.numeric(g30$theme$axis.text.x$size), 0.8)
  expect_true(guide_checks_overlap(g30))
  g45 <- plot_flip_matrix(many(45))
  expect_s3_class(g45$theme$axis.text.y, "element_blank")
  expect_match(g45$labels$subtitle, "45 systems in the order given, names omitted", fixed = TRUE)
})

test_that("a significant pair is better or worse by the measure's direction (issue 40)", {
  err <- error_matrix()
  set.seed(5)
  cand <- lower_is_better(pmin(unclass(err) + matrix(stats::runif(length(err), 0, 0.3), nrow(err)), 1))
  ca <- conclusion_agreement(err, cand, correction = "none")
  cn <- conclusion_agreement(negated(err), negated(cand), correction = "none")
  expect_identical(ca$pairs$decision_reference, cn$pairs$decision_reference)
  af <- ca$pairs$system1 == "sysA" & ca$pairs$system2 == "sysF"
  expect_identical(as.character(ca$pairs$decision_reference[af]), "worse")
})
