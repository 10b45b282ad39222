# Call 2. The re-tune resumed from call 1's cache (.carry/tune-cache.json, --skip-tuned);
# once all 48 shapes are in, the 48-shape bench (auto against cuBLAS) twice through it,
# and the heuristic (auto, no cache) on the 12 held-out Qwen2.5-7B shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64 GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
TUNE_LIMIT=${TUNE_LIMIT:-470} tools/gpu-batch tune; el tune 0
cat $OUT/summary.txt >> $L/steps.log
n=$(python3 -c "import json;print(len(json.load(open('$OUT/tune-cache.json'))['entries']))"); echo "entries $n" >> $L/steps.log
if [ "$n" = 48 ]; then
  for rep in a b; do
    left=$(( 585 - ($(date +%s) - T0) )); [ $left -lt 50 ] && break
    timeout $left $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/llm-$rep.csv --json $L/llm-$rep.json --quiet > $L/llm-$rep.log 2>&1; el llm-$rep $?
    grep -A2 "^summary" $L/llm-$rep.log | sed "s/^/$rep /" >> $L/steps.log
  done
  left=$(( 590 - ($(date +%s) - T0) ))
  [ $left -gt 20 ] && { timeout $left $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/qwen25_7b_heldout.csv --warmup 3 --repeats 20 --csv $OUT/heldout.csv --quiet > $L/heldout.log 2>&1; el heldout $?; grep -A2 "^summary" $L/heldout.log >> $L/steps.log; }
fi
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
