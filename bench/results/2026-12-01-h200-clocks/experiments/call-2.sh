#!/usr/bin/env bash
# Call 2: where k10's extra L2 traffic at 512x4096x4096 comes from (call 1: lts__t_bytes
# 210-222 MB against cuBLAS's 129-134 MB at the same 128x128 tiling): L2 sectors by source
# unit (SMs, the fabric between the two L2 partitions), hits and misses, for k10 in 2x1,
# 1x2 and 1x1 clusters and cuBLAS; and the same at 2048x8192x8192.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
cache=.carry/tune-cache.json
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
m=$m,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
m=$m,lts__t_requests_srcunit_tex_op_read.sum,lts__ltcfabric2lts_cycles_active.avg.pct_of_peak_sustained_elapsed
m=$m,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__d_sectors_fill_device.sum
out=$OUT/ncu-l2.txt
prof() {  # shape, kernel, name regex
  echo "== $1 $2" >>"$out"
  timeout 150 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:"$3" --launch-skip 2 --launch-count 2 \
    "$G" bench --kernels "$2" --shapes "$1" --tune-cache "$cache" --warmup 1 --repeats 1 --quiet >>"$out" 2>&1
}
s=512x4096x4096
prof $s auto k10_tunable
prof $s k10:128x128x64.s6.wg2.c1x2.static.g0.sk1 k10_tunable
prof $s k10:128x128x64.s6.wg2.c1x1.static.g0.sk1 k10_tunable
prof $s cublas 'nvjet|xmma|gemm'
s=2048x8192x8192
prof $s auto k10_tunable
prof $s cublas 'nvjet|xmma|gemm'
