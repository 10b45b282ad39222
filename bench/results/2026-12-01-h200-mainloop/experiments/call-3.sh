#!/usr/bin/env bash
# Call 3: as call 2, with half 0 committed as a group of its own and wait_group 1 (call 2's
# uncommitted half 0 was drained by ptxas: 20% slower). Checks, side by side, ncu. New binaries in .carry/, the landed
# ones (fef9c5d) in .carry/old/.
#   1. k10's ping-pong and split-K differential tests; memcheck, racecheck, synccheck
#      on ping-pong with split-K, stream-K and whole tiles;
#   2. old and new side by side in bench (separate processes, each against cuBLAS):
#      auto (the cache) and ping-pong 128x128 in 2x1 and 1x2 on ten shapes;
#   3. ncu of the new ping-pong at 512x4096x4096 (one tile per CTA: cuBLAS's layout).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=.carry/gemmscope
L=$OUT/logs; mkdir -p "$L"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$L/gpu.txt" 2>&1
t0=$(date +%s)
GEMMSCOPE_COMMIT=$(cat .carry/COMMIT) timeout 150 .carry/gemm_diff_test --gtest_filter='*K10*pp*' >"$L/diff.log" 2>&1
echo "diff rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/diff.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >>"$OUT/summary.txt"
cfgs=k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk3,k10:128x128x64.s6.wg2pp.c2x1.static.g0.streamk,k10:128x128x64.s6.wg2pp.c1x1.static.g8.sk1
for tool in memcheck racecheck synccheck; do
  GEMMSCOPE_COMMIT=$(cat .carry/COMMIT) timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$G" check --kernels "$cfgs" \
    --shapes 129x264x720,300x520x3000,520x600x1360 >"$L/sanitize-$tool.log" 2>&1
  echo "sanitize-$tool rc=$? $(tail -n 1 "$L/sanitize-$tool.log")" >>"$OUT/summary.txt"
done
shapes=512x4096x4096,512x5376x4096,512x4096x14336,512x10240x8192,512x28672x4096,512x57344x8192
shapes=$shapes,2048x28672x4096,8192x28672x4096,2048x43008x5376,8192x8192x5376
k=auto,k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1,k10:128x128x64.s6.wg2pp.c1x2.static.g0.sk1,cublas
for r in 1 2; do
  for b in old new; do
    bin=$G; c=.carry/COMMIT; [ $b = old ] && bin=.carry/old/gemmscope && c=.carry/old/COMMIT
    GEMMSCOPE_COMMIT=$(cat $c) timeout 100 "$bin" bench --kernels "$k" --tune-cache .carry/tune-cache.json --shapes "$shapes" \
      --warmup 3 --repeats 20 --quiet --csv "$OUT/side-$b-$r.csv" >"$L/side-$b-$r.log" 2>&1
    echo "side $b $r rc=$?" >>"$OUT/summary.txt"
  done
done
m=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg,sm__pipe_tensor_op_gmma_cycles_active.avg,sm__inst_executed_pipe_tensor_op_gmma.sum
for v in new:.carry/gemmscope old:.carry/old/gemmscope; do
  for kk in k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1 k10:128x128x64.s6.wg2.c2x1.static.g0.sk1; do
    echo "== ${v%%:*} $kk" >>"$L/ncu.txt"
    GEMMSCOPE_COMMIT=x timeout 60 "$ncu" --metrics "$m" --clock-control none --launch-skip 3 --launch-count 1 \
      --kernel-name regex:'k10_tunable' "${v#*:}" bench --kernels "$kk" --shapes 512x4096x4096 --warmup 2 --repeats 1 --quiet >>"$L/ncu.txt" 2>&1
  done
done
timeout 60 "$ncu" --set full --import-source no --clock-control none --launch-skip 3 --launch-count 1 --kernel-name regex:'k10_tunable' \
  -o "$L/pp-new" -f "$G" bench --kernels k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk1 --shapes 512x4096x4096 --warmup 2 --repeats 1 --quiet >"$L/pp-new.log" 2>&1
"$ncu" -i "$L/pp-new.ncu-rep" --page source --csv --print-source sass >"$L/pp-new-sass.csv" 2>&1
"$ncu" -i "$L/pp-new.ncu-rep" --page details >"$L/pp-new-details.txt" 2>&1
rm -f "$L/pp-new.ncu-rep"
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
grep -hE "^== |duration|cycles|gmma" /dev/null
