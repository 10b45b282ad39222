# The B stream alone (no wgmma, no A loads), experiment binary with decode-stream2.patch:
# GEMMSCOPE_EXP 5 = B only, 37 = B only and each CTA's stages released by its own
# consumer alone (no wait for the cluster peer), 65 = two adjacent k-blocks of B per
# stage (256 contiguous bytes per row per stage, half as many stages), 97 = both;
# 1 = A and B for reference. 128x5376x{4096,8192}, cuBLAS interleaved.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c1x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for x in 1 5 37 65 97; do
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-decode-k2.csv --warmup 3 --repeats 20 --csv $L/stream-$x.csv --quiet > $L/stream-$x.log 2>&1; el stream-$x $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for x in 1 5 37 65 97; do echo "== exp $x"; grep -E "^(k10|cublas)" $L/stream-$x.log | awk '{print $1, $2, $3, $NF}'; done
