#!/usr/bin/env bash
# Call 3: why the ring epilogue (a, 143e571) is slower than main (old, 5f7d086) at
# 512x5376x4096 with 128 x 168 (one unit per CTA): ncu of both, alternated, and the SASS of
# that instance in both binaries.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
L=$OUT; cfg=k10:128x168x64.s5.wg2.c2x1.static.g0.sk1
m='gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,smsp__inst_executed.sum,sm__pipe_tensor_op_gmma_cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active'
for r in 1 2; do for v in old a; do
  timeout 60 ncu --clock-control none --metrics $m --kernel-name regex:k10_tunable --launch-skip 2 --launch-count 2 \
    .carry/$v/gemmscope bench --kernels $cfg --shapes 512x5376x4096 --warmup 1 --repeats 2 --quiet >$L/ncu-$v-$r.txt 2>&1
  echo "ncu $v $r rc=$?" >>$L/summary.txt
  grep -E "gpu__time|cycles_active.avg|inst_executed|gmma" $L/ncu-$v-$r.txt | awk '{print "   ", $1, $(NF)}' >>$L/summary.txt
done; done
od=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in old a; do
  $od -sass -fun '_ZN9gemmscope4sm903k1011k10_tunableILi128ELi168ELi64ELi5ELi2ELi1ELb0ELb0EEEv14CUtensorMap_stS3_S3_NS1_7ProblemE' .carry/$v/gemmscope >$L/sass-$v.txt 2>&1
  echo "sass $v rc=$? lines $(grep -c '/\*[0-9a-f]*\*/' $L/sass-$v.txt)" >>$L/summary.txt
done
gzip $L/sass-*.txt
cat $L/summary.txt
