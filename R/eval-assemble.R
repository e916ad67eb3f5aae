# Runs the C++ evaluation chunk by chunk through run_chunks() and returns one
# result list per run, with `system` set. In this process: chunks of at
# least 16 runs (they keep per-thread buffers warm; run files without a
# progress bar: one chunk), the C++ threaded over the runs of a chunk, a
# progress bar and interrupts between chunks, and an input error raised as
# soon as its chunk is done (by the C++ glue's one error route,
# stop_from_cpp(): the first failing run of the chunk, after all its runs
# ran). Scale-out: with a parallel
# future plan (multisession, cluster, future.batchtools, ...) chunks of run
# files go to the workers; each worker rebuilds the qrels from their source
# (a path, or the data frame shipped with the future) and streams its files
# in C++ with one thread (the futures are the parallelism). Qrels topics are
# numbered the same way in every process, so the results are those of the
# in-process evaluation. Run paths must be readable from the workers.
run_evaluation <- function(source, q, spec, depth, gain_vec, qmap, n_threads, want_profiles,
                           want_orders, progress = NULL, call = rlang::caller_env()) {
  n <- if (source$type == "files") length(source$paths) else length(source$runs)
  futures <- source$type == "files" && !is.null(q$source) && n > 1L && use_future()
  fields <- measure_fields(spec$builtin)
  if (futures) {
    plan <- plan_chunks(n, "evaluate: runs", pieces = 2L * future::nbrOfWorkers(), arg = "runs")
    # Absolute paths: a worker's working directory is not this session's, so a
    # relative path would name another file there (or none).
    worker <- evaluation_worker(normalizePath(source$paths, mustWork = TRUE), q$source, fields, depth,
                                gain_vec, want_profiles, want_orders, qmap)
  } else {
    # Run files with no progress bar to draw are one C++ call: one parallel
    # loop, so the threads start once and wait for each other once (with
    # chunks of 16 files, one core idled at the end of each chunk). Runs in
    # memory are converted to C++ a chunk at a time, and a bar needs chunks.
    bar <- isTRUE(progress %||% getOption("irtopics.progress", interactive()))
    plan <- plan_chunks(n, "evaluate: runs", min_size = max(16L, 4L * n_threads),
                        pieces = if (source$type == "files" && !bar) 1L else 20L, arg = "runs")
    worker <- function(idx, threads) {
      threads <- small_input_threads(source, idx, threads)
      timed_chunk(function(timing) {
        cpp_evaluate(q$ptr,
                     if (source$type == "files") source$paths[idx] else NULL,
                     if (source$type == "memory") source$runs[idx] else NULL,
                     fields, 0.25, depth, gain_vec, want_profiles, want_orders,
                     qmap$query, qmap$topic, threads, timing)
      })
    }
  }
  named <- function(res, idx) {
    lapply(seq_along(idx), function(k) {
      r <- res$runs[[k]]
      r$system <- if (source$type == "files") {
        if (source$name == "tag") r$tag else run_file_name(source$paths[idx[k]])
      } else {
        source$runs[[idx[k]]]$name
      }
      r
    })
  }
  parts <- run_chunks(plan, worker, n_threads = n_threads, progress = progress, futures = futures,
                      each = named)
  unlist(c(list(), parts), recursive = FALSE) %||% list()
}

# One thread for a small input: runs of fewer than
# getOption("irtopics.eval_thread_bytes", 4e6) bytes in all (run files: their
# sizes; runs in memory: 40 bytes a line, about a TREC run line) are
# evaluated on the calling thread. A second thread saves at most half of the
# ~10 ms one thread needs for 4 MB, and waking it costs more than that on a
# busy machine (15-50 ms measured with 2 cores under load 8-9: the main
# thread waits at the loop's start and end until the scheduler runs it).
# Results do not depend on the thread count. Tests that need the threaded
# path on small inputs set the option to 0.
small_input_threads <- function(source, idx, threads) {
  if (threads <= 1L) return(threads)
  min_bytes <- getOption("irtopics.eval_thread_bytes", 4e6)
  bytes <- if (source$type == "files") {
    sum(file.size(source$paths[idx]), na.rm = TRUE)
  } else {
    40 * sum(vapply(source$runs[idx], function(r) length(r$score), 1))
  }
  if (bytes < min_bytes) 1L else threads
}

