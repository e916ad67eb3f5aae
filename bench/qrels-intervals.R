# Coverage of compare_qrels()'s topic-bootstrap intervals for the label
# statistics (percentile, basic, BCa; nominal 95%), by simulation.
#
# Model: grades 0-3 with probabilities .5/.25/.15/.10, 80 judged documents
# per topic; on topic t the candidate moves each grade one step (up or down
# with equal chance, kept within 0-3) with probability p_t ~ Beta(2, 6)
# (mean .25): judges are worse on some topics than on others, which is why
# topics, not documents, are resampled. "population" is the statistic on
# 20,000 topics (the value over the topic population); "expected" the mean
# of the statistic over the simulated data sets of `n_topics` topics.
#
#   R_LIBS=/tmp/qrels-lib Rscript bench/qrels-intervals.R [data sets] [B]
suppressPackageStartupMessages(library(irtopics))
args <- commandArgs(trailingOnly = TRUE)
n_sets <- if (length(args) >= 1) as.integer(args[1]) else 200L
B <- if (length(args) >= 2) as.integer(args[2]) else 500L
options(irtopics.progress = FALSE)
ns <- asNamespace("irtopics")

simulate_topics <- function(n_topics, per_topic = 80L) {
  topic <- rep(sprintf("t%05d", seq_len(n_topics)), each = per_topic)
  ref <- sample(0:3, length(topic), TRUE, prob = c(0.5, 0.25, 0.15, 0.1))
  p <- rep(stats::rbeta(n_topics, 2, 6), each = per_topic)
  move <- stats::runif(length(topic)) < p
  cand <- ref
  cand[move] <- pmin(3L, pmax(0L, ref[move] + sample(c(-1L, 1L), sum(move), TRUE)))
  data.frame(topic = topic, docno = sprintf("d%d", seq_along(topic)), reference = ref, candidate = cand,
             stringsAsFactors = FALSE)
}
stats_of <- c("kappa", "weighted_kappa_quadratic", "krippendorff_alpha_ordinal")
set.seed(2026)
big <- simulate_topics(20000)
population <- unlist(ns$label_statistics(matrix(tabulate(big$reference + 1L + 4L * big$candidate, 16)), 0:3)[stats_of])

run_setting <- function(n_topics) {
  hits <- list()
  est <- matrix(NA_real_, n_sets, length(stats_of), dimnames = list(NULL, stats_of))
  bounds <- list()
  for (i in seq_len(n_sets)) {
    d <- simulate_topics(n_topics)
    ref <- data.frame(topic = d$topic, docno = d$docno, rel = d$reference)
    cand <- data.frame(topic = d$topic, docno = d$docno, rel = d$candidate)
    for (iv in c("percentile", "basic", "bca")) {
      x <- compare_qrels(ref, cand, B = B, seed = i, interval = iv, grades = 0:3)$labels
      x <- x[is.na(x$threshold) & x$statistic %in% stats_of, ]
      est[i, ] <- x$estimate[match(stats_of, x$statistic)]
      bounds[[iv]] <- rbind(bounds[[iv]], cbind(x$conf.low[match(stats_of, x$statistic)],
                                                x$conf.high[match(stats_of, x$statistic)]))
    }
  }
  expected <- colMeans(est)
  rows <- lapply(seq_along(stats_of), function(s) {
    pick <- seq(s, by = length(stats_of), length.out = n_sets)
    cover <- function(iv, target) {
      b <- bounds[[iv]][pick, , drop = FALSE]
      mean(b[, 1] <= target & target <= b[, 2])
    }
    data.frame(topics = n_topics, statistic = stats_of[s], population = population[[s]],
               expected = expected[[s]],
               percentile = sprintf("%.2f / %.2f", cover("percentile", population[[s]]), cover("percentile", expected[[s]])),
               basic = sprintf("%.2f / %.2f", cover("basic", population[[s]]), cover("basic", expected[[s]])),
               bca = sprintf("%.2f / %.2f", cover("bca", population[[s]]), cover("bca", expected[[s]])),
               width = mean(bounds$percentile[pick, 2] - bounds$percentile[pick, 1]))
  })
  do.call(rbind, rows)
}
t0 <- proc.time()[["elapsed"]]
res <- rbind(run_setting(50L), run_setting(15L))
print(res, digits = 3, row.names = FALSE)
cat(sprintf("%d data sets per setting, B = %d, %.0f s\n", n_sets, B, proc.time()[["elapsed"]] - t0))
