# Ping-pong cut tiles: the SASS of the untrapped kernel and four candidate fixes
# (patches beside this script, built in a worktree of ab064ef with the trap and
# the refusals removed), each on the two configurations that hung last session; then
# the decode landscape (which structure is closest to cuBLAS at M = 128) and an ncu
# profile of k10 against cuBLAS at 128x5376x4096. Run from the repository root with
# tools/gpu-pack's .carry plus .carry/exp/<variant>/gemmscope.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
{ nvidia-smi; nvidia-smi -q -d CLOCK | head -40; echo commit $GEMMSCOPE_COMMIT; } > $OUT/env.log 2>&1
PP=_ZN9gemmscope4sm903k1011k10_tunableILi128ELi128ELi6ELi2ELi1ELb0ELb1EEEv14CUtensorMap_stS3_S3_NS1_7ProblemE
$CUOBJ -sass -fun $PP $C/exp/v0/gemmscope > $OUT/sass-v0.txt 2>&1
$CUOBJ -sass -fun $PP $C/exp/v5/gemmscope > $OUT/sass-v5.txt 2>&1
S=300x136x200,1100x1600x1024,100x264x4096,2000x1600x520
V=$OUT/variants.log; : > $V
for v in v0 v1 v3 v4 v5; do
  for k in k10:128x128x64.s6.wg2pp.c2x1.static.g2.sk3 k10:128x128x64.s6.wg2pp.c1x2.static.g2.streamk; do
    timeout 20 $C/exp/$v/gemmscope check --kernels $k --shapes $S > /tmp/one.log 2>&1; rc=$?
    echo "$v $k rc=$rc pass=$(grep -c PASS /tmp/one.log) fail=$(grep -c FAIL /tmp/one.log)" >> $V
    grep -E "FAIL|error" /tmp/one.log | head -2 >> $V
    if [ $rc -eq 0 ]; then
      for tool in synccheck memcheck racecheck; do
        timeout 60 compute-sanitizer --tool $tool --print-limit 2 $C/exp/$v/gemmscope check --kernels $k --shapes $S > /tmp/san.log 2>&1
        echo "  $tool rc=$? $(grep -E 'ERROR SUMMARY|HAZARD|RACECHECK SUMMARY' /tmp/san.log | tr '\n' ' ')" >> $V
      done
    elif [ $v = v0 ]; then
      timeout 60 compute-sanitizer --tool synccheck --print-limit 2 $C/exp/$v/gemmscope check --kernels $k --shapes $S > /tmp/san.log 2>&1
      echo "  synccheck rc=$?" >> $V; grep -E "^========= [A-Z]|Device Frame|by thread" /tmp/san.log | head -8 >> $V
    fi
  done
done
timeout 200 $C/gemm_diff_test --gtest_filter='GemmDiff/K10Instances.*' > $OUT/diff.log 2>&1; echo "diff rc=$?" >> $V
K=$(cat $PWD/bench/results/2026-11-30-h200-pingpong-cut/experiments/1-diagnose/decode-kernels.txt)
timeout 120 $C/gemmscope bench --kernels $K --shapes 128x5376x4096,128x6144x4096,128x4096x4096 --warmup 3 --repeats 20 --csv $OUT/decode.csv --quiet > /tmp/dec.log 2>&1; echo "decode rc=$?" >> $V
sec="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats"
timeout 150 $NCU $sec --launch-skip 0 --launch-count 4 $C/gemmscope bench --kernels cublas,k10:64x128x64.s8.wg1.c2x1.static.g0.sk1 --shapes 128x5376x4096 --warmup 0 --repeats 1 > $OUT/ncu-decode.txt 2>&1; echo "ncu rc=$?" >> $V
