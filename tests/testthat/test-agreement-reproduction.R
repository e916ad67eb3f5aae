# reproduction_measures(): Breuer et al. (SIGIR 2020) on small hand-made runs
# (every number computed by hand or by base R), the spec's RBO example, the
# trec_eval test collection, empty topics, reproducibility and the plots.

# A run data frame from a list topic -> documents in rank order.
ranked_run <- function(lists) {
  do.call(rbind, lapply(names(lists), function(tp) {
    d <- lists[[tp]]
    data.frame(topic = rep(tp, length(d)), docno = d, score = rev(seq_along(d)), stringsAsFactors = FALSE)
  }))
}

hand_qrels <- data.frame(topic = c("1", "1", "2", "3", "3"), docno = c("d1", "d2", "d3", "d5", "d6"),
                         rel = 1L, stringsAsFactors = FALSE)
hand_b <- ranked_run(list("1" = c("d9", "d1"), "2" = c("d3", "d8"), "3" = c("d7", "d8")))
hand_a <- ranked_run(list("1" = c("d1", "d2"), "2" = c("d3", "d4"), "3" = c("d5", "d7")))
# the reproduced baseline retrieves nothing for topic 3
hand_b2 <- ranked_run(list("1" = c("d1", "d9"), "2" = c("d8", "d9")))
hand_a2 <- ranked_run(list("1" = c("d1", "d2"), "2" = c("d4", "d3"), "3" = c("d5", "d6")))

hand_repro <- function(...) {
  suppressWarnings(reproduction_measures(hand_b, hand_a, list(baseline = hand_b2, advanced = hand_a2),
                                         hand_qrels, measures = "P@2", cutoffs = 2, ...),
                   classes = "irtopics_warning_undefined")
}

test_that("effectiveness and overall effect equal the hand computation (P@2, 3 topics)", {
  x <- hand_repro()
  expect_s3_class(x, "ir_reproduction")
  # P@2 per topic: b = .5 .5 0, a = 1 .5 .5, b' = .5 0 0 (topic 3 empty), a' = 1 .5 1
  e <- x$effect
  expect_equal(c(e$arp_baseline, e$arp_advanced, e$arp_baseline_rep, e$arp_advanced_rep),
               c(1 / 3, 2 / 3, 1 / 6, 5 / 6))
  expect_equal(e$effect_ratio, 2)           # (5/6 - 1/6) / (2/3 - 1/3)
  expect_equal(e$ri, 1)
  expect_equal(e$ri_rep, 4)
  expect_equal(e$delta_ri, -3)
  r <- x$runs
  expect_identical(r$run, c("baseline", "advanced"))
  expect_equal(r$rmse, rep(sqrt(0.25 / 3), 2))
  expect_equal(r$nrmse, rep(sqrt(0.25 / 3) / 0.5, 2))   # range of the original: .5 - 0, 1 - .5
  expect_equal(hand_repro(nrmse = "mean")$runs$nrmse, sqrt(0.25 / 3) / c(1 / 3, 2 / 3))
  tb <- stats::t.test(c(.5, .5, 0), c(.5, 0, 0), paired = TRUE)
  ta <- stats::t.test(c(1, .5, .5), c(1, .5, 1), paired = TRUE)
  expect_equal(r$statistic, unname(c(tb$statistic, ta$statistic)))
  expect_equal(r$df, unname(c(tb$parameter, ta$parameter)))
  expect_equal(r$p.value, c(tb$p.value, ta$p.value))
  expect_identical(r$test, c("paired t", "paired t"))
  expect_identical(x$n_topics, 3L)
})

