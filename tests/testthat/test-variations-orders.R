test_that("midranks tie every unreturned document (spec 1.4)", {
  m <- matrix(as.integer(c(spec_list_a, spec_list_b)), 8)
  r <- irtopics:::cpp_return_order_midranks(m, 1000L)
  expect_equal(r[, 1], c(2, 3, 7.5, 4, 5, 7.5, 1, 6))
  expect_equal(r[, 2], c(1, 2, 3, 7, 4, 7, 7, 5))
  set.seed(1)
  x <- matrix(sample(c(1:60, rep(61L, 40))), 20)
  expect_equal(irtopics:::cpp_return_order_midranks(x, 60L), apply(x, 2, rank))
})

test_that("return_orders() agrees with a plain-R construction of return orders", {
  runs <- data.frame(system = "s", topic = "q1",
                     docno = c("d1", "d2", "d3", "d4", "d5"),
                     score = c(0.9, 0.8, 0.8, 0.7, 0.1))
  qrels <- data.frame(topic = "t1", docno = c("d2", "d3", "d5", "d9"), rel = c(1L, 1L, 1L, 1L))
  qm <- data.frame(query = "q1", topic = "t1", text = "some words")
  o <- return_orders_reference(runs, qrels, qm, depth = 4L)
  # d3 before d2 (ties by docno descending); d5 beyond depth; d9 not returned
  expect_equal(unname(o$orders$t1[, 1]), c(3L, 2L, 5L, 5L))
  expect_equal(rownames(o$orders$t1), c("d2", "d3", "d5", "d9"))
  expect_equal(o$lists$n_returned, 4L)
  expect_equal(o$queries$text, "some words")
  o2 <- return_orders(runs, qrels, qm, depth = 4L)
  expect_equal(o2$orders, o$orders)
  sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 4, n_docs = 200,
                             depth = 60, seed = 9)
  a <- return_orders(sim$runs, sim$qrels, sim$query_map, depth = 50L)
  b <- return_orders_reference(sim$runs, sim$qrels, sim$query_map, depth = 50L)
  expect_equal(names(a$orders), names(b$orders))
  for (t in names(a$orders)) {
    expect_equal(a$orders[[t]][, colnames(b$orders[[t]])], b$orders[[t]])
  }
  expect_equal(a$lists$n_returned[match(b$lists$list, a$lists$list)], b$lists$n_returned)
})
