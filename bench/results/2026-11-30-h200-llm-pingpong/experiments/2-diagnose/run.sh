# Which ping-pong configurations fail (run 1 hung in K10SplitKLongK and memcheck
# flagged a partial-warp stmatrix in 128x128 c1x2 stream-K): each configuration on
# its own, then memcheck and synccheck on the first two that fail.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
L=$OUT/logs; mkdir -p $L
S=300x136x200,1100x1600x1024,100x264x4096,2000x1600x520
bad=""
for inst in 128x128x64.s6.wg2pp.c2x1.static 128x128x64.s6.wg2pp.c1x2.static 128x128x64.s6.wg2pp.c1x1.static 128x64x64.s8.wg2pp.c2x1.static; do
  for tail in g0.sk1 g2.sk3 g0.sk8 g2.streamk; do
    k=k10:$inst.$tail
    timeout 20 $C/gemmscope check --kernels $k --shapes $S > $L/one.log 2>&1; rc=$?
    echo "$k rc=$rc $(grep -c PASS $L/one.log) pass $(grep -c FAIL $L/one.log) fail"
    grep -E "FAIL|error" $L/one.log | head -2
    [ $rc -ne 0 ] && bad="$bad $k"
  done
done
n=0
for k in $bad; do
  n=$((n+1)); [ $n -gt 2 ] && break
  for tool in memcheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool --print-limit 3 $C/gemmscope check --kernels $k --shapes $S > $L/$tool-$n.log 2>&1
    echo "$tool $k rc=$?"; grep -E "^========= [A-Z]|Device Frame" $L/$tool-$n.log | sort | uniq -c | head -8
  done
done
rm -f $L/one.log
