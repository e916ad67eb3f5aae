# Where evaluate()'s time goes ---------------------------------------------------
#
# evaluation_phases() runs evaluate() once with a phase log switched on and
# returns a table of where the time went: the R side (argument checks, qrels
# preparation, the chunk driver, assembling the matrices) from marks that
# evaluate() sets with phase_mark(), and the C++ side from cpp_evaluate()'s
# per-thread clocks (ThreadClocks in src/glue_eval.cpp: thread start-up, the
# phases of EvalTiming in src/evaluate.h, waiting for the other threads) and
# the qrels reader's (read, parse, index, prepare). Without the log (every
# ordinary call) phase_mark() returns at once and no C++ timing crosses to R.
# Used by bench/evaluate.R; internal.

# The log of the running evaluation_phases() call, or NULL.
phase_log <- function() irtopics_state$phase_log

# Elapsed seconds of a phase of evaluate() that has just ended: the time since
# the previous mark is added to `phase`. `qrels`: the C++ reader's timing
# (qrels_pointer()'s `timing`), kept to split the qrels phase.
phase_mark <- function(phase, qrels = NULL) {
  log <- phase_log()
  if (is.null(log)) return(invisible())
  if (!is.null(qrels)) log$qrels_timing <- qrels
  now <- phase_now()
  log$wall[[phase]] <- (log$wall[[phase]] %||% 0) + now[[1]] - log$last[[1]]
  log$cpu[[phase]] <- (log$cpu[[phase]] %||% 0) + now[[2]] - log$last[[2]]
  log$last <- now
  invisible()
}

# Elapsed seconds and this process's CPU seconds (all its threads).
phase_now <- function() {
  cpu <- proc.time()
  c(as.double(Sys.time()), sum(cpu[c("user.self", "sys.self")]))
}

# Runs `call_cpp()` (a cpp_evaluate() call asked for its timing when the log
# is on) and keeps its wall time and C++ timing in the log.
timed_chunk <- function(call_cpp) {
  log <- phase_log()
  if (is.null(log)) return(call_cpp(FALSE))
  start <- phase_now()
  res <- call_cpp(TRUE)
  took <- phase_now() - start
  log$chunks[[length(log$chunks) + 1L]] <- list(wall = took[[1]], cpu = took[[2]], timing = res$timing)
  res$timing <- NULL
  res
}

# A table of where the time of evaluate(...) goes: one row per phase, its
# elapsed seconds (`seconds`; for the phases of the threads' loop, the sum
# over the threads), its CPU seconds (`cpu`: measured for the R phases;
# for the C++ phases, which are timed by the steady clock only, their
# elapsed time scaled by the CPU share of their thread or R phase: on a
# shared machine elapsed time includes the time other processes held the
# core) and, for the threads' phases, one column of elapsed seconds per
# thread. Attributes: `evaluation` (the result), `total` (elapsed seconds
# of the call), `total_cpu`, `loop` (elapsed seconds of the threads'
# loops), `chunks` (C++ calls) and `threads` (per thread: runs, rankings
# and run lines evaluated, elapsed and CPU seconds in runs).
evaluation_phases <- function(...) {
  log <- new.env(parent = emptyenv())
  log$wall <- list()
  log$cpu <- list()
  log$chunks <- list()
  old <- irtopics_state$phase_log
  irtopics_state$phase_log <- log
  on.exit(irtopics_state$phase_log <- old, add = TRUE)
  log$last <- start <- phase_now()
  ev <- evaluate(...)
  total <- phase_now() - start
  phase_table(log, total, ev)
}

phase_table <- function(log, total, ev) {
  w <- function(name) log$wall[[name]] %||% 0
  cw <- function(name) log$cpu[[name]] %||% 0
  chunks <- log$chunks
  tm <- lapply(chunks, `[[`, "timing")
  n_thr <- max(vapply(tm, function(t) length(t$busy), 1L), 1L)
  per_thread <- function(f) {
    out <- numeric(n_thr)
    for (t in tm) {
      v <- f(t)
      out[seq_along(v)] <- out[seq_along(v)] + v
    }
    out
  }
  loop <- sum(vapply(tm, `[[`, 0, "loop"))
  cpp_wall <- sum(vapply(chunks, `[[`, 0, "wall"))
  cpp_cpu <- sum(vapply(chunks, `[[`, 0, "cpu"))
  qt <- log$qrels_timing %||% c(read = 0, parse = 0, index = 0, prepare = 0)
  phases <- c("read", "parse", "order", "hash", "lookup", "measures")
  threads <- rbind(
    "thread start-up" = per_thread(function(t) t$start),
    do.call(rbind, stats::setNames(lapply(phases, function(p) per_thread(function(t) t$phases[, p])),
                                   paste("runs:", c("read (kernel copy)", "line split and score parse",
                                                    "score order (sort)", "docno hash, duplicate check",
                                                    "qrels lookups", "measures")))),
    "runs: other (between topics, buffers)" = per_thread(function(t) t$busy - rowSums(t$phases)),
    "waiting for the other threads" = per_thread(function(t) t$wait))
  share <- per_thread(function(t) t$cpu) / pmax(per_thread(function(t) t$busy), 1e-9)
  qshare <- min(1, cw("qrels") / max(w("qrels"), 1e-9))
  serial <- c(
    "R: argument checks" = w("arguments"),
    "qrels: read file (C++)" = qt[["read"]],
    "qrels: parse (C++)" = qt[["parse"]],
    "qrels: index (C++)" = qt[["index"]],
    "qrels: prepare (C++)" = qt[["prepare"]],
    "qrels: R side and summary" = w("qrels") - sum(qt),
    "R: run paths" = w("paths"),
    "R: chunk driver" = w("runs") - cpp_wall,
    "glue: outside the threads' loop" = cpp_wall - loop)
  serial_cpu <- c(cw("arguments"), qt * qshare, cw("qrels") - sum(qt) * qshare, cw("paths"),
                  cw("runs") - cpp_cpu, NA_real_)
  tail <- c("R: assembling the matrices" = w("assemble"))
  rows <- c(names(serial), rownames(threads), names(tail))
  out <- data.frame(phase = rows, seconds = c(serial, rowSums(threads), tail),
                    cpu = c(serial_cpu, threads %*% share, cw("assemble")), row.names = NULL,
                    stringsAsFactors = FALSE)
  for (k in seq_len(n_thr)) {
    out[[paste0("thread_", k)]] <- c(rep(NA_real_, length(serial)), threads[, k], rep(NA_real_, length(tail)))
  }
  rest <- out[1L, ]
  rest$phase <- "unaccounted (total - phases, threads' loop counted once)"
  rest$seconds <- total[[1]] - sum(serial) - loop - sum(tail)
  rest$cpu <- total[[2]] - sum(out$cpu, na.rm = TRUE)
  rest[1L, -(1:3)] <- NA_real_
  out <- rbind(out, rest)
  attr(out, "evaluation") <- ev
  attr(out, "total") <- total[[1]]
  attr(out, "total_cpu") <- total[[2]]
  attr(out, "loop") <- loop
  attr(out, "chunks") <- length(chunks)
  attr(out, "threads") <- data.frame(thread = seq_len(n_thr), runs = per_thread(function(t) t$runs),
                                     topics = per_thread(function(t) t$topics),
                                     lines = per_thread(function(t) t$lines),
                                     busy = per_thread(function(t) t$busy), cpu = per_thread(function(t) t$cpu))
  out
}
