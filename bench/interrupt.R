# Interrupt latency: how long evaluate() and swap_error_rates() take to stop
# after SIGINT (what Ctrl-C sends), and that the session is usable after.
# A shell process sends the signal `delay` seconds after the call starts.
# Usage: Rscript bench/interrupt.R [data_dir]   (data_dir from generate-scale.R)
suppressPackageStartupMessages(library(irtopics))
args <- commandArgs(trailingOnly = TRUE)
data <- if (length(args) >= 1) args[1] else file.path("bench", "scale")
run <- file.path(data, "run.txt")
qrels <- file.path(data, "qrels.txt")
options(irtopics.progress = FALSE)

interrupt_after <- function(delay, expr) {
  system(sprintf("(sleep %s; kill -INT %d) >/dev/null 2>&1 &", format(delay), Sys.getpid()))
  start <- Sys.time()
  what <- tryCatch({
    force(expr)
    "finished"
  }, interrupt = function(e) "interrupted")
  list(what = what, secs = as.numeric(difftime(Sys.time(), start, units = "secs")))
}

full <- system.time(ref <- evaluate(run, qrels, "AP"))[["elapsed"]]
cat(sprintf("evaluate() of one 10M-line run, uninterrupted: %.2f s\n", full))
for (threads in 1:2) {
  for (delay in c(0.5, 2)) {
    # four copies of the run in one call: ~4x the time above
    r <- interrupt_after(delay, evaluate(rep(run, 4), qrels, "AP", n_threads = threads, name = "file"))
    again <- evaluate(run, qrels, "AP")
    cat(sprintf("evaluate(), 4 runs, %d thread(s), SIGINT at %.1f s: %s, returned after %.2f s (%.0f ms after the signal); same AP afterwards: %s\n",
                threads, delay, r$what, r$secs, 1000 * (r$secs - delay),
                identical(unclass(again), unclass(ref))))
  }
}

# A sweep of the signal time: the reading, parsing and evaluating phases.
for (threads in 1:2) {
  waits <- vapply(c(0.3, 0.5, 0.7, 0.9, 1.2), function(delay) {
    r <- interrupt_after(delay, evaluate(rep(run, 4), qrels, "AP", n_threads = threads, name = "file"))
    if (r$what != "interrupted") return(NA_real_)
    1000 * (r$secs - delay)
  }, 0)
  cat(sprintf("evaluate(), %d thread(s), SIGINT at 0.3, 0.5, 0.7, 0.9, 1.2 s: returned %s ms after the signal\n",
              threads, paste(round(waits), collapse = ", ")))
}

ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
full <- system.time(swap_error_rates(ap, sizes = c(25, 50, 75, 100), trials = 20000, seed = 1))[["elapsed"]]
cat(sprintf("swap_error_rates(), 20000 trials, 4 sizes, uninterrupted: %.2f s\n", full))
r <- interrupt_after(1, swap_error_rates(ap, sizes = c(25, 50, 75, 100), trials = 20000, seed = 1))
cat(sprintf("swap_error_rates(), SIGINT at 1.0 s: %s, returned after %.2f s (%.0f ms after the signal)\n",
            r$what, r$secs, 1000 * (r$secs - 1)))
