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

test_that("midranks tie every unreturned document (spec 1.4)", {
  m <- matrix(as.integer(c(spec_list_a, spec_list_b)), 8)
  r <- irtopics:::cpp_return_order_midranks(m, 1000L)
  expect_equal(r[, 1], c(2, 3, 7.5, 4, 5, 7.5, 1, 6))
  expect_equal(r[, 2], c(1, 2, 3, 7, 4, 7, 7, 5))
  set.seed(1)
  x <- matrix(sample(c(1:60, rep(61L, 40))), 20)
  expect_equal(irtopics:::cpp_return_order_midranks(x, 60L), apply(x, 2, rank))
})

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

spec_indicator_orders <- function(queries = spec_queries, text = NULL) {
  make_orders(list(sys = queries), text = text)
}

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

test_that("U, C, S agree with a base-R double centring and eigen()", {
  set.seed(5)
  lists <- list(s = lapply(stats::setNames(1:7, sprintf("q%d", 1:7)), function(i) {
    sample(c(sample(1000, 30), rep(1001, 8)), 30)
  }))
  o <- make_orders(lists)
  ind <- topic_indicators(o)
  sel <- ind$queries$query
  r <- apply(o$orders$t1[, paste0("s|", sel)], 2, rank)
  d2 <- 2 * (1 - cor(r))
  n <- length(sel)
  j <- diag(n) - 1 / n
  b <- -0.5 * j %*% d2 %*% j
  abar <- sum(diag(b)) / n
  expect_equal(abar, sum(d2) / (2 * n^2))
  expect_equal(ind$indicators$U, -log(abar))
  expect_equal(ind$indicators$C, -log(b[1, 1] / abar))
  expect_equal(ind$indicators$S, -log(max(eigen(b, symmetric = TRUE)$values) / abar))
})

test_that("indicators are unchanged by relabelling queries other than the best one", {
  o <- make_orders(list(a = spec_queries,
                        b = lapply(spec_queries, function(p) rev(p))))
  ref <- topic_indicators(o)$indicators
  # rename and reorder q2..q4 in the map (q1 stays the best query)
  renamed <- list(a = list(q1 = spec_queries$q1, z9 = spec_queries$q4, m2 = spec_queries$q2,
                           k7 = spec_queries$q3),
                  b = list(q1 = rev(spec_queries$q1), z9 = rev(spec_queries$q4),
                           m2 = rev(spec_queries$q2), k7 = rev(spec_queries$q3)))
  o2 <- make_orders(renamed)
  got <- topic_indicators(o2)$indicators
  expect_equal(got[c("E", "U", "C", "S", "AP")], ref[c("E", "U", "C", "S", "AP")])
  # relabelling the best query changes the centering indicator in general
  got3 <- topic_indicators(make_orders(list(a = spec_queries[c(2, 1, 3, 4)],
                                            b = lapply(spec_queries[c(2, 1, 3, 4)], rev))))
  expect_equal(got3$indicators$U, ref$U)
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

test_that("topic_indicators covers every topic and system", {
  o <- combine_orders(
    make_orders(list(a = spec_queries, b = lapply(spec_queries, rev)), topic = "t1"),
    make_orders(list(a = lapply(spec_queries, function(p) c(p, 1001)),
                     b = lapply(spec_queries, function(p) c(rev(p), 4))), topic = "t2"))
  o$queries$query <- c("q1", "q2", "q3", "q4", "r1", "r2", "r3", "r4")
  o$lists$query[o$lists$topic == "t2"] <- rep(c("r1", "r2", "r3", "r4"), 2)
  colnames(o$orders$t2) <- paste0(rep(c("a", "b"), each = 4), "|r", 1:4)
  o$lists$list[o$lists$topic == "t2"] <- colnames(o$orders$t2)
  ind <- topic_indicators(o)
  expect_equal(nrow(ind$indicators), 4L)
  expect_equal(ind$indicators$topic, c("t1", "t1", "t2", "t2"))
  expect_equal(ind$indicators$n_rel, c(6L, 6L, 7L, 7L))
  expect_equal(as.data.frame(ind), ind$indicators)
  dif <- indicator_differences(ind, "a", "b")
  expect_equal(dif$differences$E,
               ind$indicators$E[c(1, 3)] - ind$indicators$E[c(2, 4)])
  expect_error(indicator_differences(ind, "a", "zz"), class = "irtopics_error_argument")
  expect_snapshot(print(ind))
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
  expect_error(query_map_mds(d0), "a|q3 = a|q5", fixed = TRUE, class = "irtopics_error_data")
  dna <- return_order_dissimilarity(make_orders(list(a = c(qs[1:4], list(q5 = rep(1001, 6))))),
                                    topic = "t1")
  expect_error(query_map_mds(dna), class = "irtopics_error_data")
  expect_error(query_map_mds(as.matrix(d)), class = "irtopics_error_argument")
  # isoMDS's own arguments are checked first (tol = NaN reached C unclassed)
  expect_error(query_map_mds(d, tol = NaN), class = "irtopics_error_argument")
  expect_error(query_map_mds(d, maxit = -1), class = "irtopics_error_argument")
  expect_error(query_map_mds(d, p = -2), class = "irtopics_error_argument")
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

test_that("a system without a list for a query counts as an empty list, with a warning", {
  o <- make_orders(list(a = spec_queries, b = spec_queries[c("q1", "q3", "q4")]))
  expect_warning(ind <- topic_indicators(o), class = "irtopics_warning_data")
  q <- ind$queries
  expect_equal(q$n_returned[q$system == "b" & q$query == "q2"], 0L)
  expect_equal(q$n25[q$system == "b" & q$query == "q2"], 1000 * 2)
  expect_true(is.na(ind$indicators$U[ind$indicators$system == "b"]))
  expect_equal(ind$indicators$U[ind$indicators$system == "a"], 0.5559274778, tolerance = 1e-9)
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
  expect_snapshot(query_map_mds(d0), error = TRUE)
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

test_that("query_map_mds refuses an infinite dissimilarity with a classed error (not MASS's)", {
  m <- matrix(c(0, 1, 2, 3,
                1, 0, Inf, 1,
                2, Inf, 0, 2,
                3, 1, 2, 0), 4, dimnames = list(paste0("q", 1:4), paste0("q", 1:4)))
  expect_error(query_map_mds(stats::as.dist(m)), "infinite", class = "irtopics_error_data")
  m[2, 3] <- m[3, 2] <- NaN
  expect_error(query_map_mds(stats::as.dist(m)), class = "irtopics_error_data")
})
