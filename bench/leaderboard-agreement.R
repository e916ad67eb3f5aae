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
# counted as covering each of them. The same for every statistic but top1
# (population: the statistic of mu and mu + d), and for each of the five
# intervals of leaderboard_agreement() (jackknife, normal, percentile,
# basic, BCa) from the same topic samples.

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
  methods <- c("jackknife", "normal", "percentile", "basic", "bca")
  stats <- setdiff(leaderboard_statistics, "top1")
  run <- function(ns, nt, sd_d) {
    t0 <- proc.time()[["elapsed"]]
    set.seed(20261127)
    mu <- rnorm(ns, 0.3, 0.05)
    d <- rnorm(ns, 0, sd_d)
    names(mu) <- names(d) <- paste0("s", seq_len(ns))
    name_rank <- order(order(as_bytes(names(mu)), method = "radix"))
    truth <- leaderboard_values(mu, mu + d, name_rank, min(10L, ns), 0.9, "a")[stats]
    # per data set: the estimates, then per method the bounds (statistics x 2)
    res <- lapply(seq_len(sets), function(k) {
      set.seed(k)
      x <- outer(mu, rnorm(nt, 0, 0.1), "+") + matrix(rnorm(ns * nt, 0, 0.1), ns)
      y <- x + d + matrix(rnorm(ns * nt, 0, 0.05), ns)
      dimnames(x) <- dimnames(y) <- list(names(mu), paste0("t", seq_len(nt)))
      out <- lapply(methods, function(m) {
        la <- leaderboard_agreement(x, y, B = B, seed = k, interval = m)
        la[match(stats, la$statistic), c("estimate", "conf.low", "conf.high")]
      })
      names(out) <- methods
      out
    })
    est <- sapply(res, function(r) r$jackknife$estimate)  # statistics x sets
    expected <- rowMeans(est)
    rows <- lapply(seq_along(stats), function(i) {
      cover <- vapply(methods, function(m) {
        lo <- sapply(res, function(r) r[[m]]$conf.low[i])
        hi <- sapply(res, function(r) r[[m]]$conf.high[i])
        sprintf("%.2f / %.2f", mean(lo <= truth[[i]] & truth[[i]] <= hi), mean(lo <= expected[i] & expected[i] <= hi))
      }, "")
      width <- vapply(methods, function(m) mean(sapply(res, function(r) r[[m]]$conf.high[i] - r[[m]]$conf.low[i])), 0)
      excl <- mean(sapply(res, function(r) r$percentile$conf.high[i] < r$percentile$estimate[i] ||
                                            r$percentile$conf.low[i] > r$percentile$estimate[i]))
      data.frame(topics = nt, sd_d = sd_d, statistic = stats[i], population = round(truth[[i]], 3),
                 expected = round(expected[i], 3), t(cover), width_jackknife = round(width[["jackknife"]], 3),
                 width_normal = round(width[["normal"]], 3), percentile_excludes = round(excl, 3),
                 check.names = FALSE)
    })
    cat(sprintf("%d systems, %d topics, sd_d %.3f: %.0f s\n", ns, nt, sd_d, proc.time()[["elapsed"]] - t0))
    do.call(rbind, rows)
  }
  out <- rbind(run(30, 50, 0.02), run(30, 50, 0.005), run(30, 25, 0.02))
  options(width = 250)
  print(out, row.names = FALSE)
}
