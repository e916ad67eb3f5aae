# Kernel margins on many scores (issue 43): fit_margin() of n uniform scores
# (the default families: truncnorm, beta, normal_kernel, beta_kernel), n =
# 1e3 .. 1e5, and qmargin() of 1e5 probabilities on kernel margins of 2,000
# scores, with one installed build (CPU seconds, user + system, and
# elapsed). Families are timed one by one (fit_margin(families = f)), then
# the whole default fit.
# Usage, from the package root (each build installed into its own library):
#   R CMD INSTALL --no-test-load -l /tmp/new-lib . && rm -f src/*.o src/*.so
#   Rscript bench/margins-binned.R /tmp/new-lib 1000 3000 10000 30000 100000
#   Rscript bench/margins-binned.R /tmp/new-lib exact 1000 3000 10000
# ("exact": kernel_exact_max = Inf, the exact path of the same build; a build
# without the argument, e.g. the one before issue 43, is always exact). The
# library "." is the source tree (pkgload::load_all(compile = FALSE) after
# pkgbuild::compile_dll(debug = FALSE): R's optimising flags).
args <- commandArgs(trailingOnly = TRUE)
if (args[1] == ".") pkgload::load_all(".", quiet = TRUE, compile = FALSE) else library(irtopics, lib.loc = args[1])
args <- args[-1]
exact <- identical(args[1], "exact")
if (exact) args <- args[-1]
has_bins <- "kernel_exact_max" %in% names(formals(fit_margin))
fit <- function(x, ...) {
  if (exact && has_bins) fit_margin(x, kernel_exact_max = Inf, progress = FALSE, ...) else fit_margin(x, ...)
}
cpu <- function(expr) {
  t <- system.time(expr)
  sprintf("%7.2f s CPU (%7.2f s elapsed)", t[["user.self"]] + t[["sys.self"]], t[["elapsed"]])
}
cat(sprintf("path: %s\n", if (exact || !has_bins) "exact" else "default"))
for (n in as.numeric(args)) {
  x <- withr::with_seed(1, runif(n))
  for (f in c("truncnorm", "beta", "normal_kernel", "beta_kernel")) {
    cat(sprintf("n = %6d  %-14s %s\n", n, f, cpu(fit(x, families = f))))
  }
  cat(sprintf("n = %6d  %-14s %s\n", n, "default", cpu(m <- fit(x))))
}
cat("qmargin() of 1e5 probabilities on margins of 2,000 scores:\n")
x <- withr::with_seed(2, rbeta(2000, 2, 5))
u <- withr::with_seed(3, runif(as.numeric(Sys.getenv("QN", "1e5"))))
for (f in c("normal_kernel", "beta_kernel")) {
  m <- fit(x, families = f)
  cat(sprintf("%-14s %s\n", f, cpu(q <- qmargin(u, m))))
  cat(sprintf("%-14s max |pmargin(q) - u| = %.2g\n", "", max(abs(pmargin(q, m) - u))))
}
