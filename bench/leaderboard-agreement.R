# Leaderboard agreement between two evaluations (issue 27): speed of
# leaderboard_agreement(), and coverage of its three bootstrap intervals.
#
# Usage, from the package root:
#   Rscript bench/leaderboard-agreement.R time [reps]           # 100 x 50, B = 1000
#   Rscript bench/leaderboard-agreement.R coverage [sets] [B]   # defaults 300, 500
# "time" wants an optimised build (R_LIBS=<private library>), "coverage"
# runs with pkgload::load_all().
#
# Coverage model (systems fixed, topics sampled from a population):
#   reference x[s, t] = mu_s + u_t + e[s, t],  candidate y[s, t] = x[s, t] + d_s + f[s, t]
# with system effects mu_s ~ N(0.3, .05^2) and the candidate's systematic
# disagreement d_s ~ N(0, sd_d^2) drawn once, topic effects u_t ~ N(0, .1^2)
# and errors e ~ N(0, .1^2), f ~ N(0, .05^2) drawn for every data set.
# Over the topic population the means are mu_s and mu_s + d_s, so the
# "population" tau is cor(mu, mu + d, method = "kendall"); the "expected"
# tau of an evaluation on n topics is E[tau of the sample means], estimated
# as the mean estimate over the data sets. A nominal 95% interval is
# counted as covering each of them.

args <- commandArgs(TRUE)
mode <- if (length(args)) args[1] else "time"
options(irtopics.progress = FALSE)

if (mode == "time") {
  library(irtopics)
  agree <- utils::getFromNamespace("leaderboard_agreement", "irtopics")
  reps <- if (length(args) >= 2) as.integer(args[2]) else 5L
  set.seed(1)
  r <- outer(rnorm(100, 0.3, 0.05), rnorm(50, 0, 0.1), "+") + matrix(rnorm(5000, 0, 0.1), 100)
  c <- r + matrix(rnorm(5000, 0, 0.05), 100)
  dimnames(r) <- dimnames(c) <- list(paste0("s", 1:100), paste0("t", 1:50))
  for (iv in c("percentile", "bca")) for (ties in c("a", "b")) {
    t <- vapply(seq_len(reps), function(i) {
      system.time(agree(r, c, B = 1000, seed = i, interval = iv, tau_ap_ties = ties))[["elapsed"]]
    }, 0)
    cat(sprintf("100 x 50, B = 1000, interval = %-10s tau_ap_ties = %s: min %.3f s, median %.3f s\n",
                iv, ties, min(t), stats::median(t)))
  }
} else {
  pkgload::load_all(quiet = TRUE)
  sets <- if (length(args) >= 2) as.integer(args[2]) else 300L
  B <- if (length(args) >= 3) as.integer(args[3]) else 500L
  run <- function(ns, nt, sd_d) {
    set.seed(20261127)
    mu <- rnorm(ns, 0.3, 0.05)
    d <- rnorm(ns, 0, sd_d)
    truth <- stats::cor(mu, mu + d, method = "kendall")
    res <- vapply(seq_len(sets), function(k) {
      set.seed(k)
      x <- outer(mu, rnorm(nt, 0, 0.1), "+") + matrix(rnorm(ns * nt, 0, 0.1), ns)
      y <- x + d + matrix(rnorm(ns * nt, 0, 0.05), ns)
      dimnames(x) <- dimnames(y) <- list(paste0("s", seq_len(ns)), paste0("t", seq_len(nt)))
      la <- leaderboard_agreement(x, y, B = B, seed = k, interval = "bca")
      draws <- attr(la, "draws")[, "kendall_tau"]
      jr <- (rowSums(x) - x) / (nt - 1); jc <- (rowSums(y) - y) / (nt - 1)
      jack <- vapply(seq_len(nt), function(j) stats::cor(jr[, j], jc[, j], method = "kendall"), 0)
      est <- la$estimate[1]
      ivs <- lapply(c("percentile", "basic", "bca"), function(type) {
        pmin(pmax(bootstrap_interval(est, draws, jack, 0.95, type), -1), 1)
      })
      c(est, unlist(ivs))
    }, numeric(7))
    expected <- mean(res[1, ])
    cover <- function(lo, hi, v) mean(res[lo, ] <= v & v <= res[hi, ])
    data.frame(systems = ns, topics = nt, sd_d = sd_d, population_tau = round(truth, 3),
               expected_tau = round(expected, 3),
               percentile = sprintf("%.2f / %.2f", cover(2, 3, truth), cover(2, 3, expected)),
               basic = sprintf("%.2f / %.2f", cover(4, 5, truth), cover(4, 5, expected)),
               bca = sprintf("%.2f / %.2f", cover(6, 7, truth), cover(6, 7, expected)),
               width_percentile = round(mean(res[3, ] - res[2, ]), 3))
  }
  out <- rbind(run(30, 50, 0.02), run(30, 50, 0.005), run(30, 25, 0.02))
  print(out, row.names = FALSE)
}
