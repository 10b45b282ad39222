# Kernel version 5 on the H200, third call: the second call's tune stopped at its
# time limit after 15 of 24 shapes, so the remaining 9 (--skip-tuned) into the same
# cache (carried as .carry/tune-cache.json); the bench of the whole shape set through
# the complete cache; compute-sanitizer on auto over ragged shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
cp $C/tune-cache.json $OUT/tune-cache.json
timeout 380 $C/gemmscope tune --shapes $E/shapes-m2048-8192.csv --cache $OUT/tune-cache.json --skip-tuned --hang-seconds 30 --quiet > $L/tune-3.log 2>&1; el tune-3 $?
nvidia-smi -q -d CLOCK | head -30 > $L/env-before.log 2>&1
timeout 110 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm.csv --json $OUT/bench-llm.json > $L/bench-llm.log 2>&1; el bench $?
tail -3 $L/bench-llm.log >> $L/steps.log
nvidia-smi -q -d CLOCK | head -30 > $L/env-after.log 2>&1
export GEMMSCOPE_TUNE_CACHE=$OUT/tune-cache.json
for tool in synccheck memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels auto --shapes 300x136x200,1100x1600x1024,100x264x4096,2000x1600x520,128x5376x4096 > /tmp/san.log 2>&1
  echo "$tool auto rc=$? pass=$(grep -c PASS /tmp/san.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tr '\n' ' ')" >> $L/steps.log
done
