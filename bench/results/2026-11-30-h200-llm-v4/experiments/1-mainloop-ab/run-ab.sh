# The A/B call: kernel version 3 (.carry/gemmscope-base, 5c3275f) against the new loop
# (.carry/gemmscope, 8a89f4b), through version 3's cache (.carry/tune-cache.json).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
t0=$(date +%s); el() { echo "$1 rc=$2 $(( $(date +%s)-t0 ))s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $L/env.log 2>&1
timeout 150 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*:GemmDiff.K10*:GemmDiff.TuningCacheDispatch:GemmDiff.AutoAnyShape' > $L/diff.log 2>&1; el diff $?; tail -2 $L/diff.log
KS=k10:128x128x64.s6.wg2.c2x1.static.g0.sk2,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c2x1.dynamic.g8.sk1,k10:64x64x64.s12.wg1.c2x1.static.g8.streamk
for tool in racecheck synccheck memcheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $C/gemmscope check --kernels $KS --shapes 1x1x8,129x257x72,300x136x200,256x256x512,129x264x72 > $L/sanitize-$tool.log 2>&1; el sanitize-$tool $?
done
B="--kernels auto,cublas --tune-cache $C/tune-cache.json --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20"
timeout 100 $C/gemmscope bench $B --csv $OUT/new1.csv > $L/new1.log 2>&1; el new1 $?; tail -2 $L/new1.log
GEMMSCOPE_COMMIT=5c3275f timeout 100 $C/gemmscope-base bench $B --csv $OUT/base1.csv > $L/base1.log 2>&1; el base1 $?; tail -2 $L/base1.log
timeout 100 $C/gemmscope bench $B --csv $OUT/new2.csv > $L/new2.log 2>&1; el new2 $?; tail -2 $L/new2.log
F="--kernels k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:64x256x64.s5.wg1.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,cublas --shapes 512x4096x4096,512x28672x4096,2048x8192x8192 --warmup 3 --repeats 20"
timeout 60 $C/gemmscope bench $F --csv $OUT/fixed-new.csv > $L/fixed-new.log 2>&1; el fixed-new $?
GEMMSCOPE_COMMIT=5c3275f timeout 60 $C/gemmscope-base bench $F --csv $OUT/fixed-base.csv > $L/fixed-base.log 2>&1; el fixed-base $?
timeout 60 cuobjdump -sass -fun '_ZN9gemmscope4sm903k1011k10_tunableILi128ELi128ELi6ELi2ELi1ELb0EEEv14CUtensorMap_stS3_S3_NS1_7ProblemE' $C/gemmscope > $L/k10-128x128-c2-new.sass 2>&1
grep -h "ERROR SUMMARY" $L/sanitize-*.log
tar -C $OUT -czf $OUT/logs.tar.gz logs && rm -rf $L
