#!/usr/bin/env bash
# Call 5 (binaries c112144, as call 4): cuBLAS and k10 side by side in ncu at
# 512x4096x4096, this session's machine: k10 1x2 with the GPC-grouped order (cuBLAS's
# merge rate, call 3), k10 2x1 in its own order (the cached choice), and cuBLAS. The
# wgmma pipe's activity, SM activity, L2 lookups and merges, DRAM reads.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg
m=$m,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lrc__lts2lrc_sectors_op_read.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,dram__bytes_read.sum
for v in cublas:0 k10:128x128x64.s6.wg2.c1x2.static.g0.sk1:1 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1:0; do
  for rep in 1 2; do
    echo "== ${v%:*} gpc=${v##*:} rep $rep" >>"$OUT/ncu.txt"
    GEMMSCOPE_K10_GPC_ORDER=${v##*:} timeout 60 "$ncu" --metrics "$m" --clock-control none --launch-skip 3 --launch-count 1 \
      --kernel-name regex:'k10_tunable|nvjet' "$G" bench --kernels "${v%:*}" --shapes 512x4096x4096 --warmup 2 --repeats 1 --quiet \
      >>"$OUT/ncu.txt" 2>&1
  done
done
grep -E "^== |duration|cycles|pct|sectors|bytes" "$OUT/ncu.txt"
