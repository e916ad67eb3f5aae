# The copula stage of simulation_model(): the copulas of every pair i < j
# (row-wise upper triangle) of a collection's pseudo-observations (topics x
# systems), fitted by cpp_copula_select() in C++. The fits run in the
# background (src/glue_job.h): start_copulas() returns a job at once, R fits
# the collection's margins meanwhile, and collect_copulas() waits for the
# job. The results are those of cpp_copula_select(), number for number.

# A started job: list(job, pobs, pairs). The C++ call decides where it runs:
# in the background only when the selection's thread count after its caps
# (safe_threads(): 1 in a forked child; OpenMP's thread limit) is 2 or more,
# else deferred (it runs when collected, on R's thread), so that one thread
# keeps the call on one core.
start_copulas <- function(pobs, families, n_threads) {
  cb <- utils::combn(ncol(pobs), 2L)
  list(job = cpp_copula_select_start(pobs, cb[1, ] - 1L, cb[2, ] - 1L, families, n_threads),
       pobs = pobs, pairs = cb)
}

# Waits for the job (an interrupt cancels it) and returns the copulas table.
collect_copulas <- function(started) {
  fit <- cpp_copula_select_collect(started$job)
  cb <- started$pairs
  nms <- colnames(started$pobs)
  data.frame(system1 = nms[cb[1, ]], system2 = nms[cb[2, ]],
             family = as.integer(fit$family), copula = copula_name(fit$family), par = fit$par,
             par2 = fit$par2, tau = fit$tau, tau_empirical = fit$tau_empirical, loglik = fit$loglik,
             aic = fit$aic, stringsAsFactors = FALSE)
}

# Stops a job that has not been collected and joins its threads (nothing
# for a collected one): on.exit() of the caller, so that an error or an
# interrupt between start and collect leaves no thread running. The
# external pointer's finalizer does the same when the job is garbage.
cancel_copulas <- function(started) {
  invisible(cpp_copula_select_cancel(started$job))
}

# The fitted margins and copulas of one prepared collection: the copula job
# is started, `fit_margins()` runs on R's thread meanwhile, then the job is
# collected. list(margins, copulas).
fit_beside_copulas <- function(pobs, families, n_threads, fit_margins) {
  started <- start_copulas(pobs, families, n_threads)
  on.exit(cancel_copulas(started), add = TRUE)
  margins <- fit_margins()
  list(margins = margins, copulas = collect_copulas(started))
}
