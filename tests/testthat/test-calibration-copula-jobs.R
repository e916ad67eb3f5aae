# The copula stage of simulation_model() in the background
# (R/calibration-copula-jobs.R, src/glue_job.h): the same numbers as
# cpp_copula_select(), the same errors, and no thread left running after an
# error, an interrupt or a dropped job. A job runs beside R only when its
# selection has 2+ threads after the caps (the fork rule, OpenMP's thread
# limit); with one it is deferred to the collecting call.

# n_sys random columns of pseudo-observations (no ties) and all their pairs.
job_input <- function(n_sys, n_top = 60, seed = 1) {
  U <- withr::with_seed(seed, matrix(stats::runif(n_top * n_sys), n_top, n_sys))
  cb <- utils::combn(n_sys, 2L)
  list(U = U, i = cb[1, ] - 1L, j = cb[2, ] - 1L)
}
# A job that runs for seconds (about 1,800 pairs, every family).
long_job <- function(threads = 2L) {
  x <- job_input(60, n_top = 200)
  cpp_copula_select_start(x$U, x$i, x$j, copula_family_codes(), threads)
}

test_that("a job returns exactly what cpp_copula_select() returns, with 1 and 2 threads", {
  x <- job_input(14)
  fams <- copula_family_codes()
  for (threads in 1:2) {
    for (presel in c(TRUE, FALSE)) {
      job <- cpp_copula_select_start(x$U, x$i, x$j, fams, threads, quadrant_presel = presel)
      expect_true(cpp_copula_select_status(job) %in% if (threads > 1L) c("running", "done") else "deferred")
      expect_identical(cpp_copula_select_collect(job), cpp_copula_select(x$U, x$i, x$j, fams, threads, presel))
      expect_identical(cpp_copula_select_status(job), "collected")
    }
  }
  # a job of one thread is deferred: it starts no thread and runs when
  # collected, on R's thread (as where no thread can start)
  job <- cpp_copula_select_start(x$U, x$i, x$j, fams, 1L)
  expect_identical(cpp_copula_select_status(job), "deferred")
  expect_identical(cpp_job_threads(), 0L)
  expect_identical(cpp_copula_select_collect(job), cpp_copula_select(x$U, x$i, x$j, fams, 2L))
  expect_identical(cpp_copula_select_status(job), "collected")
  deferred <- cpp_copula_select_start(x$U, x$i, x$j, fams, 1L)
  expect_identical(cpp_copula_select_cancel(deferred), "cancelled")
  expect_identical(tryCatch(cpp_copula_select_collect(deferred), interrupt = function(e) "interrupt"), "interrupt")
  expect_identical(cpp_job_threads(), 0L)
  # collected once only; cancelling a collected job changes nothing
  expect_error(cpp_copula_select_collect(job), "already collected", class = "irtopics_error_argument")
  expect_identical(cpp_copula_select_cancel(job), "collected")
  expect_error(cpp_copula_select_status(list()), "is not a job of this R session", class = "irtopics_error_argument")
})

test_that("a job refuses the inputs cpp_copula_select() refuses, with the same classed errors", {
  x <- job_input(5)
  bad <- x$U
  bad[1, 1] <- 1
  calls <- list(list(x$U, x$i, x$j, c(1, 11), 1L), list(x$U, x$i, x$j + 1000L, 1, 1L),
                list(bad, x$i, x$j, 1, 1L), list(x$U, x$i, x$j[-1], 1, 1L), list(x$U, x$i, x$j, integer(), 1L),
                list(x$U[1, , drop = FALSE], x$i, x$j, 1, 1L))
  for (args in calls) {
    sync <- tryCatch(do.call(cpp_copula_select, args), error = identity)
    async <- tryCatch(do.call(cpp_copula_select_start, args), error = identity)
    expect_s3_class(async, "irtopics_error_argument")
    expect_identical(class(async), class(sync))
    expect_identical(conditionMessage(async), conditionMessage(sync))
  }
  expect_identical(cpp_job_threads(), 0L)
})

test_that("a cancelled or dropped job stops and joins its threads", {
  job <- long_job()
  expect_identical(cpp_copula_select_status(job), "running")
  expect_identical(cpp_job_threads(), 1L)
  cpp_copula_pairs_started()
  expect_identical(cpp_copula_select_cancel(job), "cancelled")
  expect_identical(cpp_job_threads(), 0L)
  # the work stopped when asked: far fewer of its 1,770 pairs were started
  expect_lt(cpp_copula_pairs_started(), 885)
  # collecting a cancelled job is R's interrupt, as an interrupted call's
  expect_identical(tryCatch(cpp_copula_select_collect(job), interrupt = function(e) "interrupt"), "interrupt")
  # the external pointer's finalizer cancels and joins a job R dropped
  job <- long_job()
  expect_identical(cpp_job_threads(), 1L)
  rm(job)
  gc()
  expect_identical(cpp_job_threads(), 0L)
})

