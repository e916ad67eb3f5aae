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

# A Beta(2, 5) sample in (0, 1) for the margin family tests (not smooth_scores(): the package has one).
beta_sample <- function(n = 60, seed = 1) {
  withr::with_seed(seed, stats::rbeta(n, 2, 5))
}
