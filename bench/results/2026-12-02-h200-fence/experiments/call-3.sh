#!/usr/bin/env bash
# Call 3: the producer reads the first load's kernel parameters (the B load form and the
# tensor maps' generic addresses) before the first cluster barrier's wait ("params",
# params-early), against main ("old", 0fffd2c's kernels), through tools/gpu-batch:
#   1. gemm_diff_test '*K10*' on params;
#   2. memcheck, racecheck, synccheck, initcheck on params (static, stream-K, split-K,
#      ping-pong, dynamic; ragged shapes);
#   3. the SASS of three instances of both builds (are the constant loads before the wait?);
#   4. the 48 shapes through the kept cache, old then params, twice, and their comparison.
# Packed with: GEMMSCOPE_BUILD_DIR=/tmp/build-main GEMMSCOPE_AB_BUILDS="params=build"
#   GEMMSCOPE_PACK_XZ=1 tools/gpu-pack; cp <kept cache> .carry/tune-cache.json
set -uo pipefail
export AB_REPS=2 SANITIZE_BUILD=params
export SANITIZE_KERNELS=k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.sk1,k10:128x224x64.s4.wg2.c2x1.static.g0.sk2,k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk3,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c1x1.static.g0.streamk,k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1
export SANITIZE_SHAPES=2176x2056x136,1800x2600x264,512x1024x512
export SASS_FUNCS='k10_tunableILi128ELi128ELi64ELi6ELi2ELi1ELb0ELb0E|k10_tunableILi64ELi96ELi128ELi5ELi2ELi1ELb0ELb0E|k10_tunableILi128ELi168ELi64ELi5ELi2ELi1ELb0ELb0E'
tools/gpu-batch env ab-diff sanitize sass ab
