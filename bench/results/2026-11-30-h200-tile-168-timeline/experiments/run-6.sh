# Call 6. The producer's prefill (.carry/COMMIT): thread 0 loads the first unit's first
# lap of the ring whole into its own CTA, without multicast, before the cluster
# barrier. Against call 4's binaries (.carry/old: 5bdb554).
# 1. Every differential and validation test; memcheck, racecheck and synccheck on
#    every cluster shape (2x1 with 84-row slices, 1x2 whole-A loads), split-K,
#    stream-K, ping-pong, dynamic (no prefill), with several units per CTA.
# 2. Side by side: `auto` through run 2's cache on the 12 M = 128 shapes and 6 others,
#    old and new binaries alternated twice.
# 3. Two benches of the 48 shapes through the same cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-tile-168-timeline/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT old $(cat $C/old/COMMIT); date -u; } > $L/env.log 2>&1
timeout 240 $C/gemm_diff_test > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 120 $C/gemm_validation_test > $L/validation.log 2>&1; el validation $?; tail -1 $L/validation.log >> $L/steps.log
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.streamk,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g8.sk3
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 300x136x200,100x264x4096,2000x1600x520 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
for rep in a b; do
  GEMMSCOPE_COMMIT=$(cat $C/old/COMMIT) timeout 60 $C/old/gemmscope bench --kernels auto,cublas --shapes $E/shapes-side-6.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/side-old-$rep.csv --quiet > $L/side-old-$rep.log 2>&1; el side-old-$rep $?
  timeout 60 $C/gemmscope bench --kernels auto,cublas --shapes $E/shapes-side-6.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/side-new-$rep.csv --quiet > $L/side-new-$rep.log 2>&1; el side-new-$rep $?
  grep -A3 "^summary" $L/side-old-$rep.log | grep auto >> $L/steps.log; grep -A3 "^summary" $L/side-new-$rep.log | grep auto >> $L/steps.log
done
for rep in "" "-2"; do
  timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/bench-llm$rep.csv --json $OUT/bench-llm$rep.json --quiet > $L/bench-llm$rep.log 2>&1; el bench$rep $?
  tail -2 $L/bench-llm$rep.log >> $L/steps.log
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
