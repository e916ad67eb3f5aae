# Fixtures shared by the calibration tests (test-calibration-*.R).

margin_matrix <- function(which) {
  read_scores(system.file("extdata", "score-matrices", paste0("adhoc8_", which, ".csv"), package = "irtopics"),
              measure = if (which == "ap") "AP" else "P@10")
}

# The simulator's quantile: linear interpolation of the tabulated CDF
# (continuous), or the smallest knot whose CDF reaches u (discrete).
table_quantile <- function(tab, u) {
  if (tab$discrete) return(tab$knots[findInterval(u, tab$cdf, left.open = TRUE) + 1L])
  k <- findInterval(u, tab$cdf, left.open = TRUE)
  k <- pmin(pmax(k, 1L), length(tab$cdf) - 1L)
  f0 <- tab$cdf[k]
  f1 <- tab$cdf[k + 1L]
  tab$knots[k] + (u - f0) / (f1 - f0) * (tab$knots[k + 1L] - tab$knots[k])
}

# A small fitted model (14 of TREC-5's AP systems), fitted once per session.
cal_model <- function() {
  if (is.null(cal_cache$model)) {
    ap <- real_scores("adhoc5_ap.csv")
    cal_cache$model <- simulation_model(ap[order(-rowMeans(ap))[1:14], ], seed = 5)
  }
  cal_cache$model
}
cal_cache <- new.env()

# Replaces the value bound to `name` in the package's namespace (a registry
# built when the package loads) for the rest of the calling test: the
# package's functions see the new value; a test reads it as
# irtopics:::<name> (under load_all() the test's own copy stays as it was).
local_namespace_value <- function(name, value, env = parent.frame()) {
  ns <- asNamespace("irtopics")
  old <- get(name, envir = ns, inherits = FALSE)
  locked <- bindingIsLocked(name, ns)
  if (locked) unlockBinding(name, ns)
  assign(name, value, envir = ns)
  withr::defer({
    assign(name, old, envir = ns)
    if (locked) lockBinding(name, ns)
  }, envir = env)
  invisible(value)
}

# A Beta(2, 5) sample in (0, 1) for the margin family tests (not smooth_scores(): the package has one).
beta_sample <- function(n = 60, seed = 1) {
  withr::with_seed(seed, stats::rbeta(n, 2, 5))
}

# The selections of simulation_model(x, seed = 1) before the fitting-speed
# work of issue 26 (main at c9adf6e; tests/testthat/fixtures/sim-model-selections.rds):
# per collection the kept systems, every pair's copula (family, loglik,
# loglik_before: the loglik before 9 BB8 and 2 one-parameter fits reached their bound, see
# test-calibration-copula.R) in the row-wise upper triangle, every system's
# margin (family, loglik). Its attribute `sets` names the sets of margin
# and copula families it was fitted with ("study2019_zi": the default of
# that time; "study2019": all 40 codes of that time), which the tests that
# compare with it pass, so that a family registered since (in no set)
# changes nothing they compare.
# sim_fixture_collection() gives the scores as simulation_model() prepares
# them (duplicates and the bottom 10% dropped) and its pseudo-observations
# (ranks with ties in a random order under seed 1).
sim_fixture <- function() readRDS(test_path("fixtures", "sim-model-selections.rds"))
sim_fixture_set <- function(kind) attr(sim_fixture(), "sets")[[kind]]
sim_fixture_measures <- c(robust2004_ap = "AP", robust2004_p10 = "P@10", adhoc5_ap = "AP", adhoc8_p10 = "P@10")
sim_fixture_collection <- function(name) {
  x <- real_scores(paste0(name, ".csv"), measure = sim_fixture_measures[[name]])
  with_seed(1, {
    m <- prepare_collection(x, "collection", 0.1, 1e-5)$scores
    list(scores = m, pobs = apply(m, 1L, function(v) rank(v, ties.method = "random")) / (ncol(m) + 1))
  })
}

# f(...) with `args` in a fresh R process that has this irtopics: the
# source tree under pkgload::load_all() (devtools::test()), else the
# installed package (R CMD check); the same library paths as this process.
# f must name what it uses with `::` (its environment becomes the global
# one). The child is Rscript started by system2(), not callr: processx
# (callr's) replaces the SIGCHLD handler of parallel for the rest of the
# session, so that the forked children of later multicore futures were never
# reaped and the test process ended, after a 10 s wait, with "Error while
# shutting down parallel: unable to terminate some child processes".
fresh_process <- function(f, args) {
  dev <- if (requireNamespace("pkgload", quietly = TRUE) && pkgload::is_dev_package("irtopics")) {
    pkgload::pkg_path(".")
  } else {
    ""
  }
  files <- tempfile(c("fresh-setup-", "fresh-call-", "fresh-value-", "fresh-script-", "fresh-log-"),
                    fileext = c(".rds", ".rds", ".rds", ".R", ".txt"))
  on.exit(unlink(files), add = TRUE)
  environment(f) <- globalenv()
  # the package is loaded before the call is read, so that the arguments'
  # references to its namespace find this irtopics; a source tree is loaded
  # as the test run compiled it (compile = FALSE: the child never rebuilds
  # src/ under the running tests, with other flags)
  saveRDS(list(dev = dev, libs = .libPaths()), files[1])
  saveRDS(list(f = f, args = args), files[2])
  writeLines(c("files <- commandArgs(trailingOnly = TRUE)",
               "setup <- readRDS(files[1])",
               ".libPaths(setup$libs)",
               "if (nzchar(setup$dev)) pkgload::load_all(setup$dev, quiet = TRUE, export_all = FALSE, compile = FALSE) else loadNamespace(\"irtopics\")",
               "call <- readRDS(files[2])",
               "saveRDS(do.call(call$f, call$args), files[3])"), files[4])
  # R_TESTS (unset for the child): R CMD check's start-up file is not the child's
  status <- withr::with_envvar(c(R_TESTS = NA), {
    system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(files[c(4, 1:3)])),
            stdout = files[5], stderr = files[5])
  })
  if (!identical(status, 0L) || !file.exists(files[3])) {
    stop(sprintf("the fresh R process failed (exit status %s):\n%s", status,
                 paste(utils::tail(readLines(files[5]), 20), collapse = "\n")), call. = FALSE)
  }
  readRDS(files[3])
}

# A toy family, F(y) = y^a on [0, 1] (maximum likelihood a = -n / sum(log x)),
# registered beside the others for the rest of the calling test, in the
# sets `sets` and with a twin in `inflated`.
local_toy_margin <- function(sets = character(), inflated = NULL, env = parent.frame()) {
  toy <- margin_family(
    "toy_power", "continuous", label = "power function", sets = sets, inflated = inflated,
    fit = function(obs) {
      x <- cap_scores(obs$x)
      a <- -length(x) / sum(log(x))
      list(one_fit("toy_power", list(a = a), sum(log(a) + (a - 1) * log(x)), 1))
    },
    df = function(spec) 1,
    d = function(spec, y) spec$parameters$a * y^(spec$parameters$a - 1),
    p = function(spec, q, lower = TRUE) if (lower) q^spec$parameters$a else 1 - q^spec$parameters$a,
    moments = function(spec) {
      a <- spec$parameters$a
      c(a / (a + 1), a / (a + 2))
    })
  bases <- Filter(function(r) is.na(r$base), irtopics:::margin_registry)
  local_namespace_value("margin_registry", margin_registry_of(c(bases, list(toy)), names(margin_set_info)),
                        env = env)
}
