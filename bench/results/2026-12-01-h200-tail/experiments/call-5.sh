#!/usr/bin/env bash
# Call 5: the clock mend on the GPU. bench's clock before and after its shapes now comes
# from NVML (NvmlClock), not nvidia-smi through popen; ClockSampler::Armed replaces the
# EndSample struct. clock_sampler_test (three tests), then bench with and without
# --clocks on three shapes, next to nvidia-smi's reading.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
G=.carry/gemmscope; export GEMMSCOPE_COMMIT=$(cat .carry/COMMIT)
L=$OUT/logs; mkdir -p "$L"
timeout 60 .carry/clock_sampler_test >"$L/clock_sampler_test.log" 2>&1
echo "clock_sampler_test rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$L/clock_sampler_test.log" | tr '\n' ' ')" >>"$OUT/summary.txt"
grep -E 'SM clock' "$L/clock_sampler_test.log" >>"$OUT/summary.txt"
for c in plain clocks; do
  flag=""; [ $c = clocks ] && flag=--clocks
  nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >"$L/smi-$c-before.txt" 2>&1
  timeout 60 "$G" bench --kernels auto,cublas $flag --shapes 512x4096x4096,2048x4096x4096,128x5376x4096 \
    --warmup 2 --repeats 5 --quiet --csv "$OUT/bench-$c.csv" >"$L/bench-$c.log" 2>&1
  echo "bench $c rc=$? smi before: $(cat "$L/smi-$c-before.txt")" >>"$OUT/summary.txt"
  cut -d, -f1-4,10,15,16,23-28 "$OUT/bench-$c.csv" >>"$OUT/summary.txt"
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
cat "$OUT/summary.txt"
