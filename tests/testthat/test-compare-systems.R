# Sakai Table 5.1 (spec section 8) ----------------------------------------------------

test_that("paired t-test on Sakai's Table 5.1 gives the spec's values", {
  cmp <- compare_systems(sakai_table51(), test = "t")
  ab <- row_of(cmp, "a", "b")
  expect_equal(ab$estimate, 0.0750, tolerance = 1e-6)
  expect_equal(ab$statistic, 2.1158, tolerance = 1e-4)
  expect_equal(ab$p.value, 0.04780, tolerance = 1e-4)
  expect_equal(ab$effect_size, 0.4731, tolerance = 1e-4)
  expect_equal(c(ab$conf.low, ab$conf.high), c(0.000806, 0.149194), tolerance = 1e-5)
  expect_equal(cmp$table$p.value, c(0.04780, 0.12317, 0.52177), tolerance = 1e-4)
  expect_equal(cmp$table$p.adjusted, c(0.14339, 0.24633, 0.52177), tolerance = 1e-4)
  bh <- compare_systems(sakai_table51(), test = "t", correction = "BH")
  expect_equal(bh$table$p.adjusted, c(0.14339, 0.18475, 0.52177), tolerance = 1e-4)
  expect_equal(ab$n_topics, 20L)
})

test_that("Wilcoxon and sign tests on Table 5.1 give the spec's values", {
  w <- row_of(compare_systems(sakai_table51(), test = "wilcoxon"), "a", "b")
  expect_equal(w$statistic, 96)
  expect_equal(w$p.value, 0.04322, tolerance = 1e-4)
  s <- row_of(compare_systems(sakai_table51(), test = "sign"), "a", "b")
  expect_equal(c(s$wins, s$losses, s$ties), c(10L, 5L, 5L))
  expect_equal(s$p.value, 0.30176, tolerance = 1e-5)
})

test_that("the exact randomisation test counts ties: 69120 / 2^20", {
  cmp <- compare_systems(sakai_table51(), test = "randomization", exact = TRUE)
  expect_equal(row_of(cmp, "a", "b")$p.value, 69120 / 2^20, tolerance = 1e-12)
  expect_equal(row_of(cmp, "a", "b")$p.value, 0.065918, tolerance = 1e-6)
  # Independent enumeration in base R of the 2^15 sign vectors of the 15
  # non-zero differences (the 5 zero differences only multiply both counts).
  m <- unclass(sakai_table51())
  d <- m["a", ] - m["b", ]
  nz <- d[d != 0]
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), length(nz))))
  tstar <- abs(signs %*% nz)
  expect_equal(mean(tstar >= abs(sum(d)) - 1e-9), 0.065918, tolerance = 1e-6)
  # On exact integer sums (the scores are multiples of .1), ">=" gives the
  # spec's value and a strict ">" its wrong one.
  tint <- abs(signs %*% round(10 * nz))
  expect_equal(mean(tint >= abs(sum(round(10 * d)))), 0.065918, tolerance = 1e-6)
  expect_equal(mean(tint > abs(sum(round(10 * d)))), 0.032959, tolerance = 1e-6)
  # every pair agrees with the same enumeration
  for (k in seq_len(nrow(cmp$table))) {
    r <- cmp$table[k, ]
    d <- m[r$system1, ] - m[r$system2, ]
    nz <- d[d != 0]
    signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), length(nz))))
    expect_equal(r$p.value, mean(abs(signs %*% nz) >= abs(sum(d)) - 1e-9), tolerance = 1e-12)
  }
})

test_that("the bootstrap ASL of a vs b is about .050 at B = 10,000", {
  cmp <- compare_systems(sakai_table51(), test = "bootstrap", B = 10000, seed = 2024)
  expect_lt(abs(row_of(cmp, "a", "b")$p.value - 0.050), 0.01)
  cmp2 <- compare_systems(sakai_table51(), test = "bootstrap", B = 10000, seed = 7)
  expect_lt(abs(row_of(cmp2, "a", "b")$p.value - 0.050), 0.01)
})

test_that("Tukey HSD on Table 5.1 gives the spec's p-values and ES_E", {
  cmp <- compare_systems(sakai_table51(), test = "tukey")
  expect_equal(cmp$table$p.value, c(0.25670, 0.09569, 0.85496), tolerance = 1e-4)
  expect_equal(cmp$table$effect_size, c(0.5070, 0.6760, 0.1690), tolerance = 1e-3)
  expect_identical(cmp$table$p.adjusted, cmp$table$p.value)
  # the same as stats::TukeyHSD on the two-way aov
  m <- unclass(sakai_table51())
  long <- data.frame(score = as.vector(m), system = factor(rep(rownames(m), ncol(m))),
                     topic = factor(rep(colnames(m), each = nrow(m))))
  th <- stats::TukeyHSD(stats::aov(score ~ system + topic, data = long), "system")$system
  # TukeyHSD reports b-a, c-a, c-b (second minus first)
  expect_equal(cmp$table$p.value, unname(th[, "p adj"]), tolerance = 1e-8)
  expect_equal(cmp$table$conf.low, -unname(th[, "upr"]), tolerance = 1e-10)
  expect_equal(cmp$table$conf.high, -unname(th[, "lwr"]), tolerance = 1e-10)
})

