# User indicators in topic_indicators() and the exported built-ins
# (R/variations.R, "Your own indicators").

indicator_sim <- function() {
  simulate_query_runs(n_systems = 3, n_topics = 3, n_queries = 7, n_docs = 300, depth = 200,
                      seed = 11)
}

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
