# Do the waits' wake-ups cost the stream? Experiment binary with decode-stream4.patch,
# no wgmma: GEMMSCOPE_EXP 5 = B only (try_wait with a suspend hint, as main);
# +1024 the producer polls its empty barriers with test_wait instead; +2048 the
# consumer polls its full barriers; 1 / 3073 = A and B, as main / both polling.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for x in 5 1029 2053 3077 1 3073; do
  GEMMSCOPE_EXP=$x timeout 30 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-decode-k2.csv --warmup 3 --repeats 20 --csv $L/stream-$x.csv --quiet > $L/stream-$x.log 2>&1; el stream-$x $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for x in 5 1029 2053 3077 1 3073; do echo "== exp $x"; grep -E "^(k10|cublas)" $L/stream-$x.log | awk '{print $1, $2, $3}'; done
