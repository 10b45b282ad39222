set -u
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
K=cublas,k10:128x128x64.s6.wg2.c1x1.static.g0.sk2,k10:128x64x64.s8.wg2.c1x1.static.g0.sk2,k10:128x128x64.s6.wg2.c1x2.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2.c1x1.static.g0.streamk,k10:64x128x64.s8.wg1.c1x1.static.g0.sk2
S=128x6144x4096,128x4096x4096,128x5376x4096,512x4096x4096,2048x5376x4096,8192x8192x8192
RC_PARAMS="max_success=25" GEMMSCOPE_K10_LOAD_BATCH=2 timeout 120 .carry/gemm_diff_test --gtest_filter='*K10Instances*:*K10SplitKDeterministic*' > $OUT/diff-lb2.log 2>&1; echo "diff lb2 rc=$?"; tail -3 $OUT/diff-lb2.log
for b in 1 2 3; do
  GEMMSCOPE_K10_LOAD_BATCH=$b timeout 150 .carry/gemmscope bench --kernels $K --shapes $S --warmup 3 --repeats 20 --csv $OUT/lb$b.csv > $OUT/lb$b.log 2>&1; echo "lb$b rc=$?"
  grep -A30 "^kernel" $OUT/lb$b.log | grep -v "^\[bench" | tail -50
done
