# simulation_model() on the shipped Robust 2004 AP matrix (110 systems x 249
# topics; 98 systems and 4,753 copulas after dropping duplicates and the
# bottom 10%), end to end and the copula stage alone (cpp_copula_select()
# on the model's pseudo-observations, all 40 families, 1 and 2 threads),
# beside VineCopula's BiCopSelect() loop on a sample of the same pairs
# (the full loop would take hours; the sample's time is extrapolated).
# Run against an optimised installed build (see README.md, section 12b):
#   Rscript bench/simulation-model.R time [lib] [vc_pairs]
#   Rscript bench/simulation-model.R fits lib out.rds    # every pair's fit
#   Rscript bench/simulation-model.R compare a.rds b.rds # pair by pair
# `fits` writes the copulas of every pair, fitted on pseudo-observations
# drawn with seed 1 (as simulation_model(seed = 1)); `compare` checks that
# two such files (e.g. from two builds, each run in its own process with
# its own library) choose the same family for every pair and log-likelihoods
# within 1e-6.
args <- commandArgs(trailingOnly = TRUE)
mode <- if (length(args)) args[1] else "time"
load_irtopics <- function(lib) {
  if (!is.na(lib)) library(irtopics, lib.loc = lib) else library(irtopics)
}
robust_ap <- function() {
  irtopics::read_scores(system.file("extdata/score-matrices/robust2004_ap.csv", package = "irtopics"))
}
# The pseudo-observations simulation_model(seed = 1) fits its copulas to.
model_pobs <- function(x) {
  ours <- irtopics::simulation_model(x, seed = 1, n_threads = 2L)
  ours$collections[[1]]$pobs
}
families <- c(0:10, 13, 14, 16:20, 23, 24, 26:30, 33, 34, 36:40, 104, 114, 124, 134, 204, 214, 224, 234)

if (mode == "compare") {
  a <- readRDS(args[2])
  b <- readRDS(args[3])
  stopifnot(length(a$family) == length(b$family))
  same <- a$family == b$family
  dll <- abs(a$loglik - b$loglik)
  cat(sprintf("%d pairs: %d with the same family, %d different; max |loglik difference| %.3g (pairs within 1e-6: %d)\n",
              length(a$family), sum(same), sum(!same), max(dll), sum(dll <= 1e-6)))
  if (!all(same) || any(dll > 1e-6)) quit(status = 1)
} else if (mode == "fits") {
  load_irtopics(args[2])
  x <- robust_ap()
  pobs <- model_pobs(x)
  cb <- utils::combn(ncol(pobs), 2L)
  fit <- irtopics:::cpp_copula_select(pobs, cb[1, ] - 1L, cb[2, ] - 1L, families, 2L)
  saveRDS(data.frame(i = cb[1, ], j = cb[2, ], family = fit$family, par = fit$par, par2 = fit$par2,
                     loglik = fit$loglik), args[3])
  cat(sprintf("%d pairs written to %s\n", ncol(cb), args[3]))
} else {
  load_irtopics(if (length(args) >= 2) args[2] else NA)
  vc_pairs <- if (length(args) >= 3) as.integer(args[3]) else 40L
  x <- robust_ap()
  reps <- 2L
  # the minimum over reps of the elapsed time of f(), and f()'s value
  timed <- function(f) {
    t <- Inf
    for (r in seq_len(reps)) t <- min(t, system.time(value <- f())[["elapsed"]])
    list(t = t, value = value)
  }
  run <- timed(function() irtopics::simulation_model(x, seed = 1, n_threads = 2L))
  t_model <- run$t
  pobs <- run$value$collections[[1]]$pobs
  cb <- utils::combn(ncol(pobs), 2L)
  sel <- function(threads) function() irtopics:::cpp_copula_select(pobs, cb[1, ] - 1L, cb[2, ] - 1L, families, threads)
  r1 <- timed(sel(1L))
  r2 <- timed(sel(2L))
  t_cop1 <- r1$t
  t_cop2 <- r2$t
  fit1 <- r1$value
  fit2 <- r2$value
  stopifnot(identical(fit1, fit2))
  cat(sprintf("robust2004 AP: %d systems x %d topics after preparation, %d pairs, load average %s\n",
              ncol(pobs), nrow(pobs), ncol(cb), paste(readLines("/proc/loadavg"), collapse = " ")))
  cat(sprintf("simulation_model(), 2 threads:        %7.2f s (min of %d)\n", t_model, reps))
  cat(sprintf("copula stage alone, 1 thread:          %7.2f s (%6.0f pairs/s)\n", t_cop1, ncol(cb) / t_cop1))
  cat(sprintf("copula stage alone, 2 threads:         %7.2f s (%6.0f pairs/s)\n", t_cop2, ncol(cb) / t_cop2))
  if (vc_pairs > 0 && requireNamespace("VineCopula", quietly = TRUE)) {
    set.seed(2)
    k <- sort(sample.int(ncol(cb), vc_pairs))
    t_vc <- system.time(vc <- lapply(k, function(p) {
      VineCopula::BiCopSelect(pobs[, cb[1, p]], pobs[, cb[2, p]], selectioncrit = "AIC")
    }))[["elapsed"]]
    fam <- vapply(vc, `[[`, numeric(1), "family")
    t_ours <- system.time(irtopics:::cpp_copula_select(pobs, cb[1, k] - 1L, cb[2, k] - 1L, families, 1L))[["elapsed"]]
    cat(sprintf("BiCopSelect loop, %d sampled pairs:    %7.2f s (%.1f ms a pair; all %d pairs: about %.0f s)\n",
                vc_pairs, t_vc, 1e3 * t_vc / vc_pairs, ncol(cb), t_vc / vc_pairs * ncol(cb)))
    cat(sprintf("cpp_copula_select, same pairs, 1 thread: %5.2f s (%.1f ms a pair); same family on %d of %d\n",
                t_ours, 1e3 * t_ours / vc_pairs, sum(fam == fit1$family[k]), vc_pairs))
  }
}
