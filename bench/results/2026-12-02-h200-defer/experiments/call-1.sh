#!/usr/bin/env bash
# Call 1 (session of 2026-12-02): the deferred cooperative epilogue, and the first
# cluster barrier in its .aligned forms, against main.
#   .carry/old/     main (6b5b42f): kernel version 7 as landed
#   .carry/defer/   8582c04: the cooperative tile held in registers as bf16 and stored one
#                   box per k-block during the next unit's first k-blocks
#   .carry/aligned/ 368fb3a: defer + barrier.cluster.{arrive.relaxed,wait}.aligned
# 1. the SASS of one instance (128x128 s6 2x1 static) in each build: the cluster wait's
#    neighbours (CCTL?), the staging fences (MEMBAR?);
# 2. k10's differential tests on the aligned build;
# 3. the 48 shapes through the kept cache, old / defer / aligned, twice, alternated.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
L=$OUT/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
cat "$L/gpu.txt" >>"$OUT/summary.txt"
f=_ZN9gemmscope4sm903k1011k10_tunableILi128ELi128ELi64ELi6ELi2ELi1ELb0ELb0EEEv14CUtensorMap_stS3_S3_NS1_7ProblemE
od=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in old defer aligned; do
  "$od" -sass -fun "$f" .carry/$b/gemmscope >"$L/sass-$b.txt" 2>&1
  echo "sass $b: lines $(wc -l <"$L/sass-$b.txt") UCGABAR_WAIT $(grep -c UCGABAR_WAIT "$L/sass-$b.txt") CCTL $(grep -c CCTL "$L/sass-$b.txt") MEMBAR $(grep -c MEMBAR "$L/sass-$b.txt") FENCE.VIEW $(grep -c FENCE.VIEW "$L/sass-$b.txt") STSM $(grep -c STSM "$L/sass-$b.txt") HGMMA $(grep -c HGMMA "$L/sass-$b.txt") STL $(grep -c 'STL' "$L/sass-$b.txt")" >>"$OUT/summary.txt"
done
t0=$(date +%s)
GEMMSCOPE_COMMIT=$(cat .carry/aligned/COMMIT) timeout 200 .carry/aligned/gemm_diff_test --gtest_filter='*K10*' >"$L/diff.log" 2>&1
echo "diff aligned rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
for r in 1 2; do
  for b in old defer aligned; do
    GEMMSCOPE_COMMIT=$(cat .carry/$b/COMMIT) timeout 120 .carry/$b/gemmscope bench --kernels auto,cublas --tune-cache .carry/tune-cache.json \
      --shapes bench/shapes/llm_projections.csv --warmup 3 --repeats 20 --quiet --csv "$OUT/llm-$b-$r.csv" >"$L/llm-$b-$r.log" 2>&1
    echo "llm $b $r rc=$? $(tail -n 1 "$L/llm-$b-$r.log")" >>"$OUT/summary.txt"
  done
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
