# Fixtures shared by tests that came from test-smoothing.R
# Spec 4.4: Q_a = {t1,t2}, Q_b = {t3,t4}, Q_c = {t5,t6}; S_x = {s1,s2}, S_y = {s3,s4}.
spec_prior <- function(ap) {
  prior <- ap[, 1:4]
  prior[c("s1", "s2"), c("t3", "t4")] <- NA
  prior[c("s3", "s4"), c("t1", "t2")] <- NA
  prior
}

# A straightforward base-R version of one repetition (spec 4.2).
reference_rep <- function(m, reference, topics, systems, k, lambdas, standardize) {
  qa <- topics[1:k]
  qb <- topics[k + 1:k]
  qc <- topics[2 * k + 1:k]
  n_x <- nrow(m) %/% 2
  sx <- systems[seq_len(n_x)]
  sy <- setdiff(seq_len(nrow(m)), sx)
  std <- function(x, ref_rows) {
    out <- x
    for (j in seq_len(ncol(x))) {
      r <- x[ref_rows, j]
      s <- if (length(r) > 1) sd(r) else 0
      out[, j] <- if (s > 0) pnorm(x[, j], mean(r), s) else 0.5
    }
    out
  }
  all_rows <- seq_len(nrow(m))
  new <- if (standardize) std(m[, qc, drop = FALSE], all_rows) else m[, qc, drop = FALSE]
  pa <- if (standardize) std(m[, qa, drop = FALSE], sx) else m[, qa, drop = FALSE]
  pb <- if (standardize) std(m[, qb, drop = FALSE], sy) else m[, qb, drop = FALSE]
  base_a <- if (standardize) std(m[, qa, drop = FALSE], all_rows) else m[, qa, drop = FALSE]
  prior <- numeric(nrow(m))
  prior[sx] <- rowMeans(pa[sx, , drop = FALSE])
  prior[sy] <- rowMeans(pb[sy, , drop = FALSE])
  nm <- rowMeans(new)
  out <- vapply(lambdas, function(l) cor(l * nm + (1 - l) * prior, reference, method = "kendall"), 0)
  c(out, cor(rowMeans(cbind(base_a, new)), reference, method = "kendall"))
}

