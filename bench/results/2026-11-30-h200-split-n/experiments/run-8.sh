# The 64x96 c2x1 instance as it would go on main (branch wip/decode-96, the 2x4
# probe row removed; the other instances' PTX byte-identical to main's): its
# differential tests and sanitizers, then `tune --configs` of it into the cache of
# refine/whole-set (carried as .carry/tune-cache.json; each shape's entry timed in
# the same run, refine round on), on the shapes at M = 128 and 512, and one bench of
# the 48 shapes through the result.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 40 $C/gemm_diff_test --gtest_filter='*64x96*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 25 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g8.streamk --shapes 300x136x200,128x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 110 $C/gemmscope tune --configs 64x96x64.s10.wg1.c2x1.static --shapes bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5/shapes-m128-512.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 70 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log
