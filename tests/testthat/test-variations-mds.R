test_that("query_map_mds refuses an infinite dissimilarity with a classed error (not MASS's)", {
  m <- matrix(c(0, 1, 2, 3,
                1, 0, Inf, 1,
                2, Inf, 0, 2,
                3, 1, 2, 0), 4, dimnames = list(paste0("q", 1:4), paste0("q", 1:4)))
  expect_error(query_map_mds(stats::as.dist(m)), "infinite", class = "irtopics_error_data")
  m[2, 3] <- m[3, 2] <- NaN
  expect_error(query_map_mds(stats::as.dist(m)), class = "irtopics_error_data")
})

test_that("extreme but finite dissimilarities are scaled, or refused with a classed error (issue 29)", {
  set.seed(4)
  d0 <- dist(matrix(runif(24), 8))  # 3-d points in 2 dimensions: stress > 0
  attr(d0, "Labels") <- paste0("s|q", 1:8)
  # isoMDS is non-metric: far out of range, the map is isoMDS's of d / max(d),
  # its points scaled back
  ref <- MASS::isoMDS(d0 / max(d0), trace = FALSE)
  expect_gt(ref$stress, 0)
  ref_d <- as.vector(dist(ref$points))
  # denormal dissimilarities (1e-320) carry few digits: a map, not the same one
  expect_true(all(is.finite(as.matrix(query_map_mds(d0 * 1e-320)$points[, c("dim1", "dim2")]))))
  for (sc in c(1e-300, 1e-150, 1e101, 1e200, 1e307)) {
    d <- d0 * sc
    m <- query_map_mds(d)
    expect_equal(m$stress, ref$stress, tolerance = 1e-6, label = format(sc))
    pts <- as.matrix(m$points[, c("dim1", "dim2")]) / (sc * max(d0))
    expect_equal(as.vector(dist(pts)), ref_d, tolerance = 1e-6, label = format(sc))
  }
  # one value of 1e308 among values near 1: 300 orders of magnitude, refused
  d <- d0
  d[3] <- 1e308
  expect_error(query_map_mds(d), class = "irtopics_error_data", regexp = "orders of magnitude")
  d <- d0
  d[3] <- 1e-250
  expect_error(query_map_mds(d), class = "irtopics_error_data", regexp = "orders of magnitude")
  # still Inf and 0 are named as such
  d[3] <- Inf
  expect_error(query_map_mds(d), class = "irtopics_error_data", regexp = "infinite")
  # in range: the numbers are untouched (no scaling below 1e100)
  expect_identical(query_map_mds(d0 * 1e50)$stress, MASS::isoMDS(d0 * 1e50, trace = FALSE)$stress)
})

# Two identical systems (CLEF's Run1 and Run2, issue 25): the copy's lists sit
# at distance 0 from the original's.
dup_system_dist <- function(seed = 2) {
  sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300, depth = 200,
                             seed = seed)
  runs <- sim$runs
  copy <- runs[runs$system == "sim_w3", ]
  copy$system <- "sim_w3_again"
  return_order_dissimilarity(rbind(runs, copy), sim$qrels, "sim01", sim$query_map, depth = 200)
}

test_that("identical systems are merged into shared points, the same map as without the copy", {
  d <- dup_system_dist()
  expect_message(m <- query_map_mds(d), "12 of 18 lists share 6 points.*sim_w3 = sim_w3_again",
                 class = "irtopics_message_data")
  p <- m$points
  a <- p[p$system == "sim_w3", ]
  b <- p[p$system == "sim_w3_again", ]
  expect_identical(a$query, b$query)
  expect_identical(a[c("point", "dim1", "dim2")], b[c("point", "dim1", "dim2")], ignore_attr = TRUE)
  expect_identical(length(unique(p$point)), 12L)
  # reference: isoMDS of the lists without the copy
  keep <- !grepl("^sim_w3_again\\|", labels(d))
  ref <- MASS::isoMDS(stats::as.dist(as.matrix(d)[keep, keep]), trace = FALSE)
  expect_equal(m$stress, ref$stress)
  expect_equal(unname(as.matrix(p[keep, c("dim1", "dim2")])), unname(ref$points))
  # print and summary say so
  expect_match(format(m)[2], "12 of 18 lists share 6 points")
  expect_match(summary(m)$title[2], "12 of 18 lists share 6 points")
  # or refused, with the fix that applies
  expect_error(query_map_mds(d, duplicates = "error"), "duplicates = \"merge\"", class = "irtopics_error_data")
  expect_error(query_map_mds(d, duplicates = "drop"), class = "irtopics_error_argument")
})

test_that("the merged dissimilarity of two groups is the mean over their lists; negatives are refused", {
  m <- matrix(c(0, 0, 2, 4,  3,
                0, 0, 2.2, 4, 3,
                2, 2.2, 0, 1, 2,
                4, 4, 1, 0, 1.5,
                3, 3, 2, 1.5, 0), 5, dimnames = list(paste0("s|q", 1:5), paste0("s|q", 1:5)))
  r <- irtopics:::merge_zero_distances(m, rownames(m), "merge")
  expect_identical(r$point, c(1L, 1L, 2L, 3L, 4L))
  expect_equal(r$m[1, 2], 2.1)
  expect_equal(r$m[2:4, 2:4], m[3:5, 3:5], ignore_attr = TRUE)
  m[1, 3] <- m[3, 1] <- -1
  expect_error(query_map_mds(stats::as.dist(m)), "at least 0", class = "irtopics_error_data")
  # too few distinct points left
  z <- matrix(0, 4, 4, dimnames = list(letters[1:4], letters[1:4]))
  z[1:2, 3:4] <- z[3:4, 1:2] <- 1
  expect_error(suppressMessages(query_map_mds(stats::as.dist(z))), "distinct points", class = "irtopics_error_data")
})

test_that("the map shows every system where two coincide: shapes, repelled letters, a note", {
  d <- dup_system_dist()
  m <- suppressMessages(query_map_mds(d))
  p <- ggplot2::autoplot(m)
  b <- ggplot2::ggplot_build(p)
  pts <- b$data[[1]]
  expect_equal(nrow(pts), 18L)
  # the two identical systems differ in colour and shape at the same place
  sys <- as.character(m$points$system)
  same <- pts[sys %in% c("sim_w3", "sim_w3_again"), ]
  expect_length(unique(same$shape), 2L)
  expect_length(unique(same$colour), 2L)
  expect_s3_class(p$layers[[2]]$geom, if (requireNamespace("ggrepel", quietly = TRUE)) "GeomTextRepel" else "GeomText")
  expect_setequal(b$data[[2]]$label, m$points$letter)
  expect_match(p$labels$caption, "share 6 points")
  withr::local_options(irtopics.plot_titles = FALSE)
  expect_message(q <- ggplot2::autoplot(m), "share 6 points", class = "irtopics_message_layout")
  expect_null(q$labels$caption)
})

test_that("query-map figures follow the user's theme and fit a column and a page", {
  m <- suppressMessages(query_map_mds(dup_system_dist()))
  make <- function() suppressMessages(ggplot2::autoplot(m))
  expect_follows_user_theme(make)
  # an isoMDS map keeps equal axes (its distances are the data), so a wide
  # map leaves empty width beside its panel at 3.5 x 2.6 in: 0.35, not 0.45
  expect_figure_ready(make(), min_panel = 0.35)
  expect_figure_ready(make(), width = 7, height = 4.5)
})
