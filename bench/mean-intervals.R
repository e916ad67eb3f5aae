# Coverage of mean_intervals()' three intervals (t, bootstrap percentile,
# BCa) and of rank_intervals(), at 95% nominal, on real score matrices taken
# as populations of topics.
#
# Each shipped matrix (inst/extdata/score-matrices) is a population: a
# system's true mean is its mean over all the matrix's topics. A trial
# draws n topics with replacement (i.i.d. from that population), computes
# every system's interval from those n topics, and counts whether it holds
# the true mean. Coverage is over trials and systems; the width is the
# interval's mean width. For ranks, the "true" rank is the system's rank by
# its population mean, and coverage is that of the rank interval.
#
# Usage, from the package root:
#   Rscript bench/mean-intervals.R [trials] [B]   (defaults 200 and 1000)
#   Rscript bench/mean-intervals.R tau [sets] [B] (defaults 500 and 1000)
# pkgload::load_all() is enough: coverage, not speed.
#
# "tau": coverage of tau_interval()'s four intervals (jackknife and BCa, for
# the population tau; normal and percentile, for the expected tau) with a
# known truth. Systems are fixed and topics sampled; the population tau is
# Kendall's tau-b between the systems' population means, the expected tau
# the mean estimate over the data sets (the tau to expect on n topics).
# * synthetic: x[s, t] = mu_s + u_t + e[s, t], y = x + d_s + f[s, t] with
#   mu_s ~ N(.3, .05^2) and d_s ~ N(0, .02^2) drawn once (15 systems),
#   u_t, e ~ N(0, .1^2), f ~ N(0, .05^2) drawn for every data set; the
#   population means are mu_s and mu_s + d_s.
# * Robust 2004 AP against P@10 (the shipped matrices) as a population of
#   249 topics: 15 systems evenly spread over the MAP order (ranks 1 to 99),
#   or all 110; a data set draws n topics with replacement.

args <- commandArgs(TRUE)
mode <- if (length(args) && args[1] == "tau") "tau" else "means"
if (mode == "tau") args <- args[-1]
trials <- if (length(args) >= 1) as.integer(args[1]) else if (mode == "tau") 500L else 200L
B <- if (length(args) >= 2) as.integer(args[2]) else 1000L
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE)

if (mode == "tau") {
  tau_setting <- function(label, draw, pop) {
    t0 <- proc.time()[["elapsed"]]
    methods <- c("jackknife", "bca", "normal", "percentile")
    res <- vapply(seq_len(trials), function(k) {
      d <- draw(k)
      unlist(lapply(methods, function(m) {
        ti <- suppressWarnings(tau_interval(d$x, d$y, method = m, B = B, seed = k))
        c(ti$estimate, ti$conf.low, ti$conf.high)
      }))
    }, numeric(3 * length(methods)))
    est <- res[1, ]
    expected <- mean(est)
    rows <- lapply(seq_along(methods), function(j) {
      lo <- res[3 * j - 1, ]
      hi <- res[3 * j, ]
      data.frame(setting = label, population = round(pop, 3), expected = round(expected, 3), method = methods[j],
                 target = agreement_interval_targets[[methods[j]]],
                 cover_population = mean(lo <= pop & pop <= hi, na.rm = TRUE),
                 cover_expected = mean(lo <= expected & expected <= hi, na.rm = TRUE),
                 width = mean(hi - lo, na.rm = TRUE), excludes_estimate = mean(est < lo | est > hi, na.rm = TRUE),
                 undefined = mean(is.na(lo)))
    })
    cat(sprintf("%s: %.0f s\n", label, proc.time()[["elapsed"]] - t0))
    do.call(rbind, rows)
  }
  synthetic <- function(nt) {
    set.seed(20261201)
    mu <- rnorm(15, 0.3, 0.05)
    dd <- rnorm(15, 0, 0.02)
    draw <- function(k) {
      set.seed(k)
      x <- outer(mu, rnorm(nt, 0, 0.1), "+") + matrix(rnorm(15 * nt, 0, 0.1), 15)
      y <- x + dd + matrix(rnorm(15 * nt, 0, 0.05), 15)
      dimnames(x) <- dimnames(y) <- list(paste0("s", 1:15), paste0("t", seq_len(nt)))
      list(x = x, y = y)
    }
    tau_setting(sprintf("synthetic, 15 systems, %d topics", nt), draw, cor(mu, mu + dd, method = "kendall"))
  }
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- unclass(read_scores(file.path(dir, "robust2004_ap.csv")))
  p10 <- unclass(read_scores(file.path(dir, "robust2004_p10.csv")))[rownames(ap), colnames(ap)]
  robust <- function(ns, nt) {
    pick <- order(-rowMeans(ap))
    if (ns < nrow(ap)) pick <- pick[round(seq(1, nrow(ap) * 0.9, length.out = ns))]
    a <- ap[pick, ]
    p <- p10[pick, ]
    draw <- function(k) {
      set.seed(k)
      cols <- sample.int(ncol(a), nt, replace = TRUE)
      x <- a[, cols]
      y <- p[, cols]
      colnames(x) <- colnames(y) <- paste0("t", seq_len(nt))
      list(x = x, y = y)
    }
    tau_setting(sprintf("Robust 2004 AP vs P@10, %d systems, %d topics", ns, nt), draw,
                cor(rowMeans(a), rowMeans(p), method = "kendall"))
  }
  cat(sprintf("%d data sets per setting, B = %d, 95%% nominal\n\n", trials, B))
  out <- rbind(synthetic(25), synthetic(50), robust(15, 25), robust(15, 50), robust(110, 50))
  options(width = 200)
  print(format(out, digits = 3), row.names = FALSE)
  quit(save = "no")
}

