#!/usr/bin/env bash
# One device call: the K-rotation experiment (tma_rot: tma_stream.cu with rotation.patch),
# k10's differential tests with the rotation on, and gemmscope bench with the rotation
# off and on alternated (GEMMSCOPE_K10_ROTATE_K), each run against cuBLAS in its process.
set -u
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,temperature.gpu --format=csv > $OUT/r/gpu.txt 2>&1
nvidia-smi | head -4 >> $OUT/r/gpu.txt
(cd .carry && tar xJf bins.tar.xz)
cat .carry/COMMIT > $OUT/r/bench-commit.txt
export LD_LIBRARY_PATH=.carry/lib
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
t0=$(date +%s); mkdir -p $OUT/r; stamp() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $OUT/r/steps.txt; tar czf $OUT/results.tgz -C $OUT/r .; }
timeout 120 .carry2/tma_rot > $OUT/r/tma_rot.txt 2>&1; echo rc=$? >> $OUT/r/tma_rot.txt; stamp tma_rot
C=bench/results/2026-12-02-h200-confirm/run-4/groups-cache.json
D=128x6144x4096,128x4096x4096,128x28672x4096,128x4096x14336,128x10240x8192,128x8192x8192,128x57344x8192,128x8192x28672,128x8192x5376,128x5376x4096,128x43008x5376,128x5376x21504
for r in 1 2; do
  for v in off spread 1; do
    if [ $v = off ]; then unset GEMMSCOPE_K10_ROTATE_K; else export GEMMSCOPE_K10_ROTATE_K=$v; fi
    timeout 60 .carry/gemmscope bench --kernels auto,cublas --quiet --repeats 30 --tune-cache $C --shapes $D --csv $OUT/r/decode-$v-$r.csv > $OUT/r/decode-$v-$r.txt 2>&1; echo rc=$? >> $OUT/r/decode-$v-$r.txt; stamp decode-$v-$r
  done
done
unset GEMMSCOPE_K10_ROTATE_K
for v in off spread; do
  [ $(( $(date +%s) - t0 )) -gt 250 ] && { stamp skip-llm-$v; continue; }
  if [ $v = off ]; then unset GEMMSCOPE_K10_ROTATE_K; else export GEMMSCOPE_K10_ROTATE_K=$v; fi
  timeout 110 .carry/gemmscope bench --kernels auto,cublas --quiet --warmup 3 --repeats 20 --tune-cache $C --shapes bench/shapes/llm_projections.csv --csv $OUT/r/llm-$v.csv > $OUT/r/llm-$v.txt 2>&1; echo rc=$? >> $OUT/r/llm-$v.txt; stamp llm-$v
done
GEMMSCOPE_K10_ROTATE_K=spread timeout 280 .carry/gemm_diff_test --gtest_filter='*K10*' > $OUT/r/diff-spread.log 2>&1; echo rc=$? >> $OUT/r/diff-spread.log; stamp diff-spread
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv >> $OUT/r/gpu.txt; stamp end
