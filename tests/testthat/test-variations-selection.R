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
  expect_equal(ggplot2::layer_data(p, 2)$label, rep(c("A", "B", "C", "D"), 2))
  expect_equal(ld$x, m$points$dim1)
  expect_equal(length(unique(ld$colour)), 2L)
  expect_snapshot(print(m))
})

test_that("the four-query example of spec 1.7 gives E, U, C, S", {
  o <- spec_indicator_orders()
  sel <- select_queries(o, n = 20)
  q <- sel$queries
  expect_equal(q$gauge, c(1, 4 / 6, 5 / 6, 5 / 6))
  expect_equal(q$query[order(q$selection_order)], c("q1", "q3", "q4", "q2"))
  ind <- topic_indicators(o)
  x <- ind$indicators
  expect_equal(x$n_queries, 4L)
  expect_equal(x$U, 0.5559274778, tolerance = 1e-9)
  expect_equal(x$C, 0.4974021862, tolerance = 1e-9)
  expect_equal(x$S, -1.215827717, tolerance = 1e-9)
  expect_equal(x$E, -0.2697953115, tolerance = 1e-9)
  expect_equal(x$AP, mean(c(0.7875, 0.4378306878, 0.3722222222, 0.6666666667)), tolerance = 1e-9)
  qq <- ind$queries
  expect_equal(qq$query, c("q1", "q3", "q4", "q2"))
  expect_equal(qq$letter, c("A", "B", "C", "D"))
  expect_equal(qq$n25, c(0, 2, 3, 0))
  expect_equal(qq$ap, c(0.7875, 0.4378306878, 0.3722222222, 0.6666666667), tolerance = 1e-9)
  # sqrt(1 - s) shifts U by log 2 only; base 10 rescales
  ind2 <- topic_indicators(o, dissimilarity = "sqrt")$indicators
  expect_equal(ind2$U, 1.249074658, tolerance = 1e-9)
  expect_equal(c(ind2$C, ind2$S), c(x$C, x$S), tolerance = 1e-9)
  ind10 <- topic_indicators(o, base = 10)$indicators
  expect_equal(ind10$U, x$U / log(10))
})

test_that("select_queries removes duplicates by dissimilarity and by text", {
  qs <- c(spec_queries, list(q5 = spec_queries$q3, q6 = c(1, 2, 3, 5, 9, 20)))
  o <- make_orders(list(s = qs))
  sel <- select_queries(o)$queries
  expect_equal(sel$duplicate_of[sel$query == "q5"], "q3")
  # q6 has the same return order as q1 (positions differ): a duplicate as well
  expect_equal(sel$duplicate_of[sel$query == "q6"], "q1")
  expect_equal(sum(sel$selected), 4L)
  # duplicates in one system suffice
  o2 <- make_orders(list(s = qs, t = lapply(qs, function(p) p)))
  o2$orders$t1[, "t|q6"] <- c(2L, 1L, 3L, 5L, 9L, 20L)
  expect_equal(select_queries(o2)$queries$duplicate_of[6], "q1")
  # by text
  txt <- c(q1 = "Bank fraud", q2 = "bank, FRAUD", q3 = "x", q4 = "y")
  o3 <- make_orders(list(s = spec_queries), text = txt)
  sel3 <- select_queries(o3)$queries
  expect_equal(sel3$duplicate_of, c(NA, "q1", NA, NA))
  expect_equal(select_queries(o3, use_text = FALSE)$queries$duplicate_of, rep(NA_character_, 4))
  # n limits the selection, in gauge order
  sel2 <- select_queries(o, n = 2)$queries
  expect_equal(sel2$query[sel2$selected], c("q1", "q3"))
  expect_snapshot(print(select_queries(o, n = 2)))
})