dir <- system.file("extdata", "score-matrices", package = "irtopics")
populations <- list(
  `Robust 2004 AP (110 x 249)` = read_scores(file.path(dir, "robust2004_ap.csv"), measure = "AP"),
  `Robust 2004 P@10 (110 x 249)` = read_scores(file.path(dir, "robust2004_p10.csv"), measure = "P@10"),
  `TREC-8 ad hoc AP (129 x 50)` = read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP"),
  `Terabyte 2006 AP (60 x 149)` = read_scores(file.path(dir, "terabyte2006_ap.csv"), measure = "AP")
)

one_setting <- function(pop, n) {
  pop <- unclass(pop)
  pop <- pop[stats::complete.cases(pop), , drop = FALSE]
  truth <- rowMeans(pop)
  # the population ranks, equal means tied as rank_intervals() ties them
  true_rank <- rank(-tie_means(truth, max(abs(pop))), ties.method = "min")
  a <- 0.025
  res <- lapply(seq_len(trials), function(r) {
    set.seed(r)
    m <- pop[, sample.int(ncol(pop), n, replace = TRUE), drop = FALSE]
    colnames(m) <- paste0("t", seq_len(n))
    est <- rowMeans(m)
    tb <- t_mean_bounds(m, 0.95)
    idx <- bootstrap_topic_indices(n, B, r, nrow(m))
    reps <- bootstrap_means(m, idx)
    pc <- bootstrap_bounds(m, est, reps, 0.95, "percentile")
    bc <- bootstrap_bounds(m, est, reps, 0.95, "bca")
    # rank_intervals() itself (its tie rule and its order statistics), on
    # the same resamples (the same seed draws the same topic indices)
    ri <- rank_intervals(m, B = B, seed = r, progress = FALSE)$table
    rb <- rbind(ri$conf.low[match(rownames(m), ri$system)], ri$conf.high[match(rownames(m), ri$system)])
    hit <- function(lo, hi) lo <= truth & truth <= hi
    cbind(t = hit(tb$low, tb$high), percentile = hit(pc$low, pc$high), bca = hit(bc$low, bc$high),
          rank = rb[1, ] <= true_rank & true_rank <= rb[2, ],
          w_t = tb$high - tb$low, w_percentile = pc$high - pc$low, w_bca = bc$high - bc$low,
          w_rank = rb[2, ] - rb[1, ] + 1)
  })
  all <- do.call(rbind, res)
  c(colMeans(all[, c("t", "percentile", "bca", "rank")], na.rm = TRUE),
    colMeans(all[, c("w_t", "w_percentile", "w_bca", "w_rank")], na.rm = TRUE),
    undefined_bca = mean(is.na(all[, "bca"])))
}

cat(sprintf("trials = %d per setting, B = %d, 95%% nominal\n\n", trials, B))
rows <- list()
for (nm in names(populations)) {
  for (n in c(10L, 25L, 50L)) {
    t0 <- proc.time()[["elapsed"]]
    v <- one_setting(populations[[nm]], n)
    rows[[length(rows) + 1L]] <- data.frame(population = nm, n = n, t(round(v, 4)), check.names = FALSE)
    cat(sprintf("%-30s n = %2d  coverage t %.3f  percentile %.3f  BCa %.3f  rank %.3f  (%.0f s)\n", nm, n,
                v[["t"]], v[["percentile"]], v[["bca"]], v[["rank"]], proc.time()[["elapsed"]] - t0))
  }
}
print(do.call(rbind, rows), row.names = FALSE)
