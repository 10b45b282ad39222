# Call 8. The heuristic's one moved pick on the held-out shapes: 256x3584x18944 went
# from 128x128 c2x1 split-K 2 (before 128x168 existed) to 128x168 c2x1 split-K 3. Both,
# side by side with cuBLAS, twice; then `auto` without a cache (the heuristic) on the
# 12 held-out Qwen2.5-7B shapes. main's binaries (.carry/COMMIT).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
unset GEMMSCOPE_TUNE_CACHE
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:128x168x64.s5.wg2.c2x1.static.g0.sk3,k10:128x128x64.s6.wg2.c2x1.static.g0.sk2,auto,cublas
for rep in a b; do
  timeout 60 $C/gemmscope bench --kernels $K --shapes 256x3584x18944 --warmup 3 --repeats 30 --csv $OUT/pick-$rep.csv --quiet > $L/pick-$rep.log 2>&1; el pick-$rep $?
done
timeout 90 $C/gemmscope bench --kernels auto,cublas --shapes bench/shapes/qwen25_7b_heldout.csv --warmup 3 --repeats 20 --csv $OUT/heldout.csv --quiet > $L/heldout.log 2>&1; el heldout $?
tail -2 $L/heldout.log >> $L/steps.log
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; for rep in a b; do cut -d, -f1,5,10,20 $OUT/pick-$rep.csv; done
