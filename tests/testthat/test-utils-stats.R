# tie_means(): the one rule by which means are ranked (issue 40).

test_that("tie_means() ties means that rounding set apart, and only those", {
  # 0.1 + 0.2 and 0.3: one mean of P@10 in tenths, two doubles
  x <- c(a = (0.1 + 0.2) / 2, b = 0.3 / 2, c = 0.2)
  expect_false(x[["a"]] == x[["b"]])
  tied <- tie_means(x, scale = 1)
  expect_identical(tied[["a"]], tied[["b"]])
  expect_identical(tied[["a"]], min(x[c("a", "b")]))
  expect_identical(tied[["c"]], 0.2)
  expect_named(tied, c("a", "b", "c"))
  expect_identical(rank(-tied, ties.method = "min"), c(a = 2L, b = 2L, c = 1L))
  # a difference above 1e-9 of the scale stays; the scale sets the tolerance
  expect_identical(tie_means(c(0, 2e-9), scale = 1), c(0, 2e-9))
  expect_identical(tie_means(c(0, 2e-9), scale = 10), c(0, 0))
  # a chain of close values is one group, whatever its span
  expect_identical(tie_means(c(3e-10, 0, 6e-10, 1), scale = 1), c(0, 0, 0, 1))
  # columns of a matrix are tied separately; NA stays; dim and dimnames kept
  m <- matrix(c(0.3, (0.1 + 0.2), NA, 0.3, 0.3 + 1e-6, 0.5), 3,
              dimnames = list(c("s1", "s2", "s3"), c("b1", "b2")))
  tm <- tie_means(m, scale = 1)
  expect_identical(dimnames(tm), dimnames(m))
  expect_identical(tm[, "b1"], c(s1 = 0.3, s2 = 0.3, s3 = NA))
  expect_identical(tm[, "b2"], m[, "b2"])
  # with the default scale, the largest absolute value; zero: exact ties only
  expect_identical(tie_means(c(1e-10, 0, 1)), c(0, 0, 1))
  expect_identical(tie_means(c(0, 0)), c(0, 0))
  expect_identical(tie_means(c(NA_real_, NA_real_)), c(NA_real_, NA_real_))
})
