# Call 1. Experiment binary (.carry/exp: the tile168 branch's 4891a0b plus
# experiments/timeline.patch, instances cut to five rows).
# 1. 128x168 in 2x1 clusters (84-row B slices, 56-column unswizzled store boxes):
#    differential checks (split-K 1/2, stream-K) and the three sanitizers.
# 2. Side by side with 128x176 and 128x224 (2x1) and cuBLAS on shapes-168.csv, twice.
# 3. Per-CTA timelines (GEMMSCOPE_TIMELINE: %globaltimer and %clock64 at 8 points)
#    of the two shapes still below 0.95 and of 128x168, with the bench's event times.
# 4. ncu kernel durations (gpu__time_duration, --clock-control none) of k10 and cuBLAS.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
X=$C/exp/gemmscope-exp
E=bench/results/2026-11-30-h200-tile-168-timeline/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
N168=k10:128x168x64.s5.wg2.c2x1.static
timeout 90 $X check --kernels $N168.g0.sk1,$N168.g0.sk2,$N168.g8.streamk,$N168.g0.sk3 --shapes 300x136x200,256x672x1024,100x264x4096,512x5376x4096,1000x5376x333,136x168x64 > $L/check.log 2>&1; el check $?
echo "check: $(grep -c PASS $L/check.log) pass, $(grep -c FAIL $L/check.log) fail" >> $L/steps.log
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 2 $X check --kernels $N168.g0.sk1,$N168.g8.streamk,$N168.g0.sk2 --shapes 300x136x200,256x672x1024,100x264x4096 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? pass=$(grep -c PASS $L/san-$tool.log) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san-$tool.log | tr '\n' ' ')" >> $L/steps.log
done
K=k10:128x176x64.s5.wg2.c2x1.static.g0.sk1,$N168.g0.sk1,k10:128x224x64.s4.wg2.c2x1.static.g0.sk1,cublas
for rep in a b; do
  timeout 60 $X bench --kernels $K --shapes $E/shapes-168.csv --warmup 3 --repeats 20 --csv $OUT/side-168-$rep.csv --quiet > $L/side-168-$rep.log 2>&1; el side-$rep $?
done
tl() {  # name config shape
  GEMMSCOPE_TIMELINE=$L/tl-$1.csv timeout 30 $X bench --kernels $2,cublas --shapes $3 --warmup 2 --repeats 12 --csv $L/tl-$1-bench.csv --quiet > $L/tl-$1.log 2>&1; el tl-$1 $?
}
tl d4096 k10:64x96x128.s5.wg1.c2x1.static.g0.sk1 128x5376x4096
tl d512 k10:64x96x128.s5.wg1.c2x1.static.g0.sk1 128x5376x512
tl m176 k10:128x176x64.s5.wg2.c2x1.static.g0.sk1 512x5376x4096
tl m168 $N168.g0.sk1 512x5376x4096
tl m176k512 k10:128x176x64.s5.wg2.c2x1.static.g0.sk1 512x5376x512
for s in 128x5376x4096:k10:64x96x128.s5.wg1.c2x1.static.g0.sk1 512x5376x4096:k10:128x176x64.s5.wg2.c2x1.static.g0.sk1 512x5376x4096:$N168.g0.sk1; do
  shape=${s%%:*}; cfg=${s#*:}
  timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --kernel-name regex:'^(?!.*spin).*' $X bench --kernels $cfg,cublas --shapes $shape --warmup 1 --repeats 3 --quiet > $L/ncu-$shape-${cfg:4:7}.txt 2>&1; el ncu-$shape $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
for f in $OUT/side-168-*.csv; do echo "== $f"; cut -d, -f1-5,10 $f | grep -v "^kernel"; done
for f in $L/ncu-*.txt; do echo "== $(basename $f)"; grep -E "k10_tunable|nvjet|sm90_xmma|gpu__time_duration" $f | sed -E 's/\(int, int.*//' | cut -c1-110 | head -16; done
