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
  b2 <- ggplot2::ggplot_build(p2)
  labs_y <- b2$layout$panel_params[[1]]$y$get_labels()
  expect_true(startsWith(labs_y[length(labs_y)], "A: "))
  expect_true(all(startsWith(labs_y, paste0(LETTERS[rev(seq_along(labs_y))], ": "))))
  expect_error(ggplot2::autoplot(ind, topic = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ind, type = "nope"), class = "irtopics_error_argument")
})
# Spec section 1 worked examples and independent references.

test_that("exclusion_measure reproduces the N25 cases of spec 1.3", {
  lc <- rep(1001, 8); lc[4] <- 500
  ld <- rep(1001, 8)
  ex <- exclusion_measure(cbind(A = spec_list_a, B = spec_list_b, C = lc, D = ld))
  expect_equal(ex$list, c("A", "B", "C", "D"))
  expect_equal(ex$n_returned, c(6L, 5L, 1L, 0L))
  expect_equal(ex$n25, c(1, 2, 1998, 2000))
  expect_equal(ex$exclusion, c(-0.3010299957, -0.4771212547, -3.300812794, -3.301247089),
               tolerance = 1e-9)
  expect_equal(ex$ap[1:2], c(0.2491964286, 0.2530303030), tolerance = 1e-9)
  expect_equal(ex$ap[4], 0)
  # positions beyond depth count as not returned; fraction and depth are arguments
  expect_equal(exclusion_measure(spec_list_a, depth = 10)$n_returned, 3L)
  expect_equal(exclusion_measure(spec_list_a, depth = 10)$n25, 1)
  expect_equal(exclusion_measure(spec_list_a, fraction = 0.5)$n25, 15 - 4)
  # case 2 uses L = depth
  expect_equal(exclusion_measure(lc, depth = 600)$n25, (600 - 1) * 2 / 1)
})

test_that("exclusion_measure AP equals a plain trec_eval-style AP", {
  set.seed(3)
  for (k in 1:20) {
    n_rel <- sample(2:30, 1)
    pos <- sample(c(sample(1000, n_rel), rep(1001, n_rel)), n_rel)
    ret <- sort(pos[pos <= 1000])
    ap <- if (length(ret)) sum(seq_along(ret) / ret) / n_rel else 0
    expect_equal(exclusion_measure(pos)$ap, ap)
  }
})

test_that("bad input raises classed errors", {
  o <- spec_indicator_orders()
  # a query id missing from the map
  runs <- data.frame(system = "s", topic = c("q1", "q1", "qX"), docno = c("d1", "d2", "d1"),
                     score = c(2, 1, 1))
  qrels <- data.frame(topic = "t1", docno = c("d1", "d2"), rel = 1L)
  qm <- data.frame(query = "q1", topic = "t1")
  expect_error(exclusion_measure(runs, qrels, qm), class = "irtopics_error_data")
  # a topic without relevant documents
  o0 <- o
  o0$orders$t1 <- o0$orders$t1[0, , drop = FALSE]
  expect_error(return_order_dissimilarity(o0, topic = "t1"), class = "irtopics_error_data")
  expect_error(select_queries(o0), class = "irtopics_error_data")
  expect_warning(expect_error(topic_indicators(o0), class = "irtopics_error_data"),
                 class = "irtopics_warning_data")
  # fewer than two queries
  o1 <- make_orders(list(s = spec_queries["q1"], t = spec_queries["q1"]))
  expect_error(topic_indicators(o1), class = "irtopics_error_data")
  expect_error(select_queries(o1), class = "irtopics_error_data")
  # unknown topic, bad arguments
  expect_error(return_order_dissimilarity(o, topic = "nope"), class = "irtopics_error_data")
  expect_error(return_order_dissimilarity(o, topic = "t1", dissimilarity = "1-s"),
               class = "irtopics_error_argument")
  expect_error(topic_indicators(o, n = 1), class = "irtopics_error_argument")
  # fraction 0 is rejected as in exclusion_measure() (it used to give N_0 = r_(1) - 1)
  expect_error(topic_indicators(o, fraction = 0), class = "irtopics_error_argument")
  # base = Inf made every U, C, S silently 0
  expect_error(topic_indicators(o, base = Inf), class = "irtopics_error_argument")
  expect_error(exclusion_measure(spec_list_a, fraction = 0), class = "irtopics_error_argument")
  expect_error(topic_indicators(o, depth = 5000), class = "irtopics_error_argument")
  expect_error(exclusion_measure(c(1, NA)), class = "irtopics_error_data")
  # fractional positions used to be truncated, and two relevant documents at
  # one position gave AP > 1 (here 4/3)
  expect_error(exclusion_measure(c(2.5, 3, 1001)), class = "irtopics_error_data")
  expect_error(exclusion_measure(c(1, 1, 3)), class = "irtopics_error_data")
  expect_error(exclusion_measure(cbind(c(1, 2, 3), c(4, 9, 4))), class = "irtopics_error_data")
  # unreturned documents (beyond depth) may share the "not returned" code
  expect_equal(exclusion_measure(c(1, 1001, 1001, 2000))$n_returned, 1L)
  expect_equal(exclusion_measure(c(1, 15, 15), depth = 10)$n_returned, 1L)
  expect_error(exclusion_measure(1:3, fraction = 0), class = "irtopics_error_argument")
  expect_error(return_order_dissimilarity(runs, topic = "t1"), class = "irtopics_error_argument")
})

test_that("exclusion_measure on return orders: one row per list, NA without relevant documents", {
  o <- combine_orders(make_orders(list(a = spec_queries), topic = "t1"),
                      make_orders(list(a = list(q9 = 5)), topic = "t2"))
  o$orders$t2 <- o$orders$t2[0, , drop = FALSE]
  ex <- exclusion_measure(o)
  expect_s3_class(ex, "ir_exclusion")
  expect_equal(ex$lists$n25, c(0, 0, 2, 3, NA))
  expect_equal(ex$lists$ap[1:4], c(0.7875, 0.6666666667, 0.4378306878, 0.3722222222),
               tolerance = 1e-9)
  expect_equal(ex$depth, 1000L)
  expect_equal(exclusion_measure(o, depth = 5)$lists$n_returned[1:4], c(4L, 4L, 2L, 2L))
  expect_equal(as.data.frame(ex), ex$lists)
  expect_equal(exclusion_measure(o, topics = "t1")$lists$n25, c(0, 0, 2, 3))
  # an unknown topic is an error, as in select_queries() (it was dropped silently)
  expect_error(exclusion_measure(o, topics = c("t1", "t9")), class = "irtopics_error_data")
})
