# Call 4. main's binaries with the 64-row tiles' batched epilogue (.carry/COMMIT; a
# buffer per store box, one fence and one barrier per tile) against call 3's
# binaries (.carry/old: 01d7fe0).
# 1. Every differential and validation test; memcheck, racecheck and synccheck on the
#    batched instances, on shapes with many units per CTA (buffer reuse) and with
#    split-K and stream-K.
# 2. Side by side on the 12 M = 128 shapes: `auto` through run 2's cache, old and new
#    binaries alternated twice.
# 3. `tune --configs` of the batched instances the M = 128 entries use, on the 12
#    M = 128 shapes, into run 2's cache; two benches of the 48 shapes through it.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tile-168-timeline/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT old $(cat $C/old/COMMIT); date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 120 $C/gemm_validation_test > $L/validation.log 2>&1; el validation $?; tail -1 $L/validation.log >> $L/steps.log
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g8.streamk,k10:64x96x64.s10.wg1.c2x1.static.g0.sk2,k10:64x192x64.s6.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c1x1.static.g8.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk3
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,1000x5376x333,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
cp $C/tune-cache.json $OUT/tune-cache.json
for rep in a b; do
  GEMMSCOPE_COMMIT=$(cat $C/old/COMMIT) timeout 60 $C/old/gemmscope bench --kernels auto,cublas --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/m128-old-$rep.csv --quiet > $L/m128-old-$rep.log 2>&1; el m128-old-$rep $?
  timeout 60 $C/gemmscope bench --kernels auto,cublas --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/m128-new-$rep.csv --quiet > $L/m128-new-$rep.log 2>&1; el m128-new-$rep $?
  grep -A3 "^summary" $L/m128-old-$rep.log | grep auto >> $L/steps.log; grep -A3 "^summary" $L/m128-new-$rep.log | grep auto >> $L/steps.log
done
timeout 240 $C/gemmscope tune --configs 64x96x128.s5.wg1.c2x1.static,64x64x128.s6.wg1.c2x1.static,64x128x128.s4.wg1.c2x1.static,64x128x64.s8.wg1.c2x1.static,64x192x64.s6.wg1.c2x1.static --shapes $E/shapes-m128.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
grep -c replaces $L/tune.log >> $L/steps.log
for rep in "" "-2"; do
  timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm$rep.csv --json $OUT/bench-llm$rep.json --quiet > $L/bench-llm$rep.log 2>&1; el bench$rep $?
  tail -2 $L/bench-llm$rep.log >> $L/steps.log
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
