# Call 6. Another machine's view of call 4's result: the 48 shapes through the v7 cache,
# 44334fb (B evict_first at decode) twice and main's 1793484 once between them.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
E=bench/results/2026-12-01-h200-l2-hints/experiments
CACHE=bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $(cat $C/COMMIT) base $(cat $C/new/COMMIT); date -u; } > $L/env.log 2>&1
run() {  # name binary-dir
  GEMMSCOPE_COMMIT=$(cat $2/COMMIT) timeout 90 $2/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache $CACHE --warmup 3 --repeats 20 --csv $L/$1.csv --quiet > $L/$1.log 2>&1; el $1 $?
  grep -A1 "^summary" $L/$1.log | tail -1 | sed "s/^/$1 /" >> $L/steps.log
}
run all-new-3 $C; run all-base-3 $C/new; run all-new-4 $C
python3 $E/summarize.py $L all > $L/summary.txt 2>&1
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $L/summary.txt $L/all-new-3.csv $L/all-new-4.csv $L/all-base-3.csv $OUT/
cat $L/steps.log; tail -8 $L/summary.txt
