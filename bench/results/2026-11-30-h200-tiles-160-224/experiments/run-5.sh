# Contiguity or bytes in flight? Experiment binary with decode-stream3.patch, no wgmma
# in every mode. GEMMSCOPE_EXP 5 = B only; 65 = two adjacent k-blocks of B per stage;
# 193 = two k-blocks per stage that are K/2 apart (the same bytes in flight as 65,
# not contiguous); 261 = B only, one k-block per stage, the producer issuing stages
# in groups of 2 (adjacent k-blocks requested together, the bytes in flight of 5);
# 773 = groups of 4; 257 / 769 = A and B in groups of 2 / 4; 1 = A and B.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for x in 5 65 193 261 773 1 257 769; do
  GEMMSCOPE_EXP=$x timeout 30 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-decode-k2.csv --warmup 3 --repeats 20 --csv $L/stream-$x.csv --quiet > $L/stream-$x.log 2>&1; el stream-$x $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for x in 5 65 193 261 773 1 257 769; do echo "== exp $x"; grep -E "^(k10|cublas)" $L/stream-$x.log | awk '{print $1, $2, $3, $NF}'; done
