# Calibration of the Monte Carlo p-values of compare_systems(): familywise
# error with Holm's correction over all 136 pairs of 17 systems that do not
# differ (the null hypothesis holds for every pair), for the package's
# p = (count + 1) / (B + 1) (Phipson & Smyth 2010) and for the former
# count / B, recovered from the same draws as (p (B + 1) - 1) / B.
#
# Data: x[s, t] = u[t] + e[s, t], topic effects u ~ N(0.3, 0.15^2) and
# errors e ~ N(0, 0.1^2) independent, so the per-topic differences of any
# pair are symmetric about 0 (randomisation test) with mean 0 (bootstrap).
#
# Usage, from the package root:  Rscript bench/pvalues.R [datasets]
# (default 500 datasets; pkgload::load_all() is enough, speed is not measured)

args <- commandArgs(TRUE)
R <- if (length(args)) as.integer(args[1]) else 500L
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE)

one <- function(r, test, B, m = 17, n = 50) {
  set.seed(r)
  x <- matrix(rnorm(m * n, 0, 0.1), m) + rep(rnorm(n, 0.3, 0.15), each = m)
  dimnames(x) <- list(paste0("s", seq_len(m)), paste0("t", seq_len(n)))
  p <- compare_systems(x, test = test, B = B, seed = r, exact = if (test == "randomization") FALSE,
                       correction = "none")$table$p.value
  old <- (p * (B + 1) - 1) / B
  c(new_fwer = any(p.adjust(p, "holm") <= 0.05), old_fwer = any(p.adjust(old, "holm") <= 0.05),
    new_pair = mean(p <= 0.05), old_pair = mean(old <= 0.05), min_new = min(p), min_old = min(old))
}

settings <- expand.grid(test = c("randomization", "bootstrap"), B = c(1000L, 10000L),
                        stringsAsFactors = FALSE)
out <- do.call(rbind, lapply(seq_len(nrow(settings)), function(i) {
  st <- settings[i, ]
  t0 <- Sys.time()
  res <- vapply(seq_len(R), one, numeric(6), test = st$test, B = st$B)
  se <- function(p) sqrt(p * (1 - p) / R)
  data.frame(test = st$test, B = st$B, datasets = R,
             fwer_new = mean(res["new_fwer", ]), se_new = se(mean(res["new_fwer", ])),
             fwer_old = mean(res["old_fwer", ]), se_old = se(mean(res["old_fwer", ])),
             pair_rate_new = mean(res["new_pair", ]), pair_rate_old = mean(res["old_pair", ]),
             share_p0_old = mean(res["min_old", ] == 0),
             seconds = round(as.numeric(difftime(Sys.time(), t0, units = "secs"))))
}))
print(out, digits = 3, row.names = FALSE)
