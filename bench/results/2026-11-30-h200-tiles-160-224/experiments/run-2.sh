# The 128x176 instance (f7daec6, 16-column store boxes): differential tests and
# sanitizers; `tune --configs` of it into run 1's cache (carried as
# .carry/tune-cache.json) on the six N = 5376 shapes at M >= 512. Then an experiment
# binary (decode-exp.patch: three instances only, and GEMMSCOPE_EXP read by the
# launcher) at 128x5376xK: 0 as main, 1 no wgmma (the ring and TMA alone), 2 every
# stage released as soon as its own wgmmas finish (wait_group 0), 3 both. Last, one
# bench of the 48 shapes through the new cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 60 $C/gemm_diff_test --gtest_filter='*128x176*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x176x64.s5.wg2.c2x1.static.g8.streamk,k10:128x176x64.s5.wg2.c2x1.static.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 150 $C/gemmscope tune --configs 128x176x64.s5.wg2.c2x1.static --shapes $E/shapes-5376.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
for x in 0 1 2 3; do
  GEMMSCOPE_EXP=$x timeout 40 $C/exp/gemmscope-exp bench --kernels k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas --shapes $E/shapes-decode-k3.csv --warmup 3 --repeats 20 --csv $L/exp-$x.csv --quiet > $L/exp-$x.log 2>&1; el exp-$x $?
done
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log; for x in 0 1 2 3; do echo "== exp $x"; grep -E "^(k10|cublas)" $L/exp-$x.log | awk '{print $1, $2, $3, $NF}'; done
