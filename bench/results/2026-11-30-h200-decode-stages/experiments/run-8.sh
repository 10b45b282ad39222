# Where the fixed microsecond goes. Experiment binary (.carry/exp: 96e0dff plus
# experiments/fixed-cost.patch, instances cut to five rows): GEMMSCOPE_EXP 0 = the
# whole kernel, 2 = no epilogue (the accumulators are computed and dropped), 4 = no
# loads, no main loop, no epilogue (launch, barrier init, cluster syncs, schedule walk
# and exit only). Alternated twice; cuBLAS's whole GEMM interleaved in each run.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for rep in a b; do for x in 0 2 4; do
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K --shapes $E/shapes-fixed.csv --warmup 3 --repeats 30 --csv $L/fixed-$x-$rep.csv --quiet > $L/fixed-$x-$rep.log 2>&1; el fixed-$x-$rep $?
done; done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for f in $L/fixed-*.log; do echo "== $(basename $f)"; grep -E "^(k10|cublas)" $f | awk '{print $1, $2, $3}'; done
