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
# pkgload::load_all() is enough: coverage, not speed.

args <- commandArgs(TRUE)
trials <- if (length(args) >= 1) as.integer(args[1]) else 200L
B <- if (length(args) >= 2) as.integer(args[2]) else 1000L
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE)

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
  true_rank <- rank(-truth, ties.method = "min")
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
    ranks <- t(apply(reps, 1L, function(v) rank(-v, ties.method = "min")))
    rb <- apply(ranks, 2L, stats::quantile, probs = c(a, 1 - a), type = 1, names = FALSE)
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
