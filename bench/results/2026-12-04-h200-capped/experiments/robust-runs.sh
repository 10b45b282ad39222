#!/usr/bin/env bash
# Call 5: RUNS more runs of the 48 LLM shapes through robust-cache.json alone, as call 4 ran
# them, then `gemmscope compare` of them. Usage, from the repository root on the GPU machine
# after `tools/gpu-batch env` has unpacked .carry: robust-runs.sh OUTDIR [RUNS]
set -u
out=$1; runs=${2:-4}; bin=.carry/gemmscope; here=bench/results/2026-12-04-h200-capped
mkdir -p "$out"
list=()
for i in $(seq 1 "$runs"); do
  timeout 150 "$bin" bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv \
    --tune-cache "$here/robust-cache.json" --warmup 3 --repeats 20 --csv "$out/llm-robust-$i.csv" --quiet \
    >"$out/llm-robust-$i.log" 2>&1 || echo "run $i: rc=$?"
  list+=("robust-$i=$out/llm-robust-$i.csv")
done
"$bin" compare "${list[@]}" >"$out/compare.txt" 2>&1
"$bin" compare --per-shape "${list[@]}" >"$out/compare-shapes.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv >"$out/gpu-after.txt" 2>&1
