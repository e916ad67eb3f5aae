#' Number of threads of the C++ loops
#'
#' Every function of the package that takes `n_threads` (evaluation, the
#' swap method, critical values, comparing systems, discriminative power,
#' alpha, the smoothing experiment, query variations) defaults to
#' `irtopics_threads()` and goes through the rules below. Results never
#' depend on the number of threads: every random draw is fixed before the
#' threads start, each item (a run, a replicate, a trial, a pair of systems)
#' is computed by one thread, and what the threads add up are exact counts.
#'
#' The default is, in this order of precedence:
#' 1. the option `irtopics.n_threads`, if set (e.g.
#'    `options(irtopics.n_threads = 4)`);
#' 2. the environment variable `OMP_NUM_THREADS`, if set to a positive whole
#'    number (at most the logical cores);
#' 3. otherwise half the logical cores (`parallel::detectCores()`), as
#'    data.table does, so that the other half stays free for the rest of the
#'    machine; but at least 2 on a machine with 2 or more cores, so that a
#'    dual-core laptop uses its second core (a choice of this package; on one
#'    core it is 1).
#'
#' Then the limits, which apply to every count, whether it came from the
#' option, from `n_threads` or from the default: at most the logical cores
#' (at least 2) for a number you give; at most `OMP_THREAD_LIMIT` if that is
#' set to a positive whole number (the OpenMP runtime would not start more
#' threads anyway); at most 2 under `R CMD check`'s core limit
#' (`_R_CHECK_LIMIT_CORES_` set to anything but false); and 1 in a forked
#' child (`parallel::mclapply()`, `future::plan(multicore)`) of a process
#' that has already opened a region of two or more threads: libgomp's thread
#' pool does not survive `fork()`, and a second region of more than one
#' thread in the child would wait for ever.
#'
#' With a parallel `future::plan()`, loops that run in chunks (resampling,
#' the swap method, the smoothing experiment, alpha, evaluation of run files)
#' send each chunk to a worker, which uses one thread: the workers are the
#' parallelism.
#'
#' @param n_threads Number of threads of the C++ loops: `NULL` for the
#'   default described in [irtopics_threads()], or a positive whole number.
#'   Results do not depend on it.
#' @return The number of threads a call with `n_threads` uses (an integer).
#' @examples
#' irtopics_threads()
#' irtopics_threads(2)
#' old <- options(irtopics.n_threads = 1)
#' irtopics_threads()
#' options(old)
#' @export
irtopics_threads <- function(n_threads = NULL) {
  threads_for(n_threads)
}

# The count for `n_threads` (NULL: the default), without recording anything.
threads_for <- function(n_threads, call = rlang::caller_env()) {
  if (is.null(n_threads)) n_threads <- getOption("irtopics.n_threads")
  n <- if (is.null(n_threads)) {
    default_threads()
  } else {
    thread_limits(min(check_whole(n_threads, "n_threads", min = 1, call = call), thread_cap()))
  }
  if (n >= 2L && forked_child()) 1L else as.integer(n)
}

# The environment the counts read (names as in ?irtopics_threads).
thread_env <- function() {
  Sys.getenv(c("OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "_R_CHECK_LIMIT_CORES_"))
}

# The default count from the logical cores and the environment (see
# ?irtopics_threads); `cores` and `env` are arguments for the tests.
default_threads <- function(cores = detect_cores(), env = thread_env()) {
  n <- max(min(2L, cores), cores %/% 2L, 1L)
  omp <- env_count(env[["OMP_NUM_THREADS"]])
  if (!is.na(omp)) n <- min(omp, max(cores, 1L))
  thread_limits(n, env)
}

# The limits every count obeys, whatever its source (the option, the
# argument or the default): OMP_THREAD_LIMIT and R CMD check's core limit.
# Before issue 29 only the default obeyed them, though the help said all.
thread_limits <- function(n, env = thread_env()) {
  limit <- env_count(env[["OMP_THREAD_LIMIT"]])
  if (!is.na(limit)) n <- min(n, limit)
  check_limit <- tolower(trimws(env[["_R_CHECK_LIMIT_CORES_"]]))
  if (nzchar(check_limit) && !check_limit %in% c("false", "no", "0")) n <- min(n, 2L)
  as.integer(max(1L, n))
}

# A positive whole number from an environment variable (OMP_NUM_THREADS may
# be a list such as "4,2": its first entry counts), else NA.
env_count <- function(value) {
  first <- trimws(strsplit(value %||% "", ",", fixed = TRUE)[[1]][1])
  if (is.na(first) || !grepl("^[0-9]+$", first)) return(NA_integer_)
  n <- suppressWarnings(as.integer(first))
  if (is.na(n) || n < 1L) NA_integer_ else n
}

detect_cores <- function() {
  cores <- tryCatch(parallel::detectCores(), error = function(e) NA_integer_)
  if (is.na(cores)) 1L else as.integer(cores)
}

# Largest number of threads used: the logical cores, at least 2 (so that the
# threaded code paths still run on a one-core machine; thousands of threads
# would make thread creation fail and terminate R).
thread_cap <- function() max(2L, detect_cores())

# TRUE in a process other than the one that first opened a region of two or
# more threads (a forked child of it).
forked_child <- function() {
  first <- irtopics_state$omp_pid
  !is.null(first) && first != Sys.getpid()
}

# What every function taking `n_threads` calls first: the count of
# threads_for(), and the pid of the process that opens a region of 2+
# threads recorded for the fork rule. The C++ glue applies the same rule
# (glue_guard.h) for calls that bypass this.
resolve_threads <- function(n_threads, call = rlang::caller_env()) {
  n <- threads_for(n_threads, call = call)
  if (n >= 2L && is.null(irtopics_state$omp_pid)) irtopics_state$omp_pid <- Sys.getpid()
  n
}

# Mutable package state (the pid that first opened a threaded region, the
# measure named by progress bars).
irtopics_state <- new.env(parent = emptyenv())