test_that("randomised Tukey HSD on Table 5.1 is about .300, .106, .895 (ties counted)", {
  cmp <- compare_systems(sakai_table51(), test = "rthsd", B = 10000, seed = 42)
  expect_true(all(abs(cmp$table$p.value - c(0.300, 0.106, 0.895)) <= 0.01))
  expect_equal(cmp$table$effect_size, c(0.5070, 0.6760, 0.1690), tolerance = 1e-3)
  # A strict comparison would give about .253, .084, .853: far from ours.
  expect_true(all(cmp$table$p.value - c(0.253, 0.084, 0.853) > 0.02))
})

# Classical tests against stats:: on real matrices --------------------------------------

test_that("t, wilcoxon and sign equal t.test, wilcox.test and binom.test + p.adjust on 20 Robust 2004 runs", {
  for (file in c("robust2004_ap.csv", "robust2004_p10.csv")) {
    x <- unclass(robust20(file))
    cb <- utils::combn(nrow(x), 2)
    ref <- lapply(seq_len(ncol(cb)), function(k) {
      a <- x[cb[1, k], ]
      b <- x[cb[2, k], ]
      tt <- stats::t.test(a, b, paired = TRUE)
      wt <- suppressWarnings(stats::wilcox.test(a, b, paired = TRUE))
      d <- a - b
      bt <- stats::binom.test(sum(d > 0), sum(d != 0), 0.5)
      c(tt$statistic, tt$p.value, tt$conf.int, wt$statistic, wt$p.value, bt$p.value)
    })
    ref <- do.call(rbind, ref)
    ct <- compare_systems(x, test = "t")
    expect_equal(ct$table$statistic, ref[, 1], tolerance = 1e-12)
    expect_equal(ct$table$p.value, ref[, 2], tolerance = 1e-12)
    expect_equal(ct$table$conf.low, ref[, 3], tolerance = 1e-12)
    expect_equal(ct$table$conf.high, ref[, 4], tolerance = 1e-12)
    expect_equal(ct$table$p.adjusted, stats::p.adjust(ref[, 2], "holm"), tolerance = 1e-12)
    cw <- compare_systems(x, test = "wilcoxon", correction = "BH")
    expect_equal(cw$table$statistic, ref[, 5], tolerance = 1e-12)
    expect_equal(cw$table$p.value, ref[, 6], tolerance = 1e-12)
    expect_equal(cw$table$p.adjusted, stats::p.adjust(ref[, 6], "BH"), tolerance = 1e-12)
    cs <- compare_systems(x, test = "sign", correction = "bonferroni")
    expect_equal(cs$table$p.value, ref[, 7], tolerance = 1e-12)
    expect_equal(cs$table$p.adjusted, stats::p.adjust(ref[, 7], "bonferroni"), tolerance = 1e-12)
  }
})

test_that("every p.adjust method is applied over the family of pairs", {
  x <- robust20()
  base <- compare_systems(x, test = "t", correction = "none")
  for (method in stats::p.adjust.methods) {
    cmp <- compare_systems(x, test = "t", correction = method)
    expect_equal(cmp$table$p.adjusted, stats::p.adjust(base$table$p.value, method), tolerance = 1e-15)
    expect_identical(cmp$table$significant, cmp$table$p.adjusted < 0.05)
  }
})

test_that("exact Wilcoxon equals wilcox.test(exact = TRUE) when there are no ties", {
  set.seed(3)
  x <- matrix(round(runif(3 * 12), 6), 3, dimnames = list(c("a", "b", "c"), paste0("t", 1:12)))
  cmp <- compare_systems(x, test = "wilcoxon", exact = TRUE, correction = "none")
  ref <- apply(utils::combn(3, 2), 2, function(k)
    stats::wilcox.test(x[k[1], ], x[k[2], ], paired = TRUE, exact = TRUE)$p.value)
  expect_equal(cmp$table$p.value, ref, tolerance = 1e-12)
})

test_that("the sign test treats |d| <= tie_tol as ties", {
  x <- rbind(a = c(.51, .3, .2, .6, .4), b = c(.5, .1, .25, .2, .4))
  colnames(x) <- paste0("t", 1:5)
  cmp <- compare_systems(x, test = "sign", tie_tol = 0.02)
  expect_equal(c(cmp$table$wins, cmp$table$ties, cmp$table$losses), c(2L, 2L, 1L))
  expect_equal(cmp$table$p.value, stats::binom.test(2, 3)$p.value, tolerance = 1e-12)
})

# Resampling tests against base R on the exposed draws ------------------------------------

test_that("Monte Carlo randomisation p-values equal base R on the same sign vectors", {
  x <- unclass(robust20())
  B <- 500
  cmp <- compare_systems(x, test = "randomization", B = B, seed = 99, correction = "none")
  S <- resample_draws("signs", resolve_seed(99), n = ncol(x), count = B)
  expect_equal(dim(S), c(ncol(x), B))
  expect_true(all(S %in% c(-1L, 1L)))
  ref <- apply(utils::combn(nrow(x), 2), 2, function(k) {
    d <- x[k[1], ] - x[k[2], ]
    scale <- max(abs(x[k, ]))
    mc_pvalue(abs(colSums(d * S)) >= abs(sum(d)) - 1e-9 * scale)
  })
  expect_equal(cmp$table$p.value, ref, tolerance = 1e-12)
  expect_equal(cmp$table$statistic, unname(apply(utils::combn(nrow(x), 2), 2, function(k)
    sum(x[k[1], ] - x[k[2], ]))), tolerance = 1e-12)
})

