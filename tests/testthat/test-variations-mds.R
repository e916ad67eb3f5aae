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
