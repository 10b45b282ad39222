#!/usr/bin/env bash
# Call 1: the ring epilogue (3126dad, .carry/ring/: a static cooperative CTA's last tile
# staged whole in the ring's A half and stored after one barrier; store_held_box and the
# alternating path folded into alternate_box), and the same with the held box staged
# after the release (f3b249c, .carry/ringar/), against main (.carry/old/, 5f7d086: the
# measure's binaries; main's PTX since is identical).
#   1. the 48 shapes through the kept cache, old / ring / ringar, alternated, twice;
#   2. k10's differential tests on ring;
#   3. memcheck, racecheck, synccheck on ring's instances at shapes of one unit per CTA
#      and of several (K = 136: units of fewer k-blocks than boxes), split-K and stream-K.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
L=$OUT/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cat "$L/gpu.txt" >>"$OUT/summary.txt"
bench() {  # variant round
  GEMMSCOPE_COMMIT=$(cat .carry/$1/COMMIT) timeout 80 .carry/$1/gemmscope bench --kernels auto,cublas --tune-cache .carry/tune-cache.json \
    --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$1-$2.csv" >"$L/llm-$1-$2.log" 2>&1
  echo "llm $1 $2 rc=$? $(tail -n 1 "$L/llm-$1-$2.log")" >>"$OUT/summary.txt"
}
for b in old ring ringar; do bench $b 1; done
t0=$(date +%s)
GEMMSCOPE_COMMIT=$(cat .carry/ring/COMMIT) timeout 170 .carry/ring/gemm_diff_test --gtest_filter='*K10*' >"$L/diff.log" 2>&1
echo "diff ring rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
grep -E "^\[ +FAILED +\]" "$L/diff.log" >>"$OUT/summary.txt"
cfgs=k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.sk1,k10:128x176x64.s5.wg2.c2x1.static.g0.sk1
cfgs=$cfgs,k10:128x224x64.s4.wg2.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.streamk,k10:64x256x64.s5.wg1.c2x1.static.g0.sk1
for tool in memcheck racecheck synccheck; do
  t0=$(date +%s)
  GEMMSCOPE_COMMIT=$(cat .carry/ring/COMMIT) timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 .carry/ring/gemmscope check --kernels "$cfgs" \
    --shapes 2176x2056x136,1800x2600x264,512x1024x512 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log") $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done
for b in ringar ring old; do bench $b 2; done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
