#!/usr/bin/env bash
# tools/merge-tune-cache on hand-made caches and bench CSVs (no GPU). Four shapes, each
# re-tuned to another configuration:
#   100x100x100  wins in both runs, fastest launch faster       -> taken
#   200x200x200  wins in both runs, fastest launch slower       -> left out (power cap)
#   300x300x300  one retuned run below the best kept run        -> left out (noise)
#   400x400x400  entry for another kernel version in RETUNED    -> no match, kept as is
# and a shape RETUNED holds with KEPT's configuration (nothing to take). Then the
# refusals: an output that exists (left untouched), a corrupt cache, a CSV without auto.
# Then --challenger-runs: challengers timed against the kept pick in the same runs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
tool=$repo/tools/merge-tune-cache
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"

entry() {  # m config kernel_version
  printf '{"gpu":"G","cuda":"13.0","driver":"D","kernel_version":%s,"m":%s,"n":%s,"k":%s,"config":"%s","median_ms":1,"cublas_ms":1,"candidates":9,"date":"x"}' \
    "$3" "$1" "$1" "$1" "$2"
}
echo "{\"entries\":[$(entry 100 old 7),$(entry 200 old 7),$(entry 300 old 7),$(entry 400 old 7),$(entry 500 same 7)],\"failures\":[{\"x\":1}]}" >kept.json
echo "{\"entries\":[$(entry 100 new 7),$(entry 200 new 7),$(entry 300 new 7),$(entry 400 new 6),$(entry 500 same 7)],\"failures\":[]}" >retuned.json
run() {  # file, then "m ratio min_ms" per shape
  local f=$1; shift
  echo "kernel,m,n,k,median_ms,min_ms,ratio_to_cublas" >"$f"
  for row in "$@"; do
    set -- $row
    echo "auto,$1,$1,$1,1,$3,$2" >>"$f"
    echo "cublas,$1,$1,$1,1,1,1" >>"$f"
  done
}
run k1.csv "100 0.98 0.50" "200 0.98 0.50" "300 0.98 0.50" "400 0.98 0.5" "500 1 1"
run k2.csv "100 0.99 0.50" "200 0.99 0.50" "300 0.97 0.50" "400 0.98 0.5" "500 1 1"
run r1.csv "100 1.01 0.49" "200 1.02 0.52" "300 1.05 0.48" "400 1.50 0.1" "500 1 1"
run r2.csv "100 1.00 0.49" "200 1.01 0.52" "300 0.975 0.48" "400 1.50 0.1" "500 1 1"

"$tool" kept.json retuned.json --kept-runs k1.csv k2.csv --retuned-runs r1.csv r2.csv -o out.json >log.txt
grep -q '^1 entries taken' log.txt || fail "expected one entry taken: $(cat log.txt)"
grep -q '^100x100x100: old -> new' log.txt || fail "100x100x100 not taken: $(cat log.txt)"
grep -q '^200x200x200: new left out: .*fastest launch is slower' log.txt || fail "200x200x200 not explained: $(cat log.txt)"
python3 - <<'PY' || fail "merged cache"
import json
out = json.load(open('out.json'))
got = {(e['m'], e['kernel_version']): e['config'] for e in out['entries']}
want = {(100, 7): 'new', (200, 7): 'old', (300, 7): 'old', (400, 7): 'old', (500, 7): 'same'}
assert got == want, got
assert out['failures'] == [{'x': 1}], out['failures']
PY

# Refusals: exit 2, a message naming the file; an existing output is left as it was.
echo keep >exists.json
if "$tool" kept.json retuned.json --kept-runs k1.csv --retuned-runs r1.csv -o exists.json 2>err.txt; then fail "overwrote exists.json"; fi
grep -q 'exists.json exists already' err.txt || fail "no message for an existing output: $(cat err.txt)"
[ "$(cat exists.json)" = keep ] || fail "exists.json changed"
echo '{"entries": [' >corrupt.json
if "$tool" corrupt.json retuned.json --kept-runs k1.csv --retuned-runs r1.csv -o o2.json 2>err.txt; then fail "took a corrupt cache"; fi
grep -q 'corrupt.json: not a readable tuning cache' err.txt || fail "no message for a corrupt cache: $(cat err.txt)"
[ ! -e o2.json ] || fail "wrote o2.json from a corrupt cache"
echo "kernel,m,n,k,min_ms,ratio_to_cublas" >noauto.csv
if "$tool" kept.json retuned.json --kept-runs noauto.csv --retuned-runs r1.csv -o o3.json 2>err.txt; then fail "took a CSV without auto rows"; fi
grep -q "noauto.csv: no 'auto' rows" err.txt || fail "no message for a CSV without auto: $(cat err.txt)"
# Challengers (--challenger-runs): per-configuration benches of a shape, two runs each.
#   100x100x100  a wins both runs and launches faster -> taken; b wins one run only;
#                c is timed in one run only (left out)
#   200x200x200  d wins both runs but launches slower -> kept
crun() {  # file, then "m kernel median min_ms" rows (cublas's median first)
  local f=$1; shift
  echo "kernel,m,n,k,median_ms,min_ms,ratio_to_cublas,gpu" >"$f"
  local cub=""
  for row in "$@"; do
    set -- $row
    [ "$2" = cublas ] && cub=$3
    ratio=$(python3 -c "print($cub / $3)")
    echo "$2,$1,$1,$1,$3,$4,$ratio,G" >>"$f"
  done
}
crun c1a.csv "100 cublas 1.00 0.9" "100 k10:old 1.00 0.95" "100 k10:a 0.95 0.90" "100 k10:b 0.90 0.90" "100 k10:c 0.5 0.5" \
  "200 cublas 1.00 0.9" "200 k10:mid 1.00 0.95" "200 k10:d 0.90 0.99"
