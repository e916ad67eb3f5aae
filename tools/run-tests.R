# Runs the package's testthat suite against the source tree (compiling it with
# pkgload) and prints a plain closing line "N passed, N failed" for CI.
# Usage, from the package root:  Rscript tools/run-tests.R
options(warn = 1)
# testthat runs the tests, pkgload loads the source tree, pkgbuild compiles src/.
need <- c("testthat", "pkgload", "pkgbuild")
miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  message("missing: ", paste(miss, collapse = ", "), ". Run first: bash tools/setup.sh --deps-only")
  quit(status = 1)
}
res <- testthat::test_local(".", reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                            stop_on_failure = FALSE)
df <- as.data.frame(res)
n_failed <- sum(df$failed) + sum(df$error)
n_passed <- sum(df$nb) - sum(df$failed) - sum(df$skipped)
cat(sprintf("\ntests: %d passed, %d failed, %d skipped\n", n_passed, n_failed, sum(df$skipped)))
quit(status = if (n_failed > 0 || nrow(df) == 0) 1 else 0)
