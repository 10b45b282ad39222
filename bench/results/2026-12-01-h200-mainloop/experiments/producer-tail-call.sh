#!/usr/bin/env bash
# Prepared as call 5, not run (no device was lent again this session): call 4's relaxed first barrier, plus static schedules drop the exit cluster barrier
# (its release arrive put a MEMBAR.ALL.GPU between each consumer's main loop and epilogue,
# call 4's SASS); the producer waits for its ring's last releases instead (load_tail).
# New binaries in .carry/, the landed ones (fef9c5d) in .carry/old/.
#   1. k10's differential tests; memcheck, racecheck, synccheck on 2x1, 1x2, dynamic,
#      split-K and stream-K instances;
#   2. old and new over the 48 shapes, auto against cuBLAS, twice each, alternating;
#   3. ncu of old and new at 512x4096x4096 (SM cycles; the new prologue's SASS).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=.carry/gemmscope
L=$OUT/logs; mkdir -p "$L"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
t0=$(date +%s)
GEMMSCOPE_COMMIT=$(cat .carry/COMMIT) timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$L/diff.log" 2>&1
echo "diff rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk3,k10:128x256x64.s4.wg2.c2x1.static.g0.sk2,k10:64x128x64.s8.wg1.c2x1.static.g0.streamk
cfgs=$cfgs,k10:128x128x64.s6.wg2.c2x1.dynamic.g8.sk1,k10:128x128x64.s6.wg2.c1x1.static.g8.sk5
for tool in memcheck racecheck synccheck; do
  GEMMSCOPE_COMMIT=$(cat .carry/COMMIT) timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 129x264x720,300x520x3000,520x600x1360 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log")" >>"$OUT/summary.txt"
done
for r in 1 2; do
  for b in old new; do
    bin=$G; c=.carry/COMMIT; [ $b = old ] && bin=.carry/old/gemmscope && c=.carry/old/COMMIT
    GEMMSCOPE_COMMIT=$(cat $c) timeout 140 "$bin" bench --kernels auto,cublas --tune-cache .carry/tune-cache.json \
      --shapes bench/shapes/llm_projections.csv --clocks --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$b-$r.csv" >"$L/llm-$b-$r.log" 2>&1
    echo "llm $b $r rc=$? $(tail -n 1 "$L/llm-$b-$r.log")" >>"$OUT/summary.txt"
  done
done
m=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg
for v in new:.carry/gemmscope old:.carry/old/gemmscope new:.carry/gemmscope old:.carry/old/gemmscope; do
  echo "== ${v%%:*}" >>"$L/ncu.txt"
  GEMMSCOPE_COMMIT=x timeout 60 "$ncu" --metrics "$m" --clock-control none --launch-skip 3 --launch-count 1 --kernel-name regex:'k10_tunable' \
    "${v#*:}" bench --kernels k10:128x128x64.s6.wg2.c2x1.static.g0.sk1 --shapes 512x4096x4096 --warmup 2 --repeats 1 --quiet >>"$L/ncu.txt" 2>&1
done
timeout 60 "$ncu" --section SourceCounters --import-source no --clock-control none --launch-skip 3 --launch-count 1 --kernel-name regex:'k10_tunable' \
  -o "$L/new" -f "$G" bench --kernels k10:128x128x64.s6.wg2.c2x1.static.g0.sk1 --shapes 512x4096x4096 --warmup 2 --repeats 1 --quiet >"$L/new.log" 2>&1
"$ncu" -i "$L/new.ncu-rep" --page source --csv --print-source sass >"$L/new-sass.csv" 2>&1
rm -f "$L/new.ncu-rep"
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
