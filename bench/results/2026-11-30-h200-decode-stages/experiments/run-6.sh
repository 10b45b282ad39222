# Is what is left a rate or a fixed cost? K sweeps at the two shapes still below 0.95,
# main's binaries (.carry/COMMIT), cuBLAS interleaved: 128x5376xK with 64x96 at BK 128
# and 64, and 512x5376xK with 128x176 (and 128x256, 128x128 ping-pong), K = 512 .. 16384.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes $E/shapes-k-128.csv --warmup 3 --repeats 30 --csv $L/k-128.csv --quiet > $L/k-128.log 2>&1; el k-128 $?
K=k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1,cublas
timeout 120 $C/gemmscope bench --kernels $K --shapes $E/shapes-k-512.csv --warmup 3 --repeats 30 --csv $L/k-512.csv --quiet > $L/k-512.log 2>&1; el k-512 $?
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -E "^(k10|cublas)" $L/k-128.log $L/k-512.log | awk '{print $1, $2, $3, $(NF-1)}'
