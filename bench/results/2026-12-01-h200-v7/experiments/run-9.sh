# Call 9. Branch wip/streamk-release (.carry/new): a cut tile's pieces count in with one
# acq_rel atomic per warpgroup after the barrier, in place of a __threadfence()
# (MEMBAR.SC.GPU) in every thread before it and again before the sum. Against main's
# binaries (.carry, d7236a6), through main's version-6 cache.
# 1. The new binary's K10 differential tests; memcheck, racecheck and synccheck on cut
#    configurations (split-K, stream-K, ping-pong split-K).
# 2. Decode: 64x96x128 whole tiles, stream-K and split-K 2 at three M = 128 shapes,
#    old and new alternated twice.
# 3. The 10 shapes whose cache entry cuts tiles, `auto`, old and new alternated twice.
set -u
C=$PWD/.carry; N=$C/new; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
E=bench/results/2026-12-01-h200-v7/experiments
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo old $(cat $C/COMMIT) new $(cat $N/COMMIT); date -u; } > $L/env.log 2>&1
timeout 150 $N/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
K=k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:128x160x64.s5.wg2.c2x1.static.g0.streamk,k10:128x192x64.s4.wg2.c2x1.static.g8.sk3,k10:128x128x64.s6.wg2pp.c2x1.static.g8.sk2,k10:128x256x64.s4.wg2.c2x1.static.g0.sk4
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --print-limit 2 $N/gemmscope check --kernels $K --shapes 300x136x200,1000x5376x333,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
D=cublas,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.streamk,k10:64x96x128.s5.wg1.c2x1.static.g0.sk2
for rep in a b; do
  for who in old new; do
    B=$C/gemmscope; [ $who = new ] && B=$N/gemmscope
    export GEMMSCOPE_COMMIT=$(cat $( [ $who = new ] && echo $N || echo $C )/COMMIT)
    timeout 60 $B bench --kernels $D --shapes 128x5376x4096,128x6144x4096,128x4096x4096 --warmup 3 --repeats 20 --csv $L/decode-$who-$rep.csv --quiet > $L/decode-$who-$rep.log 2>&1; el decode-$who-$rep $?
    grep -A5 "^summary" $L/decode-$who-$rep.log | sed "s/^/$who-$rep /" >> $L/steps.log
    timeout 90 $B bench --kernels auto,cublas --shapes $E/shapes-cut.csv --tune-cache $C/tune-cache.json --warmup 3 --repeats 20 --csv $L/cut-$who-$rep.csv --quiet > $L/cut-$who-$rep.log 2>&1; el cut-$who-$rep $?
    grep -A2 "^summary" $L/cut-$who-$rep.log | grep auto | sed "s/^/$who-$rep /" >> $L/steps.log
  done
done
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
