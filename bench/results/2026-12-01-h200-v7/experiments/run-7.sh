# Call 7. Does a decode shape's ratio depend on what ran before it? main's kernels
# (version 6; .carry/COMMIT), the version-6 cache. In one call:
#   the 12 M = 128 shapes alone (the GPU idle before), the whole 48-shape bench, and the
#   12 M = 128 shapes alone again (right after it).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-12-01-h200-v7/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
B="$C/gemmscope bench --kernels auto,cublas --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --quiet"
timeout 60 $B --shapes $E/shapes-m128.csv --csv $OUT/m128-before.csv > $L/m128-before.log 2>&1; el m128-before $?
tail -1 $L/m128-before.log >> $L/steps.log
timeout 120 $B --shapes bench/shapes/llm_projections.csv --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json > $L/bench-llm.log 2>&1; el bench $?
tail -1 $L/bench-llm.log >> $L/steps.log
timeout 60 $B --shapes $E/shapes-m128.csv --csv $OUT/m128-after.csv > $L/m128-after.log 2>&1; el m128-after $?
tail -1 $L/m128-after.log >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
