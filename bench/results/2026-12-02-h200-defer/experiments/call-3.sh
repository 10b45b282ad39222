#!/usr/bin/env bash
# Call 3 (binaries dd751d6, .carry/defer2/): `tune --configs` of the instances whose
# epilogue is deferred (128 x 168, 176, 224 and 256, cooperative) over the 48 shapes,
# from the kept cache (each shape's cached entry timed in the same run, the fastest
# kept); then kept / retuned through bench, twice, alternated; tools/merge-tune-cache
# takes the retuned entries that win in both; one bench through the merged cache.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
export GEMMSCOPE_COMMIT=$(cat .carry/defer2/COMMIT)
G=.carry/defer2/gemmscope
L=$OUT/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cp .carry/tune-cache.json "$OUT/retuned-cache.json"
inst=128x256x64.s4.wg2.c2x1.static,128x256x64.s4.wg2.c1x1.static,128x256x64.s4.wg2.c1x2.static,128x256x64.s4.wg2.c2x1.dynamic
inst=$inst,128x224x64.s4.wg2.c2x1.static,128x176x64.s5.wg2.c2x1.static,128x168x64.s5.wg2.c2x1.static
t0=$(date +%s)
timeout 250 "$G" tune --quiet --configs "$inst" --shapes bench/shapes/llm_projections.csv --cache "$OUT/retuned-cache.json" \
  --times "$OUT/tune-times.csv" >"$L/tune.log" 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
bench() {  # cache, csv
  timeout 110 "$G" bench --kernels auto,cublas --tune-cache "$1" --shapes bench/shapes/llm_projections.csv \
    --warmup 3 --repeats 20 --quiet --csv "$2" >"$2.log" 2>&1
  echo "llm $(basename "$2") rc=$? $(tail -n 1 "$2.log")" >>"$OUT/summary.txt"
}
for r in 1 2; do
  bench .carry/tune-cache.json "$L/llm-kept-$r.csv"
  bench "$OUT/retuned-cache.json" "$L/llm-retuned-$r.csv"
done
python3 tools/merge-tune-cache .carry/tune-cache.json "$OUT/retuned-cache.json" --kept-runs "$L/llm-kept-1.csv" "$L/llm-kept-2.csv" \
  --retuned-runs "$L/llm-retuned-1.csv" "$L/llm-retuned-2.csv" -o "$OUT/merged-cache.json" >"$L/merge.log" 2>&1
echo "merge rc=$? $(tail -n 3 "$L/merge.log" | tr '\n' ' ')" >>"$OUT/summary.txt"
[ -f "$OUT/merged-cache.json" ] && bench "$OUT/merged-cache.json" "$OUT/llm-merged-1.csv"
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
