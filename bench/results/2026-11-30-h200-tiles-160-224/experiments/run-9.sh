# After the review mends (7302f0d: the store box's swizzle now comes from the
# model's swizzle_span_bytes): differential tests of one instance per store-box
# width (64, 32 and 16 columns) on the H200.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
L=$OUT/logs; mkdir -p $L
{ nvidia-smi; echo commit $(cat $C/COMMIT); date -u; } > $L/env.log 2>&1
timeout 120 $C/gemm_diff_test --gtest_filter='*128x256x64_s4_wg2_c2x1_static_g0_sk1*:*64x96x64_s10*:*128x160x64*:*128x176x64*' > $L/diff.log 2>&1; echo "diff rc=$?" >> $L/diff.log
grep -E "OK \]|FAILED|PASSED|rc=" $L/diff.log