test_that("an error while the job runs cancels it: no thread is left running", {
  x <- job_input(60, n_top = 200)
  colnames(x$U) <- paste0("s", 1:60)
  cpp_copula_pairs_started()
  expect_error(fit_beside_copulas(x$U, copula_family_codes(), 2L, function() {
    expect_identical(cpp_job_threads(), 1L)
    stop_irtopics("no margin", kind = "data")
  }), "no margin", class = "irtopics_error_data")
  expect_identical(cpp_job_threads(), 0L)
  # with one thread, nothing runs beside R's: the copulas come after the margins
  both <- fit_beside_copulas(x$U[, 1:5], copula_family_codes(), 1L, function() cpp_job_threads())
  expect_identical(both$margins, 0L)
  expect_identical(both$copulas$family, cpp_copula_select(x$U[, 1:5], c(0, 0, 0, 0, 1, 1, 1, 2, 2, 3),
                                                          c(1, 2, 3, 4, 2, 3, 4, 3, 4, 4), copula_family_codes(),
                                                          1L)$family)
  # the job with 60 systems was cancelled, not waited for: far fewer of its
  # 1,770 pairs were started
  expect_lt(cpp_copula_pairs_started(), 885)
  # simulation_model(): a margin that cannot be fitted is its classed error,
  # and the next call works
  ap <- real_scores("adhoc7_ap.csv", measure = "P@10")
  expect_error(simulation_model(ap, n_threads = 2), "Can't fit a margin", class = "irtopics_error_data")
  expect_identical(cpp_job_threads(), 0L)
  x <- real_scores("adhoc5_ap.csv")[1:12, ]
  expect_s3_class(simulation_model(x, seed = 1, n_threads = 2), "ir_sim_model")
  expect_identical(cpp_job_threads(), 0L)
})

test_that("simulation_model() gives the copulas of cpp_copula_select(), with 1 and 2 threads", {
  x <- list(a = real_scores("adhoc5_ap.csv")[1:14, ], b = real_scores("adhoc8_ap.csv")[1:12, ])
  m1 <- simulation_model(x, seed = 1, n_threads = 1)
  m2 <- simulation_model(x, seed = 1, n_threads = 2)
  expect_identical(m1, m2)
  for (col in m1$collections) {
    cb <- utils::combn(ncol(col$pobs), 2L)
    fit <- cpp_copula_select(col$pobs, cb[1, ] - 1L, cb[2, ] - 1L, m1$copula_families, 2L)
    expect_identical(col$copulas$family, fit$family)
    expect_identical(col$copulas$loglik, fit$loglik)
    expect_identical(col$copulas$par, fit$par)
    expect_identical(col$copulas$system1, colnames(col$pobs)[cb[1, ]])
  }
})

test_that("an interrupt while the job runs cancels it and joins its threads", {
  skip_if_no_interrupts()
  # while R waits for the job
  job <- long_job(2L)
  cpp_copula_pairs_started()
  res <- with_interrupt_in(cpp_copula_select_collect(job))
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
  expect_identical(cpp_copula_select_status(job), "cancelled")
  expect_identical(cpp_job_threads(), 0L)
  expect_lt(cpp_copula_pairs_started(), 885)
  # while R fits the margins (here: Ctrl-C while R sleeps)
  x <- job_input(60, n_top = 200)
  cpp_copula_pairs_started()
  res <- with_interrupt_after(30, fit_beside_copulas(x$U, copula_family_codes(), 2L, function() {
    send_interrupt()
    Sys.sleep(20)
  }))
  expect_true(res$interrupted)
  expect_identical(cpp_job_threads(), 0L)
  expect_lt(cpp_copula_pairs_started(), 885)
})

test_that("a forked child runs its copula jobs (on one worker) to the same model", {
  skip_on_os("windows")
  skip_on_cran()
  x <- real_scores("adhoc5_ap.csv")[1:10, ]
  here <- simulation_model(x, seed = 1, n_threads = 2)
  # in_fork() (helper-eval.R): a child that hangs fails the test and is killed
  expect_identical(in_fork(simulation_model(x, seed = 1, n_threads = 2)), here)
  expect_identical(cpp_job_threads(), 0L)
  # asked for 2 threads, the child's selection has 1 (safe_threads()): its
  # job is deferred, nothing runs beside R's thread; here it runs beside
  u <- job_input(5)
  colnames(u$U) <- paste0("s", 1:5)
  beside <- function() fit_beside_copulas(u$U, copula_family_codes(), 2L, function() cpp_job_threads())
  expect_identical(in_fork(list(status = cpp_copula_select_status(long_job()), beside = beside()$margins)),
                   list(status = "deferred", beside = 0L))
  expect_identical(beside()$margins, 1L)
  expect_identical(cpp_job_threads(), 0L)
})

test_that("under OMP_THREAD_LIMIT=1 a job is deferred, whatever count it is asked for", {
  skip_on_cran()
  # OpenMP reads the limit as the process starts: a fresh process
  # (helper-calibration.R); Linux builds have OpenMP
  skip_if_not(identical(Sys.info()[["sysname"]], "Linux"), "OpenMP's thread limit is checked on Linux")
  x <- job_input(5)
  status <- function(x) {
    job <- irtopics:::cpp_copula_select_start(x$U, x$i, x$j, irtopics:::copula_family_codes(), 2L)
    list(status = irtopics:::cpp_copula_select_status(job), threads = irtopics:::cpp_job_threads())
  }
  expect_identical(withr::with_envvar(c(OMP_THREAD_LIMIT = "1"), fresh_process(status, list(x = x))),
                   list(status = "deferred", threads = 0L))
  here <- withr::with_envvar(c(OMP_THREAD_LIMIT = NA), fresh_process(status, list(x = x)))
  expect_true(here$status %in% c("running", "done"))
  expect_identical(here$threads, 1L)
})
