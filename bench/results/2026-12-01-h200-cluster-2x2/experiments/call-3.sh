#!/usr/bin/env bash
# Call 3: does L2's request coalescer merge the reads of CTAs in the same GPC? At
# 512x4096x4096 (64 clusters of 2, worker w on the GPC call 2 found for cluster w),
# k10 128x128 with host-chosen tile orders (GEMMSCOPE_K10_UNIT_ORDER, an experiment):
#   1x2 (A multicast, as cuBLAS): g0 puts the 4 readers of a B tile in 4 GPCs (0% of
#     B's reads mergeable within a GPC), o_1x2_gpc in one GPC (70%);
#   2x1 (B multicast): g0 (70% of A's), o_2x1_gpc (81%), o_2x1_mix (each GPC half and half).
# ncu's LRC counters for each, then benches against cuBLAS, each order in its own process.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
O=.carry/orders
L=$OUT/logs
mkdir -p "$L"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescable.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum
c12=k10:128x128x64.s6.wg2.c1x2.static.g0.sk1
c21=k10:128x128x64.s6.wg2.c2x1.static.g0.sk1
variants="c12:none c12:o_1x2_gpc c21:none c21:o_2x1_gpc c21:o_2x1_mix"
cfg() { [ "$1" = c12 ] && echo $c12 || echo $c21; }
ord() { [ "$1" = none ] && echo "" || echo "$O/$1.txt"; }
for v in $variants; do
  c=$(cfg ${v%%:*}); o=$(ord ${v##*:})
  echo "== $v" >>"$OUT/ncu-lrc.txt"
  GEMMSCOPE_K10_UNIT_ORDER=$o timeout 60 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:k10_tunable \
    --launch-skip 2 --launch-count 1 "$G" bench --kernels "$c" --shapes 512x4096x4096 --warmup 1 --repeats 1 --quiet \
    >>"$OUT/ncu-lrc.txt" 2>&1
done
for r in 1 2; do
  for v in $variants; do
    c=$(cfg ${v%%:*}); o=$(ord ${v##*:})
    GEMMSCOPE_K10_UNIT_ORDER=$o timeout 60 "$G" bench --kernels cublas,$c --shapes 512x4096x4096,512x4096x14336 \
      --warmup 3 --repeats 20 --quiet --csv "$L/bench-${v/:/-}-$r.csv" >"$L/bench-${v/:/-}-$r.log" 2>&1
    echo "$v $r rc=$?" >>"$OUT/summary.txt"
  done
done
grep -h "^k10\|^cublas" "$L"/bench-*.log >"$OUT/bench-lines.txt"
for f in "$L"/bench-*-?.log; do echo "$(basename $f): $(grep -h "^k10" $f | awk '{print $2, $NF}' | tr '\n' ' ')"; done >>"$OUT/summary.txt"
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
cat "$OUT/summary.txt"
