# Where k10's decode streaming stops: the experiment binary (decode-exp.patch plus
# decode-stream.patch: instances 64x96 s10 in clusters 1x1, 2x1, 2x2, 2x4, 1x2 and
# 64x128 s8 2x1; GEMMSCOPE_EXP 1 = no wgmma, 5 = no wgmma and no A loads) at
# 128x5376x{4096,8192}, cuBLAS interleaved. Then `tune --configs` of the three new
# instances (128x160, 128x176, 128x224) on all 48 shapes into run 2's cache, and
# one bench of the 48 shapes through it.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tiles-160-224/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x64.s10.wg1.c1x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x2.static.g0.sk1,k10:64x96x64.s10.wg1.c2x4.static.g0.sk1,k10:64x96x64.s10.wg1.c1x2.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for x in 1 5; do
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-decode-k2.csv --warmup 3 --repeats 20 --csv $L/stream-$x.csv --quiet > $L/stream-$x.log 2>&1; el stream-$x $?
done
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 420 $C/gemmscope tune --configs 128x160x64.s5.wg2.c2x1.static,128x176x64.s5.wg2.c2x1.static,128x224x64.s4.wg2.c2x1.static --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
timeout 80 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -2 $L/bench-llm.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v stays $L/tune.log; for x in 1 5; do echo "== exp $x"; grep -E "^(k10|cublas)" $L/stream-$x.log | awk '{print $1, $2, $3, $NF}'; done
