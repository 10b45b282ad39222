#!/usr/bin/env bash
# The three power-capped shapes where a 48-shape run has read below 0.95 (one run each in
# the 23 runs of main's kernels since 2026-12-02): each shape's cached pick and five other
# configurations against cuBLAS, RUNS separate processes per shape, the shapes interleaved,
# the kernel order reversed every other run. One bench per process: 3 warm-up and 40 timed
# rounds, the SM clock sampled (--clocks). Usage, from the repository root on the GPU
# machine after `tools/gpu-batch env` has unpacked .carry: capped.sh OUTDIR [RUNS]
set -u
out=$1; runs=${2:-10}
bin=.carry/gemmscope
mkdir -p "$out"
declare -A cfgs
cfgs[8192x6144x4096]="128x128x64.s6.wg2pp.c1x2.static.g8.sk3 128x168x64.s5.wg2.c2x1.static.g8.sk1 128x256x64.s4.wg2.c1x2.static.g0.streamk 128x176x64.s5.wg2.c2x1.static.g8.sk1 128x224x64.s4.wg2.c2x1.static.g8.sk1 128x256x64.s4.wg2.c2x1.static.g8.sk1"
cfgs[512x57344x8192]="128x128x64.s6.wg2pp.c2x1.static.g0.streamk 128x256x64.s4.wg2.c2x1.static.g0.sk1 128x224x64.s4.wg2.c2x1.static.g0.sk1 128x224x64.s4.wg2.c2x1.static.g0.streamk 128x256x64.s4.wg2.c1x1.static.g0.sk1 128x176x64.s5.wg2.c2x1.static.g0.sk1"
cfgs[2048x28672x4096]="128x128x64.s6.wg2pp.c1x2.static.g0.sk6 128x128x64.s6.wg2pp.c1x2.static.g0.streamk 128x224x64.s4.wg2.c2x1.static.g0.sk3 128x224x64.s4.wg2.c2x1.static.g0.streamk 128x256x64.s4.wg2.c2x1.static.g0.sk1 128x168x64.s5.wg2.c2x1.static.g0.sk1"
for r in $(seq 1 "$runs"); do
  for shape in 8192x6144x4096 512x57344x8192 2048x28672x4096; do
    list="cublas"; for c in ${cfgs[$shape]}; do list="$list,k10:$c"; done
    if [ $((r % 2)) -eq 0 ]; then list=$(echo "$list" | tr ',' '\n' | tac | paste -sd,); fi
    timeout 120 "$bin" bench --kernels "$list" --shapes "$shape" --warmup 3 --repeats 40 --clocks \
      --csv "$out/$shape-run$r.csv" --quiet >"$out/$shape-run$r.log" 2>&1 || echo "run $r $shape: rc=$?"
  done
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv >"$out/gpu-after.txt" 2>&1