test_that("KTU and RBO per topic equal the hand computation, empty topics included", {
  x <- hand_repro()
  tp <- x$topics
  b <- tp[tp$run == "baseline", ]
  a <- tp[tp$run == "advanced", ]
  # baseline, k = 2: topic 1 swapped (-1); topic 2 union d3 d8 d9, ranks (1,2,3) vs (3,1,2);
  # topic 3: the reproduction is empty -> KTU undefined, RBO 0
  expect_equal(b$ktu, c(-1, -1 / 3, NA))
  expect_equal(b$ktu[2], stats::cor(c(1, 2, 3), c(3, 1, 2), method = "kendall"))
  expect_equal(a$ktu, c(1, -1, 1 / 3))
  expect_equal(a$ktu[3], stats::cor(c(1, 2, 3), c(1, 3, 2), method = "kendall"))
  # RBO_ext at k = 2, p = .8: X = (0, 2) -> 1 * .64 + .25 * (0 + .64) = .8
  expect_equal(b$rbo, c(0.8, rbo(c("d3", "d8"), c("d8", "d9"), p = 0.8, depth = 2, form = "extrapolated"), 0))
  expect_equal(b$rbo[2], 0.5 * 0.64 + 0.25 * (0 + 0.5 * 0.64))   # X = (0, 1)
  expect_equal(a$rbo[1], 1)
  # both lists empty (topic 3 of the same empty baseline twice): KTU undefined, RBO 1 as rbo() defines it
  y <- suppressWarnings(reproduction_measures(hand_b2, hand_a, list(baseline = hand_b2, advanced = hand_a2),
                                              hand_qrels, measures = "P@2", cutoffs = 2),
                        classes = "irtopics_warning_undefined")
  yb <- y$topics[y$topics$run == "baseline", ]
  expect_identical(yb$ktu, c(1, 1, NA))
  expect_identical(yb$rbo, c(1, 1, rbo(character(), character())))
  expect_identical(yb$rbo[3], 1)
  l <- x$lists
  expect_equal(l$ktu, c(mean(c(-1, -1 / 3)), mean(c(1, -1, 1 / 3))))
  expect_identical(l$n_topics_ktu, c(2L, 3L))
  expect_identical(l$n_topics_rbo, c(3L, 3L))
  expect_equal(l$rbo, c(mean(b$rbo), mean(a$rbo)))
})

test_that("repro_eval's KTU: positions in the docno-sorted union, paired by rank", {
  x <- hand_repro(ktu = "repro_eval")
  b <- x$topics[x$topics$run == "baseline", ]
  # topic 1: union sorted d1 d9; S = d9 d1 -> (2, 1), T = d1 d9 -> (1, 2): -1
  # topic 2: union d3 d8 d9; S = d3 d8 -> (1, 2), T = d8 d9 -> (2, 3): 1 (not a swap: docno order)
  expect_equal(b$ktu, c(-1, 1, NA))
  expect_identical(ktu_repro_eval(c("a", "b"), c("c", "d")), 1)      # disjoint lists reach 1
  # lists of different lengths: paired over the shorter one (a b against b a in the union a b c)
  expect_identical(ktu_repro_eval(c("a", "b", "c"), c("b", "a")), -1)
  # ours: the absent documents tie below each list, C = 0, D = 4, one tie each side: -4 / 5
  expect_equal(ktu_union(c("a", "b"), c("c", "d")), -0.8)
  expect_equal(ktu_repro_eval(c("a", "b", "c"), c("b", "a", "d")),
               stats::cor(c(1, 2, 3), c(2, 1, 4), method = "kendall"))
})

test_that("KTU (union) equals cor(method = 'kendall') on the union's ranks, ties included", {
  set.seed(4)
  for (i in 1:20) {
    pool <- sprintf("doc%02d", 1:30)
    s <- sample(pool, sample(2:15, 1))
    t <- sample(pool, sample(2:15, 1))
    u <- union(s, t)
    rs <- ifelse(u %in% s, match(u, s), length(s) + 1)
    rt <- ifelse(u %in% t, match(u, t), length(t) + 1)
    expect_equal(ktu_union(s, t), stats::cor(rs, rt, method = "kendall"))
  }
  expect_identical(ktu_union(letters[1:5], letters[1:5]), 1)
  expect_identical(ktu_union(letters[1:5], letters[5:1]), -1)
  expect_identical(ktu_union(character(), letters[1:3]), NA_real_)
})

