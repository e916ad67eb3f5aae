# Interrupt tests: a shell process sends SIGINT to this R process after
# `delay` seconds, as Ctrl-C would. Returns list(value, interrupted, elapsed).
# The signal is cancelled if `expr` ends first, and a signal that arrives
# after `expr` ended is caught too, so the test process is never interrupted.
with_interrupt_after <- function(delay, expr) {
  pid_file <- tempfile()
  on.exit(unlink(pid_file), add = TRUE)
  cmd <- sprintf("sh -c 'echo $$ > %s; sleep %s; kill -INT %d' >/dev/null 2>&1",
                 pid_file, format(delay), Sys.getpid())
  start <- Sys.time()
  system(cmd, wait = FALSE)
  out <- tryCatch({
    res <- tryCatch(list(value = force(expr), interrupted = FALSE),
                    interrupt = function(e) list(value = NULL, interrupted = TRUE))
    res$elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
    if (!res$interrupted) {
      # Cancel the pending signal (the shell writes its pid before sleeping).
      for (i in 1:50) if (file.exists(pid_file) && length(readLines(pid_file, warn = FALSE))) break else
        Sys.sleep(0.01)
      pid <- suppressWarnings(as.integer(readLines(pid_file, warn = FALSE)))
      if (length(pid) == 1L && !is.na(pid)) tools::pskill(pid)
      Sys.sleep(0.05)
    }
    res
  }, interrupt = function(e) list(value = NULL, interrupted = FALSE, elapsed = NA_real_, late = TRUE))
  out
}

skip_if_no_interrupts <- function() {
  skip_on_cran()
  skip_on_os("windows")
  skip_if(Sys.which("sh") == "" || Sys.which("sleep") == "", "no sh/sleep to send the signal")
}

# A synthetic run file of n_topics x depth lines and matching qrels.
write_big_run <- function(dir, n_topics, depth = 1000L) {
  topics <- rep(seq_len(n_topics), each = depth)
  rank <- rep(seq_len(depth), n_topics)
  docs <- sprintf("D%d-%d", topics, rank)
  run <- file.path(dir, "big-run.txt")
  writeLines(sprintf("%d Q0 %s %d %.3f big", topics, docs, rank - 1L, (depth - rank) / depth), run)
  rel <- rank %% 7L == 0L
  qrels <- file.path(dir, "big-qrels.txt")
  writeLines(sprintf("%d 0 %s %d", topics[rank <= 300], docs[rank <= 300], as.integer(rel[rank <= 300])),
             qrels)
  list(run = run, qrels = qrels)
}
