# Call 2.
# A. main's binaries (.carry: the tile168 branch, 128x168 in 2x1 clusters among the
#    30 instances): its differential tests and the split-K ones; `tune --configs` of
#    128x168 on the 48 shapes into the decode-stages run-3 cache; one bench of the 48.
# B. Experiment binary (.carry/exp: tile168 plus experiments/timeline-2.patch):
#    GEMMSCOPE_EXP bit 0 prefetch.tensormap, bit 1 split first cluster barrier (the
#    producer sets up between arrive and wait), bit 2 split last cluster barrier
#    (arrive after the last remote operation, wait before exit). Checks and two
#    sanitizers with all bits on; benches alternated over the modes; timelines.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
X=$C/exp/gemmscope-exp
E=bench/results/2026-11-30-h200-tile-168-timeline/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT exp $(cat $C/exp/COMMIT); date -u; } > $L/env.log 2>&1
timeout 150 $C/gemm_diff_test --gtest_filter='*128x168*:GemmDiff.K10SplitK*:GemmDiff.K10StreamK*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 200 $C/gemmscope tune --configs 128x168x64.s5.wg2.c2x1.static --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
grep replaces $L/tune.log >> $L/steps.log
timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
export GEMMSCOPE_COMMIT="$(cat $C/exp/COMMIT)"
K=k10:64x96x128.s5.wg1.c2x1.static,k10:128x168x64.s5.wg2.c2x1.static,k10:64x128x64.s8.wg1.c2x1.static
GEMMSCOPE_EXP=7 timeout 60 $X check --kernels $K.g0.sk1,$K.g0.sk2,$K.g8.streamk --shapes 300x136x200,256x672x1024,100x264x4096,128x5376x4096,77x5376x333 > $L/exp-check.log 2>&1; el exp-check $?
echo "exp check: $(grep -c PASS $L/exp-check.log) pass, $(grep -c FAIL $L/exp-check.log) fail" >> $L/steps.log
for tool in racecheck synccheck; do
  GEMMSCOPE_EXP=7 timeout 60 compute-sanitizer --tool $tool --print-limit 2 $X check --kernels k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.streamk --shapes 300x136x200,100x264x4096 > $L/exp-san-$tool.log 2>&1
  echo "exp $tool rc=$? pass=$(grep -c PASS $L/exp-san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/exp-san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
KB=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g0.sk1,cublas
for rep in a b; do for x in 0 1 2 4 6 7; do
  GEMMSCOPE_EXP=$x timeout 40 $X bench --kernels $KB --shapes $E/shapes-fixed.csv --warmup 3 --repeats 30 --csv $L/exp-$x-$rep.csv --quiet > $L/exp-$x-$rep.log 2>&1; el exp-$x-$rep $?
done; done
for x in 0 6; do
  GEMMSCOPE_EXP=$x GEMMSCOPE_TIMELINE=$L/tl-d4096-x$x.csv timeout 30 $X bench --kernels k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,cublas --shapes 128x5376x4096 --warmup 2 --repeats 12 --csv $L/tl-d4096-x$x-bench.csv --quiet > $L/tl-d4096-x$x.log 2>&1; el tl-d-$x $?
  GEMMSCOPE_EXP=$x GEMMSCOPE_TIMELINE=$L/tl-m168-x$x.csv timeout 30 $X bench --kernels k10:128x168x64.s5.wg2.c2x1.static.g0.sk1,cublas --shapes 512x5376x4096 --warmup 2 --repeats 12 --csv $L/tl-m168-x$x-bench.csv --quiet > $L/tl-m168-x$x.log 2>&1; el tl-m-$x $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
for x in 0 1 2 4 6 7; do for rep in a b; do echo "exp $x $rep: $(grep -v '^kernel' $L/exp-$x-$rep.csv | cut -d, -f1-5,10 | tr '\n' ' ' | sed 's/"k10:\([0-9x]*\)[^"]*"/\1/g')"; done; done
