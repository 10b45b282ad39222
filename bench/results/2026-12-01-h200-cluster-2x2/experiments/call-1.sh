#!/usr/bin/env bash
# Call 1: 2x2 clusters of 128-row tiles (A and B both multicast), sized so that the
# M = 512 shapes fit in the 30 clusters of 4 that the H200 holds at once (128 x 144
# at N = 4096: 2 x 15 clusters). First a bench of the new instances against cuBLAS and
# the cached choice at the 12 M = 512 shapes, then k10's differential tests, the three
# sanitizers on the new instances, and `tune --configs` of the new instances over the
# 48 shapes from the last merged cache (each shape's cached entry timed in the same run).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
cache=.carry/tune-cache.json
L=$OUT/logs
mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
s512=$(awk -F, '!/^#/ && $3==512 {printf "%s%sx%sx%s", (n++?",":""), $3, $4, $5}' bench/shapes/llm_projections.csv)
echo "$s512" >"$L/s512.txt"
k=auto,cublas,k10:128x144x64.s6.wg2.c2x2.static.g0.sk1,k10:128x192x64.s4.wg2.c2x2.static.g0.sk1,k10:128x256x64.s4.wg2.c2x2.static.g0.sk1
t0=$(date +%s)
timeout 120 "$G" bench --clocks --kernels "$k" --tune-cache "$cache" --shapes "$s512" --warmup 3 --repeats 20 --quiet \
  --csv "$OUT/bench-512.csv" >"$OUT/bench-512.log" 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
t0=$(date +%s)
timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$L/diff-k10.log" 2>&1; echo "diff rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x144x64.s6.wg2.c2x2.static.g0.sk1,k10:128x192x64.s4.wg2.c2x2.static.g2.sk3,k10:128x256x64.s4.wg2.c2x2.static.g0.streamk
for tool in memcheck racecheck synccheck; do
  t0=$(date +%s)
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 1x1x8,129x257x72,300x136x200,256x256x512,520x600x136 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done
cp "$cache" "$OUT/tune-cache.json"
t0=$(date +%s)
timeout 200 "$G" tune --quiet --configs 128x144x64.s6.wg2.c2x2.static,128x192x64.s4.wg2.c2x2.static,128x256x64.s4.wg2.c2x2.static \
  --shapes bench/shapes/llm_projections.csv --cache "$OUT/tune-cache.json" --times "$OUT/tune-times.csv" >"$L/tune.log" 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
cat "$OUT/summary.txt"
