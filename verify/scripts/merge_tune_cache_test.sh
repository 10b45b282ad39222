#!/usr/bin/env bash
# tools/merge-tune-cache on hand-made caches and bench CSVs (no GPU). Four shapes, each
# re-tuned to another configuration:
#   100x100x100  wins in both runs, fastest launch faster       -> taken
#   200x200x200  wins in both runs, fastest launch slower       -> left out (power cap)
#   300x300x300  one retuned run below the best kept run        -> left out (noise)
#   400x400x400  entry for another kernel version in RETUNED    -> no match, kept as is
# and a shape RETUNED holds with KEPT's configuration (nothing to take). Then the
# refusals: an output that exists (left untouched), a corrupt cache, a CSV without auto.
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
echo "merge_tune_cache_test: ok"
