#!/usr/bin/env bash
# Call 9 (binaries 6364154, after the review mends: CCCL's %globaltimer/%clock64 reads in the
# harness's spin and clock kernels and in the probes' timer): the clock test, the two probes
# that time device-side waits (their traces against traces/hw/), and a short bench.
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT); mkdir -p $OUT
./.carry/clock_sampler_test 2>&1 | grep -E "SM clock|PASSED|FAILED"
timeout 100 ./.carry/gemmscope probe --only mbarrier --only tma_swizzle --out $OUT/probes > $OUT/probe.log 2>&1; echo probe rc=$?; tail -4 $OUT/probe.log
timeout 60 ./.carry/gemmscope bench --kernels auto,cublas --shapes 512x4096x4096,128x5376x4096,2048x8192x8192 \
  --tune-cache bench/results/2026-12-01-h200-clocks/merged-cache.json --clocks --quiet --csv $OUT/bench-spin.csv | tail -8
