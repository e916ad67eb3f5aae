# Benchmark: smoothing_experiment() (C++ repetition loop, OpenMP) against a
# straightforward base-R loop with cor(method = "kendall"), on the TREC 2004
# Robust AP matrix (110 systems x 249 topics), 10,000 repetitions, with AP and
# with standardized AP. Both use the same random draws and must give the same
# taus.
#
# Usage (from the package root, with the package installed, e.g.
#   R CMD INSTALL --library=/tmp/rlib . && R_LIBS=/tmp/rlib Rscript bench/smoothing.R):
#   Rscript bench/smoothing.R [reps]
suppressPackageStartupMessages({
  if (requireNamespace("irtopics", quietly = TRUE)) library(irtopics) else pkgload::load_all(".", quiet = TRUE)
})
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 10000L
options(irtopics.progress = FALSE)

ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                  measure = "AP")
m <- unclass(ap)
attr(m, "measure") <- NULL
k <- 25L
lambdas <- c(0, 0.5, 0.8, 1)
seed <- 2009L

# Straightforward base R: one repetition at a time, rowMeans over column
# subsets, pnorm/sd for standardization, cor(method = "kendall") for tau.
base_r_experiment <- function(m, reference, draws, standardize) {
  n_x <- nrow(m) %/% 2
  all_rows <- seq_len(nrow(m))
  std <- function(x, ref_rows) {
    for (j in seq_len(ncol(x))) {
      r <- x[ref_rows, j]
      s <- sd(r)
      x[, j] <- if (s > 0) pnorm(x[, j], mean(r), s) else 0.5
    }
    x
  }
  reps <- ncol(draws$topics)
  out <- matrix(NA_real_, reps, length(lambdas) + 1)
  for (r in seq_len(reps)) {
    topics <- draws$topics[, r] + 1L
    sx <- draws$systems[seq_len(n_x), r] + 1L
    sy <- setdiff(all_rows, sx)
    qa <- m[, topics[1:k], drop = FALSE]
    qb <- m[, topics[k + 1:k], drop = FALSE]
    qc <- m[, topics[2 * k + 1:k], drop = FALSE]
    if (standardize) {
      base_a <- std(qa, all_rows)
      qa <- std(qa, sx)
      qb <- std(qb, sy)
      qc <- std(qc, all_rows)
    } else {
      base_a <- qa
    }
    prior <- numeric(nrow(m))
    prior[sx] <- rowMeans(qa[sx, , drop = FALSE])
    prior[sy] <- rowMeans(qb[sy, , drop = FALSE])
    new <- rowMeans(qc)
    for (l in seq_along(lambdas)) {
      out[r, l] <- cor(lambdas[l] * new + (1 - lambdas[l]) * prior, reference, method = "kendall")
    }
    out[r, length(lambdas) + 1] <- cor(rowMeans(cbind(base_a, qc)), reference, method = "kendall")
  }
  out
}

time_it <- function(expr) {
  t <- system.time(val <- force(expr))[["elapsed"]]
  list(value = val, seconds = t)
}

cat(sprintf("R %s, %s; %d cores; irtopics %s\n", getRversion(), R.version$platform,
            parallel::detectCores(), as.character(utils::packageVersion("irtopics"))))
cat(sprintf("Data: TREC 2004 Robust AP, %d systems x %d topics; %d repetitions; 3 x %d topics\n\n",
            nrow(m), ncol(m), reps, k))

draw_time <- time_it(irtopics:::smoothing_draws(nrow(m), ncol(m), k, reps, seed))
draws <- draw_time$value
cat(sprintf("Random draws in R (part of smoothing_experiment's time): %.2f s\n\n", draw_time$seconds))

rows <- list()
for (standardize in c(FALSE, TRUE)) {
  label <- if (standardize) "standardized AP" else "AP"
  reference <- if (standardize) rowMeans(unclass(standardize_scores(ap))) else rowMeans(m)
  one <- time_it(smoothing_experiment(ap, topics_per_set = k, lambdas = lambdas, trials = reps,
                                      standardize = standardize, seed = seed, n_threads = 1))
  two <- time_it(smoothing_experiment(ap, topics_per_set = k, lambdas = lambdas, trials = reps,
                                      standardize = standardize, seed = seed, n_threads = 2))
  kernel <- vapply(1:2, function(nt) time_it(irtopics:::cpp_smoothing_taus(
    m, reference, draws$topics, draws$systems, k, nrow(m) %/% 2L, lambdas, standardize, nt))$seconds, 0)
  base <- time_it(base_r_experiment(m, reference, draws, standardize))
  same_threads <- identical(one$value$tau, two$value$tau)
  diff <- max(abs(unname(one$value$tau) - base$value))
  cat(sprintf("%s\n", label))
  cat(sprintf("  smoothing_experiment, 1 thread : %6.2f s\n", one$seconds))
  cat(sprintf("  smoothing_experiment, 2 threads: %6.2f s (identical to 1 thread: %s)\n",
              two$seconds, same_threads))
  cat(sprintf("  C++ kernel alone, 1 / 2 threads: %6.2f / %.2f s (no draws, no R overhead)\n",
              kernel[1], kernel[2]))
  cat(sprintf("  base R loop with cor(kendall)  : %6.2f s\n", base$seconds))
  cat(sprintf("  speed-up (1 thread)            : %6.1fx; max |tau difference| = %.3g\n",
              base$seconds / one$seconds, diff))
  print(one$value)
  cat("\n")
  rows[[label]] <- data.frame(scores = label, cpp_1 = one$seconds, cpp_2 = two$seconds,
                              kernel_1 = kernel[1], kernel_2 = kernel[2],
                              base_r = base$seconds, speedup = base$seconds / one$seconds,
                              max_diff = diff, same_threads = same_threads)
  stopifnot(same_threads, diff < 1e-12)
}
print(do.call(rbind, rows), digits = 3, row.names = FALSE)
