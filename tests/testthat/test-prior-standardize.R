test_that("standardized scores reproduce spec 4.4", {
  ap <- spec_smoothing_matrix()
  s <- standardize_scores(ap[, 5:6])
  expect_s3_class(s, "ir_scores")
  expect_equal(unname(s[, 1]), c(0.8836117456, 0.6444260924, 0.1332960263, 0.3254158084), tolerance = 1e-9)
  expect_equal(unname(s[, 2]), c(0.2864674100, 0.8925522341, 0.6324091011, 0.1551191492), tolerance = 1e-9)
  expect_equal(attr(s, "measure"), "std_score")
  expect_equal(attr(s, "standardization")$sd, apply(ap[, 5:6], 2, sd), ignore_attr = TRUE)
})

test_that("standardized scores equal pnorm of the per-topic z-score with the sample SD", {
  ap <- real_scores("adhoc6_ap.csv")
  m <- unclass(ap)
  s <- standardize_scores(ap)
  ref <- m
  for (j in seq_len(ncol(m))) ref[, j] <- pnorm(m[, j], mean(m[, j]), sd(m[, j]))
  attr(ref, "measure") <- NULL
  expect_equal(unclass(s)[, ], ref[, ], tolerance = 1e-13, ignore_attr = TRUE)
  expect_equal(attr(s, "measure"), "std_AP")
  # In (0, 1), and each topic ranks the systems as the raw scores do.
  expect_true(all(s > 0 & s < 1))
  for (j in seq_len(ncol(m))) {
    expect_equal(rank(unclass(s)[, j]), rank(m[, j]))
  }
})

test_that("a reference subset standardizes every system with its factors", {
  ap <- real_scores("adhoc6_ap.csv")
  m <- unclass(ap)
  ref_rows <- c(2, 5, 9, 20)
  s <- standardize_scores(ap, reference = rownames(m)[ref_rows])
  j <- 7
  expect_equal(unname(unclass(s)[, j]), unname(pnorm(m[, j], mean(m[ref_rows, j]), sd(m[ref_rows, j]))),
               tolerance = 1e-13)
  expect_equal(unclass(standardize_scores(ap, reference = ref_rows)), unclass(s))
  lg <- seq_len(nrow(m)) %in% ref_rows
  expect_equal(unclass(standardize_scores(ap, reference = lg)), unclass(s))
})

test_that("zero spread or one reference system gives 0.5", {
  P <- rbind(a = c(0, .2, .4), b = c(0, .3, .4), c = c(0, .6, .4))
  s <- standardize_scores(P)
  expect_equal(unname(s[, 1]), rep(0.5, 3))
  expect_equal(unname(s[, 3]), rep(0.5, 3))
  expect_false(any(s[, 2] == 0.5))
  s1 <- standardize_scores(P, reference = "b")
  expect_true(all(unclass(s1) == 0.5))
})

test_that("standardize_scores rejects bad input", {
  P <- spec_smoothing_matrix()
  expect_error(standardize_scores(P, reference = "zz"), class = "irtopics_error_argument")
  expect_error(standardize_scores(P, reference = 0), class = "irtopics_error_argument")
  expect_error(standardize_scores(P, reference = c(TRUE, FALSE)), class = "irtopics_error_argument")
  expect_error(standardize_scores(P, reference = rep(FALSE, 4)), class = "irtopics_error_argument")
  P[1, 1] <- NA
  expect_error(standardize_scores(P), class = "irtopics_error_data")
})
