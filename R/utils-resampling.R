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

# Split 1..n into consecutive chunks of at most `size`.
chunk_indices <- function(n, size) {
  if (n <= 0) return(list())
  split(seq_len(n), ceiling(seq_len(n) / size))
}

# Apply `fun(idx, threads)` to each element of `chunks` (a list of index
# vectors) and return the list of results. Uses future.apply when a parallel
# future plan is set, otherwise a plain loop with a cli progress bar (shown for
# loops that take more than a couple of seconds) and interrupt checks between
# chunks. `threads` is `n_threads` in the loop and 1 inside futures: the
# futures are the parallelism, and an OpenMP region with more than one thread
# in a forked child (plan(multicore)) waits forever for the parent's libgomp
# pool threads, which fork() does not copy.
map_chunks <- function(chunks, fun, n_threads = 1L, label = "Resampling", progress = NULL) {
  progress <- progress %||% getOption("irtopics.progress", interactive())
  if (use_future()) {
    return(future.apply::future_lapply(chunks, fun, threads = 1L, future.seed = NULL,
                                       future.packages = "irtopics"))
  }
  out <- vector("list", length(chunks))
  if (isTRUE(progress) && length(chunks) > 1L) {
    cli::cli_progress_bar(label, total = length(chunks), .envir = environment())
  }
  for (k in seq_along(chunks)) {
    out[[k]] <- fun(chunks[[k]], n_threads)
    if (isTRUE(progress) && length(chunks) > 1L) cli::cli_progress_update(.envir = environment())
  }
  out
}

# TRUE when the user has set a future plan with more than one worker.
use_future <- function() {
  requireNamespace("future", quietly = TRUE) &&
    !inherits(future::plan(), "sequential") && future::nbrOfWorkers() > 1L
}
