#!/usr/bin/env bash
# Call 4: B as a plain TMA load where the cluster has one row (ClusterM = 1), not a
# multicast to the CTA alone. Correctness of the new binary (k10's differential tests,
# three sanitizers on the changed instances), the LRC counters again, and the changed
# instances old (.carry/old) against new, alternated, against cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
OLD=.carry/old/gemmscope
cache=.carry/tune-cache.json
L=$OUT/logs
mkdir -p "$L"
t0=$(date +%s)
timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$L/diff-k10.log" 2>&1; echo "diff rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x128x64.s6.wg2.c1x2.static.g0.sk1,k10:128x128x64.s6.wg2.c1x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.streamk
cfgs=$cfgs,k10:128x192x64.s4.wg2.c1x1.static.g8.sk1,k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk3,k10:64x128x64.s8.wg1.c1x1.static.g0.sk1
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 1x1x8,129x257x72,300x136x200,256x256x512,129x264x72 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$?" >>"$OUT/summary.txt"
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
m=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__lts2lrc_sectors_op_read.sum
m=$m,lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
m=$m,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum
for c in k10:128x128x64.s6.wg2.c1x2.static.g0.sk1 k10:128x128x64.s6.wg2.c1x1.static.g0.sk1 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1; do
  for bin in $OLD $G; do
    echo "== $bin $c" >>"$OUT/ncu-lrc.txt"
    timeout 100 "$ncu" --metrics "$m" --clock-control none --kernel-name regex:k10_tunable --launch-skip 2 --launch-count 1 \
      "$bin" bench --kernels "$c" --shapes 512x4096x4096 --warmup 1 --repeats 1 --quiet >>"$OUT/ncu-lrc.txt" 2>&1
  done
done
k=cublas,k10:128x128x64.s6.wg2.c1x2.static.g0.sk1,k10:128x128x64.s6.wg2.c1x1.static.g0.sk1,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1
k=$k,k10:128x192x64.s4.wg2.c1x1.static.g0.sk1,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1
s=512x4096x4096,512x8192x8192,512x6144x4096,512x28672x4096,128x43008x5376,128x28672x4096,2048x8192x8192,512x5376x4096
for r in 1 2; do
  for who in old new; do
    bin=$G; [ $who = old ] && bin=$OLD
    timeout 120 "$bin" bench --kernels "$k" --shapes "$s" --warmup 3 --repeats 20 --quiet --csv "$L/ab-$who-$r.csv" >"$L/ab-$who-$r.log" 2>&1
  done
done
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
