#!/usr/bin/env bash
# Runs the whole testthat suite against a build of irtopics instrumented with
# AddressSanitizer and UndefinedBehaviorSanitizer (gcc).
#   bash tools/sanitize.sh            (from the package root)
# 1. copies the package sources to a scratch directory (so that no object
#    files land in src/) and installs them into a private library,
#    tools/cpp/build/sanitize/lib, compiled with the flags of a temporary
#    R_MAKEVARS_USER file;
# 2. runs tests/testthat against that installed build with the ASan runtime
#    preloaded (R itself is not instrumented), leak detection off (R does not
#    free everything by design), 2 threads;
# 3. exits non-zero if a test fails or the log holds a sanitizer report.
# Log: tools/cpp/build/sanitize/tests.log.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/tools/cpp/build/sanitize
lib=$out/lib
log=$out/tests.log
rm -rf "$out"
mkdir -p "$lib"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1 -g"
cat >"$out/Makevars" <<MAKEVARS
CXXFLAGS = $flags
CXX17FLAGS = $flags
CFLAGS = $flags
LDFLAGS = -fsanitize=address,undefined
MAKEVARS

# The package sources only (no tools/, no build products, no stale objects).
for f in DESCRIPTION NAMESPACE LICENSE R src inst man tests; do
  [ -e "$root/$f" ] && cp -r "$root/$f" "$src/"
done
rm -f "$src"/src/*.o "$src"/src/*.so
mkdir -p "$src/pkg" && mv "$src"/{DESCRIPTION,NAMESPACE,LICENSE,R,src,inst,man,tests} "$src/pkg/" 2>/dev/null

# The test load of R CMD INSTALL runs an R without the ASan runtime, which
# refuses to load an instrumented library: skip it (the tests load it).
echo "sanitize.sh: installing an instrumented build into $lib"
if ! R_MAKEVARS_USER="$out/Makevars" MAKEFLAGS="-j2" nice -n 5 \
     R CMD INSTALL --no-test-load --no-docs --no-multiarch --library="$lib" "$src/pkg" \
     >"$out/install.log" 2>&1; then
  tail -40 "$out/install.log"
  echo "sanitize.sh: the instrumented install failed (log: $out/install.log)" >&2
  exit 2
fi
grep -q -- "-fsanitize=address" "$out/install.log" || {
  echo "sanitize.sh: the build did not use the sanitizer flags" >&2; exit 2; }

asan_rt=$(gcc -print-file-name=libasan.so)
# The tests run with 2 OpenMP threads, forked (multicore) futures included:
# map_chunks() gives futures 1 thread each, since libgomp's pool does not
# survive fork(). A watchdog stops a hung run after 90 minutes.
echo "sanitize.sh: running tests/testthat (log: $log)"
(
  cd "$root/tests/testthat" &&
  LD_PRELOAD="$asan_rt" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  OMP_NUM_THREADS=2 R_LIBS="$lib" NOT_CRAN=true \
  timeout 5400 nice -n 5 Rscript -e '
    options(irtopics.n_threads = 2L, warn = 1)
    stopifnot(startsWith(find.package("irtopics"), Sys.getenv("R_LIBS")))
    res <- testthat::test_dir(".", package = "irtopics", load_package = "installed",
                              reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                              stop_on_failure = FALSE)
    df <- as.data.frame(res)
    n_failed <- sum(df$failed) + sum(df$error)
    n_passed <- sum(df$nb) - sum(df$failed) - sum(df$skipped)
    cat(sprintf("\ntests: %d passed, %d failed, %d skipped\n", n_passed, n_failed, sum(df$skipped)))
    quit(status = if (n_failed > 0 || nrow(df) == 0) 1 else 0)'
) >"$log" 2>&1
rc=$?
tail -3 "$log"
reports=$(grep -cE "ERROR: AddressSanitizer|runtime error:" "$log")
echo "sanitize.sh: test status $rc, sanitizer reports: $reports"
if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
  grep -nE -A20 "ERROR: AddressSanitizer|runtime error:" "$log" | head -60
  exit 1
fi
exit 0
