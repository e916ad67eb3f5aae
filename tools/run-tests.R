# Runs the package's testthat suite against the source tree (compiling it with
# pkgload) and prints a plain closing line "N passed, N failed" for CI. The
# object files in src/ are left as they were found.
# Usage, from the package root:  Rscript tools/run-tests.R
options(warn = 1)
# testthat runs the tests, pkgload loads the source tree, pkgbuild compiles src/.
need <- c("testthat", "pkgload", "pkgbuild")
miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  message("missing: ", paste(miss, collapse = ", "), ". Run first: bash tools/setup.sh --deps-only")
  quit(status = 1)
}
# The source tree is compiled first with R's optimising flags (as R CMD
# INSTALL does, plus -Wall -pedantic), on every processor (src/Makevars), not
# with pkgload's default debug flags (-O0): the optimised build compiles in
# about the same time and runs the tests several times faster (bench/README.md,
# "Set-up, install and test times"). The test load then finds the library
# up to date. The build products in src/ are saved before and put back
# afterwards, exactly as found, so that a later R CMD INSTALL never links
# this build's objects.
build_products <- function() {
  dir("src", pattern = "[.](o|so|dll)$|^[.]build-flags$|^symbols[.]rds$", all.files = TRUE,
      full.names = TRUE)
}
saved_dir <- tempfile("irtopics-src-")
dir.create(saved_dir)
saved <- build_products()
file.copy(saved, saved_dir, copy.date = TRUE)
restore_src <- function() {
  unlink(build_products())
  file.copy(file.path(saved_dir, basename(saved)), "src", copy.date = TRUE)
  unlink(saved_dir, recursive = TRUE)
}
res <- tryCatch({
  pkgbuild::compile_dll(".", debug = FALSE)
  testthat::test_local(".", reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                       stop_on_failure = FALSE)
}, finally = restore_src())
df <- as.data.frame(res)
n_failed <- sum(df$failed) + sum(df$error)
n_passed <- sum(df$nb) - sum(df$failed) - sum(df$skipped)
cat(sprintf("\ntests: %d passed, %d failed, %d skipped\n", n_passed, n_failed, sum(df$skipped)))
quit(status = if (n_failed > 0 || nrow(df) == 0) 1 else 0)
