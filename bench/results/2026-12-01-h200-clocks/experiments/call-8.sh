#!/usr/bin/env bash
# Call 8 (binaries a7bb6fc): the GPU test of NVML's SM clock against %clock64 over
# %globaltimer, through tools/gpu-batch, then twice more by hand for its printed figures.
tools/gpu-batch env clock
./.carry/clock_sampler_test --gtest_repeat=2 2>&1 | grep "SM clock"
