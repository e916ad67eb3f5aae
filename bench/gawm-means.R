# Benchmark: gawm(mean = "geometric") (the C++ built-in) against the same
# weighted geometric mean given as an R function (gawm()'s R iteration), on
# the TREC-8 ad hoc AP matrix (129 systems x 50 topics) and on a simulated
# 1000 x 250 matrix. Both must give the same E_s and E_t (to 1e-12).
#
# Usage (from the package root, with the package installed, e.g.
#   R CMD INSTALL --library=/tmp/rlib . && R_LIBS=/tmp/rlib Rscript bench/gawm-means.R):
#   Rscript bench/gawm-means.R [reps]
suppressPackageStartupMessages({
  if (requireNamespace("irtopics", quietly = TRUE)) library(irtopics) else pkgload::load_all(".", quiet = TRUE)
})
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 5L

ap8 <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                   measure = "AP")
set.seed(2009)
big <- matrix(round(rbeta(1000 * 250, 0.6, 2), 4), 1000, 250,
              dimnames = list(paste0("s", 1:1000), paste0("t", 1:250)))
wgeo <- function(x, w) exp(sum(w * log(x + 1e-7)) / sum(w))

time_it <- function(f) {
  t <- vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0)
  stats::median(t)
}
rows <- lapply(list(adhoc8 = ap8, simulated = big), function(P) {
  a <- gawm(P, mean = "geometric")
  b <- gawm(P, mean = wgeo)
  stopifnot(isTRUE(all.equal(a$E_s, b$E_s, tolerance = 1e-12)),
            isTRUE(all.equal(a$E_t, b$E_t, tolerance = 1e-12)), a$iterations == b$iterations)
  data.frame(systems = nrow(P), topics = ncol(P), iterations = a$iterations,
             cpp_s = time_it(function() gawm(P, mean = "geometric")),
             r_function_s = time_it(function() gawm(P, mean = wgeo)))
})
out <- do.call(rbind, rows)
out$speedup <- round(out$r_function_s / out$cpp_s, 1)
print(out)
