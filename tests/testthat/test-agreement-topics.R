# Per-topic agreement (issue 27): each topic's statistics against cor() and
# hand computation.

test_that("per-topic tau-b, Spearman, best system and differences equal base R", {
  set.seed(21)
  ref <- matrix(round(runif(8 * 6), 2), 8, dimnames = list(paste0("s", 1:8), paste0("q", 1:6)))
  cand <- ref
  cand[, 2] <- rev(ref[, 2])                 # a judge that reverses topic 2
  cand[, 3] <- ref[, 3] + 0.1                # too lenient on topic 3, same order
  cand[, 4] <- round(runif(8), 2)
  cand[, 5] <- 0                             # no relevant document for the candidate
  ta <- topic_agreement(ref, cand)
  expect_identical(ta$topic, colnames(ref))
  for (j in c(1:4, 6)) {
    expect_equal(ta$kendall_tau[j], cor(ref[, j], cand[, j], method = "kendall"), tolerance = 1e-14)
    expect_equal(ta$spearman[j], cor(ref[, j], cand[, j], method = "spearman"), tolerance = 1e-14)
  }
  expect_equal(ta$kendall_tau[c(1, 3, 6)], c(1, 1, 1))
  expect_identical(ta$kendall_tau[5], NA_real_)
  expect_identical(ta$spearman[5], NA_real_)
  expect_equal(ta$mean_difference, unname(colMeans(cand - ref)), tolerance = 1e-15)
  expect_equal(ta$mean_difference[3], 0.1, tolerance = 1e-14)
  expect_equal(ta$mean_abs_difference, unname(colMeans(abs(cand - ref))), tolerance = 1e-15)
  expect_equal(ta$mean_reference, unname(colMeans(ref)))
  expect_equal(ta$mean_candidate, unname(colMeans(cand)))
  expect_identical(ta$n_systems, rep(8L, 6))
  best <- function(v) names(v)[which.max(v)]  # no ties in the reference's scores here
  expect_identical(ta$top1[-5], vapply(c(1:4, 6), function(j) best(ref[, j]) == best(cand[, j]), TRUE))
  # topic 5: every candidate score ties, so its best is s1 by name
  expect_identical(ta$top1[5], best(ref[, 5]) == "s1")
})

test_that("topic_agreement() aligns by name and takes a single topic", {
  set.seed(2)
  ref <- matrix(runif(12), 4, dimnames = list(letters[1:4], c("x", "y", "z")))
  cand <- ref + runif(12, 0, 0.3)
  ta <- topic_agreement(ref, cand)
  expect_identical(topic_agreement(as_ir_scores(ref), cand[4:1, c(3, 1, 2)]), ta)
  one <- topic_agreement(ref[, "y", drop = FALSE], cand[, "y", drop = FALSE])
  expect_identical(one, ta[2, , drop = FALSE], ignore_attr = TRUE)
  expect_error(topic_agreement(ref, cand[, 1:2]), class = "irtopics_error_data", regexp = "same topics")
})

test_that("the best system of a topic is the lowest where lower is better (issue 40)", {
  err <- error_matrix()
  set.seed(5)
  cand <- lower_is_better(pmin(unclass(err) + matrix(stats::runif(length(err), 0, 0.3), nrow(err)), 1))
  low <- topic_agreement(err, cand)
  expect_identical(low$top1, topic_agreement(negated(err), negated(cand))$top1)
  expect_false(identical(low$top1, topic_agreement(plain(err), plain(cand))$top1))
})
