# Cost of judged-only evaluation (trec_eval -J; src/judged_only.h) and of
# reading trec_eval output back (read_trec_eval()), bench/README.md section 23.
# Runs on the synthetic collection of bench/generate.R:
#   Rscript bench/generate.R /tmp/bench-j 20 100
#   Rscript bench/judged-only.R /tmp/bench-j
# Times are the minimum of `reps` calls with one thread: elapsed, and CPU
# (user + system; the machine is shared, so elapsed time includes waiting).
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) >= 1) args[1] else file.path("bench", "data")
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
suppressPackageStartupMessages(library(irtopics))
runs <- list.files(file.path(dir, "runs"), full.names = TRUE)
qrels <- file.path(dir, "qrels.txt")
best <- function(f) {
  t <- vapply(seq_len(reps), function(i) {
    s <- system.time(f())
    c(s[["elapsed"]], s[["user.self"]] + s[["sys.self"]])
  }, numeric(2))
  sprintf("%6.2f s elapsed, %6.2f s CPU", min(t[1, ]), min(t[2, ]))
}
m <- c("AP", "P@10", "nDCG@10")
cases <- list(
  "3 measures" = function() evaluate(runs, qrels, m, n_threads = 1),
  "3 measures, judged_only = TRUE" = function() evaluate(runs, qrels, m, n_threads = 1, judged_only = TRUE),
  "3 measures + their 3 judged-only twins" = function() {
    evaluate(runs, qrels, c(m, "AP(judged_only=True)", "P(judged_only=True)@10", "nDCG(judged_only=True)@10"),
             n_threads = 1)
  },
  "all_trec (96 measures)" = function() evaluate(runs, qrels, "all_trec", n_threads = 1),
  "all_trec, judged_only = TRUE" = function() evaluate(runs, qrels, "all_trec", n_threads = 1, judged_only = TRUE))
cat(sprintf("%d runs, %s\n", length(runs), qrels))
for (nm in names(cases)) cat(sprintf("%-42s %s\n", nm, best(cases[[nm]])))
res <- evaluate(runs, qrels, "all_trec", n_threads = 1)
f <- tempfile()
cat(sprintf("%-42s %s\n", "write_trec_eval(all_trec)", best(function() write_trec_eval(res, f, overwrite = TRUE))))
cat(sprintf("%-42s %s (%d lines)\n", "read_trec_eval(all_trec)", best(function() read_trec_eval(f)),
            length(readLines(f))))