test_that("bootstrap ASLs equal base R on the same bootstrap indices", {
  x <- unclass(robust20("robust2004_p10.csv", "P@10"))
  B <- 400
  n <- ncol(x)
  cmp <- compare_systems(x, test = "bootstrap", B = B, seed = 5, correction = "none")
  idx <- resample_draws("indices", resolve_seed(5), n = n, count = B)
  expect_true(all(idx >= 1 & idx <= n))
  ref <- apply(utils::combn(nrow(x), 2), 2, function(k) {
    d <- x[k[1], ] - x[k[2], ]
    if (sd(d) == 0) return(NA_real_)
    t0 <- mean(d) / (sd(d) / sqrt(n))
    w <- d - mean(d)
    W <- matrix(w[idx], n)
    mu <- colMeans(W)
    s <- sqrt(colSums((W - rep(mu, each = n))^2) / (n - 1))
    tstar <- ifelse(s <= 1e-9 * max(abs(x[k, ])), 0, mu / (s / sqrt(n)))
    mc_pvalue(abs(tstar) >= abs(t0) * (1 - 1e-9))
  })
  expect_equal(cmp$table$p.value, ref, tolerance = 1e-12)
})

test_that("randomised Tukey HSD p-values equal base R on the same permutations", {
  x <- unclass(robust20("robust2004_p10.csv", "P@10"))[1:8, 1:60]
  B <- 300
  cmp <- compare_systems(x, test = "rthsd", B = B, seed = 8)
  P <- resample_draws("permutations", resolve_seed(8), n = ncol(x), m = nrow(x), count = B)
  expect_equal(dim(P), c(nrow(x), ncol(x), B))
  expect_true(all(apply(P, c(2, 3), function(v) all(sort(v) == seq_len(nrow(x))))))
  ranges <- vapply(seq_len(B), function(b) {
    means <- rowMeans(vapply(seq_len(ncol(x)), function(j) x[P[, j, b], j], numeric(nrow(x))))
    max(means) - min(means)
  }, numeric(1))
  ref <- apply(utils::combn(nrow(x), 2), 2, function(k) {
    obs <- abs(mean(x[k[1], ]) - mean(x[k[2], ]))
    mc_pvalue(ranges >= obs - 1e-9 * max(abs(x)) / ncol(x))
  })
  expect_equal(cmp$table$p.value, ref, tolerance = 1e-12)
})

test_that("results do not depend on threads or on how the replicates are chunked", {
  x <- unclass(real_scores("robust2004_ap.csv"))[1:30, ]
  pr <- utils::combn(30, 2)
  key <- resolve_seed(3)
  for (kernel in c("signflip", "bootstrap")) {
    f <- if (kernel == "signflip") cpp_signflip_counts else cpp_bootstrap_counts
    one <- f(x, pr[1, ] - 1L, pr[2, ] - 1L, key, 0, 700, 1e-9, 1L)
    two <- f(x, pr[1, ] - 1L, pr[2, ] - 1L, key, 0, 700, 1e-9, 2L)
    split <- f(x, pr[1, ] - 1L, pr[2, ] - 1L, key, 0, 123, 1e-9, 2L) +
      f(x, pr[1, ] - 1L, pr[2, ] - 1L, key, 123, 577, 1e-9, 1L)
    expect_identical(one, two)
    expect_identical(one, split)
  }
  r1 <- cpp_rthsd_ranges(x, key, 0, 400, 1L)
  expect_identical(r1, cpp_rthsd_ranges(x, key, 0, 400, 2L))
  expect_identical(r1, c(cpp_rthsd_ranges(x, key, 0, 150, 2L), cpp_rthsd_ranges(x, key, 150, 250, 1L)))
  for (test in c("randomization", "bootstrap", "rthsd")) {
    a <- compare_systems(x[1:10, ], test = test, B = 1200, seed = 4, n_threads = 1)
    b <- compare_systems(x[1:10, ], test = test, B = 1200, seed = 4, n_threads = 2)
    expect_identical(a$table, b$table)
  }
})

test_that("a seed leaves R's RNG alone; seed = NULL follows set.seed()", {
  x <- sakai_table51()
  set.seed(1)
  before <- .Random.seed
  compare_systems(x, test = "bootstrap", B = 300, seed = 12)
  expect_identical(.Random.seed, before)
  set.seed(5)
  a <- compare_systems(x, test = "rthsd", B = 300)
  set.seed(5)
  b <- compare_systems(x, test = "rthsd", B = 300)
  expect_identical(a$table, b$table)
  c12 <- compare_systems(x, test = "rthsd", B = 300, seed = 12)
  expect_identical(c12$table, compare_systems(x, test = "rthsd", B = 300, seed = 12)$table)
})

