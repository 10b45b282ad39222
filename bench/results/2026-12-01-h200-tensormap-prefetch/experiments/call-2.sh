#!/usr/bin/env bash
# Call 2 (binaries 22b2177, packed with tools/gpu-pack; the v7 cache carried as
# .carry/tune-cache.json):
# 1. a full tune of the 12 held-out Qwen2.5-7B shapes into a cache of their own (never
#    the production cache: they stay held out), with every candidate's time
#    (tune --times), to score heuristics for unseen shapes offline;
# 2. ncu of one launch each of k10 64x96x64 s10 and cuBLAS at 128x5376x64 (one k-block):
#    where the fixed microsecond at decode goes.
set -uo pipefail
mkdir -p "$OUT/logs"
t0=$(date +%s)
timeout 420 .carry/gemmscope tune --quiet --shapes bench/shapes/qwen25_7b_heldout.csv \
  --cache "$OUT/heldout-cache.json" --times "$OUT/heldout-times.csv" >"$OUT/logs/heldout-tune.log" 2>&1
echo "heldout tune rc=$? ($(( $(date +%s) - t0 )) s)"
NCU_SHAPE=128x5376x64 NCU_CONFIG=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1 tools/gpu-batch env ncu
