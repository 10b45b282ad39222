#!/usr/bin/env bash
# Call 7: the last piece of a cut tile keeps its own partial in registers where it is
# piece 0 or 1 (new binaries, .carry/COMMIT) against the kernel as at the session's start
# (.carry/old: c112144, whose only difference, the GPC order, is off). Correctness first
# (k10's differential tests, determinism included; the three sanitizers on split-K and
# stream-K), then `auto` through the merged cache over the 48 shapes, old and new
# alternated, and the split-K entries side by side.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=.carry/gemmscope
OLD=.carry/old/gemmscope
cache=.carry/tune-cache.json
L=$OUT/logs
mkdir -p "$L"
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
t0=$(date +%s)
timeout 200 .carry/gemm_diff_test --gtest_filter='*K10*' >"$L/diff-k10.log" 2>&1
echo "diff rc=$? $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk3,k10:128x256x64.s4.wg2.c2x1.static.g0.sk2,k10:64x128x64.s8.wg1.c2x1.static.g0.streamk
cfgs=$cfgs,k10:128x128x64.s6.wg2.c1x1.static.g8.sk5
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 129x264x720,300x520x3000,520x600x1360 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$?" >>"$OUT/summary.txt"
done
run() {  # name, binary, commit
  GEMMSCOPE_COMMIT=$3 timeout 140 "$2" bench --kernels auto,cublas --tune-cache "$cache" --shapes bench/shapes/llm_projections.csv \
    --warmup 3 --repeats 20 --quiet --csv "$OUT/$1.csv" >"$L/$1.log" 2>&1
  echo "$1 rc=$? $(tail -n 1 "$L/$1.log")" >>"$OUT/summary.txt"
}
run bench-new-1 $G "$(cat .carry/COMMIT)"
run bench-old-1 $OLD c112144
run bench-new-2 $G "$(cat .carry/COMMIT)"
run bench-old-2 $OLD c112144
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
cat "$OUT/summary.txt"
