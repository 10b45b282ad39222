#!/usr/bin/env bash
# Call 5 (binaries e6bd8e0): the LRC's coalescing under other tile orders (g1: n fastest, so
# consecutive clusters share A) and the dynamic schedule at 512x4096x4096; then
# `tune --configs` over the 48 shapes from merged-cache.json: every instance with
# ClusterM = 1 (their B loads changed) and g1 of the 2x1 instances the M = 512 shapes
# use; each shape's cached entry is timed in the same run and the fastest kept.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
L=$OUT/logs
mkdir -p "$L"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescable.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
for c in 128x128x64.s6.wg2.c2x1.static.g1.sk1 128x128x64.s6.wg2.c1x2.static.g1.sk1 128x128x64.s6.wg2.c2x1.dynamic.g0.sk1; do
  echo "== $c" >>"$L/ncu-lrc.txt"
  timeout 60 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:k10_tunable --launch-skip 2 --launch-count 1 \
    "$G" bench --kernels "k10:$c" --shapes 512x4096x4096 --warmup 1 --repeats 1 --quiet >>"$L/ncu-lrc.txt" 2>&1
done
timeout 90 "$G" bench --kernels cublas,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g1.sk1,k10:128x128x64.s6.wg2.c2x1.dynamic.g0.sk1,k10:128x256x64.s4.wg2.c2x1.static.g1.sk1,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1 \
  --shapes 512x4096x4096,512x8192x8192,512x28672x4096,2048x8192x8192 --quiet --csv "$L/orders.csv" >"$L/orders.log" 2>&1
cp .carry/tune-cache.json "$OUT/tune-cache.json"
inst="128x256x64.s4.wg2.c1x1.static,128x192x64.s4.wg2.c1x1.static,128x128x64.s6.wg2.c1x1.static,128x64x64.s8.wg2.c1x1.static"
inst=$inst,"64x128x64.s8.wg1.c1x1.static,64x256x64.s5.wg1.c1x1.static,128x128x64.s6.wg2.c1x2.static,128x256x64.s4.wg2.c1x2.static"
inst=$inst,"128x64x64.s8.wg2.c1x2.static,128x128x64.s6.wg2pp.c1x2.static,128x128x64.s6.wg2pp.c1x1.static"
for t in 128x128x64.s6.wg2 128x160x64.s5.wg2 128x168x64.s5.wg2 128x192x64.s4.wg2 128x224x64.s4.wg2 128x256x64.s4.wg2; do
  inst=$inst,$t.c2x1.static.g1.sk1
done
t0=$(date +%s)
timeout 420 "$G" tune --quiet --configs "$inst" --shapes bench/shapes/llm_projections.csv --cache "$OUT/tune-cache.json" \
  --times "$OUT/tune-times.csv" >"$L/tune.log" 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 )) s" >>"$L/tune.log"
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
