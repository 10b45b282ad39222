#!/usr/bin/env bash
# Call 6 (binaries c112144, as call 4; run from the device tool's command line): split-K
# of the wider tiles at four M = 512 shapes, against 128 x 128 in 2x1 and cuBLAS. Do
# fewer bytes per flop into each SM (128 x 256, split 2 ways to fill the SMs) pay for
# the fp32 partials?
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
.carry/gemmscope bench --kernels cublas,k10:128x128x64.s6.wg2.c2x1.static.g0.sk1,k10:128x256x64.s4.wg2.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.static.g0.streamk,k10:128x192x64.s4.wg2.c2x1.static.g0.sk2,k10:128x256x64.s4.wg2.c2x1.static.g0.sk3 \
  --shapes 512x4096x4096,512x4096x14336,512x5376x4096,512x8192x8192 --warmup 3 --repeats 20 --quiet --csv $OUT/sk.csv
