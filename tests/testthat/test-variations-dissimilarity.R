test_that("s_AB with and without the tie correction (spec 1.5)", {
  o <- make_orders(list(sys = list(A = spec_list_a, B = spec_list_b)))
  d <- return_order_dissimilarity(o, topic = "t1")
  expect_s3_class(d, "dist")
  expect_equal(attr(d, "Labels"), c("sys|A", "sys|B"))
  expect_equal(attr(d, "similarity")[1, 2], 0.1472642081, tolerance = 1e-9)
  expect_equal(attr(d, "similarity")[1, 2], gibbons_s(spec_list_a, spec_list_b))
  expect_equal(attr(d, "similarity")[1, 2], cor(rank(spec_list_a), rank(spec_list_b)))
  expect_equal(as.vector(d), 1.305937052, tolerance = 1e-9)
  d1 <- return_order_dissimilarity(o, topic = "t1", dissimilarity = "sqrt")
  expect_equal(as.vector(d1), 0.9234369453, tolerance = 1e-9)
  d0 <- return_order_dissimilarity(o, topic = "t1", tie_correction = FALSE)
  expect_equal(attr(d0, "similarity")[1, 2], 0.1726190476, tolerance = 1e-9)
  expect_equal(attr(d0, "similarity")[1, 2], untied_s(spec_list_a, spec_list_b))
})

test_that("delta is the Euclidean distance of normalised midrank vectors", {
  set.seed(11)
  n_rel <- 25
  lists <- list()
  for (s in c("s1", "s2")) {
    lists[[s]] <- list()
    for (q in sprintf("q%d", 1:6)) {
      pos <- sample(c(sample(1000, n_rel), rep(1001, 10)), n_rel)
      lists[[s]][[q]] <- pos
    }
  }
  o <- make_orders(lists)
  d <- return_order_dissimilarity(o, topic = "t1")
  r <- apply(o$orders$t1, 2, rank)
  z <- apply(r, 2, function(v) (v - mean(v)) / sqrt(sum((v - mean(v))^2)))
  expect_equal(as.matrix(d), as.matrix(dist(t(z))), tolerance = 1e-12)
  expect_equal(attr(d, "similarity"), cor(r), tolerance = 1e-12, ignore_attr = TRUE)
  # Gibbons' formula as well
  expect_equal(attr(d, "similarity")[3, 8], gibbons_s(o$orders$t1[, 3], o$orders$t1[, 8]))
  # threads do not change the result
  d2 <- return_order_dissimilarity(o, topic = "t1", n_threads = 2)
  expect_identical(as.vector(d), as.vector(d2))
  # lists and letters
  l <- attr(d, "lists")
  expect_equal(l$system, rep(c("s1", "s2"), each = 6))
  expect_equal(l$letter, rep(LETTERS[1:6], 2))
  # a subset of queries in a given order
  ds <- return_order_dissimilarity(o, topic = "t1", queries = c("q3", "q1"), systems = "s2")
  expect_equal(attr(ds, "Labels"), c("s2|q3", "s2|q1"))
  expect_equal(as.vector(ds), as.matrix(d)["s2|q3", "s2|q1"])
})

test_that("undefined similarities are NA; identical lists give exactly 0", {
  o <- make_orders(list(s = list(a = c(1, 5, 9), b = c(1001, 1001, 1001), c = c(1, 5, 9),
                                 e = c(2, 3, 1))))
  d <- as.matrix(return_order_dissimilarity(o, topic = "t1"))
  expect_true(all(is.na(d["s|b", c("s|a", "s|c", "s|e")])))
  expect_identical(d["s|a", "s|c"], 0)
  o1 <- make_orders(list(s = list(a = 5, b = 7)))
  expect_true(is.na(as.vector(return_order_dissimilarity(o1, topic = "t1"))))
})

test_that("query_map_mds names pairs at zero distance and matches MASS::isoMDS", {
  o <- make_orders(list(a = spec_queries, b = lapply(spec_queries, rev)))
  d <- return_order_dissimilarity(o, topic = "t1")
  m <- query_map_mds(d)
  ref <- MASS::isoMDS(stats::as.dist(as.matrix(d)), k = 2, trace = FALSE)
  expect_equal(unname(as.matrix(m$points[, c("dim1", "dim2")])), unname(ref$points))
  expect_equal(m$stress, ref$stress)
  expect_equal(m$points$letter, rep(c("A", "B", "C", "D"), 2))
  expect_equal(m$points$system, rep(c("a", "b"), each = 4))
  qs <- c(spec_queries, list(q5 = spec_queries$q3))
  d0 <- return_order_dissimilarity(make_orders(list(a = qs)), topic = "t1")
  expect_error(query_map_mds(d0, duplicates = "error"), "a|q3 = a|q5", fixed = TRUE,
               class = "irtopics_error_data")
  # merged by default: q5 takes q3's point
  expect_message(m0 <- query_map_mds(d0), "2 of 5 lists share 1 point", class = "irtopics_message_data")
  expect_identical(m0$points$point, c(1L, 2L, 3L, 4L, 3L))
  dna <- return_order_dissimilarity(make_orders(list(a = c(qs[1:4], list(q5 = rep(1001, 6))))),
                                    topic = "t1")
  expect_error(query_map_mds(dna), class = "irtopics_error_data")
  expect_error(query_map_mds(as.matrix(d)), class = "irtopics_error_argument")
  # isoMDS's own arguments are checked first (tol = NaN reached C unclassed)
  expect_error(query_map_mds(d, tol = NaN), class = "irtopics_error_argument")
  expect_error(query_map_mds(d, maxit = -1), class = "irtopics_error_argument")
  expect_error(query_map_mds(d, p = -2), class = "irtopics_error_argument")
})

