# Call 4. The landed binaries (version 7 without 64x88) through call 3's cache:
# 1. K10 differential tests.
# 2. The 48-shape bench, auto against cuBLAS.
# 3. Decode, 128x5376x4096 and 128x6144x4096: 64x96x64 s10 (the tune's pick) against
#    64x96x128 s5 (version 6's) side by side, as left and with --clean-l2, twice each.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64 GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s)
el() { echo "$1 rc=$2 at $(date +%T) ($(( $(date +%s) - T0 )) s)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 150 $C/gemm_diff_test --gtest_filter='*K10*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
grep -E "^\[ +FAILED +\]" $L/diff.log >> $L/steps.log
timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/llm.csv --json $L/llm.json --quiet > $L/llm.log 2>&1; el llm $?
grep -A2 "^summary" $L/llm.log >> $L/steps.log
D=cublas,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1
for rep in a b; do for mode in left clean; do
  flag=""; [ $mode = clean ] && flag=--clean-l2
  timeout 40 $C/gemmscope bench --kernels $D --shapes 128x5376x4096,128x6144x4096 --warmup 3 --repeats 20 $flag --csv $OUT/decode-$mode-$rep.csv --quiet > $L/decode-$mode-$rep.log 2>&1; el decode-$mode-$rep $?
  grep -A3 "^summary" $L/decode-$mode-$rep.log | sed "s/^/$mode-$rep /" >> $L/steps.log
done; done
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
