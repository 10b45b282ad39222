# Call 4. The landed form: B loaded evict_first (tune::evict_first_b: one cluster row of
# tiles, B at most 5 L2s), the producer's loop instantiated once per B load form; A and
# every other launch as main. Main's binary (1793484) in .carry/new.
# 1. K10 differential tests; memcheck, racecheck and synccheck on evict-first configurations.
# 2. The 48 shapes through the v7 cache: main against this binary, alternated twice.
# 3. The 12 held-out Qwen2.5-7B shapes without a cache (the heuristic): main against this.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
E=bench/results/2026-12-01-h200-l2-hints/experiments
CACHE=bench/results/2026-12-01-h200-v7-tile-88/run-3/tune-cache.json
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $(cat $C/COMMIT) base $(cat $C/new/COMMIT); date -u; } > $L/env.log 2>&1
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
timeout 170 $C/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:128x128x64.s6.wg2pp.c1x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 128x5376x328,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
run() {  # name binary-dir shapes [cache flag]
  GEMMSCOPE_COMMIT=$(cat $2/COMMIT) timeout 90 $2/gemmscope bench --kernels auto,cublas --shapes $3 $4 --warmup 3 --repeats 20 --csv $L/$1.csv --quiet > $L/$1.log 2>&1; el $1 $?
  grep -A1 "^summary" $L/$1.log | tail -1 | sed "s/^/$1 /" >> $L/steps.log
}
for rep in 1 2; do
  run all-base-$rep $C/new bench/shapes/llm_projections.csv "--tune-cache $CACHE"
  run all-new-$rep $C bench/shapes/llm_projections.csv "--tune-cache $CACHE"
done
run qwen-base $C/new bench/shapes/qwen25_7b_heldout.csv ""
run qwen-new $C bench/shapes/qwen25_7b_heldout.csv ""
{ nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv; } >> $L/env.log 2>&1
python3 $E/summarize.py $L all qwen > $L/summary.txt 2>&1; cat $L/summary.txt >> $L/steps.log
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $L/summary.txt $L/all-new-1.csv $L/all-new-2.csv $L/all-base-1.csv $OUT/
cat $L/steps.log
