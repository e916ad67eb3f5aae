# Ctrl-C during long computations: the C++ evaluation polls R for interrupts
# from the main thread between topics, resampling loops between chunks. An
# interrupt must stop the work well before it would have finished and leave
# the session usable (same results afterwards).

test_that("an interrupt stops a long evaluation inside one C++ call, with 1 and 2 threads", {
  skip_if_no_interrupts()
  dir <- withr::local_tempdir()
  big <- write_big_run(dir, n_topics = 1000L)
  one <- system.time(ref <- evaluate(big$run, big$qrels, "AP", progress = FALSE))[["elapsed"]]
  # Up to 16 paths are one chunk, i.e. one C++ call: only the C++ polling can
  # stop it early.
  copies <- min(16L, max(4L, ceiling(3 / max(one, 0.01))))
  paths <- rep(big$run, copies)
  for (threads in 1:2) {
    full <- copies * one / threads
    res <- with_interrupt_after(0.3, evaluate(paths, big$qrels, "AP", n_threads = threads,
                                              progress = FALSE, name = "file"))
    expect_true(res$interrupted, label = sprintf("interrupted with %d threads", threads))
    expect_lt(res$elapsed, 0.3 + 0.6 * (full - 0.3) + 0.2)
    # The session is usable and gives the same numbers.
    again <- evaluate(big$run, big$qrels, "AP", progress = FALSE)
    expect_identical(unclass(again), unclass(ref))
  }
})

test_that("an interrupt stops the swap method between chunks and leaves the session usable", {
  skip_if_no_interrupts()
  withr::local_options(irtopics.progress = FALSE)
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
  t_small <- system.time(swap_error_rates(ap, sizes = c(25, 50), trials = 100, seed = 1))[["elapsed"]]
  trials <- as.integer(100 * max(2, ceiling(4 / max(t_small, 0.01))))
  res <- with_interrupt_after(0.4, swap_error_rates(ap, sizes = c(25, 50), trials = trials, seed = 1))
  expect_true(res$interrupted)
  expect_lt(res$elapsed, 0.4 + 0.6 * (trials / 100 * t_small - 0.4) + 0.2)
  a <- swap_error_rates(ap, sizes = 25, trials = 50, seed = 3)
  b <- swap_error_rates(ap, sizes = 25, trials = 50, seed = 3)
  expect_identical(a$error, b$error)
})

test_that("with_interrupt_after() reports a computation that ended before the signal", {
  skip_if_no_interrupts()
  res <- with_interrupt_after(5, 1 + 1)
  expect_false(res$interrupted)
  expect_identical(res$value, 2)
})

test_that("an interrupt stops the GAWM fixed point inside its C++ loop", {
  skip_if_no_interrupts()
  # tol = 0 never converges: the loop runs maxit iterations in one C++ call.
  m <- matrix(seq(0.01, 0.99, length.out = 60 * 200)[c(matrix(1:(60 * 200), 60, byrow = TRUE))], 60)
  per <- system.time(suppressWarnings(gawm(m, tol = 0, maxit = 2000)))[["elapsed"]] / 2000
  maxit <- as.integer(min(.Machine$integer.max, ceiling(4 / max(per, 1e-7))))
  res <- with_interrupt_after(0.3, suppressWarnings(gawm(m, tol = 0, maxit = maxit)))
  expect_true(res$interrupted)
  expect_lt(res$elapsed, 0.3 + 0.6 * (maxit * per - 0.3) + 0.2)
  # The session is usable and gives the same numbers.
  a <- suppressWarnings(gawm(m, tol = 0, maxit = 50))
  b <- suppressWarnings(gawm(m, tol = 0, maxit = 50))
  expect_identical(a$system_performance, b$system_performance)
})

test_that("an interrupt stops critical_values(definition = 'threshold') inside one C++ call", {
  skip_if_no_interrupts()
  withr::local_options(irtopics.progress = FALSE)
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
  small <- swap_error_rates(ap, sizes = 25, trials = 100, seed = 1, keep_sets = TRUE)
  t_small <- system.time(critical_values(small, definition = "threshold", n_threads = 1))[["elapsed"]]
  trials <- as.integer(100 * max(2, ceiling(4 / max(t_small, 0.01))))
  big <- swap_error_rates(ap, sizes = 25, trials = trials, seed = 1, keep_sets = TRUE)
  full <- trials / 100 * t_small
  for (threads in 1:2) {
    res <- with_interrupt_after(0.3, critical_values(big, definition = "threshold", n_threads = threads))
    expect_true(res$interrupted, label = sprintf("interrupted with %d threads", threads))
    expect_lt(res$elapsed, 0.3 + 0.6 * (full / threads - 0.3) + 0.2)
  }
  expect_identical(critical_values(small, definition = "threshold", n_threads = 2),
                   critical_values(small, definition = "threshold", n_threads = 1))
})
