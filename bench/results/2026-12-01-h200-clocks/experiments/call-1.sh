#!/usr/bin/env bash
# Call 1: bench --clocks over the 48 shapes (auto through merged-cache.json, cuBLAS), a
# plain run between two clock runs (does sampling move the times?), nvidia-smi's own
# 100 ms log alongside, and ncu's tensor-pipe, instruction and shared-memory counts for
# k10 and cuBLAS at 512x4096x4096 and 2048x8192x8192.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
G=.carry/gemmscope
L=$OUT/logs
mkdir -p "$L"
cache=.carry/tune-cache.json
shapes=bench/shapes/llm_projections.csv
nvidia-smi -q -d POWER,CLOCK,PERFORMANCE,TEMPERATURE >"$L/smi-q-before.txt" 2>&1
fields=timestamp,clocks.sm,power.draw,clocks_event_reasons.active,temperature.gpu
nvidia-smi --query-gpu=power.draw.instant --format=csv >/dev/null 2>&1 && fields=$fields,power.draw.instant
nvidia-smi --query-gpu=$fields --format=csv -lms 100 >"$L/smi-monitor.csv" 2>&1 &
mon=$!
bench() {  # name, extra flags
  local name=$1; shift
  date -u +"%FT%TZ start $name" >>"$L/timeline.txt"
  timeout 300 "$G" bench "$@" --kernels auto,cublas --tune-cache "$cache" --shapes "$shapes" --warmup 3 --repeats 20 \
    --quiet --csv "$OUT/$name.csv" >"$L/$name.log" 2>&1
  echo "rc=$?" >>"$L/$name.log"
  date -u +"%FT%TZ end $name" >>"$L/timeline.txt"
}
bench bench-clocks-1 --clocks
bench bench-plain
bench bench-clocks-2 --clocks
kill $mon
nvidia-smi -q -d POWER,CLOCK,PERFORMANCE,TEMPERATURE >"$L/smi-q-after.txt" 2>&1
# ncu: keep only the metrics this ncu knows.
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
"$ncu" --query-metrics --chip gh100 >"$L/ncu-query.txt" 2>&1
want="gpu__time_duration.sum sm__cycles_active.avg sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
 sm__inst_executed.sum smsp__inst_executed.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
 l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed
 lts__t_bytes.sum dram__bytes_read.sum dram__bytes_write.sum sm__warps_active.avg.per_cycle_active
 smsp__inst_executed_pipe_uniform.sum sm__inst_executed_pipe_tensor_op_gmma.sum"
metrics=""
for m in $want; do grep -q "^${m%%.*} " "$L/ncu-query.txt" && metrics="$metrics,$m"; done
metrics=${metrics#,}
echo "metrics: $metrics" >"$L/ncu.txt"
for shape in 512x4096x4096 2048x8192x8192; do
  for who in "k10_tunable:auto" "nvjet|xmma|gemm:cublas"; do
    regex=${who%%:*} kernel=${who#*:}
    echo "== $shape $kernel" >>"$L/ncu.txt"
    timeout 200 "$ncu" --metrics "$metrics" --clock-control none --kernel-name regex:"$regex" --launch-skip 2 --launch-count 3 \
      "$G" bench --kernels "$kernel" --shapes "$shape" --tune-cache "$cache" --warmup 1 --repeats 1 --quiet >>"$L/ncu.txt" 2>&1
  done
done
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
