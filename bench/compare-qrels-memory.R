# Memory of compare_qrels(runs = <files>) (issue 43): the runs read for the
# candidates' evaluations. Before, every run file was read into one ir_runs
# object (and cut) before the first candidate was evaluated; now each file
# is read and cut in turn (a cut-off measure), or the files go to evaluate()
# as they are when nothing is cut (AP), which streams them.
#
#   Rscript bench/compare-qrels-memory.R make <dir>             # the files
#   Rscript bench/compare-qrels-memory.R run <dir> <old|new|evaluate> <measure>
#
# `make` writes 40 synthetic runs (50 topics x 1000 lines, about 2.3 MB of
# text each), a reference qrels (150 judged documents per topic) and a
# candidate (the reference with 30% of its grades moved one step). `run`
# prints, for one call in a fresh R process: R's heap at its peak above the
# session before the call (gc()'s "max used", reset first) and the
# process's peak resident memory (VmHWM) above the same point. `old`
# replaces runs_cut() by its code before the change (read_runs() of every
# file, then the cut), in the same build; `evaluate` measures one evaluate()
# of the runs under the reference, for scale.
args <- commandArgs(trailingOnly = TRUE)
dir <- args[2]
if (args[1] == "make") {
  suppressPackageStartupMessages(pkgload::load_all(".", quiet = TRUE))
  dir.create(file.path(dir, "runs"), recursive = TRUE, showWarnings = FALSE)
  set.seed(43)
  topics <- as.character(401:450)
  ref <- do.call(rbind, lapply(topics, function(t) {
    data.frame(topic = t, docno = sprintf("FBIS3-%s-%05d", t, sample(3000, 150)),
               rel = sample(0:3, 150, TRUE, prob = c(0.6, 0.2, 0.12, 0.08)))
  }))
  write_qrels(ref, file.path(dir, "reference.qrels"), overwrite = TRUE)
  cand <- ref
  flip <- sample(nrow(cand), 0.3 * nrow(cand))
  cand$rel[flip] <- pmin(3L, pmax(0L, cand$rel[flip] + sample(c(-1L, 1L), length(flip), TRUE)))
  write_qrels(cand, file.path(dir, "candidate.qrels"), overwrite = TRUE)
  for (r in 1:40) {
    lines <- unlist(lapply(topics, function(t) {
      d <- sprintf("FBIS3-%s-%05d", t, sample(3000, 1000))
      sprintf("%s Q0 %s %d %.6f run%02d", t, d, 1:1000, sort(runif(1000), decreasing = TRUE), r)
    }))
    writeLines(lines, file.path(dir, "runs", sprintf("run%02d.txt", r)))
  }
  quit(save = "no")
}
variant <- args[3]
measure <- args[4]
suppressPackageStartupMessages(pkgload::load_all(".", quiet = TRUE))
if (variant == "old") {
  old <- function(runs, measure, depth, call = rlang::caller_env()) {
    pm <- parse_measure(measure, call = call)
    keep <- min(depth, if (isTRUE(pm$cutoff > 0)) pm$cutoff else Inf)
    if (!is.finite(keep)) return(runs)
    rr <- if (is.character(runs)) read_runs(runs) else if (inherits(runs, "ir_run")) new_ir_runs(list(runs)) else runs
    if (!inherits(rr, "ir_runs")) return(runs)
    new_ir_runs(lapply(rr, cut_run, keep = keep))
  }
  assignInNamespace("runs_cut", old, "irtopics")
}
hwm <- function() {
  line <- grep("^VmHWM:", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) / 1024
}
runs <- sort(list.files(file.path(dir, "runs"), full.names = TRUE))
invisible(gc(reset = TRUE))
base_heap <- sum(gc()[, 2])
writeLines("5", "/proc/self/clear_refs")  # resets VmHWM to the current RSS
base_rss <- hwm()
t <- system.time(x <- if (variant == "evaluate") {
  evaluate(runs, file.path(dir, "reference.qrels"), measure, missing = "zero", n_threads = 1, progress = FALSE)
} else {
  compare_qrels(file.path(dir, "reference.qrels"), file.path(dir, "candidate.qrels"),
                runs = runs, measure = measure, B = 0, n_threads = 1, progress = FALSE)
})
g <- gc()
cat(sprintf("%s %-6s text %.0f MB: R heap peak +%.0f MB, peak RSS +%.0f MB, %.0f s\n", variant, measure,
            sum(file.size(runs)) / 2^20, sum(g[, 6]) - base_heap, hwm() - base_rss, t[["elapsed"]]))