test_that("RBO of the ranked lists: the spec's worked example (p = 0.8, k = 8)", {
  s <- c("a", "b", "c", "d", "e", "f", "g", "h")
  t <- c("b", "a", "c", "e", "d", "h", "i", "j")
  q <- data.frame(topic = "7", docno = "a", rel = 1L)
  run <- function(d) data.frame(topic = "7", docno = d, score = rev(seq_along(d)))
  go <- function(form) {
    suppressWarnings(reproduction_measures(run(s), run(s), list(baseline = run(t), advanced = run(s)), q,
                                           cutoffs = 8, rbo_form = form),
                     classes = "irtopics_warning_undefined")
  }
  x <- go("extrapolated")
  expect_equal(x$topics$rbo, c(0.6960688762, 1), tolerance = 1e-9)
  expect_equal(go("normalised")$topics$rbo[1], 0.6851966839, tolerance = 1e-9)
  # KTU of the same lists: union a..j, the missing ones tied below
  u <- union(s, t)
  expect_equal(x$topics$ktu[1], stats::cor(ifelse(u %in% s, match(u, s), 9), ifelse(u %in% t, match(u, t), 9),
                                           method = "kendall"))
})

test_that("several reproductions at once equal one at a time; trec_eval's test runs", {
  runs <- as.data.frame(read_run(te_data("results.test")))
  base <- runs[runs$score < 4, ]
  set.seed(2)
  jit <- function(r, sd) transform(r, score = score + stats::rnorm(nrow(r), sd = sd))
  reps <- list(small = list(baseline = jit(base, 0.1), advanced = jit(runs, 0.1)),
               large = list(baseline = jit(base, 1), advanced = jit(runs, 1)))
  # P@10 of the small jitter equals the original's on every topic: its t test is undefined (warning)
  expect_warning(both <- reproduction_measures(base, runs, reps, te_data("qrels.test"),
                                               measures = c("AP", "P@10"), cutoffs = c(5, 10, 100)),
                 class = "irtopics_warning_undefined")
  one <- reproduction_measures(base, runs, reps["large"], te_data("qrels.test"), measures = c("AP", "P@10"),
                               cutoffs = c(5, 10, 100))
  expect_equal(both$effect[both$effect$reproduction == "large", ], one$effect, ignore_attr = TRUE)
  expect_equal(both$lists[both$lists$reproduction == "large", ], one$lists, ignore_attr = TRUE)
  # against evaluate() and base R
  ev <- evaluate(rbind(cbind(system = "b", base), cbind(system = "a", runs),
                       cbind(system = "b2", reps$small$baseline), cbind(system = "a2", reps$small$advanced)),
                 te_data("qrels.test"), measures = "AP", missing = "zero")$AP
  m <- rowMeans(ev)
  e <- both$effect[both$effect$reproduction == "small" & both$effect$measure == "AP", ]
  expect_equal(e$effect_ratio, unname(mean(ev["a2", ] - ev["b2", ]) / mean(ev["a", ] - ev["b", ])))
  expect_equal(e$delta_ri, unname((m["a"] - m["b"]) / m["b"] - (m["a2"] - m["b2"]) / m["b2"]))
  r <- both$runs[both$runs$reproduction == "small" & both$runs$measure == "AP", ]
  expect_equal(r$rmse, unname(c(sqrt(mean((ev["b", ] - ev["b2", ])^2)), sqrt(mean((ev["a", ] - ev["a2", ])^2)))))
  expect_equal(r$p.value[2], stats::t.test(ev["a", ], ev["a2", ], paired = TRUE)$p.value)
  # a file path and an ir_run give the same as the data frame
  f <- tempfile()
  write_run(cbind(system = "x", reps$small$advanced), f)
  pth <- suppressWarnings(classes = "irtopics_warning_undefined", reproduction_measures(base, read_run(te_data("results.test")),
                               list(small = list(baseline = reps$small$baseline, advanced = f)),
                               te_data("qrels.test"), measures = c("AP", "P@10"), cutoffs = c(5, 10, 100)))
  expect_equal(pth$effect, both$effect[both$effect$reproduction == "small", ], ignore_attr = TRUE)
  # the tidy table: one row per statistic
  d <- as.data.frame(both)
  expect_identical(class(d), "data.frame")
  expect_setequal(unique(d$statistic), c("KTU", "RBO", "ARP", "RMSE", "nRMSE", "ER", "delta_RI", "t"))
  expect_identical(nrow(d), 2L * (2L * 2L * 3L + 2L * 2L * 3L + 2L * 2L + 2L * 2L))
  expect_equal(d$p.value[d$statistic == "t"], both$runs$p.value)
  expect_identical(as.data.frame(both, what = "topics"), both$topics)
  expect_output(print(both), "ir_reproduction")
  expect_s3_class(summary(both), "irtopics_summary")
})

