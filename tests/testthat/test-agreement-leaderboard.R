# Leaderboard agreement (issue 27): every statistic against an independent
# reference (the spec's worked example, cor(), ircor, rbo() on orderings
# made by hand), the bootstrap draws against a base-R recomputation from the
# same topic samples, the intervals against boot::boot.ci.

# A score matrix whose system means are `means` (two topics around them).
matrix_with_means <- function(means, spread = 0.01) {
  m <- cbind(means - spread, means + spread)
  dimnames(m) <- list(paste0("s", seq_along(means)), c("t1", "t2"))
  m
}

random_pair <- function(n_sys = 12, n_top = 25, noise = 0.05, seed = 1) {
  set.seed(seed)
  ref <- outer(rnorm(n_sys, 0.3, 0.05), rnorm(n_top, 0, 0.1), "+") +
    matrix(rnorm(n_sys * n_top, 0, 0.1), n_sys)
  cand <- ref + matrix(rnorm(n_sys * n_top, 0, noise), n_sys)
  dimnames(ref) <- dimnames(cand) <- list(paste0("sys", seq_len(n_sys)), paste0("q", seq_len(n_top)))
  list(ref = ref, cand = cand)
}

test_that("the spec's worked leaderboards: tau-b, tau_AP, Spearman, RBO, top-1 and top-k", {
  x <- c(.31, .29, .27, .25, .22, .20, .18, .15)
  y <- c(.30, .31, .24, .26, .21, .22, .12, .16)
  la <- leaderboard_agreement(matrix_with_means(x), matrix_with_means(y), top_k = 3, B = 0)
  est <- setNames(la$estimate, la$statistic)
  expect_equal(est[["kendall_tau"]], 0.7142857, tolerance = 1e-7)
  expect_equal(est[["kendall_tau"]], cor(x, y, method = "kendall"), tolerance = 1e-14)
  expect_equal(est[["tau_ap"]], 0.5210884, tolerance = 1e-7)
  expect_equal(est[["spearman"]], cor(x, y, method = "spearman"), tolerance = 1e-14)
  # orderings by hand: x is s1..s8; y is s2 s1 s4 s3 s6 s5 s8 s7
  expect_equal(est[["rbo"]], rbo(paste0("s", 1:8), paste0("s", c(2, 1, 4, 3, 6, 5, 8, 7))),
               tolerance = 1e-14)
  expect_identical(est[["top1"]], 0)          # s1 against s2
  expect_equal(est[["topk_overlap"]], 2 / 3)  # {s1, s2, s3} against {s2, s1, s4}
  expect_identical(la$parameter, c(NA, NA, 0.9, NA, NA, 3))
  expect_true(all(is.na(la$conf.low)) && all(is.na(la$conf.high)))
  expect_identical(unname(attr(la, "means")[, "reference"]), x)
  skip_if_not_installed("ircor")
  expect_equal(est[["tau_ap"]], ircor::tauAP(x, y), tolerance = 1e-14)
})

test_that("tau_AP with ties: the a and b variants of Urbano & Marrero against ircor", {
  skip_if_not_installed("ircor")
  set.seed(4)
  for (i in 1:10) {
    x <- sample(12) / 20                        # reference without ties
    y <- sample(1:4, 12, replace = TRUE) / 10   # candidate with ties
    a <- leaderboard_agreement(matrix_with_means(x), matrix_with_means(y), B = 0)
    b <- leaderboard_agreement(matrix_with_means(x), matrix_with_means(y), B = 0, tau_ap_ties = "b")
    expect_equal(a$estimate[2], ircor::tauAP_a(x, y), tolerance = 1e-12)
    expect_equal(b$estimate[2], ircor::tauAP_b(x, y), tolerance = 1e-12)
    expect_equal(tau_ap_b(y, x), tau_ap_b(x, y), tolerance = 1e-15)
    # ties in both
    x2 <- sample(1:5, 12, replace = TRUE) / 10
    expect_equal(tau_ap_b(x2, y), ircor::tauAP_b(x2, y), tolerance = 1e-12)
  }
  # without ties, the a variant is tauAP
  x <- sample(10); y <- sample(10)
  expect_equal(leaderboard_agreement(matrix_with_means(x), matrix_with_means(y), B = 0)$estimate[2],
               ircor::tauAP(x, y), tolerance = 1e-12)
})

