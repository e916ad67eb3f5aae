# rank_intervals() against a plain base-R bootstrap of the same resamples.

test_that("ranks, intervals and probabilities are those of a base-R bootstrap", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  x <- ap[order(-rowMeans(ap))[1:7], ]
  B <- 300
  ri <- rank_intervals(x, conf = 0.9, B = B, seed = 11, top = c(1, 3))
  # the same resamples, drawn in base R
  m <- unclass(x)
  set.seed(11, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  idx <- matrix(sample.int(ncol(m), ncol(m) * B, replace = TRUE), B, ncol(m))
  expect_identical(ri$indices, idx)
  ranks <- t(apply(idx, 1, function(i) rank(-rowMeans(m[, i]), ties.method = "min")))
  expect_equal(unname(ri$ranks), unname(ranks))
  tab <- ri$table[match(rownames(m), ri$table$system), ]
  expect_equal(tab$rank, as.integer(rank(-rowMeans(m))))
  expect_equal(tab$conf.low, unname(apply(ranks, 2, quantile, 0.05, type = 1)))
  expect_equal(tab$conf.high, unname(apply(ranks, 2, quantile, 0.95, type = 1)))
  expect_equal(tab$p_top_1, unname(colMeans(ranks == 1)))
  expect_equal(tab$p_top_3, unname(colMeans(ranks <= 3)))
  expect_equal(unname(rowSums(ri$probabilities)), rep(1, 7))
  expect_equal(unname(ri$probabilities[rownames(m)[2], "2"]), mean(ranks[, 2] == 2))
  # ordered by observed rank
  expect_identical(ri$table$rank, sort(ri$table$rank))
  td <- as.data.frame(ri)
  expect_true(all(c("estimate", "conf.low", "conf.high", "p_top_1") %in% names(td)))
  expect_identical(rank_intervals(x, B = B, seed = 11, conf = 0.9)$table, ri$table)
  expect_error(rank_intervals(x, top = 0), class = "irtopics_error_argument")
  expect_error(rank_intervals(x, top = 8), class = "irtopics_error_argument")
  y <- x
  y[1, 1] <- NA
  expect_error(rank_intervals(y), class = "irtopics_error_data")
})

test_that("exactly tied means share a rank, in the data and in every resample (P@10)", {
  # TREC-8 P@10: run22 and run23 both have 346 relevant documents in their
  # top tens over the 50 topics (mean 0.692); rowMeans() rounds them apart,
  # and rank_intervals() ranked them 8 and 9 (issue 40)
  p10 <- read_scores(system.file("extdata", "score-matrices", "adhoc8_p10.csv", package = "irtopics"),
                     measure = "P@10")
  m <- unclass(p10)
  whole <- round(m * 10)   # relevant documents in the top ten: exact sums
  expect_identical(unname(rowSums(whole)[c("run22", "run23")]), c(346, 346))
  expect_false(rowMeans(m)[["run22"]] == rowMeans(m)[["run23"]])
  top <- order(-rowSums(whole), rownames(m))[1:12]
  ri <- rank_intervals(p10[top, ], B = 200, seed = 3)
  tab <- ri$table
  expect_identical(tab$rank[tab$system == "run22"], tab$rank[tab$system == "run23"])
  expect_identical(tab$rank, as.integer(rank(-rowSums(whole[tab$system, ]), ties.method = "min")))
  # every resample ranks the exact sums of the same topics
  exact <- t(apply(ri$indices, 1, function(i) rank(-rowSums(whole[top, i]), ties.method = "min")))
  expect_identical(unname(ri$ranks), unname(exact) + 0L)
  expect_true(any(apply(ri$indices, 1, function(i) anyDuplicated(rowSums(whole[top, i])) > 0)))
})

test_that("the same for a parallel future plan", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_on_cran()
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")[1:5, ]
  a <- rank_intervals(ap, B = 200, seed = 2)
  # forked workers run this code (multisession workers would load the
  # installed copy of the package)
  skip_if_not(future::supportsMulticore(), "no forked futures here")
  old <- future::plan(future::multicore, workers = 2)
  expect_true(irtopics:::use_future())
  on.exit(future::plan(old), add = TRUE)
  expect_identical(rank_intervals(ap, B = 200, seed = 2), a)
})

