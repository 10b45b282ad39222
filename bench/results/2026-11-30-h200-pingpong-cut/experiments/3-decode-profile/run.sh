# The sixth device call, on 7254d8b's binaries with the version-5 cache carried in
# .carry/tune-cache.json: gpu-batch's new ncu step at its defaults (auto and cuBLAS
# at 128x5376x4096, one launch each after one unprofiled launch), then a two-shape
# tune to see its rows printed as each shape finishes.
export OUT; timeout 150 tools/gpu-batch env ncu
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
timeout 40 $C/gemmscope tune --shapes 256x256x512,512x512x512 --cache $OUT/t.json --quiet > $OUT/tune-stream.log 2>&1
