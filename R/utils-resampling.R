# Resampling infrastructure shared by the swap method and the smoothing
# experiment.
#
# Reproducibility contract: every random draw of an experiment is made in R,
# on the calling process, right after set.seed(seed) (restoring the user's RNG
# state afterwards). The C++ loops receive the draws and use no randomness, so
# results are identical for any n_threads and any future plan. Work is split
# into chunks of repetitions: with a sequential plan the chunks run here, with
# a progress bar and an interrupt check between chunks; with a parallel
# future plan (future::plan(multisession), a cluster, ...) each chunk becomes
# one future.

# Evaluate `expr` with the RNG seeded by `seed` (NULL: use the current stream),
# leaving the global RNG state as it was when a seed is given. The seed fixes
# the generator too (R's defaults: Mersenne-Twister, Inversion, Rejection), so
# the same seed gives the same draws in a session whose RNGkind() was changed
# (by the user or a package such as future.apply); the user's kinds and state
# are restored afterwards.
with_seed <- function(seed, expr) {
  if (is.null(seed)) return(expr)
  old <- if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
    get(".Random.seed", envir = globalenv(), inherits = FALSE) else NULL
  old_kind <- RNGkind()
  on.exit({
    # RNGkind() reseeds when the kind changes, so the kinds go back first and
    # the saved state after them.
    suppressWarnings(RNGkind(old_kind[1], old_kind[2], old_kind[3]))
    if (is.null(old)) {
      if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
        rm(".Random.seed", envir = globalenv())
      }
    } else {
      assign(".Random.seed", old, envir = globalenv())
    }
  }, add = TRUE)
  suppressWarnings(set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion",
                            sample.kind = "Rejection"))
  expr
}

# Seeds --------------------------------------------------------------------------
#
# One name and one derivation. A call's `seed` is resolved once, by
# resolve_seed(): the user's whole number, or one drawn from R's RNG when it
# is NULL (so set.seed() before the call reproduces it). That number is the
# call's seed everywhere after: R's draws use with_seed(seed, ...), the C++
# kernels key their counter-based streams Stream(seed_key(seed), stream)
# with it (src/resample.h), results record it as `seed`, and a call handing
# work to another package function passes it on as that function's `seed`.
# R code that needs R's RNG for one of the C++ streams (a user's test inside
# a calibration trial) seeds it with stream_seed(seed, stream), a whole
# number taken from that stream: the one derivation of sub-seeds.

# The seed a call uses (`seed` checked by the caller with check_seed()).
resolve_seed <- function(seed) {
  if (!is.null(seed)) return(as.double(seed))
  as.double(sample.int(.Machine$integer.max, 1L))
}

# Seeds (whole numbers in [1, 2147483647]) for R's RNG of streams `stream`
# (whole numbers >= 0, as the C++ numbers them) of the call's `seed`.
stream_seed <- function(seed, stream) cpp_stream_seeds(as.double(seed), as.double(stream))

# The stream of trial `trial` (0-based) of calibration setting `setting`
# (0-based), as src/calibration.h numbers it: setting * 2^32 + trial.
trial_stream <- function(setting, trial) setting * 2^32 + trial

# Work in chunks ----------------------------------------------------------------
#
# The one chunk driver of the package (resampling, the swap method, the
# smoothing experiment, alpha, evaluation). plan_chunks() cuts n items
# (replicates, trials, runs) into consecutive chunks and, before anything is
# allocated, refuses an n whose results cannot fit in memory; run_chunks()
# runs the chunks in this process in turn (a progress bar naming what it
# computes, interrupts handled between chunks) or, with a parallel future
# plan, each chunk as one future. The C++ inside a chunk is threaded by
# src/parallel.h.

