#!/usr/bin/env bash
# Call 4: the GPC-grouped order of the static schedule (tune/gpc_order.hpp, placement
# found on the device by host/placement.cu), switched on by GEMMSCOPE_K10_GPC_ORDER=1.
# Correctness with it on (k10's differential tests, memcheck and racecheck), the LRC
# counters at two multi-round shapes, and `auto` through the merged cache over the 48
# shapes, off and on alternated (each in its own process), against cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
cache=.carry/tune-cache.json
L=$OUT/logs
mkdir -p "$L"
t0=$(date +%s)
GEMMSCOPE_K10_GPC_ORDER=1 timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$L/diff-k10-gpc.log" 2>&1
echo "diff (gpc order) rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g8.sk3,k10:64x128x64.s8.wg1.c1x1.static.g0.streamk
for tool in memcheck racecheck; do
  GEMMSCOPE_K10_GPC_ORDER=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 129x257x72,1000x3000x256,2100x4200x136 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$?" >>"$OUT/summary.txt"
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescable.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
for kc in 2048x8192x8192:k10:128x256x64.s4.wg2.c2x1.static.g0.sk1 8192x43008x5376:k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk1 \
          512x8192x8192:k10:128x256x64.s4.wg2.c2x1.static.g0.sk1; do
  for on in 0 1; do
    echo "== ${kc} gpc=$on" >>"$OUT/ncu-lrc.txt"
    GEMMSCOPE_K10_GPC_ORDER=$on timeout 60 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:k10_tunable \
      --launch-skip 2 --launch-count 1 "$G" bench --kernels "${kc#*:}" --shapes "${kc%%:*}" --warmup 1 --repeats 1 --quiet \
      >>"$OUT/ncu-lrc.txt" 2>&1
  done
done
for r in 1 2; do
  for on in 0 1; do
    GEMMSCOPE_K10_GPC_ORDER=$on timeout 140 "$G" bench --clocks --kernels auto,cublas --tune-cache "$cache" \
      --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/bench-gpc$on-$r.csv" \
      >"$L/bench-gpc$on-$r.log" 2>&1
    echo "bench gpc=$on $r rc=$? $(tail -n 1 "$L/bench-gpc$on-$r.log")" >>"$OUT/summary.txt"
  done
done
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
cat "$OUT/summary.txt"