test_that("the plot draws rank intervals ordered by observed rank, shaded by probability", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  ri <- rank_intervals(ap[order(-rowMeans(ap))[1:6], ], B = 200, seed = 1)
  p <- ggplot2::autoplot(ri)
  b <- ggplot2::ggplot_build(p)
  tiles <- b$data[[1]]
  bars <- b$data[[2]]
  pts <- b$data[[3]]
  expect_equal(sort(bars$xmin), sort(ri$table$conf.low))
  expect_equal(sort(bars$xmax), sort(ri$table$conf.high))
  expect_equal(sort(pts$x), sort(ri$table$rank))
  expect_equal(sum(tiles$fill != ""), sum(ri$probabilities > 0))
  # the first system by observed rank is drawn on top
  expect_identical(tail(levels(p$data$system), 1), ri$table$system[1])
  expect_match(b$plot$labels$x, "Rank")
  expect_error(ggplot2::autoplot(ri, foo = 1), class = "irtopics_error_argument")
})

test_that("the default top fits the number of systems; the plot fits one column and follows the user's theme", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  two <- rank_intervals(ap[1:2, ], B = 50, seed = 1)
  expect_identical(two$top, 1L)
  expect_error(rank_intervals(ap[1:2, ], B = 50, seed = 1, top = 3), class = "irtopics_error_argument")
  for (k in c(2, 17, 110)) {
    p <- autoplot(rank_intervals(ap[seq_len(k), ], B = 50, seed = 1))
    expect_figure_ready(p, min_panel = 0.3)
    expect_figure_ready(p, width = 7, height = 4.5)
    expect_identical(ggplot2::calc_element("legend.position", ggplot2::theme_get() + p$theme), "bottom")
  }
  expect_follows_user_theme(function() autoplot(rank_intervals(ap[1:17, ], B = 50, seed = 1)))
})

test_that("rank intervals follow the measure's direction and aggregate (issue 40)", {
  err <- error_matrix()
  ri <- rank_intervals(err, B = 300, seed = 1)
  # rank 1 is the lowest error rate; the same ranks as the negated scores, higher is better
  neg <- rank_intervals(negated(err), B = 300, seed = 1)
  expect_identical(ri$table$system[1], "sysF")
  expect_identical(ri$ranks, neg$ranks)
  expect_identical(ri$table[c("system", "rank", "conf.low", "conf.high", "p_top_1")],
                   neg$table[c("system", "rank", "conf.low", "conf.high", "p_top_1")])
  expect_equal(ri$table$mean, -neg$table$mean)
  expect_match(format(ri)[1], "rank by mean error rate (lower is better)", fixed = TRUE)
  # gm_map ranks by the geometric mean: the ranks of the mean logs
  ap <- robust()[1:15, ]
  gm <- rank_intervals(as_ir_scores(ap, measure = "gm_map"), B = 200, seed = 2)
  logs <- rank_intervals(log(pmax(unclass(ap), 1e-5)), B = 200, seed = 2)
  expect_identical(gm$ranks, logs$ranks)
  expect_equal(gm$table$mean, unname(mean_scores(as_ir_scores(ap, measure = "gm_map"))[gm$table$system]))
  expect_false(identical(gm$table$system, rank_intervals(ap, B = 200, seed = 2)$table$system))
  expect_match(format(gm)[1], "rank by geometric mean gm_map", fixed = TRUE)
  expect_identical(names(as.data.frame(gm))[1:3], c("system", "mean", "estimate"))
})

test_that("the bounds are the a/2 and 1 - a/2 order statistics of the resampled ranks, without rounding error", {
  # (1 - 0.95) / 2 is 0.025000000000000022: quantile(type = 1) of 1,000
  # ranks then read the 26th smallest, one too many
  set.seed(3)
  m <- matrix(stats::rnorm(12 * 25, mean = rep(seq(0, 0.6, length.out = 12), 25)), 12,
              dimnames = list(sprintf("s%02d", 1:12), sprintf("t%02d", 1:25)))
  ri <- rank_intervals(m, B = 1000, seed = 4)
  tab <- ri$table[match(colnames(ri$ranks), ri$table$system), ]
  expect_identical(tab$conf.low, apply(ri$ranks, 2L, function(r) sort(r)[25]), ignore_attr = TRUE)
  expect_identical(tab$conf.high, apply(ri$ranks, 2L, function(r) sort(r)[975]), ignore_attr = TRUE)
})

