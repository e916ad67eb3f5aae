# Benchmark: test_calibration() on the four TREC ad hoc AP matrices (TREC-5..8)
# shipped in inst/extdata/score-matrices: model fits (a margin per system, a
# copula per pair) plus 20,000 Type I trials x 5 tests (t, Wilcoxon, sign,
# bootstrap and permutation with B = 1,000) x 3 topic-set sizes (25, 50,
# 100), on 1 and 2 threads; beside a plain-R loop over trials (the same fitted
# model; per trial: draw the pair, simulate with the fitted copula and
# margins, run t.test(), wilcox.test(), binom.test() and the bootstrap and
# permutation tests written in vectorised base R), timed on `plain` trials
# per size and extrapolated to 20,000. The plain loop's Type I rates must
# agree with the C++ loop's within Monte Carlo error.
#
# Usage (from the package root, with the package installed, e.g.
#   R CMD INSTALL --library=/tmp/rlib . && R_LIBS=/tmp/rlib Rscript bench/calibration.R):
#   Rscript bench/calibration.R [trials] [plain]      (defaults: 20000 300)
suppressPackageStartupMessages({
  if (requireNamespace("irtopics", quietly = TRUE)) library(irtopics) else pkgload::load_all(".", quiet = TRUE)
})
options(irtopics.progress = FALSE)
args <- as.numeric(commandArgs(trailingOnly = TRUE))
trials <- if (length(args) >= 1) args[1] else 20000
plain <- if (length(args) >= 2) args[2] else 300
ns <- asNamespace("irtopics")
path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
ap <- lapply(setNames(sprintf("adhoc%d_ap.csv", 5:8), paste0("trec", 5:8)), function(f) read_scores(path(f), measure = "AP"))
sizes <- c(25, 50, 100)

timed <- function(expr) {
  t <- system.time(v <- force(expr))
  list(value = v, time = t[["elapsed"]])
}

run <- function(threads) {
  timed({
    model <- simulation_model(ap, seed = 1, n_threads = threads)
    cal <- test_calibration(model, n_topics = sizes, delta = NULL, trials = trials, B = 1000, seed = 1,
                            n_threads = threads)
    list(model = model, cal = cal)
  })
}
fit_time <- function(threads) timed(simulation_model(ap, seed = 1, n_threads = threads))$time

f1 <- fit_time(1)
f2 <- fit_time(2)
one <- run(1)
two <- run(2)
model <- two$value$model
cat(sprintf("systems after preparation: %s (%d pairs)\n",
            paste(vapply(model$collections, function(c) length(c$systems), 1L), collapse = ", "),
            sum(vapply(model$collections, function(c) nrow(c$copulas), 1L))))
stopifnot(identical(one$value$cal$table, two$value$cal$table))
cat(sprintf("model fits alone:                    1 thread %6.2f s | 2 threads %6.2f s\n", f1, f2))
cat(sprintf("fits + %s trials x 5 tests x 3 sizes: 1 thread %6.2f s | 2 threads %6.2f s\n",
            format(trials, big.mark = ","), one$time, two$time))

# The plain-R loop on the same fitted model.
plain_trial <- function(col, n, B = 1000) {
  sys <- sample(col$systems, 2)
  cop <- ns$pair_row(col, sys[1], sys[2])
  u <- ns$copula_sample(cop, n, sample.int(.Machine$integer.max, 1))
  m <- col$margins[[sys[1]]]
  b <- qmargin(u[, 1], m)
  e <- qmargin(u[, 2], m)
  d <- e - b
  boot <- colMeans(matrix(sample(d, n * B, replace = TRUE), n))
  flips <- colSums(d * matrix(sample(c(-1, 1), n * B, replace = TRUE), n))
  k <- sum(abs(d) > 0.01)
  c(t = t.test(e, b, paired = TRUE)$p.value,
    wilcoxon = suppressWarnings(wilcox.test(e, b, paired = TRUE)$p.value),
    sign = if (k) binom.test(sum(d > 0.01), k)$p.value else NA,
    bootstrap = mean(abs(boot - mean(boot)) >= abs(mean(d))),
    permutation = mean(abs(flips) >= abs(sum(d)) - 1e-9))
}
cols <- model$collections
weights <- vapply(cols, function(c) length(c$systems), 1L)
set.seed(1)
plain_res <- lapply(sizes, function(n) {
  timed(t(replicate(plain, plain_trial(cols[[sample(length(cols), 1, prob = weights)]], n))))
})
plain_time <- sum(vapply(plain_res, `[[`, 0, "time")) / plain * trials
cat(sprintf("plain R loop: %d trials per size in %.1f s -> %s trials x 3 sizes in about %.0f s (%.0fx the 2-thread C++ loop without fits)\n",
            plain, sum(vapply(plain_res, `[[`, 0, "time")), format(trials, big.mark = ","), plain_time,
            plain_time / (two$time - f2)))
tab <- two$value$cal$table
for (k in seq_along(sizes)) {
  got <- tab[tab$error == "type1" & tab$alpha == 0.05 & tab$alternative == "two.sided" & tab$n_topics == sizes[k], ]
  ref <- colMeans(plain_res[[k]]$value <= 0.05, na.rm = TRUE)
  cat(sprintf("Type I at 0.05, %3d topics: C++ %s | plain R (%d trials) %s\n", sizes[k],
              paste(sprintf("%.4f", got$rate), collapse = " "), plain, paste(sprintf("%.4f", ref), collapse = " ")))
}
