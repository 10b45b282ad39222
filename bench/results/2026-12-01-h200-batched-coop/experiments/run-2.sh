# Calls 2 and 3. Kernel version 6 (.carry/COMMIT): the full re-tune of every compiled
# instance on the 48 shapes into a fresh cache. The tune saves the cache after every
# shape, so a call that runs out of time keeps what it finished and the next call
# resumes with --skip-tuned (the call's own cache from .carry/tune-cache.json when
# present). With BENCH=1, then the bench of the 48 shapes through it (BENCH_SECOND=1: a second run).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
[ -f $C/tune-cache.json ] && cp $C/tune-cache.json $OUT/tune-cache.json
timeout ${TUNE_SECONDS:-480} $C/gemmscope tune --shapes bench/shapes/llm_projections.csv --cache $OUT/tune-cache.json --skip-tuned --hang-seconds 20 --quiet > $L/tune.log 2>&1; el tune $?
grep -c "kernel_version" $OUT/tune-cache.json >> $L/steps.log
if [ "${BENCH:-0}" = 1 ]; then
  for rep in "" ${BENCH_SECOND:+-2}; do
    timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $OUT/tune-cache.json --csv $OUT/bench-llm$rep.csv --json $OUT/bench-llm$rep.json --quiet > $L/bench-llm$rep.log 2>&1; el bench$rep $?
    tail -2 $L/bench-llm$rep.log >> $L/steps.log
  done
fi
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
