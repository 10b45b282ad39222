# Call 1. L2 eviction priorities on k10's TMA loads (experiment binary: GEMMSCOPE_L2_EXP
# = off | b | ab | a; default b), and the tune's refine round in bench's batches of 4.
# Hypothesis: at decode (one cluster row of tiles) B is streamed once, 44 MB through a
# 50 MB L2; loading it evict_first keeps A (re-read by every cluster) and the kernel's
# code in L2, so the epilogue's and the last k-blocks' fetches hit L2. Predicted: 0.1-0.4 us
# off the ~1 us fixed gap at 128x5376x4096 (18.3 -> 18.0 us), nothing at M >= 512.
# 1. K10 differential tests (default mode b); memcheck and synccheck on the hint path.
# 2. The 12 M = 128 shapes, auto through the v7 cache, modes off / b / ab / a, alternated twice.
# 3. 128x5376xK, K = 64, 512, 4096: two decode configurations and cuBLAS, off against b.
# 4. ncu (durations, SM active cycles, warp stalls) of k10 off, k10 b and cuBLAS at 128x5376x4096.
# 5. A small tune of the two decode shapes (refine round in batches of 4) into a copy of the cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64 GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-l2-hints/experiments
CACHE=bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 170 $C/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; DIFF=$?; el diff $DIFF; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 128x5376x328,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
for rep in 1 2; do for mode in off b ab a; do
  GEMMSCOPE_L2_EXP=$mode timeout 40 $C/gemmscope bench --kernels auto,cublas --shapes $E/shapes-m128.csv --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/m128-$mode-$rep.csv --quiet > $L/m128-$mode-$rep.log 2>&1; el m128-$mode-$rep $?
  grep -A1 "^summary" $L/m128-$mode-$rep.log | tail -1 | sed "s/^/$mode-$rep /" >> $L/steps.log
done; done
D=cublas,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1
for rep in 1 2; do for mode in off b; do
  GEMMSCOPE_L2_EXP=$mode timeout 40 $C/gemmscope bench --kernels $D --shapes 128x5376x64,128x5376x512,128x5376x4096 --warmup 3 --repeats 20 --csv $L/ksweep-$mode-$rep.csv --quiet > $L/ksweep-$mode-$rep.log 2>&1; el ksweep-$mode-$rep $?
done; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
NM="--section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max"
for who in "k10_tunable:off" "k10_tunable:b" "nvjet|xmma|gemm:cublas"; do
  regex=${who%%:*} mode=${who#*:}; kern=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1; [ $mode = cublas ] && kern=cublas
  GEMMSCOPE_L2_EXP=$mode timeout 90 $NCU --clock-control none $NM --kernel-name regex:"$regex" --launch-skip 2 --launch-count 1 \
    $C/gemmscope bench --kernels $kern --shapes 128x5376x4096 --warmup 0 --repeats 1 --quiet > $L/ncu-$mode.txt 2>&1; el ncu-$mode $?
done
cp $CACHE $L/tune-cache.json
timeout 100 $C/gemmscope tune --shapes 128x5376x4096,128x6144x4096 --configs 64x96x64.s10.wg1.c2x1.static,64x96x128.s5.wg1.c2x1.static --cache $L/tune-cache.json --quiet > $L/tune.log 2>&1; el tune $?
tail -8 $L/tune.log >> $L/steps.log
{ nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv; } >> $L/env.log 2>&1
python3 $E/summarize.py $L > $L/summary.txt 2>&1; cat $L/summary.txt >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $L/summary.txt $OUT/
cat $L/steps.log
