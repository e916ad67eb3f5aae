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
#   Rscript bench/simulation-model.R stages lib           # CPU time by stage and margin family
#   Rscript bench/simulation-model.R margins lib [collection] [reps] [prof.out]  # the margin stage alone

#   Rscript bench/simulation-model.R copulas lib [step] [pobs.rds]
#                                       # copula stage alone, 1 thread, every step-th pair
#                                       # (pobs.rds: the model's pseudo-observations, kept
#                                       # from a first run, e.g. for callgrind)
# (`time` takes a 4th argument, the repetitions, default 2.)
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

# CPU seconds (user) of f(), and its value: on a shared machine the CPU time
# moves far less than the elapsed time.
cpu <- function(f) {
  t <- system.time(value <- f())
  list(t = t[["user.self"]], elapsed = t[["elapsed"]], value = value)
}

if (mode == "margins") {
  # The margin stage alone: fit_margin() on every system simulation_model()
  # keeps (prepared as it does, without its copulas), CPU of the best of
  # `reps`, and with a 5th argument an Rprof file of one more pass.
  #   Rscript bench/simulation-model.R margins lib [collection] [reps] [prof.out]
  load_irtopics(args[2])
  name <- if (length(args) >= 3) args[3] else "robust2004_ap"
  reps <- if (length(args) >= 4) as.integer(args[4]) else 3L
  measure <- if (grepl("_p10$", name)) "P@10" else "AP"
  x <- irtopics::read_scores(system.file("extdata/score-matrices", paste0(name, ".csv"), package = "irtopics"),
                             measure = measure)
  m <- irtopics:::prepare_collection(x, name, 0.1, 1e-5)$scores
  spec <- irtopics:::simulation_spec(measure, NULL, NULL)
  pass <- function() lapply(rownames(m), function(s) irtopics::fit_margin(m[s, ], type = spec$type,
                                                                          support = spec$support))
  best <- Inf
  for (r in seq_len(reps)) best <- min(best, cpu(pass)$t)
  cat(sprintf("%s, %d systems x %d topics: margins (fit_margin() each) %.3f s CPU (best of %d); load %s\n",
              name, nrow(m), ncol(m), best, reps, paste(readLines("/proc/loadavg"), collapse = " ")))
  if (length(args) >= 5) {
    utils::Rprof(args[5], interval = 0.002)
    for (r in 1:3) pass()
    utils::Rprof(NULL)
    s <- utils::summaryRprof(args[5])
    print(utils::head(s$by.self, 25))
    print(utils::head(s$by.total, 40))
  }
} else if (mode == "stages") {
  # Where simulation_model(robust2004_ap, seed = 1) spends its CPU: the
  # margins, family by family (fit_margin(families = f) for every kept
  # system; the full fit_margin() also tabulates the chosen one and
  # recentres it), and the copula stage on one thread (every 10th pair, x 10).
  load_irtopics(args[2])
  x <- robust_ap()
  pobs <- model_pobs(x)
  m <- x[colnames(pobs), ]
  fams <- irtopics:::margin_family_names("continuous")
  full <- cpu(function() for (s in rownames(m)) irtopics::fit_margin(m[s, ]))
  cat(sprintf("robust2004 AP, %d systems: margins (fit_margin(), all families) %.2f s CPU\n", nrow(m), full$t))
  for (f in fams) {
    r <- cpu(function() for (s in rownames(m)) try(irtopics::fit_margin(m[s, ], families = f), silent = TRUE))
    cat(sprintf("  %-18s %6.2f s CPU\n", f, r$t))
  }
  cb <- utils::combn(ncol(pobs), 2L)
  k <- seq(1L, ncol(cb), by = 10L)
  r <- cpu(function() irtopics:::cpp_copula_select(pobs, cb[1, k] - 1L, cb[2, k] - 1L, families, 1L))
  cat(sprintf("copulas, every 10th pair (%d), 1 thread: %.2f s CPU, %.2f ms a pair; all %d pairs: about %.0f s CPU\n",
              length(k), r$t, 1e3 * r$t / length(k), ncol(cb), r$t / length(k) * ncol(cb)))
  print(table(copula = r$value$family))
} else if (mode == "copulas") {
  # The copula stage alone on one thread (every step-th pair, default all),
  # CPU seconds, for comparing two builds run alternately.
  load_irtopics(args[2])
  step <- if (length(args) >= 3) as.integer(args[3]) else 1L
  keep <- if (length(args) >= 4) args[4] else NA
  if (!is.na(keep) && file.exists(keep)) {
    pobs <- readRDS(keep)
  } else {
    pobs <- model_pobs(robust_ap())
    if (!is.na(keep)) saveRDS(pobs, keep)
  }
  cb <- utils::combn(ncol(pobs), 2L)
  k <- seq(1L, ncol(cb), by = step)
  r <- cpu(function() irtopics:::cpp_copula_select(pobs, cb[1, k] - 1L, cb[2, k] - 1L, families, 1L))
  cat(sprintf("copulas, %d pairs, 1 thread: %.2f s CPU (%.2f ms a pair); load average %s\n", length(k), r$t,
              1e3 * r$t / length(k), readLines("/proc/loadavg")))
} else if (mode == "compare") {
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
  reps <- if (length(args) >= 4) as.integer(args[4]) else 2L
  # the minimum over reps of the elapsed time of f(), and f()'s value
  # (and the minimum CPU time, all threads: printed beside it)
  timed <- function(f) {
    t <- u <- Inf
    for (r in seq_len(reps)) {
      st <- system.time(value <- f())
      t <- min(t, st[["elapsed"]])
      u <- min(u, st[["user.self"]])
    }
    list(t = t, cpu = u, value = value)
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
  cat(sprintf("simulation_model(), 2 threads:        %7.2f s (min of %d; CPU %.2f s)\n", t_model, reps, run$cpu))
  cat(sprintf("copula stage alone, 1 thread:          %7.2f s (%6.0f pairs/s; CPU %.2f s)\n", t_cop1, ncol(cb) / t_cop1, r1$cpu))
  cat(sprintf("copula stage alone, 2 threads:         %7.2f s (%6.0f pairs/s; CPU %.2f s)\n", t_cop2, ncol(cb) / t_cop2, r2$cpu))
  if (vc_pairs > 0 && requireNamespace("VineCopula", quietly = TRUE)) {
    set.seed(2)
    k <- sort(sample.int(ncol(cb), vc_pairs))
    st_vc <- system.time(vc <- lapply(k, function(p) {
      VineCopula::BiCopSelect(pobs[, cb[1, p]], pobs[, cb[2, p]], selectioncrit = "AIC")
    }))
    t_vc <- st_vc[["elapsed"]]
    fam <- vapply(vc, `[[`, numeric(1), "family")
    st_ours <- system.time(irtopics:::cpp_copula_select(pobs, cb[1, k] - 1L, cb[2, k] - 1L, families, 1L))
    t_ours <- st_ours[["elapsed"]]
    cat(sprintf("CPU: BiCopSelect loop %.2f s, cpp_copula_select %.2f s (%.0fx)\n", st_vc[["user.self"]],
                st_ours[["user.self"]], st_vc[["user.self"]] / st_ours[["user.self"]]))
    cat(sprintf("BiCopSelect loop, %d sampled pairs:    %7.2f s (%.1f ms a pair; all %d pairs: about %.0f s)\n",
                vc_pairs, t_vc, 1e3 * t_vc / vc_pairs, ncol(cb), t_vc / vc_pairs * ncol(cb)))
    cat(sprintf("cpp_copula_select, same pairs, 1 thread: %5.2f s (%.1f ms a pair); same family on %d of %d\n",
                t_ours, 1e3 * t_ours / vc_pairs, sum(fam == fit1$family[k]), vc_pairs))
  }
}
