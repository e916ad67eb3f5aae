test_that("the draws are a pure function of (seed, replicate)", {
  seed <- resolve_seed(17)
  all <- resample_draws("indices", seed, n = 30, count = 50)
  part <- resample_draws("indices", seed, n = 30, first = 21, count = 10)
  expect_identical(part, all[, 21:30])
  p_all <- resample_draws("permutations", seed, n = 5, m = 4, count = 6)
  p_part <- resample_draws("permutations", seed, n = 5, m = 4, first = 4, count = 3)
  expect_identical(p_part, p_all[, , 4:6, drop = FALSE])
  expect_false(identical(resample_draws("signs", resolve_seed(18), n = 100, count = 3),
                         resample_draws("signs", seed, n = 100, count = 3)))
  # bootstrap indices are uniform: each topic about B/n times
  many <- resample_draws("indices", seed, n = 10, count = 5000)
  expect_lt(max(abs(tabulate(many, 10) / 50000 - 0.1)), 0.01)
})