# A plan of chunks for n items: a list with one element c(first, count) per
# chunk and attributes `n` and `what` (names the work for the progress bar,
# e.g. "swap trials"). Chunks hold at least `min_size` items and there are
# at most `pieces` of them. `bytes_per_item` is the memory the caller will
# hold per item (its draws and results), `fixed_bytes` what it holds once
# whatever n (working copies of one chunk); fixed_bytes + n * bytes_per_item
# beyond memory_budget() is an irtopics_error_memory naming `arg` (the
# user's argument, e.g. "B"), raised before anything is allocated.
plan_chunks <- function(n, what, min_size = 1L, pieces = 20L, bytes_per_item = 0, arg = "n",
                        fixed_bytes = 0, call = rlang::caller_env()) {
  if (n > .Machine$integer.max) {
    stop_irtopics("{.arg {arg}} must be at most {(.Machine$integer.max)}, not {format(n)}.", call = call)
  }
  check_memory(n, bytes_per_item, arg, fixed_bytes = fixed_bytes, call = call)
  size <- if (n > 0) max(min_size, ceiling(n / pieces)) else 1
  first <- if (n > 0) seq.int(1, n, by = size) else numeric()
  count <- pmin(size, n - first + 1)
  structure(Map(function(f, k) c(first = as.integer(f), count = as.integer(k)), first, count),
            n = n, what = what)
}

# The items of a chunk c(first, count) as a compact sequence (ALTREP: no
# allocation).
chunk_items <- function(chunk) seq.int(chunk[[1L]], length.out = chunk[[2L]])

# Runs `fun(idx, threads)` on every chunk of `plan` and returns the list of
# results, in chunk order. In this process the chunks run in turn with a cli
# progress bar labelled "<measure>: <what>" (`what` defaults to the plan's;
# shown as irtopics_progress(progress) says; the measure set by
# with_progress_measure()) and R handles interrupts between
# them; `threads` is `n_threads`. With a parallel future plan (and
# `futures = TRUE`) each chunk is one future and `threads` is 1: the futures
# are the parallelism, and an OpenMP region of more than one thread in a
# forked child (plan(multicore)) waits forever for the parent's libgomp pool
# threads, which fork() does not copy. `each(result, idx)`, if given, is
# applied to every chunk's result as soon as it is there (e.g. to name the
# runs of an evaluation chunk). A chunk's C++ error is raised by the call
# itself (the glue's guard()), so no later chunk runs.
run_chunks <- function(plan, fun, n_threads = 1L, progress = NULL, futures = use_future(),
                       each = NULL, what = attr(plan, "what")) {
  each <- each %||% function(res, idx) res
  if (isTRUE(futures) && length(plan) > 1L) {
    chunks <- lapply(plan, chunk_items)
    parts <- future.apply::future_lapply(chunks, fun, threads = 1L, future.seed = NULL,
                                         future.packages = "irtopics")
    return(Map(each, parts, chunks))
  }
  show <- irtopics_progress(progress) && length(plan) > 1L
  if (show) cli::cli_progress_bar(progress_label(what), total = attr(plan, "n"), .envir = environment())
  out <- vector("list", length(plan))
  for (k in seq_along(plan)) {
    idx <- chunk_items(plan[[k]])
    out[[k]] <- each(fun(idx, n_threads), idx)
    if (show) cli::cli_progress_update(inc = length(idx), .envir = environment())
  }
  out
}

#' Progress bars of long loops
#'
#' Every function of the package whose work runs in chunks (evaluation and
#' [return_orders()] of many runs, the swap method, the smoothing
#' experiment, alpha, resampling tests of [compare_systems()],
#' discriminative power, collection diagnostics, test calibration and the
#' margin fits of [simulation_model()]) takes `progress` and goes through the
#' rules below. A progress bar (cli) is shown between chunks, in the
#' session's process; a parallel [future::plan()] runs the chunks as futures
#' without one.
#'
#' Whether a call shows progress bars is, in this order of precedence:
#' 1. its `progress` argument, if `TRUE` or `FALSE`;
#' 2. the `progress` of the package function it runs inside (e.g. the
#'    resampling tests [test_calibration()] runs through
#'    [compare_systems()]);
#' 3. the option `irtopics.progress`, if set (e.g.
#'    `options(irtopics.progress = FALSE)`);
#' 4. otherwise `TRUE` in interactive sessions only.
#'
#' @param progress Show progress bars: `TRUE` or `FALSE`, or `NULL` for the
#'   default described in [irtopics_progress()] (option
#'   `irtopics.progress`, else interactive sessions only).
#' @return Whether a call with `progress` shows progress bars (`TRUE` or
#'   `FALSE`).
#' @examples
#' irtopics_progress()
#' irtopics_progress(FALSE)
#' old <- options(irtopics.progress = FALSE)
#' irtopics_progress()
#' options(old)
#' @export
irtopics_progress <- function(progress = NULL) {
  check_progress(progress)
  isTRUE(progress %||% irtopics_state$progress %||% getOption("irtopics.progress", interactive()))
}

