# Call 3. main's binaries with the split exit barrier (.carry/COMMIT): every
# differential and validation test; memcheck, racecheck and synccheck on the cluster
# shapes and schedules whose exit path differs (static cooperative: arrive after the
# last release; ping-pong and dynamic: after the loop; A multicast in 1x2); two benches
# of the 48 shapes through run 2's cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 120 $C/gemm_validation_test > $L/validation.log 2>&1; el validation $?; tail -1 $L/validation.log >> $L/steps.log
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.streamk,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1,k10:128x128x64.s6.wg2.c1x2.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk3
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
cp $C/tune-cache.json $OUT/tune-cache.json
for rep in "" "-2"; do
  timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm$rep.csv --json $OUT/bench-llm$rep.json --quiet > $L/bench-llm$rep.log 2>&1; el bench$rep $?
  tail -2 $L/bench-llm$rep.log >> $L/steps.log
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
