# Call 2. Call 1 found an explicit evict_normal policy on A 20-25% slower at M = 128 than
# A evict_last, and no same-call baseline. This binary adds L2Priority::None (the plain
# TMA load, as main); GEMMSCOPE_L2_EXP = none | ab | b | a | ab2 (host/tunable.cpp).
# 1. gemmscope check of the hinted configurations (mode ab2) on ragged shapes.
# 2. The 48 shapes: main's binary (1793484, .carry/new) against this one in mode ab2,
#    alternated twice (the v7 cache).
# 3. The 24 M = 128 and 512 shapes, this binary in modes none / ab / b / a, alternated twice.
# 4. ncu of k10 (ab) and cuBLAS at 128x5376x4096.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
E=bench/results/2026-12-01-h200-l2-hints/experiments
CACHE=bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $(cat $C/COMMIT) base $(cat $C/new/COMMIT); date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g0.sk2
GEMMSCOPE_L2_EXP=ab2 GEMMSCOPE_COMMIT=$(cat $C/COMMIT) timeout 60 $C/gemmscope check --kernels $K,auto --shapes 128x5376x328,100x264x4096,512x4096x4096,300x1000x2000 > $L/check.log 2>&1; el check $?
echo "check pass=$(grep -c PASS $L/check.log) fail=$(grep -c FAIL $L/check.log)" >> $L/steps.log
for rep in 1 2; do
  GEMMSCOPE_COMMIT=$(cat $C/new/COMMIT) timeout 90 $C/new/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/all-base-$rep.csv --quiet > $L/all-base-$rep.log 2>&1; el all-base-$rep $?
  grep -A1 "^summary" $L/all-base-$rep.log | tail -1 | sed "s/^/base-$rep /" >> $L/steps.log
  GEMMSCOPE_L2_EXP=ab2 GEMMSCOPE_COMMIT=$(cat $C/COMMIT) timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/all-ab2-$rep.csv --quiet > $L/all-ab2-$rep.log 2>&1; el all-ab2-$rep $?
  grep -A1 "^summary" $L/all-ab2-$rep.log | tail -1 | sed "s/^/ab2-$rep /" >> $L/steps.log
done
for rep in 1 2; do for mode in none ab b a; do
  GEMMSCOPE_L2_EXP=$mode GEMMSCOPE_COMMIT=$(cat $C/COMMIT) timeout 50 $C/gemmscope bench --kernels auto,cublas --shapes $E/shapes-m128-512.csv --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/sub-$mode-$rep.csv --quiet > $L/sub-$mode-$rep.log 2>&1; el sub-$mode-$rep $?
  grep -A1 "^summary" $L/sub-$mode-$rep.log | tail -1 | sed "s/^/$mode-$rep /" >> $L/steps.log
done; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
NM="--section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_elapsed.max"
for who in "k10_tunable:ab" "k10_tunable:none" "nvjet|xmma|gemm:cublas"; do
  regex=${who%%:*} mode=${who#*:}; kern=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1; [ $mode = cublas ] && kern=cublas
  GEMMSCOPE_L2_EXP=$mode timeout 60 $NCU --clock-control none --cache-control none $NM --kernel-name regex:"$regex" --launch-skip 8 --launch-count 1 \
    $C/gemmscope bench --kernels $kern --shapes 128x5376x4096 --warmup 2 --repeats 2 --quiet > $L/ncu-$mode.txt 2>&1; el ncu-$mode $?
done
{ nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv; } >> $L/env.log 2>&1
python3 $E/summarize.py $L all sub > $L/summary.txt 2>&1; cat $L/summary.txt >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $L/summary.txt $OUT/
cat $L/summary.txt
