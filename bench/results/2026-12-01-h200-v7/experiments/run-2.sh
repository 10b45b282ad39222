# Call 2. main's kernels, version 6 (.carry/COMMIT; the kernel sources are 52f4aa1's).
# 1. The heuristic alone (no cache) on the 12 held-out Qwen2.5-7B shapes.
# 2. Decode: whole tiles, split-K and stream-K side by side at three M = 128 shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-v7/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 120 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/qwen25_7b_heldout.csv --warmup 3 --repeats 20 --csv $OUT/heldout.csv --quiet > $L/heldout.log 2>&1; el heldout $?
tail -2 $L/heldout.log >> $L/steps.log
S=cublas,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:64x96x128.s5.wg1.c2x1.static.g0.sk2,k10:64x64x128.s6.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.streamk,k10:64x128x64.s8.wg1.c2x1.static.g0.streamk
timeout 90 $C/gemmscope bench --kernels $S --shapes 128x5376x4096,128x6144x4096,128x4096x4096 --warmup 3 --repeats 20 --csv $OUT/decode-sk.csv --quiet > $L/decode-sk.log 2>&1; el decode-sk $?
grep -A8 "^summary" $L/decode-sk.log >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