test_that("orderings break ties in the means by system name (byte order)", {
  ref <- matrix_with_means(c(0.5, 0.5, 0.2))   # s1 and s2 tie for the top
  cand <- matrix_with_means(c(0.3, 0.5, 0.2))
  est <- leaderboard_agreement(ref, cand, top_k = 1, B = 0)$estimate
  expect_identical(est[5], 0)        # s1 (by name) against s2
  rownames(ref)[1] <- rownames(cand)[1] <- "z"
  expect_identical(leaderboard_agreement(ref, cand, top_k = 1, B = 0)$estimate[5], 1)
})

test_that("the bootstrap draws are the statistics on the resampled topics (base R)", {
  p <- random_pair()
  la <- leaderboard_agreement(p$ref, p$cand, top_k = 4, B = 40, seed = 9)
  draws <- attr(la, "draws")
  expect_identical(dim(draws), c(40L, 6L))
  expect_identical(colnames(draws), la$statistic)
  idx <- resample_draws("indices", 9, n = ncol(p$ref), first = 1, count = 40)
  for (b in c(1, 17, 40)) {
    mr <- rowMeans(p$ref[, idx[, b]])
    mc <- rowMeans(p$cand[, idx[, b]])
    expect_equal(unname(draws[b, "kendall_tau"]), cor(mr, mc, method = "kendall"), tolerance = 1e-12)
    expect_equal(unname(draws[b, "spearman"]), cor(mr, mc, method = "spearman"), tolerance = 1e-12)
    ord_r <- names(sort(mr, decreasing = TRUE)); ord_c <- names(sort(mc, decreasing = TRUE))
    expect_equal(unname(draws[b, "rbo"]), rbo(ord_r, ord_c), tolerance = 1e-12)
    expect_identical(unname(draws[b, "top1"]), as.double(ord_r[1] == ord_c[1]))
    expect_identical(unname(draws[b, "topk_overlap"]), length(intersect(ord_r[1:4], ord_c[1:4])) / 4)
  }
  expect_equal(la$boot_mean, unname(colMeans(draws)))
  expect_identical(attr(la, "seed"), 9)
  expect_identical(attr(la, "B"), 40L)
})

test_that("exact ties of a discrete measure stay ties in the estimate, every sample and the jackknife", {
  # P@10 as relevant documents in the top ten: whole numbers, so their sums
  # tie exactly where the means in tenths tie; the weighted sums
  # scores %*% (counts / n) rounded such ties apart (issue 40)
  set.seed(12)
  whole_r <- matrix(sample(0:10, 8 * 30, TRUE), 8, dimnames = list(paste0("s", 1:8), paste0("q", 1:30)))
  whole_c <- pmax(whole_r - matrix(rbinom(240, 2, 0.3), 8), 0)
  ref <- whole_r / 10
  cand <- whole_c / 10
  B <- 300
  la <- leaderboard_agreement(ref, cand, top_k = 3, B = B, seed = 4, interval = "bca")
  draws <- attr(la, "draws")
  counts <- apply(resample_draws("indices", 4, n = 30, first = 1, count = B), 2, tabulate, 30)
  sr <- whole_r %*% counts
  sc <- whole_c %*% counts
  expect_true(sum(apply(sr, 2, anyDuplicated) > 0) > B / 4)   # many samples with ties
  exact <- vapply(seq_len(B), function(b) cor(sr[, b], sc[, b], method = "kendall"), 0)
  expect_equal(unname(draws[, "kendall_tau"]), exact, tolerance = 1e-12)
  expect_equal(unname(draws[, "spearman"]),
               vapply(seq_len(B), function(b) cor(sr[, b], sc[, b], method = "spearman"), 0), tolerance = 1e-12)
  # orderings break the exact ties by name
  top3 <- function(v) rownames(whole_r)[order(-v, rownames(whole_r))[1:3]]
  expect_identical(unname(draws[, "topk_overlap"]),
                   vapply(seq_len(B), function(b) length(intersect(top3(sr[, b]), top3(sc[, b]))) / 3, 0))
  expect_equal(la$estimate[1], cor(rowSums(whole_r), rowSums(whole_c), method = "kendall"), tolerance = 1e-14)
  # the BCa interval from the exact draws and the exact leave-one-out sums
  jack <- vapply(1:30, function(j) cor(rowSums(whole_r[, -j]), rowSums(whole_c[, -j]), method = "kendall"), 0)
  want <- bootstrap_interval(la$estimate[1], exact, jack, 0.95, "bca")
  expect_equal(c(la$conf.low[1], la$conf.high[1]), pmin(pmax(want, -1), 1), tolerance = 1e-12)
})

