test_that("query_map_mds refuses an infinite dissimilarity with a classed error (not MASS's)", {
  m <- matrix(c(0, 1, 2, 3,
                1, 0, Inf, 1,
                2, Inf, 0, 2,
                3, 1, 2, 0), 4, dimnames = list(paste0("q", 1:4), paste0("q", 1:4)))
  expect_error(query_map_mds(stats::as.dist(m)), "infinite", class = "irtopics_error_data")
  m[2, 3] <- m[3, 2] <- NaN
  expect_error(query_map_mds(stats::as.dist(m)), class = "irtopics_error_data")
})
