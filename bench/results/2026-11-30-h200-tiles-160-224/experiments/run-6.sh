# TMA prefetch of B into L2 ahead of the ring (experiment binary, l2-prefetch.patch on
# f7daec6: seven instances; GEMMSCOPE_EXP_PREFETCH = k-blocks ahead, 0 = main's
# kernel). The real kernels (wgmma on), cuBLAS interleaved: the decode shapes with
# 64x96 and 64x128, three M = 512 shapes with their cached tiles.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
KD=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,cublas
KM=k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,cublas
$C/exp/gemmscope-pf check --kernels k10:64x96x64.s10.wg1.c2x1.static.g0.sk1 --shapes 128x5376x4096,100x264x4096 > $L/check-0.log 2>&1; el check-0 $?
GEMMSCOPE_EXP_PREFETCH=24 $C/exp/gemmscope-pf check --kernels k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:128x176x64.s5.wg2.c2x1.static.g0.sk1 --shapes 128x5376x4096,100x264x4096,512x5376x4096 > $L/check-24.log 2>&1; el check-24 $?
for pf in 0 16 24 32 48; do
  GEMMSCOPE_EXP_PREFETCH=$pf timeout 40 $C/exp/gemmscope-pf bench --kernels $KD --shapes $E/shapes-pf-decode.csv --warmup 3 --repeats 20 --csv $L/pf-decode-$pf.csv --quiet > $L/pf-decode-$pf.log 2>&1; el pf-decode-$pf $?
done
for pf in 0 8 16; do
  GEMMSCOPE_EXP_PREFETCH=$pf timeout 40 $C/exp/gemmscope-pf bench --kernels $KM --shapes $E/shapes-pf-512.csv --warmup 3 --repeats 20 --csv $L/pf-512-$pf.csv --quiet > $L/pf-512-$pf.log 2>&1; el pf-512-$pf $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -h -E "PASS|FAIL" $L/check-*.log | head; for f in $L/pf-*.log; do echo "== $f"; grep -E "^(k10|cublas)" $f | awk '{print $1, $2, $3, $(NF-1)}'; done
