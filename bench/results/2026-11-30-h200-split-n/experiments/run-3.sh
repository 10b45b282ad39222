# Probe of the decode stream rate (branch wip/stage-probe: 64x128 c2x1 with 4 and 6
# stages beside the compiled 8): if k10's decode is bound by weight bytes in flight,
# time per k-block grows as stages fall. Also stream-K against whole tiles at the
# worst decode shapes, and ncu's SM-active cycles for stream-K. Run from the
# repository root with tools/gpu-pack's .carry.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
P=k10:64x128x64.s
timeout 60 $C/gemmscope check --kernels ${P}4.wg1.c2x1.static.g0.sk1,${P}6.wg1.c2x1.static.g0.sk1,${P}6.wg1.c2x1.static.g0.streamk --shapes 1x1x8,300x136x200,128x5376x4096,2000x1600x520 > $L/check.log 2>&1; el check $?
K=${P}4.wg1.c2x1.static.g0.sk1,${P}6.wg1.c2x1.static.g0.sk1,${P}8.wg1.c2x1.static.g0.sk1,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes 128x5376x1024,128x5376x4096,128x5376x16384,128x8192x5376,128x28672x4096 --warmup 3 --repeats 20 --csv $OUT/stages.csv --quiet > $L/stages.log 2>&1; el stages $?
K=${P}8.wg1.c2x1.static.g0.sk1,${P}8.wg1.c2x1.static.g0.streamk,${P}8.wg1.c2x1.static.g0.sk2,${P}6.wg1.c2x1.static.g0.streamk,cublas
timeout 90 $C/gemmscope bench --kernels $K --shapes 128x5376x4096,128x4096x4096,128x6144x4096 --warmup 3 --repeats 20 --csv $OUT/streamk.csv --quiet > $L/streamk.log 2>&1; el streamk $?
for k in ${P}8.wg1.c2x1.static.g0.streamk ${P}8.wg1.c2x1.static.g0.sk1; do
  timeout 60 ncu --section SpeedOfLight --metrics sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,dram__bytes_read.sum --kernel-name regex:k10_tunable --launch-skip 1 --launch-count 1 \
    $C/gemmscope bench --kernels $k --shapes 128x5376x4096 --warmup 0 --repeats 1 --quiet > $L/ncu-${k##*.}.txt 2>&1; el ncu $?
done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log; grep -v "^#" $L/check.log | tail -8; cat $L/stages.log $L/streamk.log | grep -v "^#"; grep -hE "sm__cycles|dram__bytes|Elapsed Cycles|Duration" $L/ncu-*.txt
