test_that("collection_diagnostics(seed = NULL) draws one set of swap trials for every measure", {
  x <- design_pair()
  set.seed(3)
  d <- collection_diagnostics(x, B = 50, trials = 10)
  # the same topic sets for both measures: one seed, recorded in both results
  expect_true(is.numeric(d$swap[[1]]$seed) && length(d$swap[[1]]$seed) == 1L)
  expect_identical(d$swap[[1]]$seed, d$swap[[2]]$seed)
  again <- swap_error_rates(x$AP, sizes = d$swap[[1]]$sizes, trials = 10, seed = d$swap[[1]]$seed)
  expect_identical(again$error$error_rate, d$swap[[1]]$error$error_rate)
  set.seed(3)
  d2 <- collection_diagnostics(x, B = 50, trials = 10)
  expect_identical(d2$table, d$table)
})
