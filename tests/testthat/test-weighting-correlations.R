test_that("Table 2 of Lee et al. (2009) is reproduced with the paper's runs and the geometric mean", {
  cols <- lee2009_collections()
  expect_equal(vapply(cols, nrow, 1L), c(ta6 = 56L, ta7 = 86L, ta8 = 116L))
  geo <- weighting_correlations(cols, mean = "geometric", floor = 1e-7)
  expect_lte(max(abs(geo$MAP_E_s - c(.904, .945, .959))), 1e-3)
  expect_lte(max(abs(geo$AAP_E_t - c(.867, .953, .882))), 1e-3)
  # HITS needs no reinterpretation: the paper's column exactly.
  expect_lte(max(abs(geo$MAP_A_s - c(.958, .995, .996))), 1e-3)
  expect_lte(max(abs(geo$AAP_A_t - c(.999, .999, .999))), 1e-3)
  expect_true(all(geo$converged))
  expect_output(print(geo), "GAWM: weighted geometric mean")
  # The paper's words (weighted arithmetic mean) do not reproduce its GAWM column.
  ari <- weighting_correlations(cols)
  expect_true(all(ari$MAP_E_s > 0.985))
  expect_true(all(ari$AAP_E_t > 0.999))
  expect_equal(ari$MAP_A_s, geo$MAP_A_s)
  expect_null(attr(as.data.frame(geo), "gawm"))
})
