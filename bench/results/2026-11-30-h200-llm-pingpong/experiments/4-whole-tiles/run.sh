# Ping-pong restricted to whole tiles: the k10 differential tests (ping-pong
# instances and every instance's split-K/stream-K cases) and the three sanitizers
# on the ping-pong instances, whole tiles, ragged shapes.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
t0=$(date +%s); el() { echo "$1 rc=$2 $(( $(date +%s)-t0 ))s"; }
timeout 110 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*wg2pp*:GemmDiff.K10*:GemmDiff.TuningCacheDispatch' > $L/diff.log 2>&1; el diff $?; tail -3 $L/diff.log; grep -E "^\[  FAILED" $L/diff.log | head
KS=k10:128x128x64.s6.wg2pp.c2x1.static.g2.sk1,k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk1,k10:128x128x64.s6.wg2pp.c1x1.static.g8.sk1
for tool in synccheck memcheck racecheck; do
  timeout 28 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 5 $C/gemmscope check --kernels $KS --shapes 300x136x200,129x264x72,2000x1600x520 > $L/sanitize-$tool.log 2>&1; el sanitize-$tool $?
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" $L/sanitize-$tool.log | head -12
done
