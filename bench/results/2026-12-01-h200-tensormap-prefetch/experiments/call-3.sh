#!/usr/bin/env bash
# Call 3 (binaries 22b2177 + results commits; tools/gpu-pack; the v7 cache carried as
# .carry/tune-cache.json; .carry/m128.csv = the 12 M = 128 rows of llm_projections.csv):
# 1. re-tune the 12 M = 128 shapes under B's evict_first loads (landed after the v7 tune),
#    every candidate's time to tune-times.csv;
# 2. the 48 shapes benched through the v7 cache ("old") and through the re-tuned cache
#    ("new"), alternated, two rounds each, same binary;
# 3. gemmscope check of auto through the new cache.
set -uo pipefail
TUNE_SHAPES=$PWD/.carry/m128.csv TUNE_RESUME=0 TUNE_LIMIT=330 tools/gpu-batch env tune
mv "$OUT/summary.txt" "$OUT/summary-tune.txt"
for rep in 1 2; do
  for who in old new; do
    cache=.carry/tune-cache.json; [ $who = new ] && cache=$OUT/tune-cache.json
    t0=$(date +%s)
    timeout 100 .carry/gemmscope bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv \
      --tune-cache "$cache" --warmup 3 --repeats 20 --csv "$OUT/ab-$who-$rep.csv" --quiet >/dev/null 2>&1
    echo "bench $who-$rep rc=$? ($(( $(date +%s) - t0 )) s)"
  done
done
GEMMSCOPE_TUNE_CACHE=$OUT/tune-cache.json timeout 60 .carry/gemmscope check --kernels auto --cases 8 --max-dim 2000 \
  >"$OUT/check.log" 2>&1; echo "check rc=$?"
# At most 8 files come back.
tar -C "$OUT" -czf "$OUT/extra.tar.gz" summary-tune.txt check.log && rm "$OUT/summary-tune.txt" "$OUT/check.log"
