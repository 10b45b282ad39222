# Call 3. Call 2's binary chose the hinted or the plain TMA load per box at run time and
# ran ~2 us slower at decode in every mode (128x5376x4096: 20.1 us against main's 18.1):
# the branch in the producer's loop. This binary issues every load with .L2::cache_hint,
# as call 1's did; the "no hint" policy is u (createpolicy evict_unchanged) or c
# (CUTLASS's EVICT_NORMAL word). GEMMSCOPE_L2_EXP = u | c | ub | cb | ab.
# 1. gemmscope check of the hinted configurations (mode ub).
# 2. The 12 M = 128 shapes: main's binary (1793484) and modes u, c, ub, cb, ab, alternated twice.
# 3. The 48 shapes: main's binary against mode u, alternated twice.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
E=bench/results/2026-12-01-h200-l2-hints/experiments
CACHE=bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $(cat $C/COMMIT) base $(cat $C/new/COMMIT); date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1
GEMMSCOPE_L2_EXP=ub GEMMSCOPE_COMMIT=$(cat $C/COMMIT) timeout 60 $C/gemmscope check --kernels $K,auto --shapes 128x5376x328,100x264x4096,512x4096x4096 > $L/check.log 2>&1; el check $?
echo "check pass=$(grep -c PASS $L/check.log) fail=$(grep -c FAIL $L/check.log)" >> $L/steps.log
run() {  # name binary-dir mode shapes
  GEMMSCOPE_L2_EXP=$3 GEMMSCOPE_COMMIT=$(cat $2/COMMIT) timeout 90 $2/gemmscope bench --kernels auto,cublas --shapes $4 --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/$1.csv --quiet > $L/$1.log 2>&1; el $1 $?
  grep -A1 "^summary" $L/$1.log | tail -1 | sed "s/^/$1 /" >> $L/steps.log
}
for rep in 1 2; do
  run m128-base-$rep $C/new u $E/shapes-m128.csv
  for mode in u c ub cb ab; do run m128-$mode-$rep $C $mode $E/shapes-m128.csv; done
done
for rep in 1 2; do
  run all-base-$rep $C/new u bench/shapes/llm_projections.csv
  run all-u-$rep $C u bench/shapes/llm_projections.csv
done
{ nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv; } >> $L/env.log 2>&1
python3 $E/summarize.py $L m128 all > $L/summary.txt 2>&1; cat $L/summary.txt >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $L/summary.txt $OUT/
cat $L/summary.txt
