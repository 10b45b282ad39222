#!/usr/bin/env bash
# Call 3: does L2's request coalescer (LRC) explain cuBLAS's lower L2 traffic at
# 512x4096x4096 (call 2)? LRC counters ("hardware" coalescing of identical requests from
# different SMs; "programmatic" = TMA multicast) and the sectors the SMs receive, for
# k10 (2x1 clusters with block-swizzle groups 0, 2, 4, 8; 1x2) and cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
cache=.carry/tune-cache.json
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__xbar2lrc_requests_op_read.sum
m=$m,lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lrc__lrc2xbar_sectors_op_read.sum
m=$m,lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lts2lrc_sectors_op_read.sum
m=$m,lrc__xbar2gpc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_hardware.sum
m=$m,lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_programmatic.sum
m=$m,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum
m=$m,l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum
out=$OUT/ncu-lrc.txt
prof() {  # shape, kernel, name regex
  echo "== $1 $2" >>"$out"
  timeout 100 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:"$3" --launch-skip 2 --launch-count 1 \
    "$G" bench --kernels "$2" --shapes "$1" --tune-cache "$cache" --warmup 1 --repeats 1 --quiet >>"$out" 2>&1
}
s=512x4096x4096
prof $s cublas 'nvjet|xmma|gemm'
for g in 0 2 4 8; do prof $s k10:128x128x64.s6.wg2.c2x1.static.g$g.sk1 k10_tunable; done
prof $s k10:128x128x64.s6.wg2.c1x2.static.g0.sk1 k10_tunable
s=2048x8192x8192
prof $s cublas 'nvjet|xmma|gemm'
prof $s auto k10_tunable
# Times, bench's way, of the same k10 variants against cuBLAS (two runs).
for r in 1 2; do
  "$G" bench --kernels cublas,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g2.sk1,k10:128x128x64.s6.wg2.c2x1.static.g4.sk1,k10:128x128x64.s6.wg2.c2x1.static.g8.sk1 \
    --shapes 512x4096x4096,512x8192x8192,512x6144x4096 --quiet --csv "$OUT/groups-$r.csv" >"$OUT/groups-$r.log" 2>&1
done
