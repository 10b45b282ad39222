#!/usr/bin/env bash
# Call 4: block-swizzle group sizes at the power-capped shapes. Where a cluster row's CTAs
# load B plainly (1x2, 1x1), L2's request coalescer merges a B tile's reads only among
# clusters of one GPC, and consecutive 2-CTA clusters go round robin over 8 GPCs (then 7):
# clusters u and u + 8 share B when the band holds at least 16 rows of units (g16, g32 or
# g0), while a band of 8 (g8) puts them on one A row instead. For 2x1 (B multicast, A plain)
# the same pairs share A with bands of 8 or fewer (g4, g8). Per shape of groups.txt: the
# confirmed cache's pick with each group size, two 40-round benches in opposite orders,
# pick.py's rule, then the 48 shapes through the confirmed cache and the result, twice.
# Packed with: GEMMSCOPE_BUILD_DIR=build GEMMSCOPE_PACK_XZ=1 tools/gpu-pack;
#   cp run-1/confirmed-cache.json .carry/tune-cache.json
set -uo pipefail
here=bench/results/2026-12-02-h200-confirm/experiments
tools/gpu-batch env >/dev/null 2>&1 || true
g=.carry/gemmscope; export LD_LIBRARY_PATH=.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
w=$OUT/work; mkdir -p "$w/groups"
t0=$(date +%s)
all=$(cut -d' ' -f2 "$here/groups.txt" | tr ',' '\n' | sort -u | sed 's/^/k10:/' | paste -sd,)
$g check --kernels "$all" --shapes 2176x2056x136,1800x2600x264,512x1024x512 >"$w/check.log" 2>&1
echo "check of the variants: rc $? at $(( $(date +%s) - t0 )) s; $(tail -1 "$w/check.log")" >>"$OUT/summary.txt"
while read -r shape cands; do
  list=$(echo "$cands" | tr ',' '\n' | sed 's/^/k10:/' | paste -sd,)
  rev=$(echo "$cands" | tr ',' '\n' | tac | sed 's/^/k10:/' | paste -sd,)
  $g bench --quiet --repeats 40 --shapes "$shape" --kernels "cublas,$list" --csv "$w/groups/$shape-a.csv" </dev/null >"$w/groups/$shape-a.log" 2>&1
  $g bench --quiet --repeats 40 --shapes "$shape" --kernels "$rev,cublas" --csv "$w/groups/$shape-b.csv" </dev/null >"$w/groups/$shape-b.log" 2>&1
  echo "groups $shape: rc $? at $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done <"$here/groups.txt"
python3 "$here/pick.py" .carry/tune-cache.json "$OUT/groups-cache.json" "$w"/groups/*.csv >"$OUT/decisions.txt" 2>&1
tail -1 "$OUT/decisions.txt" >>"$OUT/summary.txt"
if grep -q "^0 entries replaced" "$OUT/decisions.txt"; then reps=0; else reps=2; fi
runs=""
for rep in $(seq 1 $reps); do
  for who in kept groups; do
    cache=.carry/tune-cache.json; [ $who = groups ] && cache=$OUT/groups-cache.json
    $g bench --quiet --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache "$cache" \
      --csv "$w/llm-$who-$rep.csv" >"$w/llm-$who-$rep.log" 2>&1
    echo "llm-$who-$rep: rc $? at $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
    runs="$runs $who-$rep=$w/llm-$who-$rep.csv"
  done
done
if [ -n "$runs" ]; then
  $g compare $runs >"$OUT/compare.txt" 2>&1
  $g compare --per-shape $runs >"$OUT/compare-shapes.txt" 2>&1
  cat "$OUT/compare.txt" >>"$OUT/summary.txt"
fi
cp "$OUT/results.tar.gz" "$w/" 2>/dev/null
tar -C "$OUT" -czf "$OUT/work.tgz" work && rm -rf "$w" "$OUT/results.tar.gz"
