# The ping-pong instances after the reconvergence fix: k10 differential tests
# (every instance), sanitizers on ping-pong with split-K and stream-K, the three
# ping-pong instances tuned into a copy of the version-4 cache
# (tune --configs INSTANCE...), and one bench of the 48 shapes through it.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
t0=$(date +%s); el() { echo "$1 rc=$2 $(( $(date +%s)-t0 ))s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $L/env.log 2>&1
timeout 170 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*wg2pp*:GemmDiff.K10*:GemmDiff.TuningCacheDispatch:GemmDiff.AutoAnyShape' > $L/diff.log 2>&1; el diff $?; tail -3 $L/diff.log; grep -E "^\[  FAILED" $L/diff.log | head
KS=k10:128x128x64.s6.wg2pp.c2x1.static.g2.sk3,k10:128x128x64.s6.wg2pp.c1x2.static.g8.streamk,k10:128x128x64.s6.wg2pp.c1x1.static.g0.sk8
for tool in synccheck memcheck racecheck; do
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 5 $C/gemmscope check --kernels $KS --shapes 300x136x200,129x264x72,2000x1600x520 > $L/sanitize-$tool.log 2>&1; el sanitize-$tool $?
done
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $L/sanitize-*.log
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 230 $C/gemmscope tune --quiet --configs 128x128x64.s6.wg2pp.c2x1.static,128x128x64.s6.wg2pp.c1x2.static,128x128x64.s6.wg2pp.c1x1.static --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json > $L/tune.log 2>&1; el tune $?; tail -3 $L/tune.log
timeout 90 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json > $L/bench-llm.log 2>&1; el bench $?; tail -3 $L/bench-llm.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $L/env-after.log 2>&1
