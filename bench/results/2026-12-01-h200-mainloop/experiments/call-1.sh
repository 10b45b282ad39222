#!/usr/bin/env bash
# Call 1 (binaries 0493bbd, the landed kernels): cuBLAS and k10 side by side in ncu's
# full set with source counters (warp stalls sampled per SASS instruction), at
# 512x4096x4096 (k10 128x128 2x1, the cached pick; cuBLAS nvjet 128x128 2x1) and at
# 2048x4096x4096 (k10 128x256 2x1, the cached pick). Reports, details pages and the
# SASS pages with their samples go back in one tarball.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p "$OUT/p"
"$ncu" --version >"$OUT/p/ncu-version.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$OUT/p/gpu.txt" 2>&1
i=0
for v in cublas@512x4096x4096 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1@512x4096x4096 \
         cublas@2048x4096x4096 k10:128x256x64.s4.wg2.c2x1.static.g0.sk1@2048x4096x4096; do
  i=$((i + 1)); k=${v%@*}; s=${v#*@}
  timeout 120 "$ncu" --set full --import-source no --clock-control none --launch-skip 3 --launch-count 1 \
    --kernel-name regex:'k10_tunable|nvjet' -o "$OUT/p/r$i" -f \
    "$G" bench --kernels "$k" --shapes "$s" --warmup 2 --repeats 1 --quiet >"$OUT/p/r$i.log" 2>&1
  echo "r$i $k $s rc=$?" >>"$OUT/p/index.txt"
  "$ncu" -i "$OUT/p/r$i.ncu-rep" --page details >"$OUT/p/r$i-details.txt" 2>&1
  "$ncu" -i "$OUT/p/r$i.ncu-rep" --page source --csv --print-source sass >"$OUT/p/r$i-sass.csv" 2>"$OUT/p/r$i-sass.err"
done
cat "$OUT/p/index.txt"
tar -C "$OUT" -czf "$OUT/profile.tgz" p && rm -rf "$OUT/p"
ls -la "$OUT"
