#!/usr/bin/env bash
# Call 4 (binaries of call 3, 265f6d6; the v7 cache as .carry/tune-cache.json and
# merged-cache.json = the v7 cache with call 3's re-tuned entry for 128x6144x4096, the
# one M = 128 shape where call 3's two benches both favoured the re-tune):
# 1. the 48 shapes through the v7 cache ("old") and the merged cache ("merged"),
#    alternated, two rounds each, same binary;
# 2. gemm_diff_test's k10 tests and the four sanitizers on auto (the final binary).
set -uo pipefail
for rep in 1 2; do
  for who in old merged; do
    cache=.carry/tune-cache.json; [ $who = merged ] && cache=.carry/merged-cache.json
    t0=$(date +%s)
    timeout 100 .carry/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv \
      --tune-cache "$cache" --warmup 3 --repeats 20 --csv "$OUT/ab-$who-$rep.csv" --quiet >/dev/null 2>&1
    echo "bench $who-$rep rc=$? ($(( $(date +%s) - t0 )) s)"
  done
done
DIFF_FILTER='*K10*' SANITIZE_KERNELS=auto tools/gpu-batch env diff sanitize
