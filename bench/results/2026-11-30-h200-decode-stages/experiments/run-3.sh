# 64x64x128 s6 added, 128x128x128 dropped (the commit in .carry/COMMIT): every
# differential test (the BK = 128 ones with split-K drawn within their k-blocks),
# sanitizers on 64x64x128, the M = 128 shapes with 64x64 / 64x96 at BK 64 and 128 side
# by side, `tune --configs 64x64x128...` on the M = 128 shapes into run 2's cache,
# then two benches of the 48 shapes through it (the first is the measure; the
# second shows the spread).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:64x64x128.s6.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g8.streamk,k10:64x64x128.s6.wg1.c2x1.static.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:64x64x64.s12.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,cublas
timeout 60 $C/gemmscope bench --kernels $K --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --csv $OUT/decode-bk.csv --quiet > $L/decode-bk.log 2>&1; el decode-bk $?
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 200 $C/gemmscope tune --configs 64x64x128.s6.wg1.c2x1.static --shapes $E/shapes-m128.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $L/bench-llm-2.csv --quiet > $L/bench-llm-2.log 2>&1; el bench-2 $?
tail -2 $L/bench-llm-2.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log | tail -16; grep -A6 "^summary" $L/decode-bk.log
