# Probe (branch wip/k-rotate): whole tiles load their k-blocks from a tile-dependent
# start (GEMMSCOPE_K10_ROTATE=1), so the CTAs streaming the weights at one moment read
# different columns of B, not all the same 128-byte column of rows 8 KiB apart.
# Correctness with the rotation, then A/B (plain, rotated, plain, rotated) of auto
# through the version-5 cache on the M = 128 and 512 shapes, and a K sweep around
# K = 4096 (row strides of B that are and are not a power of two).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
GEMMSCOPE_K10_ROTATE=1 timeout 150 $C/gemm_diff_test --gtest_filter='*K10*:*AutoAnyShape*' > $L/diff-rotated.log 2>&1; el diff-rotated $?; tail -1 $L/diff-rotated.log >> $L/steps.log
SH=bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5/shapes-m128-512.csv
for i in 1 2; do
  for r in plain rotated; do
    if [ $r = rotated ]; then export GEMMSCOPE_K10_ROTATE=1; else unset GEMMSCOPE_K10_ROTATE; fi
    timeout 60 $C/gemmscope bench --kernels auto,cublas --shapes $SH --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/ab-$r-$i.csv --quiet > $L/ab-$r-$i.log 2>&1; el ab-$r-$i $?
    tail -2 $L/ab-$r-$i.log >> $L/steps.log
  done
done
K=k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
for r in plain rotated; do
  if [ $r = rotated ]; then export GEMMSCOPE_K10_ROTATE=1; else unset GEMMSCOPE_K10_ROTATE; fi
  timeout 60 $C/gemmscope bench --kernels $K --shapes 128x5376x1024,128x5376x4032,128x5376x4096,128x5376x4160,128x5376x16384,128x6144x4096,128x4096x4096 --warmup 3 --repeats 20 --csv $OUT/ksweep-$r.csv --quiet > $L/ksweep-$r.log 2>&1; el ksweep-$r $?
done
unset GEMMSCOPE_K10_ROTATE
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; cat $L/ksweep-*.log | grep -v "^#"