test_that("a reproduction that misses topics does not fail (results.trunc lacks topic 302)", {
  run <- read_run(te_data("results.test"))
  expect_warning(x <- reproduction_measures(run, run,
                                            list(trunc = list(baseline = te_data("results.trunc"), advanced = run)),
                                            te_data("qrels.test"), measures = "AP", cutoffs = c(10, 1000)),
                 class = "irtopics_warning_undefined")
  b <- x$topics[x$topics$run == "baseline", ]
  expect_identical(b$topic[is.na(b$ktu)], c("302", "302"))
  expect_identical(b$rbo[b$topic == "302"], c(0, 0))
  ap <- evaluate(te_data("results.trunc"), te_data("qrels.test"), measures = "AP", missing = "zero")$AP
  expect_equal(x$effect$arp_baseline_rep, mean(ap))
  # the advanced runs are identical: RMSE 0, KTU and RBO 1, the t test undefined (with a warning)
  a <- x$topics[x$topics$run == "advanced", ]
  expect_true(all(a$ktu == 1 & abs(a$rbo - 1) < 1e-12))
})

test_that("results do not depend on the number of threads", {
  one <- hand_repro(n_threads = 1)
  two <- hand_repro(n_threads = 2)
  expect_identical(one, two)
})

test_that("undefined tests warn and give NA, as t.test() refuses constant data", {
  expect_warning(x <- reproduction_measures(hand_a, hand_a, list(baseline = hand_a, advanced = hand_a),
                                            hand_qrels, measures = "P@2", cutoffs = 2),
                 class = "irtopics_warning_undefined")
  expect_identical(x$runs$p.value, c(NA_real_, NA_real_))
  expect_identical(x$runs$rmse, c(0, 0))
  expect_true(is.na(x$effect$effect_ratio))     # no original effect
  # t.test() gives NaN for differences that are all 0, and stops for constant non-zero ones
  expect_true(is.nan(stats::t.test(c(1, .5, .5), c(1, .5, .5), paired = TRUE)$p.value))
  refused <- tryCatch(stats::t.test(c(1, .5, .5), c(.5, 0, 0), paired = TRUE), error = conditionMessage)
  expect_match(refused, "constant")
  expect_identical(t_test_samples(c(1, .5, .5), c(.5, 0, 0), paired = TRUE)[["p"]], NA_real_)
  expect_identical(t_test_samples(c(1, 1), c(1, 1))[["p"]], NA_real_)
})

