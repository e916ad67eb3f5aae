#!/usr/bin/env bash
# Set up irtopics on a fresh machine: install the R packages it needs
# (Debian's prebuilt r-cran-* packages when apt is available and we are root,
# otherwise from CRAN), install irtopics itself and run the quick start on the
# shipped real data.
#   bash tools/setup.sh              # dependencies, install, quick start
#   bash tools/setup.sh --deps-only  # dependencies only (used by CI)
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs="rcpp rcppeigen cli rlang ggplot2 future future.apply testthat withr knitr rmarkdown psych data.table"
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  debs="pandoc"
  for p in $pkgs; do debs="$debs r-cran-$p"; done
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $debs
fi
# Anything still missing (no apt, not root, or a package apt lacks) comes from CRAN.
Rscript -e '
need <- c("Rcpp", "RcppEigen", "cli", "rlang", "ggplot2", "future", "future.apply",
          "testthat", "withr", "knitr", "rmarkdown", "psych", "data.table", "MASS")
miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(miss)) {
  lib <- Sys.getenv("R_LIBS_USER")
  if (!file.access(.libPaths()[1], 2) == 0) { dir.create(lib, recursive = TRUE, showWarnings = FALSE); .libPaths(lib) }
  install.packages(miss)  # from the CRAN mirror configured in R (getOption("repos"))
}'
if [ "${1:-}" = "--deps-only" ]; then exit 0; fi
R CMD INSTALL .
Rscript inst/scripts/quickstart.R
