#!/usr/bin/env bash
# Build the pkgdown site (README as home page, reference grouped by method
# family as in _pkgdown.yml, the vignettes as articles) into docs/, then check
# it in headless Chromium (tools/check-site.R). docs/ is not committed.
#   bash tools/build-site.sh              # installs irtopics into a temporary library first
#   bash tools/build-site.sh --installed  # uses the irtopics R loads now (CI: R CMD check's copy)
#   bash tools/build-site.sh --no-check   # build only
# Needs what `bash tools/setup.sh --site` installs (pkgdown, chromote, httpuv,
# Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
installed=false; check=true
for a in "$@"; do
  case "$a" in
    --installed) installed=true ;;
    --no-check) check=false ;;
    *) echo "usage: bash tools/build-site.sh [--installed] [--no-check]" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
if ! Rscript tools/deps.R verify website; then
  echo "run: bash tools/setup.sh --site" >&2; exit 1
fi
if ! $installed; then
  lib=$(mktemp -d)
  trap 'rm -rf "$lib"' EXIT
  # from a tarball, so that no object files are left in src/
  (cd "$lib" && R CMD build --no-build-vignettes --no-manual "$OLDPWD" >build.log 2>&1 &&
     R CMD INSTALL -l "$lib" irtopics_*.tar.gz >install.log 2>&1) ||
    { cat "$lib"/*.log; exit 1; }
  export R_LIBS="$lib${R_LIBS:+:$R_LIBS}"
fi
# pkgdown.internet = FALSE: no look-ups on CRAN while building (CI is offline)
Rscript -e 'options(pkgdown.internet = FALSE)
pkgdown::build_site(".", install = FALSE, new_process = FALSE, preview = FALSE)'
# The site has no CDN resources (pkgdown/templates/head.html): MathJax for the
# vignettes' formulas comes from Debian's libjs-mathjax.
rm -rf docs/mathjax
mj=/usr/share/javascript/mathjax
if [ -f "$mj/MathJax.js" ]; then
  mkdir -p docs/mathjax
  for d in MathJax.js config extensions jax localization fonts; do cp -rL "$mj/$d" docs/mathjax/; done
else
  echo "MathJax not found in $mj (Debian: apt-get install libjs-mathjax): formulas stay TeX source" >&2
  mkdir -p docs/mathjax && echo "/* MathJax not available when the site was built */" > docs/mathjax/MathJax.js
fi
echo "site built in docs/ in $(( $(date +%s) - start )) s"
# Measure names such as P@10 or ERR@k must not become mailto: links (pandoc
# takes a bare name@part for an e-mail address; write them P\@10 in markdown).
bad_mail=$(grep -rhoE 'href="mailto:[^"@]*@[^".]*"' docs | sort -u || true)
if [ -n "$bad_mail" ]; then
  echo "build-site: measure names rendered as e-mail links (escape the @ as \\@):" >&2
  echo "$bad_mail" >&2
  exit 1
fi
if $check; then
  Rscript tools/check-site.R docs
fi
