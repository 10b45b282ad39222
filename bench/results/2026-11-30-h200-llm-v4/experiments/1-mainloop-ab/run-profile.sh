# The profiles behind sass-k10-v3-mainloop.txt and sass-cublas-mainloop.txt, run on
# the H200 from the repository root with the binaries of 5c3275f packed in .carry/
# (tools/gpu-pack). The version-4 profile (sass-k10-v4-mainloop.txt) is the same
# SourceCounters pass on the binaries of 5957f12.
set -u
C=$PWD/.carry; export LD_LIBRARY_PATH=$C/lib:/usr/local/cuda/lib64
G=$C/gemmscope
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
D=$OUT/d; mkdir -p $D
K=k10:128x128x64.s6.wg2.c2x1.static.g0.sk1
S=512x4096x4096
for k in k10 nvjet; do
  timeout 150 $NCU --section SourceCounters --section WarpStateStats --kernel-name regex:$k --launch-count 1 --import-source no -o $D/src-$k $G bench --kernels cublas,$K --shapes $S --warmup 0 --repeats 1 > $D/ncu-src-$k.log 2>&1
  timeout 60 $NCU -i $D/src-$k.ncu-rep --page source --print-source sass --csv > $D/src-$k-sass.csv 2>&1
done
# then, here: python3 sass_table.py src-k10-sass.csv 689 790 (and the rows of the main loop of each)