test_that("reproducibility: another collection, the pooled t test by default, no ranked lists", {
  q2 <- data.frame(topic = c("A", "B", "B", "C", "D"), docno = c("x1", "x2", "x3", "x4", "x5"), rel = 1L)
  b2 <- ranked_run(list(A = c("x1", "x9"), B = c("x9", "x8"), C = c("x7", "x6"), D = c("x5", "x6")))
  a2 <- ranked_run(list(A = c("x1", "x9"), B = c("x2", "x3"), C = c("x4", "x6"), D = c("x5", "x9")))
  x <- reproduction_measures(hand_b, hand_a, list(other = list(baseline = b2, advanced = a2)), hand_qrels,
                             qrels_reproduced = q2, type = "reproducibility", measures = "P@2")
  # P@2: b' = .5 0 0 .5, a' = .5 1 .5 .5
  expect_equal(x$effect$effect_ratio, (mean(c(.5, 1, .5, .5)) - mean(c(.5, 0, 0, .5))) / (1 / 3))
  # the pooled two-sample t test (the paper's ttest2, repro_eval's ttest_ind), by hand:
  # b = .5 .5 0 (mean 1/3, SS 1/6), b' = .5 0 0 .5 (mean 1/4, SS 1/4): s_p^2 = (1/6 + 1/4) / 5 = 1/12,
  # se = sqrt(1/12 * (1/3 + 1/4)) = sqrt(7) / 12, t = (1/12) / se = 1 / sqrt(7);
  # a = 1 .5 .5 (mean 2/3, SS 1/6), a' = .5 1 .5 .5 (mean 5/8, SS 3/16): s_p^2 = 17/240,
  # t = (1/24) / sqrt(17/240 * 7/12) = sqrt(5/119); 3 + 4 - 2 = 5 df
  t_hand <- c(1 / sqrt(7), sqrt(5 / 119))
  expect_equal(x$runs$statistic, t_hand)
  expect_identical(x$runs$df, c(5, 5))
  expect_equal(x$runs$p.value, 2 * pt(-t_hand, 5))
  expect_identical(x$runs$test, c("pooled t", "pooled t"))
  tb <- stats::t.test(c(.5, .5, 0), c(.5, 0, 0, .5), var.equal = TRUE)
  expect_equal(x$runs$p.value[1], tb$p.value)
  # Welch's test on request: t = (1/12) / sqrt(1/12 / 3 + 1/12 / 4) for b (variances 1/12 and 1/12),
  # df (v1 + v2)^2 / (v1^2 / 2 + v2^2 / 3) with v = s^2 / n
  w <- reproduction_measures(hand_b, hand_a, list(other = list(baseline = b2, advanced = a2)), hand_qrels,
                             qrels_reproduced = q2, type = "reproducibility", measures = "P@2", t_test = "welch")
  v1 <- (1 / 12) / 3
  v2 <- (1 / 12) / 4
  expect_equal(w$runs$statistic[1], (1 / 12) / sqrt(v1 + v2))
  expect_equal(w$runs$df[1], (v1 + v2)^2 / (v1^2 / 2 + v2^2 / 3))
  expect_equal(w$runs$p.value[1], 2 * pt(-(1 / 12) / sqrt(v1 + v2), (v1 + v2)^2 / (v1^2 / 2 + v2^2 / 3)))
  expect_identical(w$runs$test, c("Welch t", "Welch t"))
  expect_identical(w$t_test, "welch")
  expect_identical(x$t_test, "pooled")
  expect_equal(w$effect, x$effect)
  expect_output(print(w), "Welch t test")
  expect_true(all(is.na(x$runs$rmse)))
  expect_null(x$lists)
  expect_identical(x$n_topics_reproduced, 4L)
  expect_false(any(as.data.frame(x)$statistic %in% c("KTU", "RBO", "RMSE")))
  expect_error(as.data.frame(x, what = "lists"), class = "irtopics_error_data")
  expect_error(ggplot2::autoplot(x, type = "lists"), class = "irtopics_error_data")
  expect_output(print(x), "reproducibility")
  expect_output(print(x), "pooled t test")
})

