# Experiment binary (.carry/exp: e1ece50 with instances.hpp cut to five rows, among them
# 64x192x128 s3): at M = 128, a wider tile's larger share of B in each stage (B is 192
# of 256 rows, against 96 of 160 for 64x96) with split-K 2 to keep the CTA count,
# against the current picks. cuBLAS interleaved, then the same list once more.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 60 $C/exp/gemmscope-exp check --kernels k10:64x192x128.s3.wg1.c2x1.static.g0.sk1,k10:64x192x128.s3.wg1.c2x1.static.g0.sk2,k10:64x192x128.s3.wg1.c2x1.static.g0.streamk --shapes 300x136x200,256x672x1024,100x264x4096,128x5376x4096 > $L/check.log 2>&1; el check $?; grep -c PASS $L/check.log >> $L/steps.log
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x192x64.s6.wg1.c2x1.static.g0.sk1,k10:64x192x64.s6.wg1.c2x1.static.g0.sk2,k10:64x192x128.s3.wg1.c2x1.static.g0.sk1,k10:64x192x128.s3.wg1.c2x1.static.g0.sk2,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for rep in a b; do
  timeout 90 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --csv $L/wide-$rep.csv --quiet > $L/wide-$rep.log 2>&1; el wide-$rep $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for r in a b; do grep -A9 "^summary" $L/wide-$r.log; done; grep -E "^(k10|cublas)" $L/wide-a.log | awk '{print $1, $2, $NF}'
