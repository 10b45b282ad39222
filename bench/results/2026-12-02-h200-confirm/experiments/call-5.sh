#!/usr/bin/env bash
# Call 5: tools/gpu-batch confirm on the GPU, once, on two shapes (experiments/confirm-demo.txt),
# through the final cache: the step as landed, not the session's own scripts.
# Packed with: GEMMSCOPE_BUILD_DIR=build GEMMSCOPE_PACK_XZ=1 tools/gpu-pack;
#   cp run-4/groups-cache.json .carry/tune-cache.json
export CONFIRM_CANDIDATES=bench/results/2026-12-02-h200-confirm/experiments/confirm-demo.txt CONFIRM_REPEATS=30 AB_REPS=1
tools/gpu-batch env confirm
