# Call 10. Does the bench favour a contestant whose kernel leaves dirty L2 lines (a
# split-K or stream-K workspace) for the one timed after it? main (.carry/COMMIT), the
# version-6 cache: the 48 shapes with L2 as left and with --clean-l2, alternated twice.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=/tmp/logs; rm -rf $L; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
for rep in a b; do
  for mode in left clean; do
    flag=""; [ $mode = clean ] && flag=--clean-l2
    timeout 110 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --tune-cache $C/tune-cache.json $flag --csv $OUT/llm-$mode-$rep.csv --quiet > $L/llm-$mode-$rep.log 2>&1; el llm-$mode-$rep $?
    tail -1 $L/llm-$mode-$rep.log | sed "s/^/$mode-$rep /" >> $L/steps.log
  done
done
tar -C /tmp -czf $OUT/logs.tar.gz logs; cp $L/steps.log $OUT/
cat $L/steps.log
