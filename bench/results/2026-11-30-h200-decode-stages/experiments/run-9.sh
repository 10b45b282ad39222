# More staging buffers for the narrow-box instances (.carry/COMMIT): their differential
# tests, the split-K/stream-K tests of every instance, sanitizers; one bench of the 48
# shapes through run 3's cache (the measure); `tune --configs` of the five changed
# instances on the shapes with M <= 2048 into that cache; a bench through the new cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 150 $C/gemm_diff_test --gtest_filter='*64x96*:*128x160*:*128x176*:*128x224*:GemmDiff.K10SplitK*:GemmDiff.AutoAnyShape' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x176x64.s5.wg2.c2x1.static.g8.streamk,k10:128x224x64.s4.wg2.c2x1.static.g0.sk2,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g0.streamk --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 230 $C/gemmscope tune --configs 64x96x64.s10.wg1.c2x1.static,64x96x128.s5.wg1.c2x1.static,128x160x64.s5.wg2.c2x1.static,128x176x64.s5.wg2.c2x1.static,128x224x64.s4.wg2.c2x1.static --shapes $E/shapes-m-le-2048.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $L/bench-llm-tuned.csv --quiet > $L/bench-llm-tuned.log 2>&1; el bench-tuned $?
tail -2 $L/bench-llm-tuned.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -E "replaces" $L/tune.log
