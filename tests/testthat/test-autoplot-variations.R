sim_small <- function() {
  simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 6, n_docs = 300, depth = 150,
                      seed = 3)
}

test_that("Figure 1: per-query exclusion by system", {
  sim <- sim_small()
  ex <- exclusion_measure(sim$runs, sim$qrels, sim$query_map, depth = 150)
  expect_s3_class(ex, "ir_exclusion")
  expect_equal(nrow(ex$lists), 2 * 3 * 6)
  p <- ggplot2::autoplot(ex, topic = "sim02")
  expect_s3_class(p, "ggplot")
  ld <- ggplot2::layer_data(p)
  expect_equal(nrow(ld), 12L)
  sub <- ex$lists[ex$lists$topic == "sim02", ]
  expect_setequal(ld$x, sub$exclusion)
  expect_equal(length(unique(ld$colour)), 2L)
  expect_equal(p$labels$caption, "Simulated data")
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 150)
  p2 <- ggplot2::autoplot(ind, topic = "sim01")
  ld2 <- ggplot2::layer_data(p2)
  q <- ind$queries[ind$queries$topic == "sim01", ]
  expect_equal(nrow(ld2), nrow(q))
  expect_setequal(ld2$x, q$exclusion)
  # best query (A) on top
  lev <- levels(p2$data$label)
  expect_true(startsWith(lev[length(lev)], "A: "))
  expect_error(ggplot2::autoplot(ind, topic = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ind, type = "nope"), class = "irtopics_error_argument")
})

test_that("Figures 7, 8 and 13", {
  sim <- sim_small()
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 150)
  p13 <- ggplot2::autoplot(ind, type = "ap")
  ld <- ggplot2::layer_data(p13, 1)
  expect_equal(ld$x, ind$indicators$E)
  expect_equal(ld$y, ind$indicators$AP)
  dif <- indicator_differences(ind, "sim_w3", "sim_w0.5")
  p7 <- ggplot2::autoplot(dif)
  ld7 <- ggplot2::layer_data(p7, 3)
  expect_equal(ld7$x, dif$differences$E)
  expect_equal(ld7$y, dif$differences$U)
  expect_equal(ld7$label, dif$differences$topic)
  ld8 <- ggplot2::layer_data(ggplot2::autoplot(dif, type = "CS"), 3)
  expect_equal(ld8$x, dif$differences$C)
  expect_equal(ld8$y, dif$differences$S)
  expect_snapshot(print(dif))
})

test_that("Figure 2: isoMDS map, one labelled point per list", {
  sim <- sim_small()
  sel <- select_queries(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 150, topics = "sim01")
  qs <- sel$queries$query[sel$queries$selected][order(sel$queries$selection_order[sel$queries$selected])]
  d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, queries = qs,
                                  depth = 150)
  m <- query_map_mds(d)
  p <- ggplot2::autoplot(m)
  ld <- ggplot2::layer_data(p)
  expect_equal(nrow(ld), 8L)
  expect_equal(ld$label, rep(c("A", "B", "C", "D"), 2))
  expect_equal(ld$x, m$points$dim1)
  expect_equal(length(unique(ld$colour)), 2L)
  expect_snapshot(print(m))
})
