# User indicators in topic_indicators() and the exported built-ins
# (R/variations.R, "Your own indicators").

indicator_sim <- function() {
  simulate_query_runs(n_systems = 3, n_topics = 3, n_queries = 7, n_docs = 300, depth = 200,
                      seed = 11)
}


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

test_that("the exported built-ins given as user indicators reproduce E, U, C, S exactly", {
  sim <- indicator_sim()
  b <- builtin_indicators()
  expect_named(b, c("E", "U", "C", "S"))
  mine <- stats::setNames(b, paste0(names(b), "_user"))
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200, base = 10,
                          indicators = mine)
  df <- ind$indicators
  for (v in c("E", "U", "C", "S")) expect_identical(df[[paste0(v, "_user")]], df[[v]])
  expect_identical(ind$indicator_names, c("E", "U", "C", "S", "AP", names(mine)))
  # and the built-in columns are unchanged by adding indicators
  plain <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200, base = 10)
  expect_identical(plain$indicators, df[names(plain$indicators)])
})

test_that("the context holds the documented pieces, agreeing with independent computations", {
  sim <- indicator_sim()
  seen <- list()
  grab <- function(context) {
    seen[[length(seen) + 1L]] <<- context
    0
  }
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                          indicators = list(grab = grab))
  expect_length(seen, nrow(ind$indicators))
  ctx <- seen[[1]]
  expect_s3_class(ctx, "ir_indicator_context")
  q <- ind$queries[ind$queries$topic == ctx$topic & ind$queries$system == ctx$system, ]
  q <- q[order(q$selection_order), ]
  expect_identical(ctx$queries, q$query)
  expect_identical(ctx$selection_order, seq_along(q$query))
  expect_identical(ctx$letters, q$letter)
  expect_identical(ctx$n25, q$n25)
  expect_identical(ctx$exclusion, q$exclusion)
  expect_identical(ctx$ap, q$ap)
  # delta: the return-order dissimilarities of return_order_dissimilarity()
  d <- as.matrix(return_order_dissimilarity(sim$runs, sim$qrels, ctx$topic, sim$query_map,
                                            depth = 200))
  ids <- paste(ctx$system, ctx$queries, sep = "|")
  expect_equal(unname(ctx$delta), unname(d[ids, ids]))
  # B: classical-MDS double centring, checked with an explicit centring matrix
  n <- length(ids)
  J <- diag(n) - matrix(1 / n, n, n)
  expect_equal(unname(ctx$B), unname(-0.5 * J %*% ctx$delta^2 %*% J))
  expect_equal(ctx$eigenvalues, sort(eigen(ctx$B)$values, decreasing = TRUE))
  # the C++ cloud summary (abar, b11, lambda1) agrees with the context
  cl <- irtopics:::cpp_query_cloud(unname(ctx$delta))
  expect_equal(sum(diag(ctx$B)) / n, cl[["abar"]], tolerance = 1e-12)
  expect_equal(ctx$B[1, 1], cl[["b11"]], tolerance = 1e-12)
  expect_equal(ctx$eigenvalues[1], cl[["lambda1"]], tolerance = 1e-12)
  expect_identical(ctx$base, exp(1))
})

test_that("user indicators reach indicator_differences(), summary() and the plots", {
  sim <- indicator_sim()
  spread <- function(context) stats::sd(context$ap)
  ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200,
                          indicators = list(sd_AP = spread))
  df <- ind$indicators
  s1 <- sim$truth$systems$system[1]
  s2 <- sim$truth$systems$system[2]
  # sd of the per-query AP, recomputed from $queries
  q <- ind$queries
  ref <- tapply(q$ap, paste(q$topic, q$system), stats::sd)
  expect_equal(df$sd_AP, as.vector(ref[paste(df$topic, df$system)]))
  dif <- indicator_differences(ind, s1, s2)
  expect_true("sd_AP" %in% names(dif$differences))
  a <- df[df$system == s1, ]
  b <- df[df$system == s2, ]
  expect_equal(dif$differences$sd_AP, a$sd_AP - b$sd_AP[match(a$topic, b$topic)])
  expect_true("sd_AP" %in% names(as.data.frame(summary(ind))))
  expect_true("sd_AP" %in% as.data.frame(summary(dif))$indicator)
  p <- ggplot2::autoplot(dif, x = "E", y = "sd_AP")
  ld <- ggplot2::layer_data(p, 3L)
  expect_equal(sort(ld$y), sort(dif$differences$sd_AP))
  p2 <- ggplot2::autoplot(ind, type = "ap", indicator = "sd_AP")
  expect_equal(sort(ggplot2::layer_data(p2)$x), sort(df$sd_AP))
  expect_error(ggplot2::autoplot(dif, x = "E"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(dif, x = "E", y = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(ind, type = "ap", topic = "sim01"), class = "irtopics_error_argument")
})

test_that("bad user indicators give classed errors", {
  sim <- indicator_sim()
  run <- function(ind) topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                                        indicators = ind)
  expect_error(run(list(function(context) 1)), class = "irtopics_error_argument")
  expect_error(run(list(E = indicator_exclusion)), class = "irtopics_error_argument")
  expect_error(run(list(x = "not a function")), class = "irtopics_error_argument")
  expect_error(run(list(two = function(context) c(1, 2))), class = "irtopics_error_data")
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

test_that("a system without a list for a query counts as an empty list, with a warning", {
  o <- make_orders(list(a = spec_queries, b = spec_queries[c("q1", "q3", "q4")]))
  expect_warning(expect_warning(ind <- topic_indicators(o), "missing", class = "irtopics_warning_data"),
                 "NA for 1 of 1 topics", class = "irtopics_warning_data")
  q <- ind$queries
  expect_equal(q$n_returned[q$system == "b" & q$query == "q2"], 0L)
  expect_equal(q$n25[q$system == "b" & q$query == "q2"], 1000 * 2)
  expect_true(is.na(ind$indicators$U[ind$indicators$system == "b"]))
  expect_equal(ind$indicators$U[ind$indicators$system == "a"], 0.5559274778, tolerance = 1e-9)
})