check_progress <- function(progress, call = rlang::caller_env()) {
  if (!is.null(progress)) check_flag(progress, "progress", call = call)
  invisible(progress)
}

# Checks a function's `progress` and, when it is TRUE or FALSE, makes it the
# setting of every chunked loop run until that function returns (including
# those of the package functions it calls with progress = NULL).
local_progress <- function(progress, frame = parent.frame()) {
  check_progress(progress, call = frame)
  if (is.null(progress)) return(invisible(NULL))
  old <- irtopics_state$progress
  irtopics_state$progress <- progress
  restore <- if (is.null(old)) quote(irtopics_state$progress <- NULL) else
    bquote(irtopics_state$progress <- .(old))
  do.call(on.exit, list(restore, add = TRUE), envir = frame)
  invisible(progress)
}

# Progress bars name the measure they belong to: with_progress_measure()
# sets it for the loops run inside `expr`.
with_progress_measure <- function(measure, expr) {
  old <- irtopics_state$progress_measure
  irtopics_state$progress_measure <- measure
  on.exit(irtopics_state$progress_measure <- old, add = TRUE)
  expr
}

progress_label <- function(what) {
  measure <- irtopics_state$progress_measure
  if (is.null(measure) || !nzchar(measure)) what else paste0(measure, ": ", what)
}

# Memory -------------------------------------------------------------------------

# Bytes the package may use for one call's draws and results: option
# irtopics.max_memory (bytes), else the memory the system reports available
# (Linux: MemAvailable of /proc/meminfo), else 16 GiB.
memory_budget <- function() {
  opt <- getOption("irtopics.max_memory")
  if (!is.null(opt)) return(as.double(opt))
  avail <- tryCatch({
    line <- grep("^MemAvailable:", readLines("/proc/meminfo", n = 5L, warn = FALSE), value = TRUE)
    as.double(sub("^MemAvailable:\\s*([0-9]+).*$", "\\1", line[1])) * 1024
  }, error = function(e) NA_real_, warning = function(w) NA_real_)
  if (length(avail) == 1L && !is.na(avail) && avail > 0) avail else 16 * 2^30
}

# Refuses n items of `bytes_per_item` bytes each (plus `fixed_bytes` once)
# when they exceed the budget: an irtopics_error_memory naming the argument,
# what it needs and the largest value that fits (which this check accepts).
check_memory <- function(n, bytes_per_item, arg, fixed_bytes = 0, call = rlang::caller_env()) {
  need <- fixed_bytes + as.double(n) * bytes_per_item
  budget <- memory_budget()
  if (bytes_per_item <= 0 || need <= budget) return(invisible(n))
  fits <- max(0, floor((budget - fixed_bytes) / bytes_per_item))
  stop_irtopics(c("{.arg {arg}} = {format(n, big.mark = ',', scientific = FALSE)} needs about {format_bytes(need)} of memory; {format_bytes(budget)} is available.",
                  i = "Use a smaller {.arg {arg}} (at most {format(fits, big.mark = ',', scientific = FALSE)} fit), or raise the limit with {.code options(irtopics.max_memory = <bytes>)}."),
                kind = "memory", arg = arg, call = call)
}

format_bytes <- function(x) {
  units <- c("bytes", "KB", "MB", "GB", "TB", "PB")
  k <- max(1L, min(length(units), floor(log(max(x, 1), 1024)) + 1L))
  sprintf("%.3g %s", x / 1024^(k - 1L), units[k])
}

# TRUE when the user has set a future plan with more than one worker.
use_future <- function() {
  requireNamespace("future", quietly = TRUE) &&
    !inherits(future::plan(), "sequential") && future::nbrOfWorkers() > 1L
}
