#!/usr/bin/env bash
# Call 6: k10's fixed cost per launch against cuBLAS's. 512x4096xK with K from 64 to 4096
# through k10's 512x4096x4096 configuration (128x128 2x1, one wave of 128 CTAs) and
# cuBLAS, interleaved: as K shrinks the main loop goes and what stays is launch,
# prologue, first data, epilogue and exit. Then the timeline build (.carry/tl/,
# 04ff67f with timeline-on-tail.patch) stamps the phases at K = 64 and 4096.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
G=.carry/gemmscope; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
X=bench/results/2026-12-01-h200-mainloop/experiments
c=k10:128x128x64.s6.wg2.c2x1.static.g0.sk1
L=$OUT/logs; mkdir -p "$L"
timeout 90 "$G" bench --kernels "$c,cublas" --shapes 512x4096x64,512x4096x128,512x4096x256,512x4096x512,512x4096x1024,512x4096x2048,512x4096x4096 \
  --warmup 3 --repeats 20 --quiet --csv "$OUT/fixed-cost.csv" >"$L/fixed-cost.log" 2>&1
echo "fixed-cost rc=$?" >>"$OUT/summary.txt"
cut -d, -f1-6,10 "$OUT/fixed-cost.csv" >>"$OUT/summary.txt"
for k in 64 4096; do
  GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)-timeline GEMMSCOPE_TIMELINE=$L/tl-$k.csv timeout 30 .carry/tl/gemmscope bench \
    --kernels "$c,cublas" --shapes 512x4096x$k --warmup 2 --repeats 10 --quiet --csv "$L/tl-bench-$k.csv" >"$L/tl-$k.log" 2>&1
  echo "== timeline K=$k rc=$?" >>"$OUT/summary.txt"
  python3 "$X/timeline.py" "$L/tl-$k.csv" >>"$OUT/summary.txt" 2>&1
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