# The function a future runs: a closure over exactly what a worker needs.
evaluation_worker <- function(paths, qsource, measures, depth, gain_vec, want_profiles,
                              want_orders, qmap) {
  force(list(paths, qsource, measures, depth, gain_vec, want_profiles, want_orders, qmap))
  function(idx, threads) {
    qw <- qrels_pointer(qsource$qrels, qsource$level)
    cpp_evaluate(qw$ptr, paths[idx], NULL, measures, 0.25, depth, gain_vec, want_profiles,
                 want_orders, qmap$query, qmap$topic, threads)
  }
}

# Topic (column) order: numeric when every id is a number, else byte order.
order_topics <- function(ids) {
  num <- suppressWarnings(as.numeric(ids))
  if (!anyNA(num)) ids[order(num, as_bytes(ids), method = "radix")] else sort_bytes(ids)
}

assemble_scores <- function(results, systems, q, qinfo, spec, depth, gain_vec, qmap, missing) {
  topics_all <- qinfo$topics
  # Columns: qrels topics, or queries when a query map is used.
  if (is.null(qmap)) {
    col_ids <- topics_all
    col_topic <- seq_along(topics_all)
  } else {
    known <- qmap$topic %in% topics_all
    col_ids <- qmap$query[known]
    col_topic <- match(qmap$topic[known], topics_all)
  }
  n_sys <- length(results)
  n_col <- length(col_ids)
  n_b <- nrow(spec$builtin)
  values <- array(NA_real_, c(n_sys, n_col, n_b))
  custom <- lapply(spec$custom, function(f) matrix(NA_real_, n_sys, n_col))
  answered <- matrix(FALSE, n_sys, n_col)
  unknown <- character()
  for (s in seq_len(n_sys)) {
    r <- results[[s]]
    unknown <- union(unknown, r$unknown_topics)
    cols <- if (is.null(qmap)) r$topic else match(r$list_id, col_ids)
    if (!length(cols)) next
    answered[s, cols] <- TRUE
    if (n_b) values[s, cols, ] <- r$values
    for (nm in names(spec$custom)) {
      f <- spec$custom[[nm]]
      custom[[nm]][s, cols] <- vapply(seq_along(cols), function(k) {
        call_custom(f, nm, judged_grades(r$profiles[[k]], spec$judged_only), qinfo$num_rel[r$topic[k]],
                    system = systems[s], topic = col_ids[cols[k]])
      }, numeric(1))
    }
  }
  keep <- seq_len(n_col)
  if (missing == "zero") {
    if (n_b) {
      empty <- cpp_empty_values(q$ptr, measure_fields(spec$builtin), 0.25, depth, gain_vec)
      for (m in seq_len(n_b)) {
        fill <- matrix(empty[col_topic, m], n_sys, n_col, byrow = TRUE)
        v <- values[, , m, drop = FALSE]
        dim(v) <- c(n_sys, n_col)
        v[!answered] <- fill[!answered]
        values[, , m] <- v
      }
    }
    for (nm in names(spec$custom)) {
      ev <- vapply(seq_along(col_topic), function(k) {
        call_custom(spec$custom[[nm]], nm, integer(), qinfo$num_rel[col_topic[k]], topic = col_ids[k])
      }, numeric(1))
      fill <- matrix(ev, n_sys, n_col, byrow = TRUE)
      custom[[nm]][!answered] <- fill[!answered]
    }
  } else {
    keep <- which(colSums(answered) > 0)
  }
  ord <- keep[order(match(col_ids[keep], order_topics(col_ids[keep])))]
  make <- function(m, measure) {
    m <- m[, ord, drop = FALSE]
    dimnames(m) <- list(systems, col_ids[ord])
    x <- new_ir_scores(m, measure)
    if (!is.null(qmap)) attr(x, "topic") <- stats::setNames(topics_all[col_topic[ord]], col_ids[ord])
    x
  }
  out <- list()
  canonical <- character()
  for (nm in spec$order) {
    b <- match(nm, spec$builtin$name)
    out[[nm]] <- if (!is.na(b)) {
      v <- values[, , b, drop = FALSE]
      dim(v) <- c(n_sys, n_col)
      x <- make(v, nm)
      attr(x, "aggregate") <- spec$builtin$aggregate[b]
      attr(x, "direction") <- spec$builtin$direction[b]
      x
    } else {
      # a function alone: no record (averaged, higher is better); custom_measure(): its record
      x <- make(custom[[nm]], nm)
      attr(x, "aggregate") <- spec$records[[nm]]$aggregate
      attr(x, "direction") <- spec$records[[nm]]$direction
      x
    }
    canonical[nm] <- if (!is.na(b)) spec$builtin$canonical[b] else nm
  }
  attr(out, "missing") <- missing
  attr(out, "depth") <- depth
  attr(out, "unknown_topics") <- unknown
  attr(out, "canonical") <- unname(canonical)
  attr(out, "judged_only") <- isTRUE(spec$judged_only)
  new_ir_evaluation(out)
}

