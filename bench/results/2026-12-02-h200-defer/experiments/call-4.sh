#!/usr/bin/env bash
# Call 4: main's own binaries (5f7d086: the landed kernels, same PTX as call 3's dd751d6)
# through the merged cache, twice: issue 10's measure on the commit that lands.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
export GEMMSCOPE_COMMIT=$(cat .carry/main/COMMIT)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$OUT/gpu.txt" 2>&1
for r in 1 2; do
  timeout 65 .carry/main/gemmscope bench --kernels auto,cublas --tune-cache bench/results/2026-12-02-h200-defer/run-3/merged-cache.json \
    --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-main-$r.csv" >"$OUT/llm-main-$r.log" 2>&1
  echo "llm main $r rc=$? $(tail -n 1 "$OUT/llm-main-$r.log")" >>"$OUT/summary.txt"
done
cat "$OUT/summary.txt"
