# Benchmark of compare_qrels() at the scale of issue 27: 40 candidate label
# sets x 4,000 judgments x 100 runs. Synthetic files, built here (nothing is
# read from outside): 50 topics of 80 judged documents (grades 0-3), 100
# runs of 100 documents per topic, and 40 candidate label sets, each the
# reference with a share (5% to 60%) of its grades moved one step.
#
#   R_LIBS=/tmp/qrels-lib Rscript bench/compare-qrels.R [reps]
#
# Prints the minimum over `reps` repetitions (default 3) of each phase.
suppressPackageStartupMessages(library(irtopics))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 3L
options(irtopics.progress = FALSE)

dir <- file.path(tempdir(), "compare-qrels-bench")
dir.create(file.path(dir, "runs"), recursive = TRUE, showWarnings = FALSE)
dir.create(file.path(dir, "labels"), showWarnings = FALSE)
set.seed(2026)
n_topics <- 50; judged <- 80; depth <- 100; n_runs <- 100; n_sets <- 40; pool <- 400
topics <- as.character(1000 + seq_len(n_topics))
ref <- do.call(rbind, lapply(topics, function(t) {
  data.frame(topic = t, docno = sprintf("d%s_%04d", t, sample(pool, judged)),
             rel = sample(0:3, judged, TRUE, prob = c(0.5, 0.25, 0.15, 0.1)), stringsAsFactors = FALSE)
}))
write_qrels(ref, file.path(dir, "reference.qrels"), overwrite = TRUE)
# runs of different quality: run r puts judged relevant documents higher
for (r in seq_len(n_runs)) {
  skill <- r / n_runs
  lines <- unlist(lapply(topics, function(t) {
    q <- ref[ref$topic == t, ]
    docs <- sprintf("d%s_%04d", t, sample(pool, depth))
    g <- q$rel[match(docs, q$docno)]
    g[is.na(g)] <- 0
    score <- skill * g + rnorm(depth)
    paste(t, "Q0", docs, seq_len(depth), sprintf("%.6f", score), sprintf("run%03d", r))
  }))
  writeLines(lines, file.path(dir, "runs", sprintf("run%03d", r)))
}
cand_paths <- character(n_sets)
for (k in seq_len(n_sets)) {
  cand <- ref
  flip <- sample(nrow(cand), round(nrow(cand) * (0.05 + 0.55 * (k - 1) / (n_sets - 1))))
  cand$rel[flip] <- pmin(3L, pmax(0L, cand$rel[flip] + sample(c(-1L, 1L), length(flip), TRUE)))
  cand_paths[k] <- file.path(dir, "labels", sprintf("judge%02d.qrels", k))
  write_qrels(cand, cand_paths[k], overwrite = TRUE)
}
names(cand_paths) <- sprintf("judge%02d", seq_len(n_sets))
runs <- file.path(dir, "runs")
qref <- file.path(dir, "reference.qrels")

# minimum elapsed time over n runs; the CPU time (user + system, all
# threads) of that run is kept in `last_cpu` (a loaded machine inflates the
# elapsed time, not the CPU time)
last_cpu <- NA_real_
time_min <- function(expr, n = reps) {
  expr <- substitute(expr)
  env <- parent.frame()
  t <- vapply(seq_len(n), function(i) {
    st <- system.time(eval(expr, env))
    c(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]])
  }, numeric(2))
  last_cpu <<- t[2, which.min(t[1, ])]
  min(t[1, ])
}
cat(sprintf("%s; %d threads; %d runs x %d topics x %d documents; %d label sets x %d judgments\n",
            R.version.string, irtopics_threads(), n_runs, n_topics, depth, n_sets, nrow(ref)))