# A custom measure's grades under evaluate(judged_only = TRUE): the judged
# documents only (NA marks the others), as the built-in measures get them
# (src/judged_only.h).
judged_grades <- function(grades, judged_only) {
  if (judged_only) grades[!is.na(grades)] else grades
}

# An `ir_evaluation`: a named list of `ir_scores` (one per measure, same
# systems) with the evaluation's settings as attributes.
new_ir_evaluation <- function(x) {
  if (!all(vapply(x, inherits, logical(1), what = "ir_scores")) || (length(x) && is.null(names(x)))) {
    stop_irtopics("Can't build {.cls ir_evaluation}: it must be a named list of {.cls ir_scores}.",
                  kind = "internal", call = NULL)
  }
  new_result(x, "ir_evaluation", base = "list",
             attrs = c(missing = "string", depth = "number", canonical = "character", judged_only = "flag"))
}

# Run topics against qrels topics: no topic in common (typically "q301"
# against "301") is an error showing a few ids of each side; run topics that
# are not in the qrels are ignored with a warning giving their count.
check_topic_overlap <- function(results, qinfo, call = rlang::caller_env()) {
  unknown <- unique(unlist(lapply(results, function(r) r$unknown_topics)))
  n_answered <- sum(vapply(results, function(r) length(r$list_id), integer(1)))
  if (!n_answered) {
    run_ids <- show_ids(unknown)
    qrels_ids <- show_ids(qinfo$topics)
    stop_irtopics(c("No topic of the runs is in the qrels.",
                    i = "Run topics: {run_ids}.", i = "Qrels topics: {qrels_ids}.",
                    i = "Check that both use the same topic ids (e.g. {.val 301} or {.val q301})."),
                  kind = "data", call = call)
  }
  if (length(unknown)) {
    ids <- show_ids(unknown)
    warn_irtopics(c("{length(unknown)} topic{?s} of the runs {?is/are} not in the qrels and {?was/were} ignored: {ids}."),
                  kind = "unknown_topics")
  }
  invisible(unknown)
}

# At most `n` ids, quoted, escaped and cut for a message.
show_ids <- function(ids, n = 5L) {
  if (!length(ids)) return("none")
  shown <- paste0('"', show_bytes(utils::head(ids, n), width = 30L), '"', collapse = ", ")
  if (length(ids) > n) paste0(shown, ", ... (", length(ids), " in all)") else shown
}

call_custom <- function(f, name, grades, n_rel, system = NULL, topic = NULL) {
  call_user(f, list(grades, n_rel), sprintf('Custom measure "%s"', name),
            where = list(system = system, topic = topic), kind = "measure")
}
