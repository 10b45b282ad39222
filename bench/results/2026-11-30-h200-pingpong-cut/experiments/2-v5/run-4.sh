# Kernel version 5 on the H200, fourth call, on the final binaries (the 2x2 and 2x4
# instances dropped): gemm_diff_test's k10 tests, and a second bench of the whole
# shape set through the version-5 cache (carried as .carry/tune-cache.json).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
timeout 110 $C/gemmscope bench --kernels auto,k08,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json --csv $OUT/bench-llm-repeat.csv --quiet > $L/bench-llm-repeat.log 2>&1; el bench $?
tail -3 $L/bench-llm-repeat.log >> $L/steps.log
timeout 200 $C/gemm_diff_test --gtest_filter='*K10*:*TuningCache*:*AutoAnyShape*' > $L/diff-final.log 2>&1; el diff $?; tail -2 $L/diff-final.log >> $L/steps.log
