#!/usr/bin/env bash
# Call 2: the deferred epilogue narrowed to the alternating-buffer tiles (128 x 168, 176,
# 224, 256), and only where a next unit follows (dd751d6, .carry/defer2/), against main
# (.carry/old/, 6b5b42f).
#   1. the 48 shapes through the kept cache, old / defer2, twice, alternated;
#   2. k10's differential tests, K10ManyUnitsPerCta (new: more tiles than CTAs) included;
#   3. memcheck, racecheck, synccheck on the deferred instances at shapes where each CTA
#      runs two or more units (K = 136: units of fewer k-blocks than boxes).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
L=$OUT/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cat "$L/gpu.txt" >>"$OUT/summary.txt"
for r in 1 2; do
  for b in old defer2; do
    GEMMSCOPE_COMMIT=$(cat .carry/$b/COMMIT) timeout 120 .carry/$b/gemmscope bench --kernels auto,cublas --tune-cache .carry/tune-cache.json \
      --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$b-$r.csv" >"$L/llm-$b-$r.log" 2>&1
    echo "llm $b $r rc=$? $(tail -n 1 "$L/llm-$b-$r.log")" >>"$OUT/summary.txt"
  done
done
t0=$(date +%s)
GEMMSCOPE_COMMIT=$(cat .carry/defer2/COMMIT) timeout 200 .carry/defer2/gemm_diff_test --gtest_filter='*K10*' >"$L/diff.log" 2>&1
echo "diff defer2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
grep -E "^\[ +(OK|FAILED) +\] GemmDiff.K10(ManyUnits|SplitK)" "$L/diff.log" >>"$OUT/summary.txt"
cfgs=k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.sk1,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1
cfgs=$cfgs,k10:128x224x64.s4.wg2.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.streamk
for tool in memcheck racecheck synccheck; do
  t0=$(date +%s)
  GEMMSCOPE_COMMIT=$(cat .carry/defer2/COMMIT) timeout 110 compute-sanitizer --tool $tool --error-exitcode 9 .carry/defer2/gemmscope check --kernels "$cfgs" \
    --shapes 2176x2056x136,1800x2600x264 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log") $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
