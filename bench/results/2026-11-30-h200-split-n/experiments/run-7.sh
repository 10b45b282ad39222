# Probe (branch wip/decode-96): cuBLAS's decode tiling, 64x96 tiles with 10 stages in
# 8-CTA clusters (2 along M, 4 along N), beside 64x96 in 2x1 and k10's 64x128 2x1:
# correctness, sanitizers, and one decode bench.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
timeout 60 $C/gemm_diff_test --gtest_filter='*64x96*' > $L/diff.log 2>&1; el diff $?; tail -1 $L/diff.log >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 30 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels k10:64x96x64.s10.wg1.c2x4.static.g0.sk1,k10:64x96x64.s10.wg1.c2x4.static.g0.sk3 --shapes 300x136x200,128x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x4.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,cublas
timeout 60 $C/gemmscope bench --kernels $K --shapes 128x5376x1024,128x5376x4096,128x6144x4096,128x4096x4096,128x8192x5376,128x5376x16384 --warmup 3 --repeats 20 --csv $OUT/decode-96.csv --quiet > $L/decode-96.log 2>&1; el decode $?
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v "^#" $L/decode-96.log
