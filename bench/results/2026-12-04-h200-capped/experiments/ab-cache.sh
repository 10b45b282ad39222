#!/usr/bin/env bash
# Call 2: the 48 LLM shapes through the measure's cache ("kept") and through robust-cache.json
# ("robust"), same binaries, in the order kept new new kept kept new, each one
# `gemmscope bench --kernels auto,cublas` as gpu-batch's ab step runs it, then
# `gemmscope compare` of the six. Usage, from the repository root on the GPU machine after
# `tools/gpu-batch env` has unpacked .carry: ab-cache.sh OUTDIR
set -u
out=$1; bin=.carry/gemmscope; here=bench/results/2026-12-04-h200-capped
mkdir -p "$out"
kept=bench/results/2026-12-02-h200-confirm/run-4/groups-cache.json
robust=$here/robust-cache.json
i=0; runs=()
for who in kept robust robust kept kept robust; do
  i=$((i + 1)); cache=$kept; [ "$who" = robust ] && cache=$robust
  timeout 150 "$bin" bench --kernels auto,cublas --shapes bench/shapes/llm_projections.csv --tune-cache "$cache" \
    --warmup 3 --repeats 20 --csv "$out/llm-$who-$i.csv" --quiet >"$out/llm-$who-$i.log" 2>&1 || echo "run $i ($who): rc=$?"
  runs+=("$who-$i=$out/llm-$who-$i.csv")
done
"$bin" compare "${runs[@]}" >"$out/compare.txt" 2>&1
"$bin" compare --per-shape "${runs[@]}" >"$out/compare-shapes.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv >"$out/gpu-after.txt" 2>&1
