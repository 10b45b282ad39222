# Call 8. Why stream-K loses at decode: one launch each of 64x96x128 c2x1 whole tiles
# (sk1) and stream-K at 128x5376x4096 under ncu --set full (ncu locks the clocks), the
# details page and the SASS source page with its per-instruction stall samples.
# main's kernels (.carry/COMMIT, version 6).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; $NCU --version; date -u; } > $L/env.log 2>&1
for mode in sk1 streamk; do
  K=k10:64x96x128.s5.wg1.c2x1.static.g0.$mode
  timeout 200 $NCU --set full --import-source no --kernel-name regex:k10_tunable --launch-skip 2 --launch-count 1 -o $L/ncu-$mode \
    $C/gemmscope bench --kernels $K,cublas --shapes 128x5376x4096 --warmup 1 --repeats 1 --quiet > $L/ncu-$mode.log 2>&1; el ncu-$mode $?
  timeout 60 $NCU --import $L/ncu-$mode.ncu-rep --page details > $L/details-$mode.txt 2>&1; el details-$mode $?
  timeout 60 $NCU --import $L/ncu-$mode.ncu-rep --page source --csv --print-source sass > $L/source-$mode.csv 2>&1; el source-$mode $?
  grep -E "Duration|Elapsed Cycles|SM Active Cycles|DRAM Throughput|Grid Size" $L/details-$mode.txt | head -6 >> $L/steps.log
done
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
ls -la $L >> $OUT/steps.log
cat $OUT/steps.log
