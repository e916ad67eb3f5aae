# Benchmark of evaluate() against the alternatives, on the synthetic
# collection of bench/generate.R (see bench/README.md for the figures).
#
# Usage: Rscript bench/evaluate.R [data_dir] [trec_eval_binary]
#   data_dir defaults to bench/data; the trec_eval binary (built from
#   source, see bench/README.md) defaults to $TREC_EVAL; without one that
#   part is skipped.
# Measures: AP, P@10, R-Prec and nDCG (trec_eval: -m map -m P.10 -m Rprec -m ndcg).
args <- commandArgs(trailingOnly = TRUE)
data <- if (length(args) >= 1) args[1] else file.path("bench", "data")
trec_eval <- if (length(args) >= 2) args[2] else Sys.getenv("TREC_EVAL")
suppressPackageStartupMessages(library(irtopics))
runs <- sort(list.files(file.path(data, "runs"), full.names = TRUE))
qrels <- file.path(data, "qrels.txt")
mb <- sum(file.size(runs)) / 2^20
cat(sprintf("%d run files, %.0f MB, %s lines\n", length(runs), mb,
            format(sum(vapply(runs[1], function(f) length(readLines(f)), 1L)) * length(runs), big.mark = ",")))
timeit <- function(expr) {
  gc()
  t <- system.time(expr)[["elapsed"]]
  t
}
res <- list()

# the floor: reading the bytes
res$cat <- timeit(system2("cat", c(shQuote(runs)), stdout = FALSE))
cat(sprintf("cat of the files:                 %6.2f s\n", res$cat))

# data.table::fread of every file
if (requireNamespace("data.table", quietly = TRUE)) {
  res$fread1 <- timeit(for (f in runs) data.table::fread(f, header = FALSE, nThread = 1, showProgress = FALSE))
  cat(sprintf("data.table::fread, 1 thread:      %6.2f s\n", res$fread1))
  res$fread2 <- timeit(for (f in runs) data.table::fread(f, header = FALSE, nThread = 2, showProgress = FALSE))
  cat(sprintf("data.table::fread, 2 threads:     %6.2f s\n", res$fread2))
}

# trec_eval, once per run file
if (nzchar(trec_eval) && file.exists(trec_eval)) {
  res$trec_eval <- timeit(for (f in runs) {
    system2(trec_eval, c("-q", "-m", "map", "-m", "P.10", "-m", "Rprec", "-m", "ndcg",
                         shQuote(qrels), shQuote(f)), stdout = FALSE)
  })
  cat(sprintf("trec_eval per file:               %6.2f s\n", res$trec_eval))
}

m <- c("AP", "P@10", "R-Prec", "nDCG")
res$eval1 <- timeit(e1 <- evaluate(runs, qrels, m, n_threads = 1, progress = FALSE))
cat(sprintf("irtopics::evaluate, 1 thread:     %6.2f s\n", res$eval1))
res$eval2 <- timeit(e2 <- evaluate(runs, qrels, m, n_threads = 2, progress = FALSE))
cat(sprintf("irtopics::evaluate, 2 threads:    %6.2f s\n", res$eval2))
stopifnot(identical(e1, e2))

# agreement with trec_eval on the first run, all four measures, per topic
if (!is.null(res$trec_eval)) {
  out <- system2(trec_eval, c("-q", "-m", "map", "-m", "P.10", "-m", "Rprec", "-m", "ndcg",
                              shQuote(qrels), shQuote(runs[1])), stdout = TRUE)
  p <- do.call(rbind, strsplit(out, "[[:space:]]+"))
  p <- p[p[, 2] != "all", ]
  key <- c(map = "AP", P_10 = "P@10", Rprec = "R-Prec", ndcg = "nDCG")
  ours <- mapply(function(meas, topic) sprintf("%.4f", e1[[key[[meas]]]][1, topic]), p[, 1], p[, 2])
  cat(sprintf("agreement with trec_eval on %s: %d of %d per-topic values identical to 4 decimals\n",
              basename(runs[1]), sum(ours == p[, 3]), nrow(p)))
}
if (!is.null(res$trec_eval)) {
  cat(sprintf("speed-up over the trec_eval loop: %.1fx (1 thread), %.1fx (2 threads)\n",
              res$trec_eval / res$eval1, res$trec_eval / res$eval2))
}
if (!is.null(res$fread1)) {
  cat(sprintf("evaluate (2 threads) vs fread (2 threads): %.1fx faster\n", res$fread2 / res$eval2))
}
