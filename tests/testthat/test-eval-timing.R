# Where evaluate()'s time goes (evaluation_phases(), R/eval-timing.R) and how
# run files are handed to the C++ loop (R/eval-assemble.R, src/glue_eval.cpp).

# n run files of different sizes (1 to 5 documents per topic), 3 topics, in
# `dir`; returns the paths, the qrels path and the number of run lines.
write_sized_runs <- function(dir, n) {
  qrels <- file.path(dir, "qrels.txt")
  writeLines(c("1 0 a 1", "1 0 b 0", "2 0 a 1", "2 0 c 0", "3 0 c 2", "3 0 e 1"), qrels)
  n_lines <- 0
  paths <- vapply(seq_len(n), function(i) {
    k <- 1L + (i * 7L) %% 5L
    lines <- unlist(lapply(1:3, function(t) {
      sprintf("%d Q0 %s %d %d r%02d", t, letters[seq_len(k)], seq_len(k), k - seq_len(k), i)
    }))
    n_lines <<- n_lines + length(lines)
    path <- file.path(dir, sprintf("run%02d.txt", i))
    writeLines(lines, path)
    path
  }, "")
  list(paths = paths, qrels = qrels, n_lines = n_lines)
}

test_that("evaluation_phases() accounts for every run, ranking and line and returns evaluate()'s result", {
  withr::local_options(irtopics.eval_thread_bytes = 0)  # 2 threads for these small files
  d <- write_sized_runs(withr::local_tempdir(), 20L)
  m <- c("AP", "P@10", "nDCG")
  ph <- evaluation_phases(d$paths, d$qrels, m, n_threads = 2, progress = FALSE)
  ref <- evaluate(d$paths, d$qrels, m, n_threads = 1, progress = FALSE)
  # Largest files first in the loop: the results stay in the order of the paths.
  expect_identical(unclass(attr(ph, "evaluation")), unclass(ref))
  expect_identical(rownames(ref$AP), sprintf("r%02d", 1:20))
  thr <- attr(ph, "threads")
  expect_equal(sum(thr$runs), 20)
  expect_equal(sum(thr$topics), 60)
  expect_equal(sum(thr$lines), d$n_lines)
  expect_true(all(thr$cpu >= 0) && all(thr$busy >= 0))
  expect_true(all(c("R: argument checks", "qrels: parse (C++)", "qrels: index (C++)", "runs: qrels lookups",
                    "runs: measures", "thread start-up", "R: assembling the matrices") %in% ph$phase))
  expect_true(all(ph$seconds[-nrow(ph)] >= 0))
  expect_identical(names(ph)[-(1:3)], c("thread_1", "thread_2"))
  # The log is off again: ordinary calls time nothing.
  expect_null(phase_log())
})

test_that("run files without a progress bar are one C++ call; with a bar, chunks of 16", {
  withr::local_options(irtopics.eval_thread_bytes = 0)
  d <- write_sized_runs(withr::local_tempdir(), 20L)
  one <- evaluation_phases(d$paths, d$qrels, "AP", n_threads = 2, progress = FALSE)
  expect_identical(attr(one, "chunks"), 1L)
  bars <- record_progress_bars()
  chunked <- evaluation_phases(d$paths, d$qrels, "AP", n_threads = 2, progress = TRUE)
  expect_identical(bars$labels, "evaluate: runs")
  expect_identical(attr(chunked, "chunks"), 2L)
  expect_identical(unclass(attr(chunked, "evaluation")), unclass(attr(one, "evaluation")))
  # Runs in memory are converted to C++ a chunk at a time, bar or not.
  runs <- do.call(rbind, lapply(seq_along(d$paths), function(i) {
    df <- as.data.frame(read_run(d$paths[i]))
    df$system <- sprintf("r%02d", i)
    df
  }))
  mem <- evaluation_phases(runs, d$qrels, "AP", n_threads = 2, progress = FALSE)
  expect_identical(attr(mem, "chunks"), 2L)
  expect_identical(unclass(attr(mem, "evaluation")$AP), unclass(attr(one, "evaluation")$AP))
})

test_that("inputs under getOption('irtopics.eval_thread_bytes', 4e6) bytes are evaluated on one thread", {
  d <- write_sized_runs(withr::local_tempdir(), 20L)
  bytes <- sum(file.size(d$paths))
  threads_used <- function(limit, runs = d$paths) {
    withr::local_options(irtopics.eval_thread_bytes = limit)
    ph <- evaluation_phases(runs, d$qrels, "AP", n_threads = 2, progress = FALSE)
    list(n = length(attr(ph, "threads")$runs), ev = attr(ph, "evaluation"))
  }
  small <- threads_used(NULL)        # the default, 4 MB: one thread
  at <- threads_used(bytes)          # exactly the limit: not below it, two threads
  below <- threads_used(bytes + 1)   # one byte short of the limit: one thread
  expect_identical(c(small$n, at$n, below$n), c(1L, 2L, 1L))
  expect_identical(unclass(small$ev), unclass(at$ev))
  # Runs in memory count 40 bytes a line.
  runs <- do.call(rbind, lapply(seq_along(d$paths), function(i) {
    df <- as.data.frame(read_run(d$paths[i]))
    df$system <- sprintf("r%02d", i)
    df
  }))
  # (a chunk of them at a time: every chunk holds at least one line, none
  # all of them)
  expect_identical(threads_used(40, runs)$n, 2L)
  expect_identical(threads_used(40 * nrow(runs), runs)$n, 1L)
  # One thread asked: one thread, whatever the size.
  withr::local_options(irtopics.eval_thread_bytes = 0)
  ph1 <- evaluation_phases(d$paths, d$qrels, "AP", n_threads = 1, progress = FALSE)
  expect_identical(length(attr(ph1, "threads")$runs), 1L)
})

test_that("evaluation_phases() turns its log off after an error", {
  d <- write_sized_runs(withr::local_tempdir(), 2L)
  expect_error(evaluation_phases(d$paths, file.path(dirname(d$qrels), "none.txt"), "AP"),
               class = "irtopics_error_file")
  expect_null(phase_log())
})
