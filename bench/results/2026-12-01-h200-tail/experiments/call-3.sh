#!/usr/bin/env bash
# Call 3: a re-tune, under the producer tail (04ff67f, the landed kernels), of the
# shapes where cuBLAS still won in calls 1-2 (shapes-lost.csv, lowest ratio first; the
# cache is saved after each shape, so a cut-off sweep keeps what it timed), into a copy
# of the kept cache. Then the 48 shapes through the kept and the re-tuned cache,
# alternated, twice each. A re-tuned entry is taken only where it wins in both pairs.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
G=.carry/gemmscope; E=bench/results/2026-12-01-h200-tail/experiments
L=$OUT/logs; mkdir -p "$L"; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cp .carry/tune-cache.json "$OUT/retuned-cache.json"
t0=$(date +%s)
timeout 260 "$G" tune --shapes "$E/shapes-lost.csv" --cache "$OUT/retuned-cache.json" --times "$OUT/tune-times.csv" \
  --hang-seconds 20 --quiet >"$L/tune.log" 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
for r in 1 2; do
  for c in kept retuned; do
    cache=.carry/tune-cache.json; [ $c = retuned ] && cache=$OUT/retuned-cache.json
    timeout 140 "$G" bench --kernels auto,cublas --tune-cache "$cache" --shapes bench/shapes/llm_projections.csv \
      --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$c-$r.csv" >"$L/llm-$c-$r.log" 2>&1
    echo "llm $c $r rc=$? $(tail -n 1 "$L/llm-$c-$r.log")" >>"$OUT/summary.txt"
  done
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
