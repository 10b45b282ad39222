# The tune's refine round on the H200 (main, kernel version 5): a fresh tune of the
# 24 shapes at M = 128 and 512 with --refine 3 (how often the refine round overturns
# the first round's pick), then auto through that cache against auto through the
# version-5 cache (carried as .carry/tune-cache.json; tuned without a refine round),
# alternating, two runs each.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
SH=bench/results/2026-11-30-h200-pingpong-cut/experiments/2-v5/shapes-m128-512.csv
timeout 400 $C/gemmscope tune --shapes $SH --cache $OUT/tune-refine.json --hang-seconds 30 --quiet > $L/tune.log 2>&1; el tune $?
for i in 1 2; do
  for c in v5 refine; do
    cache=$C/tune-cache.json; [ $c = refine ] && cache=$OUT/tune-refine.json
    timeout 60 $C/gemmscope bench --kernels auto,cublas --shapes $SH --warmup 3 --repeats 20 --tune-cache $cache --csv $OUT/ab-$c-$i.csv --quiet > $L/ab-$c-$i.log 2>&1; el ab-$c-$i $?
    tail -1 $L/ab-$c-$i.log >> $L/steps.log
  done
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; cat $L/tune.log
