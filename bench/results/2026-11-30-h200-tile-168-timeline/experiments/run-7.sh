# Call 7. How many stages to load whole before the cluster barrier? Experiment binary
# (.carry/exp: 6ca40ed plus experiments/prefill.patch, the stage count taken from
# GEMMSCOPE_EXP: 0 none, as main; 1; 2; 9 = the whole first lap, as call 6; instances
# cut to six rows). Checks with 1 and 2, then the six configurations the cache picks on
# six shapes, alternated over the modes twice.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/exp/COMMIT)
X=$C/exp/gemmscope-exp
E=bench/results/2026-11-30-h200-tile-168-timeline/experiments
L=$OUT/logs; mkdir -p $L
el() { echo "$1 rc=$2 at $(date +%T)" >> $L/steps.log; }
{ nvidia-smi; nvidia-smi -q -d CLOCK; echo commit $GEMMSCOPE_COMMIT; date -u; } > $L/env.log 2>&1
K=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk2,k10:64x128x64.s8.wg1.c2x1.static.g8.streamk,k10:128x168x64.s5.wg2.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1
for x in 1 2; do
  GEMMSCOPE_EXP=$x timeout 60 $X check --kernels $K --shapes 300x136x200,100x264x4096,2000x1600x520 > $L/check-$x.log 2>&1; el check-$x $?
  tail -1 $L/check-$x.log >> $L/steps.log
done
KB=k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk1,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c1x2.static.g0.sk1,cublas
for rep in a b; do for x in 0 1 2 9; do
  GEMMSCOPE_EXP=$x timeout 60 $X bench --kernels $KB --shapes $E/shapes-prefill.csv --warmup 3 --repeats 20 --csv $L/pf-$x-$rep.csv --quiet > $L/pf-$x-$rep.log 2>&1; el pf-$x-$rep $?
done; done
tar -C $OUT -czf $OUT/logs.tar.gz logs
cat $L/steps.log
python3 - <<'PY'
import csv, os
L = os.environ['OUT'] + '/logs'
pick = {'128x5376x4096': '64x96x128', '128x6144x4096': '64x96x128', '128x4096x4096': '64x64x128',
        '128x8192x5376': '64x128x64', '512x5376x4096': '128x168x64', '128x28672x4096': '128x256x64'}
for rep in 'ab':
    for x in '0129':
        rows = list(csv.DictReader(open(f'{L}/pf-{x}-{rep}.csv')))
        out = []
        for r in rows:
            s = f"{r['m']}x{r['n']}x{r['k']}"
            if r['kernel'].startswith('k10:' + pick[s] + '.'):
                out.append(f"{s} {float(r['median_ms'])*1000:.2f}us {float(r['ratio_to_cublas']):.3f}")
        print(rep, x, ' | '.join(out))
PY
