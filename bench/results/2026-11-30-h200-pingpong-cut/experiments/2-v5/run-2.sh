# Kernel version 5 on the H200, second call: the tune of the M = 2048 and 8192 shapes
# into the cache of the first call (carried as .carry/tune-cache.json), then the
# bench of the whole shape set through it: auto, k08 and cuBLASLt interleaved.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
cp $C/tune-cache.json $OUT/tune-cache.json
nvidia-smi -q -d CLOCK | head -30 > $L/env-before.log 2>&1
timeout 420 $C/gemmscope tune --shapes $E/shapes-m2048-8192.csv --cache $OUT/tune-cache.json --hang-seconds 30 --quiet > $L/tune-2.log 2>&1; el tune-2 $?
timeout 120 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json > $L/bench-llm.log 2>&1; el bench $?
tail -3 $L/bench-llm.log >> $L/steps.log
nvidia-smi -q -d CLOCK | head -30 > $L/env-after.log 2>&1
