# Call 1. main plus the working tree (.carry/COMMIT): the batched epilogue for
# cooperative 128-row tiles whose boxes fit (128x128, 128x192, 128x160), the static
# schedule walked one unit ahead (the first unit before the cluster barrier), against
# the last session's binaries (.carry/old: 408372f, PTX-identical to main's kernels).
# 1. Every differential and validation test; memcheck, racecheck and synccheck on the
#    changed instances (batched, ping-pong, dynamic, split-K, stream-K, 64-row).
# 2. The 48 shapes through the version-5 cache, old and new binaries alternated twice.
# 3. Side by side: the changed instances named, old and new.
# 4. `tune --configs` of the changed cooperative instances on the 48 shapes into a copy
#    of the cache; one bench through it.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-batched-coop/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT old $(cat $C/old/COMMIT); date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 120 $C/gemm_validation_test > $L/validation.log 2>&1; el validation $?; tail -1 $L/validation.log >> $L/steps.log
K=k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c2x1.static.g8.sk2,k10:128x160x64.s5.wg2.c2x1.static.g8.streamk,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g0.streamk
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,1000x5376x333,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
for rep in a b; do
  GEMMSCOPE_COMMIT=$(cat $C/old/COMMIT) timeout 90 $C/old/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $L/llm-old-$rep.csv --quiet > $L/llm-old-$rep.log 2>&1; el llm-old-$rep $?
  timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/llm-new-$rep.csv --quiet > $L/llm-new-$rep.log 2>&1; el llm-new-$rep $?
  grep -A3 "^summary" $L/llm-old-$rep.log | grep auto >> $L/steps.log; grep -A3 "^summary" $L/llm-new-$rep.log | grep auto >> $L/steps.log
done
cp $L/llm-old-a.csv $OUT/
S=auto,cublas,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c2x1.static.g0.sk1,k10:128x160x64.s5.wg2.c2x1.static.g0.sk1
GEMMSCOPE_COMMIT=$(cat $C/old/COMMIT) timeout 60 $C/old/gemmscope bench --kernels $S --shapes $E/shapes-side.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $L/side-old.csv --quiet > $L/side-old.log 2>&1; el side-old $?
timeout 60 $C/gemmscope bench --kernels $S --shapes $E/shapes-side.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $L/side-new.csv --quiet > $L/side-new.log 2>&1; el side-new $?
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 200 $C/gemmscope tune --configs 128x128x64.s6.wg2.c2x1.static,128x192x64.s4.wg2.c2x1.static,128x160x64.s5.wg2.c2x1.static --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
grep -c replaces $L/tune.log >> $L/steps.log
timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
