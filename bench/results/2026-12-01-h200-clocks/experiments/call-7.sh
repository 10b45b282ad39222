#!/usr/bin/env bash
# Call 7: the measure. Binaries e6bd8e0 through merged-cache.json (merge.py: call 6's
# clear wins of call 5's tune taken into the last session's cache), the 48 shapes with
# --clocks; between its two runs, the old binaries (f556c7f) through the old cache.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
shapes=bench/shapes/llm_projections.csv
run() {  # name, binary, cache, commit
  GEMMSCOPE_COMMIT=$4 timeout 140 "$2" bench --clocks --kernels auto,cublas --tune-cache "$3" --shapes "$shapes" \
    --warmup 3 --repeats 20 --quiet --csv "$OUT/$1.csv" >"$OUT/$1.log" 2>&1
}
run bench-merged-1 .carry/gemmscope .carry/tune-cache.json "$(cat .carry/COMMIT)"
run bench-old-1 .carry/old/gemmscope .carry/old/tune-cache.json f556c7f
run bench-merged-2 .carry/gemmscope .carry/tune-cache.json "$(cat .carry/COMMIT)"
tail -n 1 "$OUT"/bench-*.log