test_that("a future plan gives the same results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  x <- unclass(real_scores("robust2004_ap.csv"))[1:12, ]
  # (no correction: Holm over 66 pairs would need B >= 1320 to decide anything)
  ref <- lapply(c("randomization", "bootstrap", "rthsd"), function(test)
    compare_systems(x, test = test, B = 1000, seed = 21, correction = "none")$table)
  run_plan <- function(...) {
    old <- future::plan(...)
    on.exit(future::plan(old), add = TRUE)
    expect_true(use_future())
    lapply(c("randomization", "bootstrap", "rthsd"), function(test)
      compare_systems(x, test = test, B = 1000, seed = 21, correction = "none")$table)
  }
  if (future::supportsMulticore()) {
    expect_identical(run_plan(future::multicore, workers = 2), ref)
  }
  # Multisession workers load the installed package (not this source tree):
  # run only when the installed copy is this code (same draws, same functions).
  here <- list(resample_draws("indices", 1, n = 100, count = 3), deparse(compare_systems),
               deparse(test_rows), deparse(rthsd_pvalues), deparse(pair_basics))
  old <- future::plan(future::multisession, workers = 2)
  there <- tryCatch(future::value(future::future({
    ns <- asNamespace("irtopics")
    list(ns$resample_draws("indices", 1, n = 100, count = 3), deparse(ns$compare_systems),
         deparse(ns$pair_rows), deparse(ns$rthsd_pvalues), deparse(ns$pair_basics))
  })), error = function(e) NULL)
  future::plan(old)
  skip_if_not(identical(here, there), "multisession workers load another version of irtopics")
  expect_identical(run_plan(future::multisession, workers = 2), ref)
})

test_that("an exact randomisation test is chosen when 2^n <= B, and refused beyond 30 topics", {
  set.seed(11)
  x <- matrix(round(runif(2 * 10), 2), 2, dimnames = list(c("a", "b"), paste0("t", 1:10)))
  cmp <- compare_systems(x, test = "randomization", B = 2000)
  expect_true(cmp$exact)
  d <- x[1, ] - x[2, ]
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), 10)))
  expect_equal(cmp$table$p.value, mean(abs(signs %*% d) >= abs(sum(d)) - 1e-9 * max(abs(x))),
               tolerance = 1e-12)
  expect_false(compare_systems(x, test = "randomization", B = 500, seed = 1)$exact)
  # 24 topics: exact enumeration agrees with a Monte Carlo estimate
  y <- matrix(round(runif(2 * 24), 3), 2, dimnames = list(c("a", "b"), paste0("t", 1:24)))
  ex <- compare_systems(y, test = "randomization", exact = TRUE)$table$p.value
  mc <- compare_systems(y, test = "randomization", exact = FALSE, B = 20000, seed = 2)$table$p.value
  expect_lt(abs(ex - mc), 0.015)
  big <- matrix(runif(2 * 40), 2, dimnames = list(c("a", "b"), paste0("t", 1:40)))
  expect_error(compare_systems(big, test = "randomization", exact = TRUE), "exact = FALSE",
               class = "irtopics_error_exact")
})

# Pairs, baseline, NA, user tests ---------------------------------------------------------

test_that("a baseline gives the m - 1 pairs system - baseline", {
  x <- robust20()
  cmp <- compare_systems(x, baseline = "sys5", test = "t", correction = "holm")
  expect_equal(nrow(cmp$table), 19L)
  expect_true(all(cmp$table$system2 == "sys5"))
  expect_setequal(cmp$table$system1, setdiff(rownames(x), "sys5"))
  r <- row_of(cmp, "sys1", "sys5")
  tt <- stats::t.test(unclass(x)["sys1", ], unclass(x)["sys5", ], paired = TRUE)
  expect_equal(r$estimate, unname(tt$estimate), tolerance = 1e-12)
  ref <- vapply(cmp$table$system1, function(s)
    stats::t.test(unclass(x)[s, ], unclass(x)["sys5", ], paired = TRUE)$p.value, numeric(1))
  expect_equal(cmp$table$p.adjusted, unname(stats::p.adjust(ref, "holm")), tolerance = 1e-12)
})

test_that("two-system tests pair topics and drop a topic missing on either side", {
  x <- unclass(robust20())[1:4, 1:40]
  x[1, c(3, 7)] <- NA
  x[2, 10] <- NA
  for (test in c("t", "wilcoxon", "sign")) {
    cmp <- compare_systems(x, test = test, correction = "none")
    r <- row_of(cmp, "sys1", "sys2")
    expect_equal(r$n_topics, 37L)
    keep <- !is.na(x[1, ]) & !is.na(x[2, ])
    a <- x[1, keep]
    b <- x[2, keep]
    ref <- switch(test,
      t = stats::t.test(a, b, paired = TRUE)$p.value,
      wilcoxon = suppressWarnings(stats::wilcox.test(a, b, paired = TRUE))$p.value,
      sign = stats::binom.test(sum(a > b), sum(a != b))$p.value)
    expect_equal(r$p.value, ref, tolerance = 1e-12)
    expect_equal(r$mean1, mean(a))
    expect_equal(row_of(cmp, "sys3", "sys4")$n_topics, 40L)
  }
  # Resampling: the pair with NA sees the complete pairs' sign vectors on
  # its own topics; the bootstrap resamples its 37 topics.
  cmp <- compare_systems(x, test = "randomization", B = 300, seed = 1, correction = "none")
  S <- resample_draws("signs", resolve_seed(1), n = 40, count = 300)
  d <- x[1, ] - x[2, ]
  d[is.na(d)] <- 0
  expect_equal(row_of(cmp, "sys1", "sys2")$p.value,
               mc_pvalue(abs(colSums(d * S)) >= abs(sum(d)) - 1e-9 * max(abs(x[1:2, ]), na.rm = TRUE)))
  bs <- compare_systems(x, test = "bootstrap", B = 300, seed = 1)
  expect_equal(row_of(bs, "sys1", "sys2")$n_topics, 37L)
  expect_false(anyNA(bs$table$p.value))
  # multi-system procedures need a complete matrix
  expect_error(compare_systems(x, test = "tukey"), class = "irtopics_error_data")
  expect_error(compare_systems(x, test = "rthsd"), "missing = \"zero\"", class = "irtopics_error_data")
})

