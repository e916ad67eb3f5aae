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
  # The option wins over OMP_NUM_THREADS; a number given is validated and capped.
  withr::with_envvar(c(OMP_NUM_THREADS = "1"), {
    withr::with_options(list(irtopics.n_threads = 2), expect_identical(irtopics_threads(), 2L))
  })
  withr::local_envvar(OMP_NUM_THREADS = NA, OMP_THREAD_LIMIT = NA, `_R_CHECK_LIMIT_CORES_` = NA)
  expect_identical(irtopics_threads(1e5), thread_cap())
  expect_error(irtopics_threads(0), class = "irtopics_error_argument")
})

test_that("OMP_THREAD_LIMIT and R CMD check's core limit apply after the option and to a number given", {
  # Issue 29: the help puts the limits after options(irtopics.n_threads), but
  # only the default obeyed them.
  skip_if(forked_child())
  withr::local_envvar(OMP_NUM_THREADS = NA, OMP_THREAD_LIMIT = NA, `_R_CHECK_LIMIT_CORES_` = NA)
  withr::local_options(irtopics.n_threads = 4)
  expect_identical(irtopics_threads(), min(4L, thread_cap()))
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), {
    expect_identical(irtopics_threads(), 1L)
    expect_identical(irtopics_threads(2), 1L)
    expect_identical(resolve_threads(NULL), 1L)
  })
  withr::with_envvar(c(OMP_THREAD_LIMIT = "3"), expect_identical(irtopics_threads(64), min(3L, thread_cap())))
  withr::with_envvar(c(OMP_THREAD_LIMIT = "junk"), expect_identical(irtopics_threads(), min(4L, thread_cap())))
  withr::with_envvar(c(`_R_CHECK_LIMIT_CORES_` = "TRUE"), {
    expect_identical(irtopics_threads(), 2L)
    expect_identical(irtopics_threads(64), 2L)
  })
  withr::with_envvar(c(`_R_CHECK_LIMIT_CORES_` = "false"), expect_identical(irtopics_threads(), min(4L, thread_cap())))
  withr::with_envvar(c(OMP_THREAD_LIMIT = "1", `_R_CHECK_LIMIT_CORES_` = "TRUE"), {
    withr::with_options(list(irtopics.n_threads = 2), expect_identical(irtopics_threads(), 1L))
  })
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
