test_that("mean_scores() gives one column per measure, skipping unanswered topics", {
  res <- two_system_evaluation()
  ms <- mean_scores(res)
  expect_named(ms, c("system", "AP", "P@2", "RR"))
  expect_identical(ms$system, c("sysA", "sysB"))
  for (m in names(res)) {
    expect_equal(ms[[m]], unname(rowMeans(unclass(res[[m]]), na.rm = TRUE)))
  }
  # sysB's P@2: 301 (d3, d2) = 1/2, 302 (d6, d5) = 1/2; 303 not answered
  expect_equal(ms[["P@2"]][2], 0.5)
})

# 11. gmap and nDCG gains ------------------------------------------------------------

test_that("geometric means are never negative and gains must be finite", {
  expect_identical(gmap(c(0, 0, 0)), 0)
  expect_gte(gmap(c(0, 0, 1e-300)), 0)
  expect_identical(unname(gmean_scores(matrix(0, 2, 3))), c(0, 0))
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 2L))
  for (g in list(c("1" = Inf), c("2" = 1e308), c("1" = NaN), c("1" = -Inf))) {
    expect_error(evaluate(run, qrels, "nDCG", gains = g), class = "irtopics_error_argument")
  }
  big <- evaluate(run, qrels, "nDCG", gains = c("1" = 1e200, "2" = 3e200))$nDCG[1, 1]
  ref <- (1 + 3 / log2(3)) / (3 + 1 / log2(3))
  expect_equal(big, ref)
})

test_that("mean_scores(accumulate = 'trec_eval') prints what trec_eval prints where rowMeans() does not", {
  # 100 topics whose P@200 values are k/200; the built trec_eval 10
  # (`trec_eval -m P.200 qrels run` on these files) prints "P_200 all 0.1433".
  k <- c(11, 11, 42, 8, 25, 6, 59, 27, 14, 53, 20, 60, 36, 34, 5, 5, 41, 58, 34, 12, 10, 19, 17,
         14, 13, 48, 55, 11, 40, 15, 2, 28, 24, 23, 46, 40, 30, 38, 31, 8, 17, 38, 11, 53, 3, 8,
         49, 49, 20, 51, 34, 2, 34, 21, 4, 1, 3, 59, 37, 56, 47, 10, 54, 7, 43, 27, 20, 1, 19, 30,
         51, 34, 57, 28, 33, 6, 29, 10, 36, 6, 49, 12, 52, 42, 42, 36, 26, 18, 39, 48, 10, 14, 60,
         49, 45, 4, 59, 36, 4, 49)
  qrels <- data.frame(topic = rep(seq_along(k), k), docno = unlist(lapply(k, function(n) paste0("r", seq_len(n)))),
                      rel = 1L)
  runs <- do.call(rbind, lapply(seq_along(k), function(t) {
    docs <- c(paste0("r", seq_len(k[t])), paste0("n", seq_len(200 - k[t])))
    data.frame(system = "sys", topic = t, docno = docs, score = 1000 - seq_along(docs))
  }))
  res <- evaluate(runs, qrels, measures = "P_200")
  expect_identical(sprintf("%.4f", mean_scores(res$P_200, accumulate = "trec_eval")[[1]]), "0.1433")
  expect_identical(sprintf("%.4f", mean_scores(res$P_200)[[1]]), "0.1432")
})

test_that("gmap reproduces the spec's worked example (section 2.5)", {
  ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
  expect_equal(gmap(ap), 0.0316370627, tolerance = 1e-9)
  expect_equal(gmap(ap, method = "floor"), 0.03164378155, tolerance = 1e-9)
  expect_equal(gmap(ap, eps = 1e-4, method = "replace0"), 0.04644671938, tolerance = 1e-9)
  x <- as_ir_scores(rbind(a = ap, b = rev(ap) / 2), "AP")
  expect_equal(unname(gmean_scores(x)[1]), 0.0316370627, tolerance = 1e-9)
  expect_equal(unname(gmean_scores(x, method = "floor")[2]),
               exp(mean(log(pmax(ap / 2, 1e-5)))))
  expect_error(gmap(c(-1, 2)), class = "irtopics_error_data")
  expect_error(gmap(ap, method = "nope"), "method", class = "irtopics_error_argument")
})

