# cuBLAS's kernel at the two shapes still below 0.95: name, launch shape and speed of
# light (ncu, one launch each, after one warm-up launch).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
for s in 512x5376x4096 128x5376x4096; do
  timeout 120 ncu --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis --kernel-name regex:'^(?!.*spin).*' --launch-skip 1 --launch-count 1 \
    $C/gemmscope bench --kernels cublas --shapes $s --warmup 1 --repeats 1 --quiet > $L/ncu-cublas-$s.txt 2>&1; el ncu-$s $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for s in 512x5376x4096 128x5376x4096; do echo "== $s"; grep -E "nvjet|sm90|Duration|Grid Size|Block Size|Cluster Size|Memory Throughput|DRAM Throughput|Compute \(SM\)|Registers|Shared Memory Config|Dynamic Shared" $L/ncu-cublas-$s.txt | head -20; done
