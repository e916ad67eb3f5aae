test_that("with_interrupt_after() reports a computation that ended before the signal", {
  skip_if_no_interrupts()
  res <- with_interrupt_after(5, 1 + 1)
  expect_false(res$interrupted)
  expect_identical(res$value, 2)
})

test_that("with_interrupt_after() cancels its signal also when something else interrupted the call", {
  skip_if_no_interrupts()
  # 0.5 s: the shell is usually cancelled before its signal; 0.02 s: its
  # signal usually lands while the first one is handled or while cancelling
  # (on a loaded machine either can happen at either delay). Both must keep
  # the result of the call and leave nothing armed.
  for (delay in c(0.5, 0.02)) {
    res <- with_interrupt_after(delay, {
      send_interrupt()
      Sys.sleep(5)
    })
    expect_true(res$interrupted)
    # the shell's own signal was due `delay` s after the call: none may come
    # later (it once hit a later test file at a random point)
    late <- tryCatch({
      Sys.sleep(1)
      FALSE
    }, interrupt = function(e) TRUE)
    expect_false(late)
  }
})

test_that("with_interrupt_in() raises nothing when the C++ work polls fewer times than the countdown", {
  skip_if_no_interrupts()
  res <- with_interrupt_in(1 + 1)
  expect_identical(res[c("value", "interrupted", "raised")], list(value = 2, interrupted = FALSE, raised = 0L))
  m <- matrix(c(.1, .5, .3, .2, .4, .6, .7, .2, .1, .3, .3, .8), 3)
  res <- with_interrupt_in(suppressWarnings(gawm(m, tol = 0, maxit = 5L)), polls = 1e6)
  expect_false(res$interrupted)
  expect_identical(res$raised, 0L)
  expect_s3_class(res$value, "ir_gawm")
  # disarmed afterwards: the next call is not interrupted
  expect_s3_class(suppressWarnings(gawm(m, tol = 0, maxit = 5L)), "ir_gawm")
  expect_identical(cpp_arm_interrupt(-1L), 0L)
})

test_that("plan_chunks() covers 1..n once, in order, within the chunk bounds", {
  for (n in c(1, 7, 250, 1001, 40000)) {
    plan <- plan_chunks(n, "items", min_size = 250L, pieces = 40L)
    items <- unlist(lapply(plan, chunk_items))
    expect_identical(items, seq_len(n))
    expect_lte(length(plan), 40L)
    if (length(plan) > 1L) expect_gte(min(vapply(plan, `[[`, 0L, "count")[-length(plan)]), 250L)
  }
  expect_length(plan_chunks(0, "items"), 0L)
})

test_that("the memory budget is the system's available memory without the option", {
  withr::local_options(irtopics.max_memory = NULL)
  b <- memory_budget()
  expect_true(is.numeric(b) && b > 0)
  if (file.exists("/proc/meminfo")) {
    kb <- as.numeric(sub("\\D*(\\d+).*", "\\1", grep("^MemAvailable", readLines("/proc/meminfo"), value = TRUE)))
    expect_equal(b, kb * 1024, tolerance = 0.5)
  }
})

# Progress bars: one argument, one rule (irtopics_progress()) --------------------

test_that("irtopics_progress(): the argument, then the enclosing call, the option, interactive()", {
  withr::local_options(irtopics.progress = NULL)
  expect_identical(irtopics_progress(), interactive())
  expect_true(irtopics_progress(TRUE))
  expect_false(irtopics_progress(FALSE))
  withr::local_options(irtopics.progress = TRUE)
  expect_true(irtopics_progress())
  expect_false(irtopics_progress(FALSE))
  expect_error(irtopics_progress(NA), "progress", class = "irtopics_error_argument")
  expect_error(irtopics_progress("yes"), class = "irtopics_error_argument")
  # a function's progress holds for what it calls with progress = NULL, and
  # only until it returns
  inner <- function(progress = NULL) {
    local_progress(progress)
    irtopics_progress()
  }
  outer <- function(progress = NULL) {
    local_progress(progress)
    c(inner(), inner(TRUE))
  }
  expect_identical(outer(FALSE), c(FALSE, TRUE))
  expect_true(irtopics_progress())
  withr::local_options(irtopics.progress = FALSE)
  expect_identical(outer(TRUE), c(TRUE, TRUE))
  expect_false(irtopics_progress())
})

test_that("every function that runs chunks takes `progress`, checks it and obeys it", {
  fns <- c("evaluate", "return_orders", "compare_systems", "discriminative_power",
           "collection_diagnostics", "swap_error_rates", "smoothing_experiment", "alpha_bootstrap",
           "alpha_curve", "test_calibration", "simulation_model")
  for (fn in fns) {
    expect_true("progress" %in% names(formals(get(fn))), label = fn)
    expect_null(formals(get(fn))$progress, label = fn)
  }
  ap <- real_scores("robust2004_ap.csv")[1:8, ]
  expect_error(smoothing_experiment(ap, trials = 2, progress = NA), class = "irtopics_error_argument")
  expect_error(compare_systems(ap, progress = "no"), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, trials = 2, progress = 1), class = "irtopics_error_argument")
  # cli's logger handler reports each bar created, deterministically
  withr::local_options(cli.progress_handlers_only = "logger", cli.progress_show_after = 0,
                       irtopics.progress = FALSE)
  bars <- function(expr) sum(grepl("created", testthat::capture_output_lines(expr)))
  runs <- list(
    smoothing = function(p) smoothing_experiment(ap, trials = 600, seed = 1, progress = p),
    swap = function(p) swap_error_rates(ap, sizes = 5, trials = 600, seed = 1, progress = p),
    alpha = function(p) alpha_bootstrap(ap, B = 2000, seed = 1, progress = p),
    compare = function(p) compare_systems(ap[1:3, ], test = "randomization", B = 2000, seed = 1, progress = p),
    power = function(p) discriminative_power(ap[1:4, ], B = 2000, seed = 1, progress = p)
  )
  for (nm in names(runs)) {
    expect_gt(bars(runs[[nm]](TRUE)), 0, label = nm)
    expect_identical(bars(runs[[nm]](FALSE)), 0L, label = nm)
    expect_identical(bars(runs[[nm]](NULL)), 0L, label = nm)  # the option
  }
})

# Seeds: one name, one derivation ---------------------------------------------------

test_that("resolve_seed() keeps a seed and draws one from R's stream for NULL", {
  expect_identical(resolve_seed(17L), 17)
  expect_identical(resolve_seed(-3), -3)
  set.seed(4)
  a <- resolve_seed(NULL)
  set.seed(4)
  expect_identical(resolve_seed(NULL), a)
  expect_true(a >= 1 && a <= .Machine$integer.max && a == round(a))
})

test_that("stream_seed() derives whole-number seeds from the C++ streams, one per stream", {
  s <- stream_seed(5, 0:999)
  expect_true(all(s >= 1 & s <= .Machine$integer.max & s == round(s)))
  expect_identical(anyDuplicated(s), 0L)
  expect_identical(stream_seed(5, 10:12), s[11:13])
  expect_false(identical(stream_seed(6, 0:999), s))
  # trials of different calibration settings never share a seed (the former
  # seed + 7919 * setting + trial gave trial t + 7919 of setting s the seed of
  # trial t of setting s + 1)
  expect_identical(trial_stream(3, 5), 3 * 2^32 + 5)
  expect_false(stream_seed(1, trial_stream(0, 7919 + 4)) == stream_seed(1, trial_stream(1, 4)))
  expect_error(stream_seed(1, -1), class = "irtopics_error_argument")
})
