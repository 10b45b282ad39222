# Call 5. The batched epilogue's buffer reuse across units under the sanitizers:
# call 4's multi-unit shape (K = 333) was refused by TMA's rules, so its sanitizer runs
# saw one unit per CTA. Shapes with 3-8 units per cluster for the 64-row instances;
# main's binaries as in call 4 (.carry/COMMIT).
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x96x64.s10.wg1.c2x1.static.g8.streamk,k10:64x192x64.s6.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g8.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk2
for tool in racecheck synccheck memcheck; do
  timeout 150 compute-sanitizer --tool $tool --print-limit 2 $C/gemmscope check --kernels $K --shapes 1000x2688x136,2000x1600x520 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
