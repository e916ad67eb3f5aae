# Fixtures shared by tests that came from test-compare.R
# compare_systems(): every value of the inference spec's section 8 for
# Sakai's Table 5.1, the classical tests against stats:: on real matrices,
# and the resampling tests against plain base-R code on the same draws.

robust20 <- function(file = "robust2004_ap.csv", measure = "AP") {
  real_scores(file, measure)[1:20, ]
}

row_of <- function(cmp, s1, s2) {
  tab <- cmp$table
  tab[tab$system1 == s1 & tab$system2 == s2, , drop = FALSE]
}


# A systems x measures matrix with the measure names dropped (to compare
# marks of two comparisons whose measures are named differently).
unname_cols <- function(m) {
  colnames(m) <- NULL
  m
}
