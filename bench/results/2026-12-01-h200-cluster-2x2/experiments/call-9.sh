#!/usr/bin/env bash
# Call 9: the landed binaries (kernels as at the session's start, c778266; only comments
# changed) through the current cache: k10's differential tests, then the measure, one
# `bench --clocks` run of auto against cuBLAS over the 48 shapes, and its repeat.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
t0=$(date +%s)
timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$OUT/diff-k10.log" 2>&1
echo "diff rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv >"$OUT/gpu.txt" 2>&1
for r in 1 2; do
  timeout 140 "$G" bench --clocks --kernels auto,cublas --tune-cache .carry/tune-cache.json --shapes bench/shapes/llm_projections.csv \
    --warmup 3 --repeats 20 --quiet --csv "$OUT/bench-llm-$r.csv" >"$OUT/bench-llm-$r.log" 2>&1
  echo "bench $r rc=$? $(tail -n 1 "$OUT/bench-llm-$r.log")" >>"$OUT/summary.txt"
done
cat "$OUT/summary.txt"