test_that("a user test function is called on each pair's paired scores", {
  x <- robust20()[1:5, ]
  cmp <- compare_systems(x, test = function(x, y) stats::t.test(x, y, paired = TRUE),
                         correction = "BY")
  ref <- compare_systems(x, test = "t", correction = "BY")
  expect_equal(cmp$table$p.value, ref$table$p.value, tolerance = 1e-12)
  expect_equal(cmp$table$statistic, ref$table$statistic, tolerance = 1e-12)
  expect_equal(cmp$table$conf.low, ref$table$conf.low, tolerance = 1e-12)
  expect_equal(cmp$table$effect_size, ref$table$effect_size, tolerance = 1e-12)
  expect_equal(cmp$test_label, "user-supplied test")
  plain <- compare_systems(x, test = function(x, y) stats::wilcox.test(x, y, paired = TRUE, exact = FALSE)$p.value)
  expect_equal(plain$table$p.value, compare_systems(x, test = "wilcoxon")$table$p.value, tolerance = 1e-12)
  expect_true(all(is.na(plain$table$statistic)))
  expect_error(compare_systems(x, test = function(x, y) stop("boom")), "sys1", class = "irtopics_error_test")
  expect_error(compare_systems(x, test = function(x, y) "p"), class = "irtopics_error_test")
  expect_error(compare_systems(x, test = function(x, y) 2), class = "irtopics_error_test")
})

test_that("an ir_evaluation gives one comparison per measure with shared draws", {
  ap <- robust20()[1:6, ]
  p10 <- robust20("robust2004_p10.csv", "P@10")[1:6, ]
  ev <- structure(list(AP = ap, `P@10` = p10), class = c("ir_evaluation", "list"))
  cmp <- compare_systems(ev, test = "bootstrap", B = 500, seed = 3)
  expect_equal(unique(cmp$table$measure), c("AP", "P@10"))
  expect_equal(nrow(cmp$table), 30L)
  expect_equal(colnames(cmp$means), c("AP", "P@10"))
  expect_equal(cmp$table[cmp$table$measure == "P@10", "p.value"],
               compare_systems(p10, test = "bootstrap", B = 500, seed = 3)$table$p.value)
  # the correction is applied within each measure
  ct <- compare_systems(ev, test = "t")
  sub <- ct$table[ct$table$measure == "AP", ]
  expect_equal(sub$p.adjusted, stats::p.adjust(sub$p.value, "holm"))
})

# Bad input --------------------------------------------------------------------------

test_that("bad input gives classed errors that say what to do", {
  x <- robust20()[1:4, 1:10]
  expect_error(compare_systems(x[1, , drop = FALSE]), "at least 2 systems", class = "irtopics_error_argument")
  expect_error(compare_systems(x[, 1, drop = FALSE]), "at least 2 topics", class = "irtopics_error_argument")
  expect_error(compare_systems(x, baseline = "nope"), "not a system", class = "irtopics_error_argument")
  expect_error(compare_systems(x, test = "anova"), "Use one of", class = "irtopics_error_argument")
  expect_error(compare_systems(x, correction = "sidak"), class = "irtopics_error_argument")
  expect_error(compare_systems(x, test = "bootstrap", B = 0), class = "irtopics_error_argument")
  expect_error(compare_systems(x, alpha = 1), class = "irtopics_error_argument")
  expect_error(compare_systems(x, seed = 1.5), class = "irtopics_error_argument")
  expect_error(compare_systems(x, exact = NA), class = "irtopics_error_argument")
  expect_error(compare_systems(x, tie_tol = -1), class = "irtopics_error_argument")
  expect_error(compare_systems("x"), class = "irtopics_error_argument")
  y <- unclass(x)
  rownames(y)[2] <- rownames(y)[1]
  expect_error(compare_systems(y), class = "irtopics_error_argument")
})

