# The refine round over the whole set (main, kernel version 5): the version-5 cache
# (carried as .carry/tune-cache.json) with its 36 entries at M = 128, 512 and 2048
# tuned afresh with --refine 3 (M = 8192, the slowest to tune, keeps version 5's
# entries), then one bench of the 48 shapes through it and one through the version-5
# cache, interleaved runs back to back.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 330 $C/gemmscope tune --shapes bench/results/2026-11-30-h200-split-n/experiments/shapes-m128-2048.csv --cache $OUT/tune-cache.json --hang-seconds 30 --quiet > $L/tune.log 2>&1; el tune $?
timeout 75 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json --quiet > $L/bench-llm.log 2>&1; el bench $?
tail -3 $L/bench-llm.log >> $L/steps.log
timeout 75 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/bench-llm-v5.csv --quiet > $L/bench-llm-v5.log 2>&1; el bench-v5 $?
tail -2 $L/bench-llm-v5.log >> $L/steps.log
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> $L/env.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -c refined $L/tune.log; grep refined $L/tune.log
