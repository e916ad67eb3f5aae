# The default number of threads (?irtopics_threads) and the one chunk driver
# (plan_chunks()/run_chunks(): memory check, progress labels).

test_that("the default is half the logical cores, at least 2 (1 on one core)", {
  none <- c(OMP_NUM_THREADS = "", OMP_THREAD_LIMIT = "", `_R_CHECK_LIMIT_CORES_` = "")
  expect_identical(default_threads(16L, none), 8L)
  expect_identical(default_threads(8L, none), 4L)
  expect_identical(default_threads(7L, none), 3L)
  expect_identical(default_threads(3L, none), 2L)
  expect_identical(default_threads(2L, none), 2L)
  expect_identical(default_threads(1L, none), 1L)
})

test_that("the default follows OMP_NUM_THREADS, OMP_THREAD_LIMIT and R CMD check's core limit", {
  env <- function(num = "", limit = "", check = "") {
    c(OMP_NUM_THREADS = num, OMP_THREAD_LIMIT = limit, `_R_CHECK_LIMIT_CORES_` = check)
  }
  expect_identical(default_threads(16L, env(num = "6")), 6L)
  expect_identical(default_threads(16L, env(num = "6,2")), 6L)   # nested list: first level
  expect_identical(default_threads(4L, env(num = "64")), 4L)     # at most the cores
  expect_identical(default_threads(16L, env(num = "abc")), 8L)   # not a number: ignored
  expect_identical(default_threads(16L, env(num = "0")), 8L)
  expect_identical(default_threads(16L, env(limit = "3")), 3L)
  expect_identical(default_threads(16L, env(num = "6", limit = "2")), 2L)
  expect_identical(default_threads(16L, env(check = "TRUE")), 2L)
  expect_identical(default_threads(16L, env(check = "warn")), 2L)
  expect_identical(default_threads(16L, env(check = "false")), 8L)
  expect_identical(default_threads(16L, env(num = "12", check = "true")), 2L)
})

test_that("irtopics_threads() reads the environment variables and the option", {
  withr::local_options(irtopics.n_threads = NULL)
  cores <- parallel::detectCores()
  skip_if(is.na(cores))
  withr::local_envvar(OMP_NUM_THREADS = NA, OMP_THREAD_LIMIT = NA, `_R_CHECK_LIMIT_CORES_` = NA)
  if (!forked_child()) {
    expect_identical(irtopics_threads(), max(min(2L, as.integer(cores)), as.integer(cores) %/% 2L))
  }
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), expect_identical(irtopics_threads(), 1L))
  withr::with_envvar(c(OMP_NUM_THREADS = "1"), expect_identical(irtopics_threads(), 1L))
  withr::with_envvar(c(`_R_CHECK_LIMIT_CORES_` = "TRUE"), expect_lte(irtopics_threads(), 2L))
  # The option wins over the environment; a number given is validated and capped.
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), {
    withr::with_options(list(irtopics.n_threads = 2), expect_identical(irtopics_threads(), 2L))
  })
  expect_identical(irtopics_threads(1e5), thread_cap())
  expect_error(irtopics_threads(0), class = "irtopics_error_argument")
})

test_that("a forked child of a threaded process defaults to 1 thread", {
  old <- irtopics_state$omp_pid
  on.exit(irtopics_state$omp_pid <- old)
  irtopics_state$omp_pid <- -1L  # another process opened the first region
  expect_identical(irtopics_threads(), 1L)
  expect_identical(irtopics_threads(4), 1L)
  expect_identical(resolve_threads(NULL), 1L)
})

test_that("every n_threads argument defaults to irtopics_threads()", {
  ns <- asNamespace("irtopics")
  with_threads <- Filter(function(f) {
    is.function(ns[[f]]) && "n_threads" %in% names(formals(ns[[f]]))
  }, setdiff(getNamespaceExports("irtopics"), "irtopics_threads"))
  expect_gt(length(with_threads), 8L)
  for (f in with_threads) {
    expect_identical(deparse(formals(ns[[f]])$n_threads), "irtopics_threads()", label = f)
  }
})

test_that("results do not change with the default thread count", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  withr::local_options(irtopics.progress = FALSE)
  one <- withr::with_options(list(irtopics.n_threads = 1L), list(
    swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 2)$error,
    alpha_bootstrap(ap, B = 300, seed = 2)$draws,
    compare_systems(ap[1:6, ], test = "bootstrap", B = 600, seed = 2)$table
  ))
  two <- withr::with_options(list(irtopics.n_threads = 2L), list(
    swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 2)$error,
    alpha_bootstrap(ap, B = 300, seed = 2)$draws,
    compare_systems(ap[1:6, ], test = "bootstrap", B = 600, seed = 2)$table
  ))
  expect_identical(one, two)
})