t_read <- time_min(lapply(c(qref, cand_paths), read_qrels))
t_labels <- time_min(compare_qrels(qref, cand_paths, B = 1000, seed = 1))
t_eval <- time_min(for (q in c(qref, cand_paths)) evaluate(runs, q, measures = "nDCG@10", missing = "zero"))
t_lb <- {
  a <- evaluate(runs, qref, measures = "nDCG@10", missing = "zero")[[1]]
  b <- evaluate(runs, cand_paths[1], measures = "nDCG@10", missing = "zero")[[1]]
  c(lb = time_min(irtopics:::leaderboard_agreement(a, b, B = 1000, seed = 1)),
    cl = time_min(irtopics:::conclusion_agreement(a, b)),
    tp = time_min(irtopics:::topic_agreement(a, b)))
}
t_all <- time_min(x <- compare_qrels(qref, cand_paths, runs = runs, measure = "nDCG@10", B = 1000, seed = 1),
                  n = max(1L, reps - 1L))
cpu_all <- last_cpu
cat(sprintf("%-50s %7.2f s",
            c("read 41 qrels files", "labels only (40 sets, B = 1000)", "evaluate 100 runs under 41 label sets",
              "leaderboard_agreement(), one set, B = 1000", "conclusion_agreement(), one set (t, holm)",
              "topic_agreement(), one set", "compare_qrels(): all of it"),
            c(t_read, t_labels, t_eval, t_lb, t_all)), sep = "\n")
t_small <- time_min(compare_qrels(qref, cand_paths, runs = runs, measure = "nDCG@10", B = 200, seed = 1),
                    n = max(1L, reps - 1L))
cpu_small <- last_cpu
cat(sprintf("%-50s %7.2f s\n", "compare_qrels(): all of it, B = 200", t_small))
cat(sprintf("CPU time (user + system) of compare_qrels(): %.2f s (B = 1000), %.2f s (B = 200)\n", cpu_all, cpu_small))
cat(sprintf("load average: %s\n", paste(utils::tail(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], 3), collapse = " ")))
print(utils::head(summary(x)$table[, c("candidate", "kappa", "wkappa_quad", "kendall_tau", "tau_ap", "same_decision")], 5))

# Where evaluation time goes: one label set, the runs as files, as ir_runs
# read once, and cut at the measure's cut-off (what compare_qrels() does for
# the candidates); at depth 100 (the runs above) and at depth 1000 (20 runs).
eval_paths <- function(run_dir, label) {
  rr <- read_runs(run_dir)
  cut <- irtopics:::runs_cut(run_dir, "nDCG@10", 1000)
  ev <- function(r) evaluate(r, qref, measures = "nDCG@10", missing = "zero")
  n_lines <- sum(vapply(rr, function(r) length(r$score), numeric(1)))
  n_cut <- sum(vapply(cut, function(r) length(r$score), numeric(1)))
  stopifnot(identical(as.vector(ev(run_dir)[[1]]), as.vector(ev(cut)[[1]])))
  cat(sprintf("%s: %s lines (%s after the cut)\n", label, format(n_lines, big.mark = ",", scientific = FALSE),
              format(n_cut, big.mark = ",", scientific = FALSE)))
  cat(sprintf("  %-46s %7.3f s\n", c("evaluate(files)", "evaluate(ir_runs read once)", "evaluate(cut ir_runs)",
                                      "read_runs() + runs_cut(), once"),
              c(time_min(ev(run_dir)), time_min(ev(rr)), time_min(ev(cut)),
                time_min(irtopics:::runs_cut(run_dir, "nDCG@10", 1000)))), sep = "")
}
eval_paths(runs, "depth 100, 100 runs")
deep <- file.path(dir, "deep")
dir.create(deep, showWarnings = FALSE)
for (r in seq_len(20)) {
  lines <- unlist(lapply(topics, function(t) {
    docs <- sprintf("d%s_%05d", t, sample(5000, 1000))
    paste(t, "Q0", docs, seq_len(1000), sprintf("%.6f", rnorm(1000)), sprintf("deep%02d", r))
  }))
  writeLines(lines, file.path(deep, sprintf("deep%02d", r)))
}
eval_paths(deep, "depth 1000, 20 runs")
