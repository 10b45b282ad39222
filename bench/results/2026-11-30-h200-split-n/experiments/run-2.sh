# K-interleaved consumers (wg2k: two warpgroups on a 64-row tile, alternate k-blocks,
# partial sums added through shared memory) on the H200: the k10 differential tests,
# compute-sanitizer on the new configurations, a decode bench of wg2k against wg1 and
# cuBLAS, a K sweep at N = 5376 (fixed cost against cost per k-block), one ncu
# profile, then `tune --configs` of the two wg2k instances into the version-5 cache
# (carried as .carry/tune-cache.json; the cache's entry now timed in the same run)
# and a bench of the whole set. Run from the repository root with tools/gpu-pack's .carry.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK | head -40; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 150 $C/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; el diff $?; tail -3 $L/diff.log >> $L/steps.log
S=1x1x8,65x129x72,300x136x200,1100x1600x1024,100x264x4096,2000x1600x520
for k in 64x128x64.s8.wg2k.c2x1.static.g0.sk1 64x128x64.s8.wg2k.c2x1.static.g2.sk3 64x128x64.s8.wg2k.c2x1.static.g0.streamk \
         64x256x64.s4.wg2k.c2x1.static.g0.sk1 64x256x64.s4.wg2k.c2x1.static.g2.sk2; do
  for tool in synccheck memcheck racecheck; do
    timeout 50 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:$k --shapes $S > /tmp/san.log 2>&1
    echo "$tool k10:$k rc=$? pass=$(grep -c PASS /tmp/san.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tr '\n' ' ')" >> $L/sanitize.log
    grep -E "^========= [A-Z]|by thread|FAIL" /tmp/san.log | head -4 >> $L/sanitize.log
  done
done
el sanitize 0
K=k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg2k.c2x1.static.g0.sk1,k10:64x256x64.s5.wg1.c2x1.static.g0.sk1,k10:64x256x64.s4.wg2k.c2x1.static.g0.sk1,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes 128x5376x4096,128x6144x4096,128x4096x4096,128x8192x5376,128x28672x4096,512x5376x4096,512x4096x4096 --warmup 3 --repeats 20 --csv $OUT/decode.csv --quiet > $L/decode.log 2>&1; el decode $?
K=k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg2k.c2x1.static.g0.sk1,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes 128x5376x512,128x5376x1024,128x5376x2048,128x5376x4096,128x5376x8192,128x5376x16384 --warmup 3 --repeats 20 --csv $OUT/ksweep.csv --quiet > $L/ksweep.log 2>&1; el ksweep $?
timeout 90 ncu --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --kernel-name regex:k10_tunable --launch-skip 1 --launch-count 1 \
  $C/gemmscope bench --kernels k10:64x128x64.s8.wg2k.c2x1.static.g0.sk1 --shapes 128x5376x4096 --warmup 0 --repeats 1 --quiet > $L/ncu-wg2k.txt 2>&1; el ncu $?
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 220 $C/gemmscope tune --configs 64x128x64.s8.wg2k.c2x1.static,64x256x64.s4.wg2k.c2x1.static --hang-seconds 30 --quiet \
  --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json > $L/tune.log 2>&1; el tune $?; tail -3 $L/tune.log >> $L/steps.log
timeout 110 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -3 $L/bench-llm.log >> $L/steps.log
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $L/env.log
tar -C $OUT -czf $OUT/logs.tar.gz logs; rm -rf $L; mkdir -p $L;
tar -xzf $OUT/logs.tar.gz -O logs/steps.log logs/sanitize.log logs/decode.log logs/ksweep.log 2>/dev/null | grep -v "^=====" 