test_that("repro_eval's conventions as options: empty reproduced topics left out, RBO to the cut-off, nRMSE", {
  x <- hand_repro()
  # topic 3 of the reproduced baseline is empty: RBO 0 and counted (ours), or left out (repro_eval)
  o <- hand_repro(rbo_missing = "omit")
  ob <- o$topics[o$topics$run == "baseline", ]
  expect_identical(ob$rbo[3], NA_real_)
  expect_equal(ob$rbo[1:2], c(0.8, 0.4))
  l <- o$lists
  expect_equal(l$rbo[1], mean(c(0.8, 0.4)))              # 0.6; ours: (0.8 + 0.4 + 0) / 3 = 0.4
  expect_equal(x$lists$rbo[1], (0.8 + 0.4 + 0) / 3)
  expect_identical(l$n_topics_rbo, c(2L, 3L))
  expect_identical(o$lists[2, ], x$lists[2, ])            # the advanced runs lack no topic
  expect_identical(o$topics$ktu, x$topics$ktu)
  # both lists (2 documents) shorter than the cut-off 5: the normalised RBO over the lists'
  # depth 2 (ours) or over the cut-off (repro_eval); topic 1 of the baseline, S = d9 d1,
  # T = d1 d9: X_d = 0 2 2 2 2
  p <- 0.8
  num2 <- p * 2 / 2
  num5 <- p * 2 / 2 + p^2 * 2 / 3 + p^3 * 2 / 4 + p^4 * 2 / 5
  go <- function(...) {
    suppressWarnings(reproduction_measures(hand_b, hand_a, list(baseline = hand_b2, advanced = hand_a2),
                                           hand_qrels, measures = "P@2", cutoffs = 5, ...),
                     classes = "irtopics_warning_undefined")
  }
  top1 <- function(r) r$topics$rbo[r$topics$run == "baseline"][1]
  expect_equal(top1(go(rbo_form = "normalised")), num2 / (1 + p))
  expect_equal(top1(go(rbo_form = "normalised", rbo_depth = "cutoff")), num5 / sum(p^(0:4)))
  expect_equal(top1(go(rbo_form = "truncated", rbo_depth = "cutoff")), (1 - p) * num5)
  expect_equal(top1(go(rbo_form = "truncated")), (1 - p) * num2)
  # a list as long as the cut-off: the same either way (topic 2 at cut-off 2)
  expect_identical(hand_repro(rbo_form = "normalised", rbo_depth = "cutoff")$topics$rbo,
                   hand_repro(rbo_form = "normalised")$topics$rbo)
  expect_error(go(rbo_depth = "cutoff"), "truncated", class = "irtopics_error_argument")
  # repro_eval's nRMSE: RMSE / sqrt(mean(max(s, 1 - s)^2)) of the original scores;
  # b = .5 .5 0 -> max(s, 1 - s) = .5 .5 1, a = 1 .5 .5 -> 1 .5 .5: both sqrt(1.5 / 3)
  expect_equal(hand_repro(nrmse = "max")$runs$nrmse, rep(sqrt(0.25 / 3) / sqrt(1.5 / 3), 2))
  expect_identical(hand_repro(nrmse = "max")$runs$rmse, x$runs$rmse)
  expect_identical(o$rbo_missing, "omit")
})

test_that("arguments are checked", {
  pair <- list(baseline = hand_b2, advanced = hand_a2)
  go <- function(...) reproduction_measures(hand_b, hand_a, ...)
  expect_error(go(pair, hand_qrels, type = "reproducibility"), "qrels_reproduced", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, qrels_reproduced = hand_qrels), "only used", class = "irtopics_error_argument")
  expect_error(go(list(pair), hand_qrels), "named list", class = "irtopics_error_argument")
  expect_error(go(list(a = pair, a = pair), hand_qrels), "named list", class = "irtopics_error_argument")
  expect_error(go(list(`a|b` = pair), hand_qrels), "must not contain", class = "irtopics_error_argument")
  expect_error(go(list(baseline = hand_b2), hand_qrels), "named list", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, p = 1), "p", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, cutoffs = 2.5), "cutoffs", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, ktu = "x"), "ktu", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, nrmse = "x"), "nrmse", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, t_test = "x"), "t_test", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, t_test = "welch"), "reproducibility", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, rbo_missing = "x"), "rbo_missing", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, rbo_depth = "x"), "rbo_depth", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, measures = 1), "measures", class = "irtopics_error_argument")
  expect_error(reproduction_measures(rbind(cbind(system = "u", hand_b), cbind(system = "v", hand_b)), hand_a,
                                     pair, hand_qrels), "one system", class = "irtopics_error_argument")
  expect_error(reproduction_measures(c("a", "b"), hand_a, pair, hand_qrels), "one run file",
               class = "irtopics_error_argument")
  expect_error(reproduction_measures(1, hand_a, pair, hand_qrels), "baseline", class = "irtopics_error_argument")
  expect_error(go(pair, hand_qrels, measures = "nonsense"), class = "irtopics_error_measure")
  x <- hand_repro()
  expect_error(as.data.frame(x, what = "x"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(x, type = "lists", label = "all"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(x, colour = 1), class = "irtopics_error_argument")
})

