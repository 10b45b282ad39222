#!/usr/bin/env bash
# Call 6: the landed binaries (tools/gpu-pack at the commit in .carry/COMMIT, with the 64 x N/32
# instances), the 48 shapes twice through merged-cache.json (carried as .carry/tune-cache.json).
set -uo pipefail
BENCH_KERNELS=auto,cublas tools/gpu-batch env bench-llm
mv "$OUT/bench-llm.csv" "$OUT/bench-llm-1.csv"; mv "$OUT/bench-llm.json" "$OUT/bench-llm-1.json"
mv "$OUT/summary.txt" "$OUT/summary-1.txt"; mv "$OUT/results.tar.gz" "$OUT/results-1.tar.gz"
BENCH_KERNELS=auto,cublas tools/gpu-batch bench-llm
rm -f "$OUT/tune-cache.json"  # the carried merged cache itself; at most 8 files come back