crun c1b.csv "100 cublas 1.00 0.9" "100 k10:b 1.05 0.90" "100 k10:a 0.96 0.92" "100 k10:old 0.99 0.95" \
  "200 cublas 1.00 0.9" "200 k10:d 0.91 0.99" "200 k10:mid 1.00 0.95"
echo "{\"entries\":[$(entry 100 old 7),$(entry 200 mid 7),$(entry 300 other 7)],\"failures\":[]}" >ckept.json
"$tool" ckept.json --challenger-runs c1a.csv c1b.csv -o cout.json >clog.txt
grep -q '^1 entries replaced by challengers' clog.txt || fail "challengers: expected one entry replaced: $(cat clog.txt)"
grep -q '    a: .*beats the kept' clog.txt || fail "challenger a not taken: $(cat clog.txt)"
grep -q '    b: .*does not beat the kept best' clog.txt || fail "challenger b (one run) not refused by the rule: $(cat clog.txt)"
grep -q '    c: timed in 1 of the 2 runs; left out' clog.txt || fail "challenger c (one run only) not left out: $(cat clog.txt)"
grep -q '    d: .*fastest launch is slower' clog.txt || fail "challenger d (slower launch) not refused: $(cat clog.txt)"
python3 - <<'PY' || fail "challenged cache"
import json
out = json.load(open('cout.json'))
got = {e['m']: (e['config'], e['candidates'], e['median_ms'], e['cublas_ms']) for e in out['entries']}
assert got[100] == ('a', 4, 0.955, 1.0), got[100]     # the mean of a's medians, cuBLAS's mean, 4 configurations
assert got[200][0] == 'mid' and got[300][0] == 'other', got
PY
# ... and its refusals: a kept configuration missing from a run, both modes at once, a CSV
# with no k10 rows or with no cublas row for a shape; no output file is left behind.
crun c2.csv "100 cublas 1.00 0.9" "100 k10:a 0.95 0.90"
if "$tool" ckept.json --challenger-runs c1a.csv c2.csv -o c2out.json 2>err.txt; then fail "took a run without the kept configuration"; fi
grep -q 'shape 100x100x100: the kept configuration old is not timed in c2.csv' err.txt || fail "no message for the missing kept configuration: $(cat err.txt)"
if "$tool" ckept.json retuned.json --challenger-runs c1a.csv -o c3out.json 2>err.txt; then fail "took both modes at once"; fi
grep -q -- '--challenger-runs takes KEPT alone' err.txt || fail "no message for both modes: $(cat err.txt)"
if "$tool" ckept.json --challenger-runs k1.csv -o c4out.json 2>err.txt; then fail "took a CSV without k10 rows"; fi
grep -q "k1.csv: no 'k10:<configuration>' rows" err.txt || fail "no message for a CSV without k10 rows: $(cat err.txt)"
echo "kernel,m,n,k,median_ms,min_ms,ratio_to_cublas" >nocub.csv && echo "k10:old,100,100,100,1,1,1" >>nocub.csv
if "$tool" ckept.json --challenger-runs nocub.csv -o c5out.json 2>err.txt; then fail "took a shape without a cublas row"; fi
grep -q 'nocub.csv: shape 100x100x100 has no cublas row' err.txt || fail "no message for a missing cublas row: $(cat err.txt)"
echo "{\"entries\":[$(entry 100 old 7),$(entry 100 old 6)],\"failures\":[]}" >ctwice.json
if "$tool" ctwice.json --challenger-runs c1a.csv -o c6out.json 2>err.txt; then fail "took a cache with two entries for a shape"; fi
grep -q "shape 100x100x100: KEPT holds 2 entries for GPU 'G'" err.txt || fail "no message for two kept entries: $(cat err.txt)"
for f in c2out.json c3out.json c4out.json c5out.json c6out.json; do [ ! -e $f ] || fail "a refusal wrote $f"; done
echo "merge_tune_cache_test: ok"
