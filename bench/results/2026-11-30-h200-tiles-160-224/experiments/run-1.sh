# The 128x160 and 128x224 instances (9a4b4b5): differential tests and sanitizers;
# `tune --configs` of both into the cache of split-n/tile-64x96/final (carried as
# .carry/tune-cache.json) on six M = 512/2048 shapes, which also runs the mended
# tune loop (81a72dd) on the H200; a K sweep of the decode tile against cuBLAS at
# 128x5376xK (where the gap is fixed cost and where it is rate); the L2 promotion of
# the tensor maps (experiment binary, l2-promotion-env.patch) on six shapes; one
# bench of the 48 shapes through the new cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 60 $C/gemm_diff_test --gtest_filter='*128x160*:*128x224*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:128x160x64.s5.wg2.c2x1.static.g0.sk1,k10:128x224x64.s4.wg2.c2x1.static.g8.streamk,k10:128x160x64.s5.wg2.c2x1.static.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 150 $C/gemmscope tune --configs 128x160x64.s5.wg2.c2x1.static,128x224x64.s4.wg2.c2x1.static --shapes $E/shapes-wide.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 40 $C/gemmscope bench --kernels k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas --shapes $E/shapes-decode-k.csv --warmup 3 --repeats 20 --csv $OUT/decode-k.csv --quiet > $L/decode-k.log 2>&1; el decode-k $?
for p in none 64 128 256; do
  GEMMSCOPE_EXP_PROMO=$p timeout 40 $C/exp/gemmscope-promo bench --kernels auto,cublas --shapes $E/shapes-decode.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $L/promo-$p.csv --quiet > $L/promo-$p.log 2>&1; el promo-$p $?
done
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log; cat $L/decode-k.log | tail -25
