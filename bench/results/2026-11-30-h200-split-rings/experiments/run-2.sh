# Split rings with A copied by cp.async (LSU path) instead of TMA
# (split-rings-cp-async-a.patch on 31b5dfa): do A's loads still need a deep ring when
# they no longer queue with B's in the TMA unit? Differential tests of the split
# instances, a memcheck/racecheck/synccheck of one, then the decode shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
E=bench/results/2026-11-30-h200-split-rings/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 90 $C/exp/gemm_diff_test-rsx --gtest_filter='*a[368]_*:*a4_*' > $L/diff.log 2>&1; el diff $?; grep -E "OK|FAILED" $L/diff.log | head -12 >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/exp/gemmscope-rsx check --kernels k10:64x96x64.s14a6.wg1.c2x1.static.g0.sk1,k10:64x96x64.s16a3.wg1.c2x1.static.g8.streamk --shapes 300x136x200,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s14a6.wg1.c2x1.static.g0.sk1,k10:64x96x64.s12a8.wg1.c2x1.static.g0.sk1,k10:64x96x64.s16a3.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:64x128x64.s11a4.wg1.c2x1.static.g0.sk1,cublas
timeout 60 $C/exp/gemmscope-rsx bench --kernels $K --shapes $E/shapes-decode.csv --warmup 3 --repeats 20 --csv $OUT/decode.csv --quiet > $L/decode.log 2>&1; el decode $?
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -E "^(k10|cublas)" $L/decode.log | awk '{print $1, $2, $3, $(NF-1)}'
