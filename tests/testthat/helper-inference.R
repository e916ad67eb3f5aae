# Sakai's Table 5.1 (fixtures/sakai/README.md) as a 3 x 20 systems x topics matrix.
sakai_table51 <- function() {
  d <- utils::read.csv(test_path("fixtures", "sakai", "table5_1.csv"), check.names = FALSE)
  m <- t(as.matrix(d[, -1]))
  colnames(m) <- d$topic
  as_ir_scores(m, measure = "score")
}

# Cronbach's alpha in plain base R (an independent reference for the C++ kernel).
psych_free_alpha <- function(m) {
  k <- ncol(m)
  k / (k - 1) * (1 - sum(apply(m, 2, stats::var)) / stats::var(rowSums(m)))
}

# A Monte Carlo p-value from the replicates' "at least as extreme" flags:
# (count + 1) / (B + 1) (Phipson & Smyth 2010), the package's rule for every
# Monte Carlo test.
mc_pvalue <- function(hit) (sum(hit) + 1) / (length(hit) + 1)
