#!/usr/bin/env bash
# Call 5: old = 8974a74 (main at the session's start; the same kernels and heuristic as
# f594aa1 without the two new instances), new = f594aa1 (64x144 s7 and 64x168 s7 in 2x1).
# Packed with GEMMSCOPE_BUILD_DIR=<worktree at 8974a74>/build GEMMSCOPE_AB_BUILD_DIR=build
# tools/gpu-pack; .carry/ab-shapes.csv = the 12 held-out Qwen2.5-7B shapes + shapes-m256.csv
# (the three models of llm_projections.csv at M = 256). No tuning cache: the heuristic
# picks everywhere; it moves at 256x4608x3584 (64x192 -> 64x144) and 256x5376x4096
# (64x192 -> 64x168) only.
set -uo pipefail
mkdir -p "$OUT/logs"
N=.carry/new/gemmscope
cfgs=k10:64x144x64.s7.wg1.c2x1.static.g0.sk1,k10:64x144x64.s7.wg1.c2x1.static.g0.sk2,k10:64x144x64.s7.wg1.c2x1.static.g0.streamk
cfgs=$cfgs,k10:64x168x64.s7.wg1.c2x1.static.g0.sk1,k10:64x168x64.s7.wg1.c2x1.static.g8.sk3,k10:64x168x64.s7.wg1.c2x1.static.g0.streamk
step() {  # name, limit, command...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" >"$OUT/logs/$name.log" 2>&1
  echo "$name rc=$? ($(( $(date +%s) - t0 )) s): $(tail -n 1 "$OUT/logs/$name.log")"
}
step check-random 90 $N check --kernels "$cfgs" --cases 8 --max-dim 2000
step check-fixed 90 $N check --kernels "$cfgs" --shapes 256x4608x3584,256x5376x4096,129x264x72,300x136x200,1x8x8,77x1448x520
for tool in memcheck racecheck synccheck; do
  step "sanitize-$tool" 120 compute-sanitizer --tool $tool --error-exitcode 9 $N check --kernels "$cfgs" \
    --shapes 1x1x8,129x257x72,300x136x200,256x256x512,129x264x72
done
step diff 240 .carry/new/gemm_diff_test --gtest_filter='*K10*'
step side 120 $N bench --kernels auto,k10:64x192x64.s6.wg1.c2x1.static.g0.sk1,k10:64x144x64.s7.wg1.c2x1.static.g0.sk1,k10:64x168x64.s7.wg1.c2x1.static.g0.sk1,cublas \
  --shapes 256x4608x3584,256x5376x4096 --warmup 3 --repeats 20 --csv "$OUT/side.csv" --quiet
AB_SHAPES=$PWD/.carry/ab-shapes.csv AB_REPS=2 AB_LIMIT=120 tools/gpu-batch env ab
