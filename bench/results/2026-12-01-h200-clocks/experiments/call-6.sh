#!/usr/bin/env bash
# Call 6: the 48 shapes, old against new, alternated, each with --clocks:
#   old = binaries f556c7f through merged-cache.json (the last session's measure);
#   new = binaries e6bd8e0 (plain B loads where ClusterM = 1) through call 5's cache.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
shapes=bench/shapes/llm_projections.csv
for r in 1 2; do
  for who in old new; do
    if [ $who = old ]; then bin=.carry/old/gemmscope cache=.carry/old/tune-cache.json c=f556c7f
    else bin=.carry/gemmscope cache=.carry/tune-cache.json c=$(cat .carry/COMMIT); fi
    GEMMSCOPE_COMMIT=$c timeout 140 "$bin" bench --clocks --kernels auto,cublas --tune-cache "$cache" --shapes "$shapes" \
      --warmup 3 --repeats 20 --quiet --csv "$OUT/bench-$who-$r.csv" >"$OUT/bench-$who-$r.log" 2>&1
  done
done
tail -n 2 "$OUT"/bench-*.log
