# Experiment binary (.carry/exp: 96e0dff plus experiments/prefetch-tensormap.patch,
# instances cut to five rows): does prefetching the three tensor maps at the kernel's
# start (prefetch.tensormap, as CUTLASS's kernels do) cut the fixed cost that run 6's K
# sweeps show? GEMMSCOPE_EXP 0 = main's prologue, 1 = with the prefetch; alternated
# 0, 1, 0, 1. cuBLAS interleaved in each run.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
E=bench/results/2026-11-30-h200-decode-stages/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
GEMMSCOPE_EXP=1 timeout 60 $C/exp/gemmscope-exp check --kernels k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x176x64.s5.wg2.c2x1.static.g0.sk2,k10:128x128x64.s6.wg2pp.c2x1.static.g0.streamk --shapes 300x136x200,128x5376x4096 > $L/check.log 2>&1; el check $?; grep -c PASS $L/check.log >> $L/steps.log
K128=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
K512=k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,cublas
for rep in a b; do for x in 0 1; do
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K128 --shapes $E/shapes-k-128.csv --warmup 3 --repeats 30 --csv $L/k128-$x-$rep.csv --quiet > $L/k128-$x-$rep.log 2>&1; el k128-$x-$rep $?
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K512 --shapes $E/shapes-k-512.csv --warmup 3 --repeats 30 --csv $L/k512-$x-$rep.csv --quiet > $L/k512-$x-$rep.log 2>&1; el k512-$x-$rep $?
  GEMMSCOPE_EXP=$x timeout 60 $C/exp/gemmscope-exp bench --kernels $K128 --shapes $E/shapes-m128.csv --warmup 3 --repeats 20 --csv $L/m128-$x-$rep.csv --quiet > $L/m128-$x-$rep.log 2>&1; el m128-$x-$rep $?
done; done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for f in $L/*.log; do case $f in *steps*|*env*|*check*) continue;; esac; echo "== $(basename $f)"; grep -A4 "^summary" $f | tail -n +2; done
