# First device call for the ping-pong instances: k10 differential tests (every
# instance), sanitizers on ping-pong configurations, equal-tile A/B of ping-pong
# against cooperative, then the ping-pong instances tuned into a copy of the
# version-4 cache (tune --configs INSTANCE...) and the 48 shapes benched through
# the new cache and the old one, alternated.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
t0=$(date +%s); el() { echo "$1 rc=$2 $(( $(date +%s)-t0 ))s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $L/env.log 2>&1
timeout 200 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*:GemmDiff.K10*:GemmDiff.TuningCacheDispatch:GemmDiff.AutoAnyShape' > $L/diff.log 2>&1; el diff $?; tail -3 $L/diff.log; grep -E "^\[  FAILED" $L/diff.log | head
KS=k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c1x2.static.g8.streamk,k10:128x64x64.s8.wg2pp.c2x1.static.g0.sk3,k10:128x192x64.s4.wg2pp.c2x1.static.g0.sk2,k10:128x128x64.s6.wg2pp.c1x1.static.g0.sk1
for tool in racecheck synccheck memcheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $C/gemmscope check --kernels $KS --shapes 1x1x8,129x257x72,300x136x200,256x256x512,129x264x72,700x520x1000 > $L/sanitize-$tool.log 2>&1; el sanitize-$tool $?
done
grep -h "ERROR SUMMARY" $L/sanitize-*.log
F="--kernels k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2pp.c2x1.static.g0.sk1,k10:128x64x64.s8.wg2.c2x1.static.g0.sk1,k10:128x64x64.s8.wg2pp.c2x1.static.g0.sk1,cublas --shapes 512x4096x4096,512x28672x4096,2048x8192x8192,512x5376x4096,8192x8192x8192,128x5376x4096 --warmup 3 --repeats 20"
timeout 90 $C/gemmscope bench $F --csv $OUT/fixed.csv > $L/fixed.log 2>&1; el fixed $?
cp $C/tune-cache.json $OUT/tune-cache-v4.json; cp $C/tune-cache.json $OUT/tune-cache.json
timeout 330 $C/gemmscope tune --quiet --configs 128x128x64.s6.wg2pp.c2x1.static,128x128x64.s6.wg2pp.c1x2.static,128x128x64.s6.wg2pp.c1x1.static,128x192x64.s4.wg2pp.c2x1.static,128x64x64.s8.wg2pp.c2x1.static --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json > $L/tune.log 2>&1; el tune $?; tail -5 $L/tune.log
B="--kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20"
timeout 100 $C/gemmscope bench $B --tune-cache $OUT/tune-cache.json --csv $OUT/new1.csv --json $OUT/new1.json > $L/new1.log 2>&1; el new1 $?; tail -2 $L/new1.log
timeout 100 $C/gemmscope bench $B --tune-cache $OUT/tune-cache-v4.json --csv $OUT/old1.csv > $L/old1.log 2>&1; el old1 $?; tail -2 $L/old1.log
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $L/env-after.log 2>&1
tar -C $OUT -czf $OUT/logs.tar.gz logs && rm -rf $L
