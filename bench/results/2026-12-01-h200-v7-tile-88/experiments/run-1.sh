# Call 1. Kernel version 7 (81366d4): the cut-tile count-in with one acq_rel atomic per
# warpgroup, and the 64x88x128 instance.
# 1. K10 differential tests; memcheck, racecheck and synccheck on 64x88 (whole tiles,
#    split-K 2, stream-K) and on cut configurations of other tiles.
# 2. Decode, M = 128 (12 shapes): 64x88x128 against 64x96x128 whole tiles and cuBLAS, twice.
# 3. The full re-tune starts (resumed by call 2): tools/gpu-batch tune, no cache carried.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64 GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-v7-tile-88/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 200 $C/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; DIFF=$?; el diff $DIFF; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
K=k10:64x88x128.s5.wg1.c2x1.static.g0.sk1,k10:64x88x128.s5.wg1.c2x1.static.g0.sk2,k10:64x88x128.s5.wg1.c2x1.static.g0.streamk,k10:128x192x64.s4.wg2.c2x1.static.g8.sk3,k10:128x128x64.s6.wg2pp.c2x1.static.g8.sk2
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,130x5376x328,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
D=cublas,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x88x128.s5.wg1.c2x1.static.g0.sk1
for rep in a b; do
  timeout 90 $C/gemmscope bench --kernels $D --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --csv $L/decode-$rep.csv --quiet > $L/decode-$rep.log 2>&1; el decode-$rep $?
  grep -A4 "^summary" $L/decode-$rep.log | sed "s/^/$rep /" >> $L/steps.log
done
if [ $DIFF = 0 ]; then
  TUNE_LIMIT=$(( 570 - ($(date +%s) - T0) )) tools/gpu-batch tune; el tune 0
  cat $OUT/summary.txt >> $L/steps.log
fi
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