test_that("intervals equal boot::boot.ci's percentile, basic and BCa intervals on the same draws", {
  skip_if_not_installed("boot")
  set.seed(1)
  ref <- outer(rnorm(10, 0.3, 0.1), rnorm(20, 0, 0.1), "+") + matrix(rnorm(200, 0, 0.1), 10)
  cand <- ref + matrix(rnorm(200, 0, 0.2), 10)
  # a continuous statistic (Pearson r of the means): no draw ties with the
  # estimate, where our BCa counts one half and boot.ci none; a setting
  # whose BCa levels stay inside the draws (no "extreme order statistics")
  tau_of <- function(cols) cor(rowMeans(ref[, cols, drop = FALSE]), rowMeans(cand[, cols, drop = FALSE]))
  set.seed(2)
  bt <- boot::boot(seq_len(20), function(d, i) tau_of(d[i]), R = 999)
  jack <- vapply(1:20, function(j) tau_of(setdiff(1:20, j)), 0)
  L <- 19 * (mean(jack) - jack)  # jackknife influence values
  ci <- expect_no_warning(boot::boot.ci(bt, conf = 0.9, type = c("perc", "basic", "bca"), L = L))
  expect_equal(bootstrap_interval(bt$t0, bt$t[, 1], jack, 0.9, "percentile"), ci$percent[4:5], tolerance = 1e-12)
  expect_equal(bootstrap_interval(bt$t0, bt$t[, 1], jack, 0.9, "basic"), ci$basic[4:5], tolerance = 1e-12)
  expect_equal(bootstrap_interval(bt$t0, bt$t[, 1], jack, 0.9, "bca"), ci$bca[4:5], tolerance = 1e-12)
  # (n + 1) alpha whole: the order statistic itself
  expect_identical(as.vector(normal_scale_quantiles(as.double(1:99), c(0.05, 0.95))), c(5, 95))
})

test_that("the intervals of leaderboard_agreement() are those of its draws", {
  p <- random_pair(noise = 0.1)
  for (type in c("percentile", "basic", "bca")) {
    la <- leaderboard_agreement(p$ref, p$cand, B = 300, seed = 5, interval = type, conf = 0.9)
    draws <- attr(la, "draws")
    expect_identical(attr(la, "interval"), type)
    n <- ncol(p$ref)
    jr <- (rowSums(p$ref) - p$ref) / (n - 1); jc <- (rowSums(p$cand) - p$cand) / (n - 1)
    jack <- vapply(1:n, function(j) cor(jr[, j], jc[, j], method = "kendall"), 0)
    want <- bootstrap_interval(la$estimate[1], draws[, 1], jack, 0.9, type)
    expect_equal(c(la$conf.low[1], la$conf.high[1]), pmin(pmax(want, -1), 1), tolerance = 1e-12)
    expect_true(is.na(la$conf.low[5]) && is.na(la$conf.high[5]))  # top1
    expect_true(all(la$conf.low[-5] <= la$conf.high[-5]))
    expect_true(all(la$conf.low[c(3, 6)] >= 0 & la$conf.high[c(3, 6)] <= 1))
  }
  # BCa: z0 counts draws equal to the estimate as one half
  expect_equal(bootstrap_interval(0.5, c(0.4, 0.5, 0.5, 0.6), rep(1, 3), 0.5, "bca"),
               bootstrap_interval(0.5, c(0.4, 0.5, 0.5, 0.6), rep(1, 3), 0.5, "percentile"))
  expect_identical(bootstrap_interval(NA_real_, 1:3, 1:3, 0.9, "percentile"), c(NA_real_, NA_real_))
})

