#!/usr/bin/env bash
# Call 1: the power-capped shapes' candidates confirmed, then the 48 shapes through the
# kept cache and the confirmed one, alternated.
#   1. env; `gemmscope check` of every candidate against the CPU reference on k10's
#      ragged shapes (the kernels are main's, whose diff tests passed on the GPU before);
#   2. per shape of candidates.txt, two `bench --kernels cublas,k10:<candidates>` runs of
#      40 rounds, the candidates in opposite orders, to confirm/<shape>-{a,b}.csv;
#   3. pick.py: a candidate replaces the kept entry where its worst ratio beats the kept
#      configuration's best and its mean min_ms is no slower -> confirmed-cache.json;
#   4. the 48 shapes, kept then confirmed, twice (bench defaults), and their comparison.
# Packed with: GEMMSCOPE_BUILD_DIR=build tools/gpu-pack;
#   cp ../2026-12-02-h200-defer/run-3/merged-cache.json .carry/tune-cache.json
set -uo pipefail
here=bench/results/2026-12-02-h200-confirm/experiments
tools/gpu-batch env >/dev/null 2>&1 || true
g=.carry/gemmscope; export LD_LIBRARY_PATH=.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
mkdir -p "$OUT/confirm"
t0=$(date +%s)
all=$(cut -d' ' -f2 "$here/candidates.txt" | tr ',' '\n' | sort -u | sed 's/^/k10:/' | paste -sd,)
$g check --kernels "$all" --shapes 2176x2056x136,1800x2600x264,512x1024x512 >"$OUT/check.log" 2>&1
echo "check of the candidates: rc $? at $(( $(date +%s) - t0 )) s; $(tail -1 "$OUT/check.log")" >>"$OUT/summary.txt"
while read -r shape cands; do
  list=$(echo "$cands" | tr ',' '\n' | sed 's/^/k10:/' | paste -sd,)
  rev=$(echo "$cands" | tr ',' '\n' | tac | sed 's/^/k10:/' | paste -sd,)
  $g bench --quiet --repeats 40 --shapes "$shape" --kernels "cublas,$list" --csv "$OUT/confirm/$shape-a.csv" </dev/null >"$OUT/confirm/$shape-a.log" 2>&1
  $g bench --quiet --repeats 40 --shapes "$shape" --kernels "$rev,cublas" --csv "$OUT/confirm/$shape-b.csv" </dev/null >"$OUT/confirm/$shape-b.log" 2>&1
  echo "confirm $shape: rc $? at $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done <"$here/candidates.txt"
python3 "$here/pick.py" .carry/tune-cache.json "$OUT/confirmed-cache.json" "$OUT"/confirm/*.csv >"$OUT/decisions.txt" 2>&1
tail -1 "$OUT/decisions.txt" >>"$OUT/summary.txt"
for rep in 1 2; do
  for who in kept confirmed; do
    cache=.carry/tune-cache.json; [ $who = confirmed ] && cache=$OUT/confirmed-cache.json
    $g bench --quiet --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache "$cache" \
      --csv "$OUT/llm-$who-$rep.csv" >"$OUT/llm-$who-$rep.log" 2>&1
    echo "llm-$who-$rep: rc $? at $(( $(date +%s) - t0 )) s; $(grep -i geomean "$OUT/llm-$who-$rep.log" | head -2 | tr '\n' ' ')" >>"$OUT/summary.txt"
  done
done
$g compare kept-1="$OUT/llm-kept-1.csv" confirmed-1="$OUT/llm-confirmed-1.csv" kept-2="$OUT/llm-kept-2.csv" confirmed-2="$OUT/llm-confirmed-2.csv" >"$OUT/compare.txt" 2>&1
$g compare --per-shape kept-1="$OUT/llm-kept-1.csv" confirmed-1="$OUT/llm-confirmed-1.csv" kept-2="$OUT/llm-kept-2.csv" confirmed-2="$OUT/llm-confirmed-2.csv" >"$OUT/compare-shapes.txt" 2>&1
cat "$OUT/compare.txt" >>"$OUT/summary.txt"
