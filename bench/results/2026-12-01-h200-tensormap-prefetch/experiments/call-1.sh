#!/usr/bin/env bash
# Call 1: old = 8974a74 (main at the session's start), new = 4029398 (k10 prefetches its
# three tensor maps; bench/tune time through harness::BatchTimer).
# Packed with: GEMMSCOPE_BUILD_DIR=<worktree at 8974a74>/build GEMMSCOPE_AB_BUILD_DIR=build tools/gpu-pack,
# the v7 cache (bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json) as
# .carry/tune-cache.json, and .carry/ab-shapes.csv = the 48 LLM shapes + the 12 held-out
# Qwen2.5-7B shapes (which the cache lacks: the heuristic picks there).
set -uo pipefail
# The new binary's correctness first: the differential check of auto and the decode instance.
.carry/new/gemmscope check --kernels auto,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1 \
  --cases 8 --max-dim 2000 >"$OUT/check-new.log" 2>&1
echo "check-new rc=$?"
AB_SHAPES=$PWD/.carry/ab-shapes.csv AB_REPS=2 AB_LIMIT=150 tools/gpu-batch env sass ab
