#!/usr/bin/env bash
# Builds the libFuzzer targets of tools/cpp and runs each for the given number
# of seconds (default 600): fuzz_run and fuzz_qrels, then fuzz_gzip and
# fuzz_rank (the rank correlations and the cancellable sort).
#   bash tools/fuzz.sh [seconds] [target ...]
# Needs clang++-14 and libFuzzer (Debian: apt-get install -y libclang-rt-14-dev).
# The working corpus grows in tools/cpp/build/corpus/<target>/ (seeded from
# the committed tools/cpp/corpus/); logs go to tools/cpp/build/fuzz-<target>.log.
# Crash, timeout, OOM and leak files are copied into
# tools/cpp/regressions/{run,qrels}/ so that `make -C tools/cpp test` replays
# them; the script exits non-zero when a target found something.
set -u
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_run fuzz_qrels fuzz_gzip fuzz_rank)

here=$(cd "$(dirname "$0")/cpp" && pwd)
build=$here/build

if ! command -v clang++-14 >/dev/null; then
  echo "fuzz.sh: clang++-14 not found (apt-get install -y clang-14 libclang-rt-14-dev)" >&2
  exit 2
fi
if ! ls "$(clang++-14 -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null 2>&1; then
  echo "fuzz.sh: the libFuzzer runtime is missing: apt-get install -y libclang-rt-14-dev" >&2
  exit 2
fi
make -C "$here" fuzz || exit 2

status=0
for t in "${targets[@]}"; do
  kind=${t#fuzz_}                       # run, qrels, gzip or rank
  seeds=$here/corpus/$kind
  work=$build/corpus/$t
  artifacts=$build/artifacts/$t
  log=$build/$t.log
  mkdir -p "$work" "$artifacts"
  echo "fuzz.sh: $t for ${seconds}s (log: $log)"
  ASAN_OPTIONS=detect_leaks=1 nice -n 10 "$build/$t" "$work" "$seeds" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  # The last "#N DONE" (or the last status) line holds executions, coverage
  # and exec/s.
  grep -E '^#[0-9]+' "$log" | tail -1
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$log"
  found=$(ls "$artifacts" 2>/dev/null)
  if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
    status=1
    echo "fuzz.sh: $t exited with $rc; artifacts: ${found:-none}" >&2
    # Gzip inputs end as runs once decompressed, so they join the run corpus.
    dest=$here/regressions/$kind
    [ "$kind" = gzip ] && dest=$here/regressions/run
    mkdir -p "$dest"
    for f in "$artifacts"/*; do
      [ -e "$f" ] && cp "$f" "$dest/$t-$(basename "$f")"
    done
  fi
done
exit $status
