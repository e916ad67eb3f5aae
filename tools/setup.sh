#!/usr/bin/env bash
# Set up irtopics on a fresh machine (R >= 4.1 with its recommended packages):
#  1. as root with apt (Debian/Ubuntu): pandoc, compilers (r-base-dev) and
#     Debian's prebuilt r-cran-* builds of the packages irtopics needs;
#  2. from CRAN, every needed package that this R still cannot load in a
#     suitable version (not root, no apt, a package Debian lacks or has too
#     old, or apt's library not on .libPaths()): tools/deps.R install;
#  3. irtopics itself, compiled once, with its vignettes built, and the quick
#     start on the shipped real data.
# The needed packages are read from DESCRIPTION: Depends, Imports, LinkingTo,
# Suggests and Config/Needs/dev (tools the README's commands use);
# --site adds Config/Needs/website and Debian's chromium (tools/build-site.sh).
#   bash tools/setup.sh              # dependencies, install, quick start
#   bash tools/setup.sh --deps-only  # dependencies only (used by CI)
#   bash tools/setup.sh --site       # also what building and checking the site needs
# CRAN packages go to the first writable library: IRTOPICS_LIB if set, else the
# first writable entry of .libPaths(), else R_LIBS_USER (created).
set -euo pipefail
cd "$(dirname "$0")/.."
deps_only=false; groups=""
for a in "$@"; do
  case "$a" in
    --deps-only) deps_only=true ;;
    --site) groups="website" ;;
    *) echo "usage: bash tools/setup.sh [--deps-only] [--site]" >&2; exit 2 ;;
  esac
done
start=$(date +%s)

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  # libuv1-dev: CRAN's `fs` (needed by pkgload and roxygen2) links libuv when
  # it is built from source, i.e. whenever Debian's r-cran-fs is not the copy
  # R loads (an empty R_LIBS_SITE, or a newer version needed)
  debs="pandoc r-base-dev libuv1-dev"
  for p in $(Rscript tools/deps.R list $groups); do
    d="r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"
    if apt-cache show --no-all-versions "$d" >/dev/null 2>&1; then debs="$debs $d"; fi
  done
  # the site check: headless Chromium; OpenSSL headers to build CRAN's websocket (chromote);
  # and MathJax for the site's formulas
  if [ -n "$groups" ]; then debs="$debs chromium libssl-dev libjs-mathjax"; fi
  echo "apt-get install: $debs"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $debs
fi

# The library CRAN packages and irtopics go to (created when missing); put it
# first for the R processes of this script.
lib=$(Rscript tools/deps.R lib)
export R_LIBS="$lib${R_LIBS:+:$R_LIBS}"
Rscript tools/deps.R install $groups
Rscript tools/deps.R verify $groups
if ! command -v pandoc >/dev/null 2>&1; then
  echo "pandoc is missing: the vignettes (rmarkdown) need it; install it (https://pandoc.org) and rerun" >&2
  exit 1
fi
if $deps_only; then
  echo "setup (dependencies) took $(( $(date +%s) - start )) s"; exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# irtopics is compiled once (R CMD build with vignettes would compile it for
# its own temporary library, then installing the tarball a second time):
#  a. the sources as R CMD build packs them (.Rbuildignore), without
#     building the vignettes, unpacked into $tmp/irtopics;
#  b. installed from there (one compiler per processor: src/Makevars), the
#     objects staying in $tmp/irtopics/src;
#  c. the vignettes built with that installed copy and put in inst/doc, as
#     R CMD build puts them;
#  d. installed again from the same folder: nothing left to compile, and
#     R CMD INSTALL indexes the vignettes for vignette(); --strip drops the
#     debugging information R's -g puts in the library (38 MB -> 4.5 MB).
(cd "$tmp" && R CMD build --no-build-vignettes --no-manual "$OLDPWD" >/dev/null)
tar -xzf "$tmp"/irtopics_*.tar.gz -C "$tmp"
R CMD INSTALL -l "$lib" "$tmp/irtopics"
echo "installed (without vignettes) after $(( $(date +%s) - start )) s"
(cd "$tmp/irtopics" && Rscript -e 'tools::buildVignettes(dir = ".", tangle = TRUE)
v <- tools::pkgVignettes(dir = ".", output = TRUE, source = TRUE)
dir.create(file.path("inst", "doc"), recursive = TRUE, showWarnings = FALSE)
files <- unique(c(v$docs, v$outputs, unlist(v$sources)))
stopifnot(all(file.copy(files, file.path("inst", "doc"), overwrite = TRUE, copy.date = TRUE)))')
R CMD INSTALL --strip -l "$lib" "$tmp/irtopics"
Rscript -e 'v <- vignette(package = "irtopics")$results[, "Item"]
if (!"irtopics" %in% v) stop("vignette(\"irtopics\") is not installed")
cat("vignettes installed:", v, "\n")'
echo "setup took $(( $(date +%s) - start )) s"
Rscript inst/scripts/quickstart.R
