test_that("simulate_query_runs is reproducible and labelled as simulated", {
  a <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 5, n_docs = 200,
                           depth = 50, seed = 42)
  b <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 5, n_docs = 200,
                           depth = 50, seed = 42)
  expect_identical(a$runs, b$runs)
  expect_s3_class(a, "ir_simulated_query_runs")
  expect_true(attr(a$runs, "simulated"))
  expect_true(all(startsWith(a$runs$system, "sim_")))
  expect_true(all(startsWith(a$query_map$topic, "sim")))
  expect_equal(nrow(a$runs), 2 * 2 * 5 * 50)
  expect_setequal(unique(a$runs$topic), a$query_map$query)
  expect_equal(a$truth$systems$primary_weight, c(3, 0.5))
  expect_equal(sum(a$qrels$rel), sum(a$truth$topics$n_rel))
  # every list is sorted by score (ties by docno descending)
  for (q in unique(a$runs$topic)[1:3]) {
    r <- a$runs[a$runs$topic == q & a$runs$system == "sim_w3", ]
    expect_false(is.unsorted(-r$score))
  }
  # the query text holds the words the query uses
  expect_equal(a$truth$queries$has_primary, grepl("\\bkey\\b", a$query_map$text))
  expect_snapshot(print(a))
  expect_error(simulate_query_runs(n_rel = c(10, 5)), class = "irtopics_error_argument")
  expect_error(simulate_query_runs(n_systems = 2, primary_weight = 1),
               class = "irtopics_error_argument")
  expect_error(simulate_query_runs(n_rel = c(2.5, 3)), class = "irtopics_error_argument")
  expect_error(simulate_query_runs(n_systems = 2, primary_weight = c(Inf, 1)),
               class = "irtopics_error_argument")
  expect_error(simulate_query_runs(noise = Inf), class = "irtopics_error_argument")
})

test_that("a fixed number of relevant documents works (also the default for small n_docs)", {
  # n_rel = c(9, 9) as doubles, and the default c(2, 2) for n_docs = 10, used
  # to fail with an unclassed vapply type error
  a <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 3, n_docs = 20, depth = 10,
                           n_rel = c(9, 9), seed = 1)
  expect_identical(a$truth$topics$n_rel, c(9L, 9L))
  expect_equal(as.vector(tapply(a$qrels$rel, a$qrels$topic, sum)), c(9, 9))
  b <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 3, n_docs = 10, depth = 5,
                           seed = 1)
  expect_identical(b$truth$topics$n_rel, 2L)
  expect_equal(nrow(b$runs), 2 * 3 * 5)
})
