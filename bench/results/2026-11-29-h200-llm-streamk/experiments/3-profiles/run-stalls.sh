set -u
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
$NCU --query-metrics --chip gh100 2>/dev/null | grep -iE "gmma|tensor_op" | head -20 > $OUT/metrics.txt
m='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum'
for cfg in "512x4096x4096 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1" "8192x8192x8192 k10:128x256x64.s4.wg2.c2x1.static.g0.sk1"; do
  set -- $cfg
  timeout 120 $NCU --metrics "$m" --kernel-name regex:'k10|nvjet' --launch-skip 0 --launch-count 8 .carry/gemmscope bench --kernels cublas,$2 --shapes $1 --warmup 0 --repeats 1 > $OUT/ncu3-$1.txt 2>&1
  echo "ncu $1 rc=$?"
done
timeout 120 $NCU --section WarpStateStats --section SourceCounters --kernel-name regex:'k10' --launch-count 1 --print-details all .carry/gemmscope bench --kernels k10:128x128x64.s6.wg2.c2x1.static.g0.sk1 --shapes 512x4096x4096 --warmup 0 --repeats 1 > $OUT/ncu3-source.txt 2>&1; echo "src rc=$?"
