# Fixtures shared by tests that came from test-design.R
# Discriminative power -------------------------------------------------------------

design_pair <- function(k = 10) {
  path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
  ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
  p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
  keep <- rownames(ap)[seq_len(k)]
  list(AP = ap[keep, ], `P@10` = p10[keep, ])
}

# Sakai's studentized bootstrap in base R, given the n x B index matrix.
base_bootstrap <- function(x, i, k, idx) {
  d <- x[i, ] - x[k, ]
  n <- length(d)
  t0 <- mean(d) / (sd(d) / sqrt(n))
  w <- d - mean(d)
  scale <- max(abs(x[c(i, k), ]))
  ts <- apply(idx, 2, function(j) {
    s <- sd(w[j])
    if (s <= 1e-9 * scale) 0 else mean(w[j]) / (s / sqrt(n))
  })
  mc_pvalue(abs(ts) >= abs(t0) * (1 - 1e-9) - 1e-9)
}

