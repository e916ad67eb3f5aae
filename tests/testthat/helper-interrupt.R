# Interrupt tests assert what an interrupt did (the call was interrupted, the
# C++ work stopped before it ended, threads were joined, the session gives the
# same numbers afterwards), never how long anything took (CONTRIBUTING.md,
# "Interrupts"). How fast an interrupt is acted on is measured in
# bench/interrupt.R.

# Evaluates `expr` with the C++ glue's interrupt countdown armed
# (src/glue_interrupt.h): the main thread's poll number `polls` + 1 of the C++
# work that `expr` runs raises a real SIGINT in this process, as Ctrl-C would,
# so the interrupt lands in the middle of that work however fast or loaded
# the machine is. The countdown runs across C++ calls (chunks). Returns
# list(value, interrupted, raised): `interrupted` is TRUE when the interrupt
# stopped `expr`; `raised` counts the signals raised (1 once the countdown
# ran out; 0 when `expr` ended first).
with_interrupt_in <- function(expr, polls = 0L) {
  cpp_arm_interrupt(as.integer(polls))
  on.exit(cpp_arm_interrupt(-1L), add = TRUE)
  res <- tryCatch(list(value = force(expr), interrupted = FALSE),
                  interrupt = function(e) list(value = NULL, interrupted = TRUE))
  res$raised <- cpp_arm_interrupt(-1L)
  res
}

# Sends this process SIGINT now, from R, as Ctrl-C would: for the R code
# between C++ calls (an interrupt while R sleeps or fits). R acts on it at its
# next check.
send_interrupt <- function() tools::pskill(Sys.getpid(), tools::SIGINT)

# A shell process sends SIGINT to this R process after `delay` seconds, as
# Ctrl-C would (for a hang guard, or reading code without C++ polls). Returns
# list(value, interrupted). The signal is cancelled if `expr` ends first, and
# a signal that arrives after `expr` ended is caught too, so the test process
# is never interrupted.
with_interrupt_after <- function(delay, expr) {
  pid_file <- tempfile()
  on.exit(unlink(pid_file), add = TRUE)
  cmd <- sprintf("sh -c 'echo $$ > %s; sleep %s; kill -INT %d' >/dev/null 2>&1",
                 pid_file, format(delay), Sys.getpid())
  system(cmd, wait = FALSE)
  res <- tryCatch(list(value = force(expr), interrupted = FALSE),
                  interrupt = function(e) list(value = NULL, interrupted = TRUE))
  # Cancel the pending signal, also when something else interrupted `expr`
  # (send_interrupt() under a hang guard): a shell left running would
  # interrupt a later test of this process at a random point. The shell
  # writes its pid before sleeping (on a loaded machine it may start late);
  # killing it and its sleep ends it. The shell's own signal can still land
  # while we cancel: it is caught, and the cancelling is done again, so the
  # result of `expr` is kept and nothing reaches a later test.
  cancel <- function() {
    for (i in 1:1000) if (file.exists(pid_file) && length(readLines(pid_file, warn = FALSE))) break else
      Sys.sleep(0.01)
    pid <- suppressWarnings(as.integer(readLines(pid_file, warn = FALSE)))
    if (length(pid) == 1L && !is.na(pid)) {
      system(sprintf("pkill -P %d >/dev/null 2>&1", pid))
      tools::pskill(pid)
    }
    Sys.sleep(0.05)
  }
  for (attempt in 1:5) {
    done <- tryCatch({
      cancel()
      TRUE
    }, interrupt = function(e) FALSE)
    if (done) break
    res$late <- TRUE
  }
  res
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
