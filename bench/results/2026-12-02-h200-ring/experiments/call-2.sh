#!/usr/bin/env bash
# Call 2: the last unit's boxes stored each once staged, no waits between them.
#   .carry/a/ (143e571): the ring epilogue box by box (the alternating tiles 128 x 168,
#                        176, 224, 256 and 64 x 256, static cooperative schedules);
#   .carry/b/ (a0510a8): a, and the batched tiles' last unit box by box too;
#   .carry/old/ (5f7d086): main.
#   1. the 48 shapes through the kept cache, old / a / b, alternated, twice;
#   2. k10's differential tests on b (all) and a (all but the 63 s K10SplitKLongK);
#   3. memcheck, racecheck, synccheck on b.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
L=$OUT/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cat "$L/gpu.txt" >>"$OUT/summary.txt"
bench() {  # variant round
  GEMMSCOPE_COMMIT=$(cat .carry/$1/COMMIT) timeout 75 .carry/$1/gemmscope bench --kernels auto,cublas --tune-cache .carry/tune-cache.json \
    --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$1-$2.csv" >"$L/llm-$1-$2.log" 2>&1
  echo "llm $1 $2 rc=$? $(tail -n 1 "$L/llm-$1-$2.log")" >>"$OUT/summary.txt"
}
diff() {  # variant filter
  local t0=$(date +%s)
  GEMMSCOPE_COMMIT=$(cat .carry/$1/COMMIT) timeout 160 .carry/$1/gemm_diff_test --gtest_filter="$2" >"$L/diff-$1.log" 2>&1
  echo "diff $1 rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff-$1.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
  grep -E "^\[ +FAILED +\]" "$L/diff-$1.log" >>"$OUT/summary.txt"
}
for v in old a b; do bench $v 1; done
diff b '*K10*'
cfgs=k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.sk1,k10:128x224x64.s4.wg2.c2x1.static.g0.sk2
cfgs=$cfgs,k10:128x128x64.s6.wg2.c2x1.static.g0.sk3,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:128x192x64.s4.wg2.c1x2.static.g0.streamk
for tool in memcheck racecheck synccheck; do
  t0=$(date +%s)
  GEMMSCOPE_COMMIT=$(cat .carry/b/COMMIT) timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 .carry/b/gemmscope check --kernels "$cfgs" \
    --shapes 2176x2056x136,1800x2600x264,512x1024x512 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log") $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
done
for v in b a old; do bench $v 2; done
diff a '*K10*:-*K10SplitKLongK*'
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
