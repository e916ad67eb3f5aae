# The batched leaderboard statistics (src/leaderboard.h through
# cpp_leaderboard_values()) against leaderboard_values(), the R definition
# that test-agreement-leaderboard.R checks against cor(), ircor and rbo():
# column by column, on means with ties, constant columns, two systems and a
# top_k beyond the number of systems.

# leaderboard_values() on each column pair, as a samples x statistics matrix
values_by_column <- function(mr, mc, name_rank, k, p = 0.9) {
  t(vapply(seq_len(ncol(mr)), function(b) {
    leaderboard_values(mr[, b], mc[, b], name_rank, k, p, "a")
  }, numeric(6)))
}

expect_same_values <- function(got, want) {
  expect_identical(dim(got), dim(want))
  for (s in seq_len(ncol(want))) {
    expect_identical(is.na(got[, s]), is.na(want[, s]), label = colnames(want)[s])
    ok <- !is.na(want[, s])
    expect_equal(unname(got[ok, s]), unname(want[ok, s]), tolerance = 1e-12, label = colnames(want)[s])
  }
}

test_that("the batched statistics equal leaderboard_values() column by column", {
  set.seed(20261127)
  for (n in c(2L, 3L, 7L, 40L)) {
    # means on a coarse grid: many ties within and between the two vectors
    mr <- matrix(round(runif(n * 60), 1), n)
    mc <- matrix(round(runif(n * 60), 1), n)
    mr[, 1] <- 0.4                              # a constant reference
    mc[, 2] <- 0.7                              # a constant candidate
    mr[, 3] <- mc[, 3] <- 0.1                   # both constant
    mc[, 4] <- mr[, 4]                          # identical leaderboards
    mc[, 5] <- rev(sort(mr[, 5]))[rank(-mr[, 5], ties.method = "first")]
    mr[, 6] <- c(0, -0, rep(0.5, n - 2))        # signed zeros tie
    name_rank <- sample(n)
    for (k in unique(c(1L, min(3L, n), n))) {
      got <- cpp_leaderboard_values(mr, mc, name_rank, k, 0.9)
      want <- values_by_column(mr, mc, name_rank, k)
      expect_same_values(got, want)
    }
    # continuous means, another persistence
    mr <- matrix(runif(n * 30), n)
    mc <- mr + matrix(rnorm(n * 30, 0, 0.2), n)
    expect_same_values(cpp_leaderboard_values(mr, mc, name_rank, 1L, 0.6),
                       values_by_column(mr, mc, name_rank, 1L, p = 0.6))
  }
  # constant columns give NA (not NaN) where leaderboard_values() does
  got <- cpp_leaderboard_values(matrix(0.4, 3, 1), matrix(c(0.1, 0.2, 0.3), 3, 1), 1:3, 2L, 0.9)
  expect_identical(got[1, c(1, 2, 4)], rep(NA_real_, 3))
  expect_identical(got[1, 5:6], c(0, 0.5))   # s1 first by name; s3 and s2 on top of the candidate
})

test_that("leaderboard_agreement(): batched draws, jackknife and a top_k beyond the systems", {
  set.seed(3)
  ref <- round(matrix(runif(5 * 12), 5), 1)    # ties in the resampled means
  cand <- round(ref + matrix(rnorm(5 * 12, 0, 0.2), 5), 1)
  dimnames(ref) <- dimnames(cand) <- list(c("b", "a", "e", "c", "d"), paste0("t", 1:12))
  la <- leaderboard_agreement(ref, cand, top_k = 50, B = 30, seed = 4, interval = "bca")
  expect_identical(attr(la, "top_k"), 5L)
  name_rank <- order(order(rownames(ref)))
  # the statistics are of ranks: exact sums of the scores in tenths order the
  # systems as the means do, with their exact ties (ref %*% w rounded ties
  # apart, issue 40)
  counts <- round(topic_bootstrap_weights(4, 12, 1, 30) * 12)
  whole_r <- round(ref * 10)
  whole_c <- round(cand * 10)
  expect_same_values(attr(la, "draws"), values_by_column(whole_r %*% counts, whole_c %*% counts, name_rank, 5L))
  est <- values_by_column(as.matrix(rowSums(whole_r)), as.matrix(rowSums(whole_c)), name_rank, 5L)
  expect_equal(la$estimate, unname(est[1, ]), tolerance = 1e-12)
  # the R path (tau_ap_ties = "b") gives the same values for the other statistics
  lb <- leaderboard_agreement(ref, cand, top_k = 50, B = 30, seed = 4, interval = "bca", tau_ap_ties = "b")
  same <- c("kendall_tau", "rbo", "spearman", "top1", "topk_overlap")
  expect_equal(attr(lb, "draws")[, same], attr(la, "draws")[, same], tolerance = 1e-12)
  expect_equal(lb[lb$statistic %in% same, c("estimate", "conf.low", "conf.high", "boot_mean")],
               la[la$statistic %in% same, c("estimate", "conf.low", "conf.high", "boot_mean")],
               tolerance = 1e-12)
})

test_that("cpp_leaderboard_values() refuses malformed direct calls with a classed error", {
  m <- matrix(c(0.1, 0.2, 0.3), 3, 1)
  expect_error(cpp_leaderboard_values(m, matrix(0, 2, 1), 1:3, 1L, 0.9), class = "irtopics_error_argument")
  expect_error(cpp_leaderboard_values(m, m, c(1L, 1L, 2L), 1L, 0.9), class = "irtopics_error_argument")
  expect_error(cpp_leaderboard_values(m, m, 1:3, 4L, 0.9), class = "irtopics_error_argument")
  expect_error(cpp_leaderboard_values(m, m, 1:3, 1L, 1), class = "irtopics_error_argument")
  expect_error(cpp_leaderboard_values(m, m * NA, 1:3, 1L, 0.9), class = "irtopics_error_argument")
})