test_that("near-identical and identical lists keep full accuracy", {
  set.seed(8)
  base <- sample(c(sample(1000, 400), rep(1001, 100)))
  near <- base
  i <- which(base <= 1000)[1:2]
  near[i] <- near[rev(i)]  # swap two returned documents
  lists <- list(s = list(a = base, b = near, c = base, d = sample(base), e = base))
  o <- make_orders(lists)
  d <- as.matrix(return_order_dissimilarity(o, topic = "t1", n_threads = 2))
  r <- apply(o$orders$t1, 2, rank)
  z <- apply(r, 2, function(v) (v - mean(v)) / sqrt(sum((v - mean(v))^2)))
  ref <- as.matrix(dist(t(z)))
  expect_equal(d["s|a", "s|b"], ref[1, 2], tolerance = 1e-10)
  expect_gt(d["s|a", "s|b"], 0)
  expect_identical(d["s|a", "s|c"], 0)
  expect_identical(d["s|a", "s|e"], 0)
  expect_equal(d, ref, tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("dist printing, plain dist input to query_map_mds, threads in topic_indicators", {
  o <- make_orders(list(a = spec_queries, b = lapply(spec_queries, rev)))
  d <- return_order_dissimilarity(o, topic = "t1")
  expect_snapshot(print(return_order_dissimilarity(o, topic = "t1", systems = "a")))
  expect_snapshot(print(d))
  plain <- stats::as.dist(as.matrix(d))
  m <- query_map_mds(plain)
  expect_equal(m$points$system, rep(c("a", "b"), each = 4))
  expect_equal(m$points$query, rep(names(spec_queries), 2))
  set.seed(4)
  big <- make_orders(list(a = lapply(stats::setNames(1:9, paste0("q", 1:9)), function(i) sample(c(1:40, rep(1001, 20)))[1:30]),
                          b = lapply(stats::setNames(1:9, paste0("q", 1:9)), function(i) sample(c(1:40, rep(1001, 20)))[1:30])))
  expect_identical(topic_indicators(big, n = 6, n_threads = 1)$indicators,
                   topic_indicators(big, n = 6, n_threads = 2)$indicators)
})

test_that("gauge ties follow the order of the query map", {
  sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 5, n_docs = 200,
                             depth = 60, seed = 9)
  rev_map <- sim$query_map[5:1, ]
  o <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", rev_map, depth = 60)
  expect_equal(unique(attr(o, "lists")$query), rev_map$query)
})

test_that("error messages name the offending lists and topics", {
  qs <- c(spec_queries, list(q5 = spec_queries$q3))
  d0 <- return_order_dissimilarity(make_orders(list(a = qs)), topic = "t1")
  expect_snapshot(query_map_mds(d0, duplicates = "error"), error = TRUE)
  o0 <- make_orders(list(a = spec_queries))
  o0$orders$t1 <- o0$orders$t1[0, , drop = FALSE]
  expect_snapshot(return_order_dissimilarity(o0, topic = "t1"), error = TRUE)
  expect_snapshot(topic_indicators(make_orders(list(a = spec_queries["q1"]))), error = TRUE)
})

test_that("with tol = 0, queries at distance 0 give U = Inf and NA (not NaN) for C and S", {
  # same return order at different positions: delta = 0, but not identical lists
  o <- make_orders(list(s = list(q1 = c(1, 2, 1001, 4), q2 = c(3, 5, 1001, 9))))
  expect_identical(as.vector(return_order_dissimilarity(o, topic = "t1")), 0)
  ind <- expect_silent(topic_indicators(o, tol = 0))$indicators
  expect_equal(ind$n_queries, 2L)
  expect_identical(ind$U, Inf)
  expect_identical(ind$C, NA_real_)
  expect_identical(ind$S, NA_real_)
  # with the default tolerance q2 is a duplicate of q1
  expect_warning(topic_indicators(o), class = "irtopics_warning_data")
})
