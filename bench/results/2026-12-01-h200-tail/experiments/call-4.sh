#!/usr/bin/env bash
# Call 4: the one entry call 3 took, measured on the landed kernels (04ff67f) through
# call-4-cache.json (run as ../merged-cache.json, renamed once the tightened merge rule
# left its one new entry out): the kept cache with call 3's one winning entry,
# 2048x5376x21504 -> 128x128x64.s6.wg2.c1x2.static.g0.sk8): two 48-shape benches.
# First that entry's configuration is checked against the CPU reference at its shape
# and small ragged ones, and under memcheck and racecheck.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
G=.carry/gemmscope; R=bench/results/2026-12-01-h200-tail
L=$OUT/logs; mkdir -p "$L"; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
c=k10:128x128x64.s6.wg2.c1x2.static.g0.sk8
timeout 60 "$G" check --kernels "$c" --shapes 2048x5376x21504,129x264x720,300x520x3000,520x600x1360 >"$L/check.log" 2>&1
echo "check rc=$? $(tail -n 1 "$L/check.log")" >>"$OUT/summary.txt"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$c" \
    --shapes 129x264x720,300x520x3000 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log")" >>"$OUT/summary.txt"
done
for r in 1 2; do
  timeout 140 "$G" bench --kernels auto,cublas --tune-cache "$R/experiments/call-4-cache.json" --shapes bench/shapes/llm_projections.csv \
    --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$r.csv" >"$L/llm-$r.log" 2>&1
  echo "llm $r rc=$? $(tail -n 1 "$L/llm-$r.log")" >>"$OUT/summary.txt"
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