test_that("zero-variance differences give p = NA with a classed warning, not an error", {
  x <- rbind(a = c(.5, .4, .3, .2), b = c(.4, .3, .2, .1), c = c(.1, .4, .2, .3))
  colnames(x) <- paste0("t", 1:4)
  expect_warning(cmp <- compare_systems(x, test = "t"), class = "irtopics_warning_undefined")
  ab <- row_of(cmp, "a", "b")
  expect_true(is.na(ab$p.value) && is.na(ab$statistic) && is.na(ab$conf.low))
  expect_false(ab$significant)
  expect_false(anyNA(row_of(cmp, "a", "c")$p.value))
  expect_warning(bs <- compare_systems(x, test = "bootstrap", B = 100, seed = 1),
                 class = "irtopics_warning_undefined")
  expect_true(is.na(row_of(bs, "a", "b")$p.value))
  # identical systems: no wins or losses
  z <- rbind(a = c(.5, .4, .3), b = c(.5, .4, .3))
  colnames(z) <- paste0("t", 1:3)
  expect_warning(compare_systems(z, test = "sign"), class = "irtopics_warning_undefined")
  expect_warning(compare_systems(z, test = "wilcoxon"), class = "irtopics_warning_undefined")
  expect_warning(compare_systems(z, test = "tukey"), class = "irtopics_warning_undefined")
  # the randomisation test is defined: p = 1 (over 3 topics no p below 2/2^3: a warning)
  expect_warning(rz <- compare_systems(z, test = "randomization"), class = "irtopics_warning_undecidable")
  expect_equal(rz$table$p.value, 1)
})

test_that("no system is silently dropped from the report", {
  x <- unclass(robust20())[1:4, 1:10]
  x[4, ] <- NA
  x[4, 1] <- 0.3
  cmp <- suppressWarnings(compare_systems(x, test = "t"))
  expect_equal(rownames(cmp$means), rownames(x))
  expect_true(any(grepl("sys4", format(cmp))))
  expect_equal(nrow(cmp$table), 6L)
})

# Report, tables, plots ---------------------------------------------------------------

test_that("the report marks the systems each system beats significantly", {
  x <- real_scores("robust2004_ap.csv")
  pick <- order(-rowMeans(x))[c(1, 2, 60, 110)]
  x <- x[pick, ]
  cmp <- compare_systems(x, test = "t")
  sig <- cmp$table[cmp$table$significant, ]
  marks <- beaten_labels(cmp)
  # the best system beats the two weak ones
  expect_true(all(c("c", "d") %in% strsplit(marks[1, 1], "")[[1]]))
  expect_equal(sum(nchar(marks)), nrow(sig))
  txt <- format(cmp)
  expect_match(txt[1], "paired t-test, Holm correction")
  expect_match(paste(txt, collapse = "\n"), paste0("\\^", marks[1, 1]))
  tex <- format(cmp, "latex")
  expect_true(any(grepl("\\begin{tabular}{llr@{}l}", tex, fixed = TRUE)))
  expect_true(any(grepl(paste0("\\textsuperscript{", marks[1, 1], "}"), tex, fixed = TRUE)))
  expect_true(any(grepl("\\textbf{", tex, fixed = TRUE)))
  md <- format(cmp, "markdown")
  expect_match(md[1], "^\\| \\| System \\| AP \\|$")
  expect_true(any(grepl(paste0("<sup>", marks[1, 1], "</sup>"), md, fixed = TRUE)))
  expect_output(print(cmp), "ir_comparison")
  expect_snapshot(print(compare_systems(sakai_table51(), test = "rthsd", B = 1000, seed = 1)))
  expect_snapshot(cat(format(compare_systems(x, test = "t"), "markdown"), sep = "\n"))
})

test_that("summary and as.data.frame give the tidy views", {
  cmp <- compare_systems(robust20()[1:6, ], test = "t", correction = "none")
  df <- as.data.frame(cmp)
  expect_named(df, c("measure", "system1", "system2", "mean1", "mean2", "estimate", "conf.low",
                     "conf.high", "effect_size", "statistic", "p.value", "p.adjusted",
                     "significant", "wins", "ties", "losses", "n_topics"))
  expect_equal(nrow(df), 15L)
  expect_equal(df$estimate, df$mean1 - df$mean2, tolerance = 1e-12)
  expect_equal(df$wins + df$ties + df$losses, df$n_topics)
  s <- summary(cmp)
  expect_equal(s$measures$significant, sum(df$p.value < 0.05))
  expect_equal(sum(s$systems$better_than), sum(df$significant))
  expect_equal(sum(s$systems$worse_than), sum(df$significant))
  expect_output(print(s), "Significant differences per system")
})

test_that("a long resampling run can be interrupted", {
  skip_if_no_interrupts()
  x <- unclass(real_scores("robust2004_ap.csv"))
  res <- with_interrupt_in(compare_systems(x, test = "rthsd", B = 1e5, seed = 1, n_threads = 2), polls = 2L)
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
})

test_that("the progress bar path gives the same results", {
  x <- unclass(robust20())[1:6, ]
  withr::local_options(irtopics.progress = TRUE)
  a <- compare_systems(x, test = "rthsd", B = 3000, seed = 9)
  withr::local_options(irtopics.progress = FALSE)
  expect_identical(a$table, compare_systems(x, test = "rthsd", B = 3000, seed = 9)$table)
  expect_gt(length(resample_chunks(3000)), 1L)
})

