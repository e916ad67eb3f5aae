# Benchmark: the resampling tests of compare_systems() (C++, OpenMP) against
# straightforward vectorised base-R implementations, on the TREC 2004 Robust AP
# matrix (110 systems x 249 topics):
#   1. randomised Tukey HSD of all 110 systems, B = 10,000;
#   2. studentized bootstrap test of all 5,995 pairs, B = 1,000;
#   3. sign-flip randomisation test of all 5,995 pairs, B = 1,000.
# The base-R bootstrap and randomisation run on the package's own draws
# (exposed by the internal resample_draws()), so their p-values must be
# identical; the base-R randomised Tukey HSD draws its permutations with R's
# RNG (the real alternative), so it agrees within Monte Carlo error, and its
# first 200 replicates are also rerun on the package's permutations, which
# must give the same ranges.
#
# Usage (from the package root, with the package installed, e.g.
#   R CMD INSTALL --library=/tmp/rlib . && R_LIBS=/tmp/rlib Rscript bench/compare.R):
#   Rscript bench/compare.R [rthsd|bootstrap|randomization ...]   (default: all three)
suppressPackageStartupMessages({
  if (requireNamespace("irtopics", quietly = TRUE)) library(irtopics) else pkgload::load_all(".", quiet = TRUE)
})
options(irtopics.progress = FALSE)
sections <- commandArgs(trailingOnly = TRUE)
if (!length(sections)) sections <- c("rthsd", "bootstrap", "randomization")
ns <- asNamespace("irtopics")
ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                  measure = "AP")
x <- unclass(ap)
attr(x, "measure") <- NULL
m <- nrow(x)
n <- ncol(x)
pairs <- utils::combn(m, 2)
seed <- 2012L
key <- ns$resolve_seed(seed)
# Elapsed and CPU (user + system) seconds of expr.
timed <- function(expr) {
  t <- system.time(v <- force(expr))
  list(value = v, time = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]])
}
row <- function(what, base, one, two) {
  cat(sprintf("%-44s elapsed: base R %7.2f s | C++ 1 thread %6.3f s (%4.0fx) | 2 threads %6.3f s (%4.0fx)\n",
              what, base$time, one$time, base$time / one$time, two$time, base$time / two$time))
  cat(sprintf("%-44s     CPU: base R %7.2f s | C++ 1 thread %6.3f s (%4.0fx)\n",
              "", base$cpu, one$cpu, base$cpu / one$cpu))
}

# 1. Randomised Tukey HSD ------------------------------------------------------------
if ("rthsd" %in% sections) {
B <- 10000L
base_rthsd <- function(x, B) {
  topic <- rep(seq_len(ncol(x)), each = nrow(x))
  v <- as.vector(x)
  r <- numeric(B)
  for (b in seq_len(B)) {
    # one random order of the m scores within every topic, all topics at once
    perm <- matrix(v[order(topic, stats::runif(length(v)))], nrow(x))
    mu <- rowMeans(perm)
    r[b] <- max(mu) - min(mu)
  }
  r
}
set.seed(1)
rb <- timed(base_rthsd(x, B))
c1 <- timed(compare_systems(ap, test = "rthsd", B = B, seed = seed, n_threads = 1))
c2 <- timed(compare_systems(ap, test = "rthsd", B = B, seed = seed, n_threads = 2))
stopifnot(identical(c1$value$table, c2$value$table))
obs <- abs(rowMeans(x)[pairs[1, ]] - rowMeans(x)[pairs[2, ]])
p_base <- vapply(obs, function(o) mean(rb$value >= o - 1e-9 * max(abs(x)) / n), numeric(1))
row("randomised Tukey HSD, 110 x 249, B = 10,000", rb, c1, c2)
cat(sprintf("  max |p(C++) - p(base R, own draws)| = %.4f (Monte Carlo error)\n",
            max(abs(c1$value$table$p.value - p_base))))
P <- ns$resample_draws("permutations", key, n = n, m = m, count = 200)
r200 <- vapply(1:200, function(b) {
  mu <- rowMeans(vapply(seq_len(n), function(j) x[P[, j, b], j], numeric(m)))
  max(mu) - min(mu)
}, numeric(1))
stopifnot(isTRUE(all.equal(r200, ns$rthsd_ranges(x, 200, key) / n, tolerance = 1e-12)))
cat("  first 200 replicates on the package's permutations: same ranges\n")
}

# 2. Bootstrap, all pairs -------------------------------------------------------------
B <- 1000L
if ("bootstrap" %in% sections) {
idx <- ns$resample_draws("indices", key, n = n, count = B)
base_boot <- function(x, pairs, idx) {
  n <- ncol(x)
  apply(pairs, 2, function(k) {
    d <- x[k[1], ] - x[k[2], ]
    t0 <- mean(d) / (sd(d) / sqrt(n))
    w <- d - mean(d)
    W <- matrix(w[idx], n)
    mu <- colMeans(W)
    s <- sqrt(colSums((W - rep(mu, each = n))^2) / (n - 1))
    tstar <- ifelse(s <= 1e-9 * max(abs(x[k, ])), 0, mu / (s / sqrt(n)))
    mean(abs(tstar) >= abs(t0) * (1 - 1e-9))
  })
}
bb <- timed(base_boot(x, pairs, idx))
b1 <- timed(suppressWarnings(compare_systems(ap, test = "bootstrap", B = B, seed = seed, n_threads = 1)))
b2 <- timed(suppressWarnings(compare_systems(ap, test = "bootstrap", B = B, seed = seed, n_threads = 2)))
stopifnot(identical(b1$value$table, b2$value$table))
row("bootstrap test, 5,995 pairs, B = 1,000", bb, b1, b2)
cat(sprintf("  p-values identical to base R on the same indices: %s\n",
            identical(b1$value$table$p.value, bb$value)))
}

# 3. Randomisation, all pairs ---------------------------------------------------------
if ("randomization" %in% sections) {
S <- ns$resample_draws("signs", key, n = n, count = B)
base_rand <- function(x, pairs, S) {
  apply(pairs, 2, function(k) {
    d <- x[k[1], ] - x[k[2], ]
    mean(abs(colSums(d * S)) >= abs(sum(d)) - 1e-9 * max(abs(x[k, ])))
  })
}
# The same with one matrix product for all pairs (the fastest base R we know).
base_rand_mm <- function(x, pairs, S) {
  D <- x[pairs[1, ], ] - x[pairs[2, ], ]
  scale <- pmax(apply(abs(x), 1, max)[pairs[1, ]], apply(abs(x), 1, max)[pairs[2, ]])
  rowMeans(abs(D %*% S) >= abs(rowSums(D)) - 1e-9 * scale)
}
rr <- timed(base_rand(x, pairs, S))
rm2 <- timed(base_rand_mm(x, pairs, S))
r1 <- timed(compare_systems(ap, test = "randomization", B = B, seed = seed, n_threads = 1))
r2 <- timed(compare_systems(ap, test = "randomization", B = B, seed = seed, n_threads = 2))
stopifnot(identical(r1$value$table, r2$value$table))
row("randomisation test, 5,995 pairs, B = 1,000", rr, r1, r2)
row("  (base R as one matrix product)", rm2, r1, r2)
cat(sprintf("  p-values identical to base R on the same signs: %s (matrix product: max diff %.4f)\n",
            identical(r1$value$table$p.value, rr$value), max(abs(r1$value$table$p.value - rm2$value))))
}