test_that("seeded: the same draws for any chunking, a future plan, and set.seed() with seed = NULL", {
  p <- random_pair()
  big <- leaderboard_agreement(p$ref, p$cand, B = 600, seed = 3)   # three chunks of replicates
  small <- leaderboard_agreement(p$ref, p$cand, B = 200, seed = 3) # one chunk
  expect_identical(attr(big, "draws")[1:200, ], attr(small, "draws"))
  expect_identical(leaderboard_agreement(p$ref, p$cand, B = 600, seed = 3), big)
  set.seed(8); a <- leaderboard_agreement(p$ref, p$cand, B = 50)
  set.seed(8); b <- leaderboard_agreement(p$ref, p$cand, B = 50)
  expect_identical(a, b)
  expect_identical(leaderboard_agreement(p$ref, p$cand, B = 50, seed = attr(a, "seed")), a)
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if_not(future::supportsMulticore(), "no multicore futures here")
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  expect_identical(leaderboard_agreement(p$ref, p$cand, B = 600, seed = 3), big)
})

test_that("ir_scores inputs are aligned by name; mismatches and bad arguments are classed errors", {
  p <- random_pair()
  la <- leaderboard_agreement(p$ref, p$cand, B = 20, seed = 1)
  shuffled <- p$cand[rev(rownames(p$cand)), sample(colnames(p$cand))]
  expect_identical(leaderboard_agreement(as_ir_scores(p$ref), as_ir_scores(shuffled), B = 20, seed = 1), la)
  expect_error(leaderboard_agreement(p$ref, p$cand[-1, ]), class = "irtopics_error_data",
               regexp = "same systems")
  bad <- p$cand; colnames(bad)[3] <- "other"
  expect_error(leaderboard_agreement(p$ref, bad), class = "irtopics_error_data", regexp = "other")
  bad <- p$cand; bad[2, 2] <- NA
  expect_error(leaderboard_agreement(p$ref, bad), class = "irtopics_error_data", regexp = "NA")
  expect_error(leaderboard_agreement(p$ref, p$cand, conf = 1), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, B = -1), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, top_k = 0), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, rbo_p = 1), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, interval = "bc"), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, tau_ap_ties = "c"), class = "irtopics_error_argument")
  expect_error(leaderboard_agreement(p$ref, p$cand, B = 1e10), class = "irtopics_error_argument")
  # top_k beyond the systems is capped
  expect_identical(leaderboard_agreement(p$ref, p$cand, top_k = 100, B = 0)$parameter[6], 12)
})

test_that("leaderboards put the best first by the measure's direction and aggregate (issue 40)", {
  err <- error_matrix()
  set.seed(3)
  cand <- lower_is_better(pmin(unclass(err) + matrix(stats::runif(length(err), 0, 0.3), nrow(err)), 1))
  low <- leaderboard_agreement(err, cand, top_k = 2, B = 50, seed = 1)
  neg <- leaderboard_agreement(negated(err), negated(cand), top_k = 2, B = 50, seed = 1)
  expect_identical(low$estimate, neg$estimate)
  expect_identical(attr(low, "draws"), attr(neg, "draws"))
  expect_equal(attr(low, "means"), -attr(neg, "means"))
  # higher is better would read the worst systems as the top of the leaderboard
  wrong <- leaderboard_agreement(plain(err), plain(cand), top_k = 2, B = 0)
  expect_false(identical(low$estimate, wrong$estimate))
  # gm_map: the leaderboard of the geometric means
  ap <- robust()[1:12, ]
  gm <- as_ir_scores(ap, measure = "gm_map")
  lg <- leaderboard_agreement(gm, gm[, rev(colnames(gm))], B = 0)
  expect_equal(attr(lg, "means")[, "reference"], mean_scores(gm))
})
