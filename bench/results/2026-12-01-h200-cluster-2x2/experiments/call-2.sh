#!/usr/bin/env bash
# Call 2: where the H200 places the CTAs of cluster launches (placement.cu), and
# cuBLAS's launch at 512x4096x4096 (grid, block, cluster: is it persistent, and how
# are its clusters shaped), against k10's there.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
.carry/placement >"$OUT/placement.csv" 2>"$OUT/placement.err"; echo "placement rc=$?" >>"$OUT/summary.txt"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in cublas k10:128x128x64.s6.wg2.c2x1.static.g0.sk1; do
  echo "== $k" >>"$OUT/ncu-launch.txt"
  timeout 60 "$ncu" --section LaunchStats --clock-control none --launch-skip 2 --launch-count 1 \
    "$G" bench --kernels "$k" --shapes 512x4096x4096 --warmup 1 --repeats 1 --quiet >>"$OUT/ncu-launch.txt" 2>&1
done
echo "ncu rc=$?" >>"$OUT/summary.txt"
cat "$OUT/summary.txt"
