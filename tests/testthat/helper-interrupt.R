# Interrupt tests send this R process a real SIGINT, as Ctrl-C would, from a
# shell started in the background. They assert what the interrupt did (the
# call was interrupted; the C++ call it reached did not return; chunks were
# left undone; threads were joined), never how long anything took: no test
# asserts on elapsed time (CONTRIBUTING.md, "Interrupts").

# Starts the shell: unless cancelled first, it sends SIGINT to this process
# `delay` seconds from now (none when `delay` is NULL) and, `patience`
# seconds after that, kills the process with a message on stderr. The kill
# is the hang guard: a call that goes on where it should have stopped (an
# interrupt ignored, a cancelled job still running) ends the test run with
# a failure instead of hanging it; working code returns within a poll
# interval (50 ms). Returns the function that cancels the shell: it creates
# the file the shell looks at before each signal (so no signal can come
# after it), then ends the shell and its sleep, which would otherwise hold
# this process's stderr open. Cancelling twice does nothing more.
start_signal <- function(delay, patience = 60) {
  dir <- tempfile("signal-")
  dir.create(dir)
  pid_file <- file.path(dir, "pid")
  stop_file <- file.path(dir, "stop")
  me <- Sys.getpid()
  nap <- function(secs) c(sprintf("sleep %s & nap=$!", format(secs)), "wait $nap",
                          sprintf("[ -e %s ] && exit 0", shQuote(stop_file)))
  script <- c(
    "trap 'kill $nap 2>/dev/null; exit 0' TERM",
    sprintf("echo $$ > %s", shQuote(pid_file)),
    if (!is.null(delay)) c(nap(delay), sprintf("kill -INT %d", me)),
    nap(patience),
    sprintf("echo 'irtopics tests: R process %d still busy %s s after %s; killing it (helper-interrupt.R)' >&2",
            me, format(patience), if (is.null(delay)) "the watch started" else "the interrupt"),
    sprintf("kill -KILL %d", me))
  writeLines(script, file.path(dir, "signal.sh"))
  system(sprintf("sh %s </dev/null >/dev/null", shQuote(file.path(dir, "signal.sh"))), wait = FALSE)
  function() {
    if (file.exists(stop_file)) return(invisible())
    file.create(stop_file)
    # the shell writes its pid first thing (waited for only to end it now)
    for (i in 1:1000) {
      pid <- if (file.exists(pid_file)) suppressWarnings(as.integer(readLines(pid_file, warn = FALSE)))
      if (length(pid) == 1L && !is.na(pid)) break
      Sys.sleep(0.01)
    }
    if (length(pid) == 1L && !is.na(pid)) tools::pskill(pid)
    invisible()
  }
}

# Evaluates `expr`, catching the interrupt the shell sends, then cancels the
# shell through `state$cancel()` (set before or while `expr` runs; also
# when an error ends `expr`). list(value, interrupted).
catch_signal <- function(expr, state) {
  on.exit(state$cancel(), add = TRUE)
  tryCatch({
    res <- tryCatch(list(value = force(expr), interrupted = FALSE),
                    interrupt = function(e) list(value = NULL, interrupted = TRUE))
    state$cancel()
    # a signal the shell sent just as `expr` ended is caught here
    if (!res$interrupted) Sys.sleep(0.05)
    res
  }, interrupt = function(e) list(value = NULL, interrupted = FALSE, late = TRUE))
}

# Sends SIGINT `delay` seconds after the call, while `expr` runs. Returns
# list(value, interrupted): `interrupted` is TRUE when the interrupt stopped
# `expr` before it returned.
with_interrupt_after <- function(delay, expr, patience = 60) {
  state <- new.env()
  state$cancel <- start_signal(delay, patience)
  catch_signal(expr, state)
}

# Counts the calls of the package function `fun` (e.g. a C++ entry point
# such as "cpp_gawm", or "run_chunks") until the calling frame ends:
# `log$calls`, and `log$returns` for those that returned normally (not
# unwound by an error or an interrupt). `first()` runs at the first call.
# Traced in the namespace (the package's calls) and in the attached package
# environment when it has its own copy (pkgload::load_all() exports every
# function: a test's own calls find that one).
local_call_log <- function(fun, log, first = function() NULL, frame = parent.frame()) {
  envs <- list(asNamespace("irtopics"))
  if ("package:irtopics" %in% search() && exists(fun, as.environment("package:irtopics"), inherits = FALSE)) {
    envs <- c(envs, as.environment("package:irtopics"))
  }
  log$calls <- 0L
  log$returns <- 0L
  unwound <- new.env()
  entry <- function() {
    log$calls <- log$calls + 1L
    if (log$calls == 1L) first()
  }
  leave <- function(value) if (!identical(value, unwound)) log$returns <- log$returns + 1L
  # (trace() runs both expressions in `fun`'s frame: they carry their objects)
  for (env in envs) {
    suppressMessages(trace(fun, tracer = as.call(list(entry)),
                           exit = as.call(list(leave, as.call(list(quote(returnValue), unwound)))),
                           where = env, print = FALSE))
  }
  withr::defer(for (env in envs) suppressMessages(untrace(fun, where = env)), envir = frame)
  invisible(log)
}

# Sends SIGINT `delay` seconds after `expr` first calls the package function
# `fun`. list(value, interrupted, calls, returns) (the calls of `fun`, as
# local_call_log() counts them). With `returns` 0, the interrupt came out of
# the first call of `fun`: a C++ call whose polling works stops, one that
# ignores interrupts returns (R raises the interrupt after it), whatever the
# machine's speed or load. With `returns` below the number of chunks of
# the work, the call stopped before its end.
with_interrupt_in <- function(fun, expr, delay = 0.2, patience = 60) {
  # the hang guard of a call that never reaches `fun`
  guard <- start_signal(NULL, 5 * patience)
  on.exit(guard(), add = TRUE)
  state <- new.env()
  state$cancel <- function() invisible()
  local_call_log(fun, state, first = function() state$cancel <- start_signal(delay, patience))
  res <- catch_signal(expr, state)
  c(res, list(calls = state$calls, returns = state$returns))
}

# Runs `expr` under the hang guard alone (no SIGINT): for calls that must
# return at once, such as cancelling a job whose work would take hours.
with_watchdog <- function(expr, patience = 60) {
  if (.Platform$OS.type != "unix" || Sys.which("sh") == "") return(expr)
  cancel <- start_signal(NULL, patience)
  on.exit(cancel(), add = TRUE)
  expr
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
