#!/usr/bin/env bash
# Call 8: call 7's one loss, 128x5376x4096 through 64x96x64.s10 (no cut tiles), new
# against old: that instance and 64x64x128.s6 alone at four M = 128 shapes, alternated,
# and the SASS of both binaries' 64x96x64.s10 kernel.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=.carry/gemmscope
OLD=.carry/old/gemmscope
objdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
re='k10_tunableILi64ELi96ELi64ELi10ELi2ELi1ELb0ELb0E'
for who in new old; do
  bin=$G; [ $who = old ] && bin=$OLD
  "$objdump" -sass "$bin" | awk -v re="$re" '/Function : /{keep = ($0 ~ re)} keep' >"$OUT/sass-$who.txt"
done
k=cublas,k10:64x96x64.s10.wg1.c2x1.static.g0.sk1,k10:64x64x128.s6.wg1.c2x1.static.g0.sk1,k10:64x96x128.s5.wg1.c2x1.static.g0.sk1
s=128x5376x4096,128x6144x4096,128x4096x4096,128x8192x5376
for r in 1 2; do
  for who in new old; do
    bin=$G; c=$(cat .carry/COMMIT); [ $who = old ] && bin=$OLD && c=c112144
    GEMMSCOPE_COMMIT=$c timeout 60 "$bin" bench --kernels "$k" --shapes "$s" --warmup 3 --repeats 20 --quiet \
      --csv "$OUT/m128-$who-$r.csv" >"$OUT/m128-$who-$r.log" 2>&1
  done
done
grep -h "^k10" "$OUT"/m128-*.log | awk '{print $1, $2, $6}' | sort | head -40
wc -l "$OUT"/sass-*.txt