test_that("Monte Carlo p-values are (count + 1) / (B + 1): never below 1 / (B + 1), never 0", {
  set.seed(3)
  n <- 40
  base <- runif(n)
  x <- rbind(a = base + 1 + runif(n, 0, .01), b = base, c = base + runif(n, -.05, .05))
  colnames(x) <- paste0("t", seq_len(n))
  B <- 250
  for (test in c("randomization", "bootstrap", "rthsd")) {
    cmp <- compare_systems(x, test = test, B = B, seed = 1, exact = if (test == "randomization") FALSE,
                           correction = "none")
    expect_true(all(cmp$table$p.value >= 1 / (B + 1)), info = test)
    # a is far above b: no replicate reaches the observed statistic
    expect_equal(row_of(cmp, "a", "b")$p.value, 1 / (B + 1), info = test)
  }
  dp <- discriminative_power(x, B = B, seed = 1)
  expect_true(all(dp$pairs$p.value >= 1 / (B + 1)))
  expect_equal(dp$pairs$p.value[1], 1 / (B + 1))
  dr <- discriminative_power(x, method = "rthsd", B = B, seed = 1)
  expect_true(all(dr$pairs$p.value >= 1 / (B + 1)))
  # Exact enumeration is unchanged: all 2^10 sign vectors, count / 2^10.
  y <- x[, 1:10]
  ex <- compare_systems(y[1:2, ], test = "randomization", exact = TRUE)$table$p.value
  expect_equal(ex, 2 / 2^10)
})

test_that("Wilcoxon equals wilcox.test(x, y, paired = TRUE) on every pair of 30 TREC-8 AP runs, for every exact", {
  ap <- unclass(read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics")))
  x <- ap[1:30, ]
  cb <- utils::combn(nrow(x), 2)
  for (ex in list(NULL, TRUE, FALSE)) {
    ref <- apply(cb, 2, function(k) {
      w <- suppressWarnings(stats::wilcox.test(x[k[1], ], x[k[2], ], paired = TRUE, exact = ex))
      c(w$statistic, w$p.value)
    })
    cmp <- suppressWarnings(compare_systems(x, test = "wilcoxon", exact = ex, correction = "none"))
    expect_equal(cmp$table$statistic, ref[1, ], tolerance = 1e-12)
    expect_equal(cmp$table$p.value, ref[2, ], tolerance = 1e-12)
  }
  # The pairs that decide: zero differences (the exact distribution of the
  # non-zero ones is not what wilcox.test uses) and fewer than 50 non-zero
  # differences without ties or zeros (exact by default).
  d <- x[cb[1, ], ] - x[cb[2, ], ]
  nz <- rowSums(d != 0)
  expect_true(any(rowSums(d == 0) > 0 & nz < 50))
  # exact = TRUE with zeros or ties warns, as wilcox.test does; the default does not
  expect_warning(compare_systems(x, test = "wilcoxon", exact = TRUE), class = "irtopics_warning_exact")
  expect_no_warning(compare_systems(x[1:5, ], test = "wilcoxon"))
})

test_that("Wilcoxon with zero differences and exact = TRUE: the normal approximation, as wilcox.test", {
  a <- c(.50, .40, .30, .62, .71, .15, .33, .90, .27, .44, .58, .12)
  b <- c(.50, .38, .25, .55, .60, .19, .30, .70, .20, .31, .54, .13)
  x <- rbind(a = a, b = b)
  colnames(x) <- paste0("t", seq_along(a))
  ref <- suppressWarnings(stats::wilcox.test(a, b, paired = TRUE, exact = TRUE))$p.value
  # hand computation: 11 non-zero differences (no ties in floating point),
  # negative ones of ranks 1 and 5, V = 66 - 6 = 60, normal approximation
  # with continuity correction (sigma^2 = 11 * 12 * 23 / 24)
  z <- (60 - 11 * 12 / 4 - 0.5) / sqrt(11 * 12 * 23 / 24)
  expect_equal(ref, 2 * pnorm(-z), tolerance = 1e-12)
  expect_warning(cmp <- compare_systems(x, test = "wilcoxon", exact = TRUE), class = "irtopics_warning_exact")
  expect_equal(cmp$table$p.value, 2 * pnorm(-z), tolerance = 1e-12)
  expect_false(isTRUE(all.equal(cmp$table$p.value, 2 * psignrank(59, 11, lower.tail = FALSE))))
})

test_that("a difference equal to tie_tol is a tie wherever the subtraction rounds", {
  # .80 - .75 rounds above .05 and .15 - .10 below it: both are ties at .05
  x <- rbind(a = c(.80, .15, .50, .90), b = c(.75, .10, .20, .95))
  colnames(x) <- paste0("t", 1:4)
  expect_gt(.80 - .75, .05)
  expect_lt(.15 - .10, .05)
  cmp <- compare_systems(x, test = "sign", tie_tol = 0.05)
  expect_equal(c(cmp$table$wins, cmp$table$ties, cmp$table$losses), c(1, 3, 0))
  # with tie_tol = 0 only equal scores tie
  cmp0 <- compare_systems(x, test = "sign", tie_tol = 0)
  expect_equal(c(cmp0$table$wins, cmp0$table$ties, cmp0$table$losses), c(3, 0, 1))
})

test_that("an ir_scores where a number or a name is expected is named, not printed", {
  ap <- big_scores()
  for (expr in list(quote(compare_systems(ap, alpha = ap)), quote(compare_systems(ap, B = ap)),
                    quote(compare_systems(ap, correction = ap)), quote(robust_summary(ap, eps = ap)),
                    quote(topic_difficulty(ap, by = ap)), quote(g_study(ap, drop = ap)))) {
    err <- expect_error(eval(expr), class = "irtopics_error_argument")
    msg <- conditionMessage(err)
    expect_match(msg, "<ir_scores> (20 x 30)", fixed = TRUE)
    expect_false(grepl("0.0017", msg, fixed = TRUE))  # a value of the matrix
    expect_lt(nchar(msg), 400)
  }
})

test_that("res[measures] keeps the class, any spelling, and compare_systems() takes it", {
  res <- four_system_evaluation()
  sub <- res[c("P_2", "map")]
  expect_s3_class(sub, "ir_evaluation")
  expect_identical(names(sub), c("P@2", "AP"))
  expect_identical(attr(sub, "canonical"), c("P@2", "AP"))
  expect_identical(attr(sub, "missing"), attr(res, "missing"))
  expect_identical(sub$AP, res$AP)
  expect_identical(names(res[2:3]), c("P@2", "RR"))
  expect_identical(names(res[c(TRUE, FALSE, TRUE)]), c("AP", "RR"))
  expect_identical(names(res[-1]), c("P@2", "RR"))
  # 4 topics: no p below 2/2^4, which the warning says
  expect_warning(cmp <- compare_systems(sub, test = "randomization", correction = "none"),
                 class = "irtopics_warning_undecidable")
  expect_identical(colnames(cmp$means), c("P@2", "AP"))
  expect_equal(unname(cmp$means[, "AP"]), unname(rowMeans(unclass(res$AP))))
  expect_error(res["nDGC"], "not in this evaluation", class = "irtopics_error_measure")
})

test_that("a mistyped system name gets a did-you-mean in every systems argument", {
  ap <- as_ir_scores(rbind(bm25 = c(.5, .4, .3, .6), dirichlet = c(.4, .5, .2, .6),
                           splade = c(.7, .6, .5, .9)), measure = "AP")
  colnames(ap) <- paste0("t", 1:4)
  expect_error(compare_systems(ap, baseline = "bm52"), "Did you mean \"bm25\"",
               class = "irtopics_error_argument")
  expect_error(compare_systems(ap, baseline = "BM25"), "Did you mean \"bm25\"",
               class = "irtopics_error_argument")
  err <- expect_error(compare_systems(ap, baseline = "xyz"), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "The 3 systems are")
  expect_error(subset_systems(ap, c("splade", "dirichet")), "Did you mean \"dirichlet\"",
               class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ap, systems = "splad"), "Did you mean \"splade\"",
               class = "irtopics_error_argument")
  expect_error(topic_set_size(pilot = ap, systems = c("bm25", "splde"), min_diff = 0.1),
               "Did you mean \"splade\"", class = "irtopics_error_argument")
  expect_error(standardize_scores(ap, reference = "bm2"), "Did you mean \"bm25\"",
               class = "irtopics_error_argument")
  cmp <- compare_systems(ap, correction = "none")
  expect_error(ggplot2::autoplot(cmp, type = "topics", pair = c("bm25", "spalde")),
               "Did you mean \"splade\"", class = "irtopics_error_argument")
})

