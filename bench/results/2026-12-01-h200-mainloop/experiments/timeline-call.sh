#!/usr/bin/env bash
# Prepared, not run (no device was lent again this session): per-CTA timelines of k10
# where cuBLAS still wins, to see what is left of the ~2.3 k idle tensor cycles per SM
# that call 1 found (prologue, first data, epilogue, exit). Binaries, built here:
#   .carry/gemmscope       main with timeline.patch
#   .carry/tail/gemmscope  main with producer-tail.patch, then timeline-on-tail.patch
# Each bench times k10 and cuBLAS interleaved; GEMMSCOPE_TIMELINE stamps k10's first 64
# launches (timeline.py skips the first 8).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L=$OUT/logs; mkdir -p "$L"
X=bench/results/2026-12-01-h200-mainloop/experiments
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
for b in ${TIMELINE_BUILDS:-main tail}; do
  bin=.carry/gemmscope; [ $b = tail ] && bin=.carry/tail/gemmscope
  [ -x "$bin" ] || continue
  for v in 512x4096x4096@128x128x64.s6.wg2.c2x1.static.g0.sk1 512x5376x4096@128x168x64.s5.wg2.c2x1.static.g0.sk1 \
           128x5376x4096@64x96x64.s10.wg1.c2x1.static.g0.sk1; do
    s=${v%@*}; c=${v#*@}; tl=$L/tl-$b-$s.csv
    GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)-$b GEMMSCOPE_TIMELINE=$tl timeout 60 "$bin" bench --kernels "k10:$c,cublas" \
      --shapes "$s" --warmup 2 --repeats 10 --quiet --csv "$L/bench-$b-$s.csv" >"$L/bench-$b-$s.log" 2>&1
    echo "== $b $s $c rc=$?" >>"$OUT/summary.txt"
    python3 "$X/timeline.py" "$tl" >>"$OUT/summary.txt" 2>&1
    grep -E '^"?(k10|cublas)' "$L/bench-$b-$s.csv" | cut -d, -f1-5,10 >>"$OUT/summary.txt"
  done
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
