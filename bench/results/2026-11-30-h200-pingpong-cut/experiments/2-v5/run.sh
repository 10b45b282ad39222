# Kernel version 5 on the H200, first call: the differential tests (all 24 instances,
# ping-pong cut tiles included), compute-sanitizer on the cut-tile paths, a decode
# check of the new 2x2 / 2x4 clusters, then the tune of the M = 128 and 512 shapes
# into a fresh version-5 cache. Run from the repository root with tools/gpu-pack's .carry.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK | head -40; echo commit $GEMMSCOPE_COMMIT; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -3 $L/diff.log >> $L/steps.log
S=300x136x200,1100x1600x1024,100x264x4096,2000x1600x520
for k in 128x128x64.s6.wg2pp.c2x1.static.g2.sk3 128x128x64.s6.wg2pp.c1x2.static.g2.streamk 128x128x64.s6.wg2pp.c1x1.static.g0.sk8 \
         128x128x64.s6.wg2.c2x1.static.g2.sk3 64x128x64.s8.wg1.c2x4.static.g0.sk3 64x128x64.s8.wg1.c2x2.static.g2.streamk; do
  for tool in synccheck memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:$k --shapes $S > /tmp/san.log 2>&1
    echo "$tool k10:$k rc=$? pass=$(grep -c PASS /tmp/san.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tr '\n' ' ')" >> $L/sanitize.log
    grep -E "^========= [A-Z]|by thread" /tmp/san.log | head -4 >> $L/sanitize.log
  done
done
el sanitize 0
K=k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x2.static.g0.sk1,k10:64x128x64.s8.wg1.c2x4.static.g0.sk1,k10:64x128x64.s8.wg1.c2x4.static.g0.streamk,k10:64x128x64.s8.wg1.c2x2.static.g0.sk2,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes 128x5376x4096,128x6144x4096,128x4096x4096,128x8192x5376,512x5376x4096 --warmup 3 --repeats 20 --csv $OUT/decode.csv --quiet > $L/decode.log 2>&1; el decode $?
timeout 330 $C/gemmscope tune --shapes $E/shapes-m128-512.csv --cache $OUT/tune-cache.json --hang-seconds 30 --quiet > $L/tune-1.log 2>&1; el tune-1 $?
tail -3 $L/tune-1.log >> $L/steps.log
