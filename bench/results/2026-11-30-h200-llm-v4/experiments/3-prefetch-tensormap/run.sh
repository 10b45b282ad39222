# The A/B/A/B call: .carry/gemmscope (0f77bfa, with the prefetch) against
# .carry/gemmscope-old (5957f12), both through tune-cache.json of this run.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
t0=$(date +%s); el() { echo "$1 rc=$2 $(( $(date +%s)-t0 ))s"; }
timeout 100 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*:GemmDiff.K10*:GemmDiff.AutoAnyShape' > $L/diff.log 2>&1; el diff $?
for tool in memcheck synccheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $C/gemmscope check --kernels auto,k10:64x128x64.s8.wg1.c2x1.static.g0.sk2 --shapes 1x1x8,129x264x72,256x256x512 > $L/sanitize-$tool.log 2>&1; el $tool $?
done
B="--kernels auto,cublas --tune-cache $C/tune-cache.json --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20"
for i in 1 2; do
  timeout 80 $C/gemmscope bench $B --csv $OUT/pf$i.csv --json $OUT/pf$i.json > $L/pf$i.log 2>&1; el pf$i $?
  GEMMSCOPE_COMMIT=5957f12 timeout 80 $C/gemmscope-old bench $B --csv $OUT/base$i.csv > $L/base$i.log 2>&1; el base$i $?
done