# The chunk driver --------------------------------------------------------------

# Records the name of every cli progress bar started until the calling test
# ends (trace() on cli's function; the bars themselves are not shown).
record_progress_bars <- function(env = parent.frame()) {
  rec <- new.env()
  rec$labels <- character()
  suppressMessages(trace(cli::cli_progress_bar, where = asNamespace("cli"), print = FALSE,
                         tracer = bquote(assign("labels", c(get("labels", envir = .(rec)), name),
                                                envir = .(rec)))))
  withr::defer(suppressMessages(untrace(cli::cli_progress_bar, where = asNamespace("cli"))), envir = env)
  withr::local_options(cli.progress_show_after = Inf, .local_envir = env)
  rec
}

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

test_that("replicate counts that cannot fit in memory are refused before allocating", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  withr::local_options(irtopics.max_memory = 2^30)
  t0 <- proc.time()[["elapsed"]]
  err <- expect_error(alpha_bootstrap(ap, B = 2e9), class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "alpha_bootstrap")
  expect_match(conditionMessage(err), "`B`", fixed = TRUE)
  expect_match(conditionMessage(err), "smaller", fixed = TRUE)
  expect_match(conditionMessage(err), "irtopics.max_memory", fixed = TRUE)
  err <- expect_error(compare_systems(ap[1:5, ], test = "rthsd", B = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "compare_systems")  # the user's call, not a helper
  err <- expect_error(discriminative_power(ap[1:5, ], method = "rthsd", B = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "discriminative_power")
  err <- expect_error(swap_error_rates(ap, sizes = 10, trials = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "trials")
  expect_identical(as.character(err$call[[1]]), "swap_error_rates")
  err <- expect_error(alpha_curve(ap, sizes = 5, trials = 2e9, seed = 1), class = "irtopics_error_memory")
  expect_identical(err$arg, "trials")
  expect_identical(as.character(err$call[[1]]), "alpha_curve")
  err <- expect_error(smoothing_experiment(ap, topics_per_set = 5, reps = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "reps")
  expect_identical(as.character(err$call[[1]]), "smoothing_experiment")
  # Nothing was drawn or allocated: all of it took well under a second.
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
  # The limit is the option: the same call fits under a larger one.
  withr::local_options(irtopics.max_memory = 100)
  expect_error(alpha_bootstrap(ap, B = 10, seed = 1), class = "irtopics_error_memory")
  withr::local_options(irtopics.max_memory = 1e9)
  expect_s3_class(alpha_bootstrap(ap, B = 10, seed = 1), "ir_alpha_bootstrap")
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

test_that("progress bars name the measure and the work", {
  bars <- record_progress_bars()
  withr::local_options(irtopics.progress = TRUE)
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  compare_systems(ap[1:5, ], test = "randomization", exact = FALSE, B = 2000, seed = 1)
  expect_identical(bars$labels, "AP: randomisation test replicates")
  bars$labels <- character()
  x <- unclass(ap)[1:5, ]
  discriminative_power(list(AP = x, P10 = x), method = "rthsd", B = 2000, seed = 1)
  expect_identical(bars$labels, c("AP: randomised Tukey HSD replicates", "P10: randomised Tukey HSD replicates"))
  bars$labels <- character()
  swap_error_rates(x, sizes = 10, trials = 40, seed = 1, label = "MAP")
  expect_identical(bars$labels, "MAP: swap trials, 10 topics")
  bars$labels <- character()
  alpha_bootstrap(ap, B = 3000, seed = 1)
  expect_identical(bars$labels, "AP: alpha bootstrap samples")
  # Outside any measure the bar names the work alone.
  expect_identical(progress_label("evaluate: runs"), "evaluate: runs")
})

test_that("evaluate() chunks with a progress bar labelled 'evaluate: runs' and gives the same scores", {
  bars <- record_progress_bars()
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  runs <- do.call(rbind, lapply(1:40, function(i) {
    data.frame(system = sprintf("s%02d", i), topic = "1", docno = c("d1", "d2", "x"),
               score = c(i %% 3, 2, 1))
  }))
  a <- evaluate(runs, qrels, "AP", progress = TRUE, n_threads = 1)
  b <- evaluate(runs, qrels, "AP", progress = FALSE, n_threads = 2)
  expect_identical(bars$labels, "evaluate: runs")
  expect_identical(unclass(a), unclass(b))
})
