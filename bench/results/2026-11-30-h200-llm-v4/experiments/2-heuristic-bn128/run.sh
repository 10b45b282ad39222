# The held-out A/B: .carry/gemmscope (5957f12, BN = 128 at 0.95) against
# .carry/gemmscope-old (62c7094, 0.9), same kernel, no tuning cache.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
export GEMMSCOPE_COMMIT=$(cat $C/COMMIT)
H="--kernels auto,cublas --shapes bench/shapes/qwen25_7b_heldout.csv --warmup 3 --repeats 20"
for i in 1 2; do
  timeout 60 $C/gemmscope bench $H --csv $OUT/heldout-new$i.csv
  GEMMSCOPE_COMMIT=62c7094 timeout 60 $C/gemmscope-old bench $H --csv $OUT/heldout-old$i.csv
done
