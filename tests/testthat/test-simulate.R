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

test_that("simulated files are valid TREC files matching the data frames", {
  dir <- withr::local_tempdir()
  a <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 3, n_docs = 100,
                           depth = 20, seed = 1, dir = dir)
  expect_true(all(file.exists(c(a$files$runs, a$files$qrels, a$files$query_map))))
  run <- utils::read.table(a$files$runs[1], col.names = c("topic", "q0", "docno", "rank", "score", "tag"))
  ref <- a$runs[a$runs$system == "sim_w3", ]
  expect_equal(run$docno, ref$docno)
  expect_equal(run$score, ref$score)
  expect_true(all(run$tag == "sim_w3"))
  qrels <- utils::read.table(a$files$qrels, col.names = c("topic", "iter", "docno", "rel"))
  expect_equal(qrels$docno, a$qrels$docno)
  qm <- irtopics:::read_query_map(a$files$query_map)
  expect_equal(qm$query, a$query_map$query)
  expect_equal(qm$text, a$query_map$text)
})

test_that("the analysis recovers the planted key-word specificity", {
  sim <- simulate_query_runs(n_systems = 2, n_topics = 8, n_queries = 12, n_docs = 800,
                             depth = 300, seed = 7, specificity = seq(0, 1, length.out = 8))
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 10, depth = 300)
  expect_true(ind$simulated)
  dif <- indicator_differences(ind, "sim_w3", "sim_w0.5")$differences
  spec <- sim$truth$topics$specificity[match(dif$topic, sim$truth$topics$topic)]
  expect_gt(cor(dif$E, spec), 0.6)
  # the heavy-weighting system's return orders are more uniform
  expect_true(all(dif$U > 0))
})
