# risk_summary(): coverage of the URisk t interval (the interval TRisk's
# test inverts) by simulation from real per-topic scores, and its time on
# the largest shipped matrix.
#
# Coverage: the population is the TREC 2004 Robust AP matrix (110 runs x 249
# topics); the baseline is the run of median MAP and the systems are runs at
# MAP ranks 1, 10, 30, 80 and 105. Each data set draws n topics with
# replacement (the empirical distribution of the 249 topics is the
# population), so the true URisk of a system at alpha is its URisk over all
# 249 topics. A data set covers when conf.low <= truth <= conf.high (95%
# nominal; the interval is per system, unadjusted). Coverage is also
# 1 - the type I error of TRisk's two-sided test of "URisk = truth".
#
# Usage, from the package root:  Rscript bench/risk.R [datasets]
# (default 2000; pkgload::load_all() is enough: risk_summary() is plain R)

args <- commandArgs(TRUE)
R <- if (length(args) >= 1) as.integer(args[1]) else 2000L
pkgload::load_all(quiet = TRUE)

ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                  measure = "AP")
by_map <- names(sort(mean_scores(ap), decreasing = TRUE))
baseline <- by_map[55]
systems <- by_map[c(1, 10, 30, 80, 105)]
m <- unclass(ap)[c(systems, baseline), ]
attr(m, "measure") <- NULL
alphas <- c(0, 1, 5)
truth <- risk_summary(m, baseline = baseline, alpha = alphas)$table
truth <- truth[!truth$is_baseline, c("alpha", "system", "urisk")]

coverage <- function(n) {
  hits <- matrix(0, nrow(truth), 2)
  for (r in seq_len(R)) {
    set.seed(r)
    idx <- sample.int(ncol(m), n, replace = TRUE)
    x <- m[, idx]
    colnames(x) <- paste0("t", seq_len(n))
    tab <- suppressWarnings(risk_summary(x, baseline = baseline, alpha = alphas, correction = "none"))$table
    tab <- tab[!tab$is_baseline, ]
    tab <- tab[match(paste(truth$alpha, truth$system), paste(tab$alpha, tab$system)), ]
    ok <- !is.na(tab$conf.low)
    hits[, 1] <- hits[, 1] + (ok & tab$conf.low <= truth$urisk & truth$urisk <= tab$conf.high)
    hits[, 2] <- hits[, 2] + ifelse(ok, tab$conf.high - tab$conf.low, 0)
  }
  data.frame(n_topics = n, alpha = truth$alpha, system = truth$system, map_rank = match(truth$system, by_map),
             true_urisk = round(truth$urisk, 4), coverage = hits[, 1] / R, mean_width = round(hits[, 2] / R, 4))
}

res <- do.call(rbind, lapply(c(10L, 25L, 50L), coverage))
print(res, row.names = FALSE)
cat("\nCoverage by topics and alpha (mean over the 5 systems; min, max):\n")
agg <- aggregate(coverage ~ n_topics + alpha, res, function(v) c(mean = mean(v), min = min(v), max = max(v)))
print(do.call(data.frame, agg), row.names = FALSE)
cat(sprintf("Monte Carlo SE of one coverage near .95 with %d data sets: %.4f\n", R, sqrt(0.95 * 0.05 / R)))

# Time on the whole matrix, four alphas: minimum of 10 runs.
times <- vapply(1:10, function(i) system.time(risk_summary(ap, baseline = baseline, alpha = c(0, 1, 5, 10)))[["elapsed"]],
                numeric(1))
cat(sprintf("\nrisk_summary(110 x 249, 4 alphas): min %.3f s, median %.3f s over 10 runs\n", min(times),
            stats::median(times)))
