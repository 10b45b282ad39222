#!/usr/bin/env bash
# Calls 2 and 3: the HBM read rate (experiments/read_bw.cu, built here with
#   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o .carry2/read_bw experiments/read_bw.cu
# and carried in .carry2). Call 2 ran the source without its last block (one block per SM
# on 132/92/66 SMs); call 3 the whole file. Each call got a fresh machine.
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.limit --format=csv > "$OUT/gpu.txt"
.carry2/read_bw > "$OUT/read_bw.csv" 2>&1
