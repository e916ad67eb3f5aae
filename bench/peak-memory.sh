#!/usr/bin/env bash
# Peak resident memory of one evaluate() call over all run files, measured by
# GNU time in a fresh R process, beside the total size of the run files.
# Usage: bash bench/peak-memory.sh [data_dir] [n_threads] [measures]
#   measures: "four" (AP, P@10, R-Prec, nDCG; default) or "all_trec" (every
#   per-topic measure of trec_eval's -m all_trec).
set -eu
data=${1:-bench/data}
threads=${2:-2}
if [ "${3:-four}" = "all_trec" ]; then
  measures="irtopics:::all_trec_measures()"
else
  measures="c('AP', 'P@10', 'R-Prec', 'nDCG')"
fi
total=$(du -cb "$data"/runs/* | tail -1 | cut -f1)
/usr/bin/time -f "%M" -o /tmp/irtopics-peak.txt Rscript -e "suppressPackageStartupMessages(library(irtopics)); invisible(evaluate(sort(list.files('$data/runs', full.names = TRUE)), '$data/qrels.txt', $measures, n_threads = $threads, progress = FALSE))"
base=$(/usr/bin/time -f "%M" Rscript -e "suppressPackageStartupMessages(library(irtopics))" 2>&1 >/dev/null | tail -1)
peak=$(cat /tmp/irtopics-peak.txt)
echo "run files: $((total / 1048576)) MB; peak RSS of evaluate(): $((peak / 1024)) MB (R with irtopics loaded: $((base / 1024)) MB)"
