# Split rings (31b5dfa): the three new instances' differential tests and sanitizers;
# the decode shapes with one ring and split rings side by side (cuBLAS interleaved);
# `tune --configs` of the three on the 12 shapes at M = 128 into the tiles-160-224
# run 3 cache (carried as .carry/tune-cache.json); one bench of the 48 shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-split-rings/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 60 $C/gemm_diff_test --gtest_filter='*a6_*:*a4_*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:64x96x64.s14a6.wg1.c2x1.static.g0.sk1,k10:64x96x64.s15a4.wg1.c2x1.static.g8.streamk,k10:64x128x64.s11a4.wg1.c2x1.static.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s14a6.wg1.c2x1.static.g0.sk1,k10:64x96x64.s15a4.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s11a4.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,k10:64x128x64.s11a4.wg1.c2x1.static.g0.sk2,cublas
timeout 60 $C/gemmscope bench --kernels $K --shapes $E/shapes-decode.csv --warmup 3 --repeats 20 --csv $OUT/decode.csv --quiet > $L/decode.log 2>&1; el decode $?
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 200 $C/gemmscope tune --configs 64x96x64.s14a6.wg1.c2x1.static,64x96x64.s15a4.wg1.c2x1.static,64x128x64.s11a4.wg1.c2x1.static --shapes $E/shapes-m128.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log; grep -E "^(k10|cublas)" $L/decode.log | awk '{print $1, $2, $3, $(NF-1)}'