test_that("C++ aggregates equal base R for every built-in aggregate", {
  set.seed(3)
  m <- matrix(round(runif(6 * 40), 3), 6, dimnames = list(paste0("s", 1:6), 1:40))
  m[sample(length(m), 30)] <- 0
  perms <- replicate(5, sample.int(40) - 1L)
  n <- 13L
  refs <- list(`0` = mean, `1` = function(v) gmap_impl(v, 1e-5, "add"),
               `2` = function(v) gmap_impl(v, 1e-5, "floor"), `3` = function(v) gmap_impl(v, 1e-5, "replace0"),
               `4` = function(v) 100 * mean(v == 0), `5` = area_ref)
  for (code in names(refs)) {
    got <- irtopics:::cpp_set_aggregates(m, perms, n, as.integer(code), 1e-5, 1L)
    expect_equal(got, swap_reference(m, perms, n, refs[[code]])$sets, tolerance = 1e-12, info = code)
  }
})

test_that("the functions that used match.arg() give irtopics_error_argument for a bad choice", {
  te <- function(f) system.file("extdata", "trec_eval-test", f, package = "irtopics")
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")[1:4, 1:10]
  cmp <- compare_systems(ap, test = "t")
  bad <- function(expr, arg) {
    err <- expect_error(expr, class = "irtopics_error_argument")
    expect_match(conditionMessage(err), sprintf("`%s` must be one of", arg), fixed = TRUE)
  }
  bad(format(cmp, format = "html"), "format")
  bad(ggplot2::autoplot(cmp, type = "pie"), "type")
  bad(evaluate(te("results.test"), te("qrels.test"), measures = "AP", missing = "keep"), "missing")
  bad(evaluate(te("results.test"), te("qrels.test"), measures = "AP", name = "path"), "name")
  bad(return_orders(te("results.test"), te("qrels.test"), name = "path"), "name")
  bad(read_run(te("results.test"), name = "path"), "name")
  bad(read_runs(te("results.test"), name = "path"), "name")
  bad(gmean_scores(ap, method = "mul"), "method")
  bad(gmap(c(0.1, 0.2), method = "mul"), "method")
  bad(resample_draws("coins", seed = 1, n = 3), "kind")
  # and the defaults still resolve to the first choice
  expect_identical(attr(evaluate(te("results.test"), te("qrels.test"), measures = "AP"), "missing"), "drop")
  expect_identical(format(cmp), format(cmp, format = "plain"))
})

# Issue 40: the measure's aggregate -------------------------------------------------------

test_that("mean_scores() is the measure's aggregate: geometric for gm_map (as write_trec_eval()), sums for counts", {
  ap <- read_scores(extdata("score-matrices", "robust2004_ap.csv"), measure = "AP")
  gm <- as_ir_scores(ap, measure = "gm_map")
  # before: the arithmetic mean (MAP) under the name gm_map
  expect_equal(mean_scores(gm), gmean_scores(ap, method = "floor"))
  expect_equal(mean_scores(gm), mean_scores(gm, accumulate = "trec_eval"))
  expect_false(isTRUE(all.equal(mean_scores(gm), mean_scores(ap))))
  top <- names(which.max(mean_scores(ap)))
  expect_equal(mean_scores(gm)[[top]], exp(mean(log(pmax(unclass(ap)[top, ], 1e-5)))))
  # a count is summed over the answered topics
  counts <- as_ir_scores(matrix(c(1, 2, NA, 4, 5, 6), 2, dimnames = list(c("a", "b"), c("1", "2", "3"))),
                         measure = "NumRet")
  expect_identical(mean_scores(counts), c(a = 6, b = 12))
  expect_identical(mean_scores(counts, accumulate = "trec_eval"), c(a = 6, b = 12))
  # a record states the aggregate of a measure the registry does not know
  own <- as_ir_scores(ap, measure = custom_measure("my GMAP", aggregate = "gmean"))
  expect_equal(mean_scores(own), mean_scores(gm))
  # renaming keeps the record when the name is one the registry does not know
  expect_equal(mean_scores(as_ir_scores(gm, measure = "GMAP")), mean_scores(gm))
  expect_equal(mean_scores(as_ir_scores(gm, measure = "AP")), mean_scores(ap))
  expect_equal(mean_scores(gm[1:5, ]), mean_scores(gm)[1:5])
})

test_that("write_trec_eval() and mean_scores() share one aggregate (the trec_eval 'all' line)", {
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c(GMAP = "gm_map", n = "NumRet"))
  expect_identical(attr(res$GMAP, "aggregate"), "gmean")
  f <- withr::local_tempfile()
  write_trec_eval(res, f, per_topic = FALSE)
  all <- read.table(f, col.names = c("measure", "topic", "value"), colClasses = "character")
  expect_identical(all$value[all$measure == "gm_map"], sprintf("%.4f", mean_scores(res)$GMAP))
  expect_identical(all$value[all$measure == "num_ret"], sprintf("%d", as.integer(mean_scores(res)$n)))
})
