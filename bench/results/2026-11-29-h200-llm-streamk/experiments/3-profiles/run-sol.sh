# The Speed-of-Light / memory profile of cuBLAS and k10 (ncu-128x6144x4096.txt,
# ncu-512x4096x4096.txt), as run on the H200 from the repository root with the
# binaries packed in .carry/ (tools/gpu-pack).
set -u
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
sec="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats"
for cfg in "128x6144x4096 k10:128x128x64.s6.wg2.c1x1.static.g0.sk2" "512x4096x4096 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1"; do
  set -- $cfg
  timeout 200 $NCU $sec --launch-skip 0 --launch-count 12 .carry/gemmscope bench --kernels cublas,$2 --shapes $1 --warmup 0 --repeats 1 > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc=$?"
done
