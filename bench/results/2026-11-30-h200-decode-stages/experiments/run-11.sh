# The 128x168 instances (8-column store boxes, stmatrix.x2; .carry/COMMIT): their
# differential tests and every instance's split-K/stream-K tests, sanitizers, a side-by-
# side run against 128x176, `tune --configs` of both on the M = 512 shapes and the
# N = 5376 ones at M = 2048 into run 3's cache, then one bench of the 48 shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 120 $C/gemm_diff_test --gtest_filter='*128x168*:GemmDiff.K10SplitK*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:128x168x64.s5.wg2.c1x1.static.g0.sk1,k10:128x168x64.s5.wg2.c1x2.static.g8.streamk,k10:128x168x64.s5.wg2.c1x1.static.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c1x1.static.g0.sk1,k10:128x168x64.s5.wg2.c1x2.static.g0.sk1,cublas
timeout 40 $C/gemmscope bench --kernels $K --shapes $E/shapes-168-side.csv --warmup 3 --repeats 20 --csv $OUT/side-168.csv --quiet > $L/side-168.log 2>&1; el side $?
grep -E "^(k10|cublas)" $L/side-168.log | awk '{print $1, $2, $3, $(NF-1)}' >> $L/steps.log
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 150 $C/gemmscope tune --configs 128x168x64.s5.wg2.c1x1.static,128x168x64.s5.wg2.c1x2.static --shapes $E/shapes-168.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
grep replaces $L/tune.log >> $L/steps.log
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
