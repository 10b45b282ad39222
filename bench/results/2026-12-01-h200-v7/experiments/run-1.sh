# Call 1. Kernel version 7 (.carry/COMMIT): the cooperative loop's early barrier test
# before the wgmma wait; batched twins 128x256 s3, 128x224 s3, 128x168 s4. Against
# .carry/old (main's 52f4aa1, version 6).
# 1. Every differential and validation test; memcheck, racecheck and synccheck on the
#    new instances and the changed cooperative loop.
# 2. The 48 shapes, old and new binaries alternated twice, dispatching the same
#    configurations: the version-6 cache for the old binary, the same file with its
#    version field set to 7 for the new (tune-cache-ab.json; an A/B device only).
# 3. Side by side: each new instance against its twin, cuBLAS in the same rounds.
# 4. The full version-7 re-tune of the 48 shapes, in the time left (resumed in call 2).
set -u
T0=$(date +%s)
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-v7/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT old $(cat $C/old/COMMIT); date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 120 $C/gemm_validation_test > $L/validation.log 2>&1; el validation $?; tail -1 $L/validation.log >> $L/steps.log
K=k10:128x256x64.s3.wg2.c2x1.static.g8.sk2,k10:128x224x64.s3.wg2.c2x1.static.g0.streamk,k10:128x168x64.s4.wg2.c2x1.static.g8.sk1,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,1000x5376x333,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
for rep in a b; do
  GEMMSCOPE_COMMIT=$(cat $C/old/COMMIT) timeout 90 $C/old/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/llm-old-$rep.csv --quiet > $L/llm-old-$rep.log 2>&1; el llm-old-$rep $?
  timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache-ab.json --csv $OUT/llm-new-$rep.csv --quiet > $L/llm-new-$rep.log 2>&1; el llm-new-$rep $?
  grep -A3 "^summary" $L/llm-old-$rep.log | grep auto >> $L/steps.log; grep -A3 "^summary" $L/llm-new-$rep.log | grep auto >> $L/steps.log
done
S=cublas,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x256x64.s3.wg2.c2x1.static.g0.sk1,k10:128x224x64.s4.wg2.c2x1.static.g0.sk1,k10:128x224x64.s3.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g0.sk1,k10:128x168x64.s4.wg2.c2x1.static.g0.sk1
timeout 90 $C/gemmscope bench --kernels $S --shapes $E/shapes-side.csv --warmup 3 --repeats 20 --csv $OUT/side.csv --quiet > $L/side.log 2>&1; el side $?
grep -A8 "^summary" $L/side.log >> $L/steps.log
LEFT=$(( T0 + 565 - $(date +%s) ))
if [ $LEFT -gt 30 ]; then
  timeout $LEFT $C/gemmscope tune --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json --skip-tuned --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
  grep -c "kernel_version" $OUT/tune-cache.json >> $L/steps.log
fi
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
