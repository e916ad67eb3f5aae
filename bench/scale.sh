#!/usr/bin/env bash
# Scale test: time and peak resident memory (GNU time, fresh processes) of
#   - R with irtopics loaded (the baseline),
#   - reading the qrels alone,
#   - evaluate() of the 10-million-line run with 1 and 2 threads,
#   - trec_eval on the same files (optional),
# and a check that evaluate() and trec_eval agree on every topic's AP.
# Usage: bash bench/scale.sh [data_dir] [path/to/trec_eval]
#   data_dir defaults to bench/scale (written by bench/generate-scale.R); when
#   it also holds run.txt.gz (gzip -1 -k run.txt), that is measured too.
set -eu
data=${1:-bench/scale}
trec_eval=${2:-}
run="$data/run.txt"
qrels="$data/qrels.txt"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() {  # label, command...
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >"$out/stdout"
  read -r secs kb <"$out/time"
  printf '%-40s %7.2f s  %6d MB\n' "$label" "$secs" $((kb / 1024))
}

echo "run: $(wc -l <"$run") lines, $(($(stat -c %s "$run") / 1048576)) MB; qrels: $(wc -l <"$qrels") lines, $(($(stat -c %s "$qrels") / 1048576)) MB"
r="suppressPackageStartupMessages(library(irtopics))"
measure "R + irtopics loaded" Rscript -e "$r"
measure "read the qrels (C++ only)" Rscript -e "$r; q <- irtopics:::cpp_qrels_read('$qrels', 1L)"
for th in 1 2; do
  measure "evaluate(), $th thread(s), process total" Rscript -e "$r
t <- system.time(s <- evaluate('$run', '$qrels', c('AP', 'P@10', 'R-Prec', 'nDCG'), n_threads = $th, progress = FALSE))
cat(t[['elapsed']], '\n')
if ($th == 1) write.table(data.frame(topic = colnames(s\$AP), ap = sprintf('%.4f', s\$AP[1, ])), '$out/ours.txt', row.names = FALSE, col.names = FALSE, quote = FALSE)"
  echo "    of which evaluate() itself: $(cat "$out/stdout") s"
done
if [ -f "$run.gz" ]; then  # optional: a gzip copy (gzip -1 -k run.txt)
  measure "evaluate() of run.txt.gz, 1 thread" Rscript -e "$r
invisible(evaluate('$run.gz', '$qrels', c('AP', 'P@10', 'R-Prec', 'nDCG'), progress = FALSE))"
fi
if [ -n "$trec_eval" ]; then
  measure "trec_eval -q -m map -m P.10 -m Rprec -m ndcg" "$trec_eval" -q -m map -m P.10 -m Rprec -m ndcg "$qrels" "$run"
  awk '$1 == "map" && $2 != "all" {print $2, $3}' "$out/stdout" | sort >"$out/theirs.txt"
  sort "$out/ours.txt" >"$out/ours-sorted.txt"
  if cmp -s "$out/ours-sorted.txt" "$out/theirs.txt"; then
    echo "AP of all $(wc -l <"$out/theirs.txt") topics identical to trec_eval's printed values"
  else
    echo "AP DIFFERS from trec_eval:"
    diff "$out/ours-sorted.txt" "$out/theirs.txt" | head
    exit 1
  fi
fi