test_that("progress bars name the measure and the work", {
  bars <- record_progress_bars()
  withr::local_options(irtopics.progress = TRUE)
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  compare_systems(ap[1:5, ], test = "randomization", exact = FALSE, B = 2000, seed = 1)
  expect_identical(bars$labels, "AP: randomisation test replicates")
  bars$labels <- character()
  x <- unclass(ap)[1:5, ]
  discriminative_power(list(AP = x, P10 = x), method = "rthsd", B = 2000, seed = 1)
  expect_identical(bars$labels, c("AP: randomised Tukey HSD replicates", "P10: randomised Tukey HSD replicates"))
  bars$labels <- character()
  swap_error_rates(x, sizes = 10, trials = 40, seed = 1, label = "MAP")
  expect_identical(bars$labels, "MAP: swap trials, 10 topics")
  bars$labels <- character()
  alpha_bootstrap(ap, B = 3000, seed = 1)
  expect_identical(bars$labels, "AP: alpha bootstrap samples")
  # Outside any measure the bar names the work alone.
  expect_identical(progress_label("evaluate: runs"), "evaluate: runs")
})

test_that("a seed fixes what a custom test draws, and leaves the user's stream alone", {
  ap <- real_scores("adhoc8_ap.csv")[1:4, 1:20]
  draw_test <- function(x, y) mean(sample(c(0, 1), 20, replace = TRUE))
  set.seed(99)
  before <- runif(1)
  set.seed(99)
  a <- compare_systems(ap, test = draw_test, seed = 42)
  after <- runif(1)
  b <- compare_systems(ap, test = draw_test, seed = 42)
  expect_identical(a$table$p.value, b$table$p.value)
  expect_identical(after, before)  # the call did not consume the user's stream
  c <- compare_systems(ap, test = draw_test, seed = 7)
  expect_false(identical(a$table$p.value, c$table$p.value))
})
