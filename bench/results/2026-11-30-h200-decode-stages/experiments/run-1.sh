# Stage count against stage size in k10's decode stream (no wgmma), experiment binary:
# HEAD plus decode-stages.patch (decode-stream2.patch with instances 64x96 s10/s7/s5).
# GEMMSCOPE_EXP 1 = A and B, no wgmma; 5 = B alone; 65 = B alone, two k-blocks per stage.
# s5 in mode 65 holds the bytes of s10 in mode 5 (120 KiB of B) in half as many stages.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s7.wg1.c2x1.static.g0.sk1,k10:64x96x64.s5.wg1.c2x1.static.g0.sk1,cublas
for rep in a b; do
for x in 1 5 65; do
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-decode-k2.csv --warmup 3 --repeats 20 --csv $L/stream-$x-$rep.csv --quiet > $L/stream-$x-$rep.log 2>&1; el stream-$x-$rep $?
done
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for f in $L/stream-*.log; do echo "== $f"; grep -E "^(k10|cublas)" $f | awk "{print \$1, \$2, \$3, \$6}"; done