test_that("plots: ER against Delta RI (reference lines at 1 and 0); KTU/RBO by cut-off", {
  runs <- as.data.frame(read_run(te_data("results.test")))
  base <- runs[runs$score < 4, ]
  set.seed(3)
  jit <- function(r, sd) transform(r, score = score + stats::rnorm(nrow(r), sd = sd))
  reps <- lapply(c(a = 0.1, b = 0.5, c = 1), function(sd) list(baseline = jit(base, sd), advanced = jit(runs, sd)))
  x <- reproduction_measures(base, runs, reps, te_data("qrels.test"), measures = c("AP", "nDCG"),
                             cutoffs = c(5, 10, 20, 100))
  p <- ggplot2::autoplot(x)
  b <- ggplot2::ggplot_build(p)
  pts <- layers_of(p, "GeomPoint")[[1]]
  e <- x$effect
  expect_equal(sort(pts$x), sort(e$effect_ratio))
  expect_equal(sort(pts$y), sort(e$delta_ri))
  expect_identical(layers_of(p, "GeomVline")[[1]]$xintercept[1], 1)
  expect_identical(layers_of(p, "GeomHline")[[1]]$yintercept[1], 0)
  expect_identical(nrow(b$layout$layout), 2L)          # one panel per measure
  expect_identical(p$labels$x, "Effect Ratio (ER)")
  # x breaks thinned to about 4 (so that two panels fit 3.5 in)
  xb <- stats::na.omit(b$layout$panel_params[[1]]$x$breaks)
  expect_lte(length(xb), 6L)
  expect_true(is.function(p$scales$get_scales("x")$breaks))
  expect_identical(sort(unique(label_data(p)$label)), c("a", "b", "c"))
  q <- ggplot2::autoplot(x, type = "lists")
  ln <- layers_of(q, "GeomLine")[[1]]
  expect_identical(nrow(ln), 2L * nrow(x$lists))        # KTU and RBO
  expect_equal(sort(ln$y), sort(c(x$lists$ktu, x$lists$rbo)))
  expect_equal(sort(unique(10^ln$x)), c(5, 10, 20, 100))
  expect_identical(nrow(ggplot2::ggplot_build(q)$layout$layout), 4L)   # statistic x run
  # a legend for three reproductions, none for one
  expect_identical(q$scales$get_scales("colour")$guide, "legend")
  one <- reproduction_measures(base, runs, reps["a"], te_data("qrels.test"), cutoffs = c(5, 10))
  expect_identical(ggplot2::autoplot(one, type = "lists")$scales$get_scales("colour")$guide, "none")
  expect_identical(p$labels$y, quote(Delta * RI))
  for (type in c("effect", "lists")) {
    make <- function() ggplot2::autoplot(x, type = type)
    # the lists plot is a 2 x 2 grid with strips and a legend: its panels get 0.35 of 2.6 in
    expect_figure_ready(make(), min_panel = 0.3)
    expect_figure_ready(make(), width = 7, height = 4.5)
    expect_follows_user_theme(make)
  }
})

test_that("the effect plot says how many pairs it leaves out, in the caption or (titles off) a message", {
  runs <- as.data.frame(read_run(te_data("results.test")))
  # the reproduced pair is the original: a zero effect gives an undefined ER
  x <- suppressWarnings(reproduction_measures(runs, runs, list(same = list(baseline = runs, advanced = runs)),
                                              te_data("qrels.test"), cutoffs = 5))
  p <- ggplot2::autoplot(x)
  expect_match(p$labels$caption, "1 reproduced pair with an undefined ER")
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(p <- ggplot2::autoplot(x), "undefined ER", class = "irtopics_message_layout")
  expect_null(p$labels$caption)
})
