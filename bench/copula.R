# Copula selection for every pair of systems of four collections (src/copula.h
# through cpp_copula_select()), with 1 and 2 threads: pairs per second, and a
# check that both thread counts give identical fits. Pseudo-observations are
# rank(x, ties.method = "random") / (n + 1) per system (set.seed(1)).
# Run against an optimised installed build (see README.md):
#   Rscript bench/copula.R [lib]      # lib: a library holding that build
args <- commandArgs(trailingOnly = TRUE)
if (length(args)) library(irtopics, lib.loc = args[1]) else library(irtopics)
select <- irtopics:::cpp_copula_select
families <- c(0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 23, 24, 26, 33, 34, 36)
files <- c("adhoc5_ap.csv", "adhoc6_ap.csv", "adhoc7_ap.csv", "adhoc8_ap.csv")
dir <- system.file("extdata", "score-matrices", package = "irtopics")
total <- c(pairs = 0, t1 = 0, t2 = 0)
for (f in files) {
  x <- as.matrix(utils::read.csv(file.path(dir, f)))
  set.seed(1)
  U <- apply(x, 2, function(v) rank(v, ties.method = "random") / (length(v) + 1))
  pairs <- utils::combn(ncol(U), 2) - 1L
  t1 <- system.time(r1 <- select(U, pairs[1, ], pairs[2, ], families, 1L))[["elapsed"]]
  t2 <- system.time(r2 <- select(U, pairs[1, ], pairs[2, ], families, 2L))[["elapsed"]]
  stopifnot(identical(r1, r2))
  total <- total + c(ncol(pairs), t1, t2)
  cat(sprintf("%-14s %3d topics %3d systems %5d pairs  1 thread %5.2f s (%5.0f pairs/s)  2 threads %5.2f s (%5.0f pairs/s)\n",
              f, nrow(U), ncol(U), ncol(pairs), t1, ncol(pairs) / t1, t2, ncol(pairs) / t2))
}
cat(sprintf("all four       %5d pairs  1 thread %5.2f s (%5.0f pairs/s)  2 threads %5.2f s (%5.0f pairs/s)\n",
            total[["pairs"]], total[["t1"]], total[["pairs"]] / total[["t1"]], total[["t2"]],
            total[["pairs"]] / total[["t2"]]))
