# Fitting margins (fit_margin()) to every system of the shipped TREC 5-8
# ad hoc collections (AP continuous, P@10 discrete), and 10,000
# transform_margin() calls, as a simulation study would make them. Checks on
# the way that every fit succeeds and that transformed means are exact for
# the table and agree with the exact transformed density.
# Usage, from the package root:  Rscript bench/margins.R
# (margins are R code: pkgload::load_all() times the same as an installed
# build once the functions are compiled by the JIT, which the warm-up does)
pkgload::load_all(".", quiet = TRUE)
path <- function(f) file.path("inst", "extdata", "score-matrices", f)
warm <- fit_margin(read_scores(path("adhoc8_ap.csv"))[1, ])
s10 <- score_support("P@10")
rows <- list()
for (trec in 5:8) {
  ap <- read_scores(path(sprintf("adhoc%d_ap.csv", trec)), measure = "AP")
  p10 <- read_scores(path(sprintf("adhoc%d_p10.csv", trec)), measure = "P@10")
  t_ap <- system.time(ms <- lapply(seq_len(nrow(ap)), function(i) fit_margin(ap[i, ])))[["elapsed"]]
  t_p10 <- system.time(ds <- lapply(seq_len(nrow(p10)), function(i) {
    fit_margin(p10[i, ], type = "discrete", support = s10)
  }))[["elapsed"]]
  fam <- table(vapply(ms, `[[`, "", "family"))
  rows[[length(rows) + 1L]] <- data.frame(
    collection = sprintf("adhoc%d", trec), systems = nrow(ap), topics = ncol(ap), ap_s = t_ap, p10_s = t_p10,
    ap_families = paste(names(fam), fam, sep = ":", collapse = " "),
    max_abs_mean_minus_data = max(abs(vapply(ms, function(m) m$mean - mean(m$data), 0))))
}
print(do.call(rbind, rows), row.names = FALSE)

ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
ms <- lapply(seq_len(nrow(ap)), function(i) fit_margin(ap[i, ]))
set.seed(1)
pick <- sample(length(ms), 10000, replace = TRUE)
target <- vapply(pick, function(i) {
  m <- ms[[i]]
  m$mean * exp(stats::runif(1, -0.5, 0.5))
}, 0)
err <- numeric(length(pick))
t_tr <- system.time(for (j in seq_along(pick)) {
  t <- transform_margin(ms[[pick[j]]], target[j])
  err[j] <- abs(t$mean - target[j])
})[["elapsed"]]
cat(sprintf("transform_margin(): %d calls in %.2f s (%.2f ms each); largest |table mean - target| %.2g\n",
            length(pick), t_tr, 1000 * t_tr / length(pick), max(err)))
ex <- vapply(1:20, function(j) {
  t <- transform_margin(ms[[pick[j]]], target[j])
  abs(stats::integrate(function(y) y * dmargin(y, t), 0, 1, subdivisions = 1000, rel.tol = 1e-9)$value - target[j])
}, 0)
cat(sprintf("exact transformed mean vs target (20 calls): largest difference %.2g\n", max(ex)))
