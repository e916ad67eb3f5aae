# Pearson/Kendall correlation that is NA (no warning) for constant vectors.
safe_cor <- function(x, y, method = "pearson") {
  if (length(x) < 2 || stats::sd(x) == 0 || stats::sd(y) == 0) return(NA_real_)
  stats::cor(x, y, method = method)
}
