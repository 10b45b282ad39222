#!/usr/bin/env bash
# tools/gpu-pack's other builds (GEMMSCOPE_AB_BUILD_DIR, GEMMSCOPE_AB_BUILDS, the xz pack)
# and tools/gpu-batch's `ab` and `ab-diff` steps, without a GPU: both scripts run in a
# scratch repository whose build folders hold stub `gemmscope` and `gemm_diff_test`
# binaries that record their arguments and the commit they were given.
# Checks: gpu-pack stamps each build with the commit of its own source tree and refuses a
# folder with no binary or with no source tree in its CMakeCache.txt, and a malformed,
# repeated or reserved build name (naming it); gpu-batch ab alternates old and new,
# AB_REPS times, each bench with its own commit, the carried cache and its own CSV; with
# three builds packed by xz it unpacks them and alternates old, then the others in the
# order given; with no second build it says so and runs nothing. The sanitizer's named sets
# expand; confirm times the cached pick against challengers and takes only a double win.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A scratch repository holding the two scripts, at one commit ...
root=$work/root
mkdir -p "$root/tools" "$root/bench/shapes"
cp "$repo/tools/gpu-pack" "$repo/tools/gpu-batch" "$root/tools/"
echo "model,layer,m,n,k" >"$root/bench/shapes/llm_projections.csv"
git -C "$root" init -q
git -C "$root" -c user.name=t -c user.email=t@t add -A
git -C "$root" -c user.name=t -c user.email=t@t commit -qm one
old_commit=$(git -C "$root" rev-parse --short HEAD)
# ... and a second source tree at another commit, for the second build.
other=$work/other
git clone -q "$root" "$other"
git -C "$other" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
new_commit=$(git -C "$other" rev-parse --short HEAD)

stub() {  # build folder, source tree
  mkdir -p "$1/bin" "$1/verify"
  cat >"$1/bin/gemmscope" <<'STUB'
#!/usr/bin/env bash
if [ "$1" = compare ]; then echo "compare commit=$GEMMSCOPE_COMMIT args=$*"; exit 0; fi
if [ "$1" = check ]; then echo "check commit=$GEMMSCOPE_COMMIT args=$*"; echo "# 3 passed, 0 failed"; exit 0; fi
csv=""; kernels=""; shape=""; prev=""
for a in "$@"; do
  [ "$prev" = --csv ] && csv=$a; [ "$prev" = --kernels ] && kernels=$a; [ "$prev" = --shapes ] && shape=$a; prev=$a
done
echo "commit=$GEMMSCOPE_COMMIT args=$*" >>"${STUB_LOG:-/dev/null}"
case $kernels in
  *k10:*)  # a confirm bench: median 1 for cublas and old, 0.9 for fast, 1.2 for slow
    m=${shape%%x*}
    echo "kernel,m,n,k,median_ms,min_ms,ratio_to_cublas,gpu" >"$csv"
    for k in ${kernels//,/ }; do
      case $k in *fast) t=0.9;; *slow) t=1.2;; *) t=1;; esac
      echo "$k,$m,$m,$m,$t,$t,$(python3 -c "print(1 / $t)"),G" >>"$csv"
    done;;
  *) echo "commit=$GEMMSCOPE_COMMIT args=$*" >"$csv";;
esac
echo "summary (ratio to cuBLAS over the shapes each kernel ran):"
STUB
  chmod +x "$1/bin/gemmscope"
  printf '#!/usr/bin/env bash\necho "diff commit=$GEMMSCOPE_COMMIT args=$*"\n' >"$1/verify/gemm_diff_test"
  chmod +x "$1/verify/gemm_diff_test"
  echo "CMAKE_HOME_DIRECTORY:INTERNAL=$2" >"$1/CMakeCache.txt"
}
stub "$work/build-old" "$root"
stub "$work/build-new" "$other"

# gpu-pack refuses a second build folder without a binary, naming it.
if msg=$(GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILD_DIR=$work/nothing "$root/tools/gpu-pack" 2>&1); then
  fail "gpu-pack accepted a second build folder with no binary"
fi
grep -q "$work/nothing/bin/gemmscope is missing" <<<"$msg" || fail "gpu-pack's refusal does not name the folder: $msg"

# ... and one with a binary but no source tree in its CMakeCache.txt (it would be stamped
# with this tree's commit), naming the file.
mkdir -p "$work/no-cache/bin" && cp "$work/build-new/bin/gemmscope" "$work/no-cache/bin/"
if msg=$(GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILD_DIR=$work/no-cache "$root/tools/gpu-pack" 2>&1); then
  fail "gpu-pack accepted a second build folder with no CMakeCache.txt"
fi
grep -q "$work/no-cache/CMakeCache.txt names no git source tree" <<<"$msg" || fail "gpu-pack's refusal does not name the cache: $msg"
# A refusal leaves the last pack as it was.
mkdir -p "$root/.carry" && echo kept >"$root/.carry/COMMIT"
GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILD_DIR=$work/no-cache "$root/tools/gpu-pack" >/dev/null 2>&1 || true
[ "$(cat "$root/.carry/COMMIT")" = kept ] || fail "a refused gpu-pack replaced the last pack"

GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILD_DIR=$work/build-new "$root/tools/gpu-pack" >/dev/null
[ "$(cat "$root/.carry/COMMIT")" = "$old_commit" ] || fail "carried commit $(cat "$root/.carry/COMMIT"), want $old_commit"
[ "$(cat "$root/.carry/ab/new/COMMIT")" = "$new_commit" ] || fail "second build's commit $(cat "$root/.carry/ab/new/COMMIT"), want $new_commit"
cmp -s "$work/build-new/bin/gemmscope" "$root/.carry/ab/new/gemmscope" || fail "the second build's binary was not carried"
# The first build is stamped with its own source tree's commit too, not this tree's.
GEMMSCOPE_BUILD_DIR=$work/build-new "$root/tools/gpu-pack" >/dev/null
[ "$(cat "$root/.carry/COMMIT")" = "$new_commit" ] || fail "GEMMSCOPE_BUILD_DIR's commit $(cat "$root/.carry/COMMIT"), want $new_commit"
# ... and a first build with no source tree is refused, naming its cache.
if msg=$(GEMMSCOPE_BUILD_DIR=$work/no-cache "$root/tools/gpu-pack" 2>&1); then
  fail "gpu-pack accepted a build folder with no CMakeCache.txt"
fi
grep -q "$work/no-cache/CMakeCache.txt names no git source tree.*GEMMSCOPE_BUILD_DIR" <<<"$msg" || fail "gpu-pack's refusal does not name the cache: $msg"
GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILD_DIR=$work/build-new "$root/tools/gpu-pack" >/dev/null
echo '{}' >"$root/.carry/tune-cache.json"

(cd "$root" && OUT=$work/out AB_REPS=2 AB_KERNELS=auto,cublas AB_SHAPES=128x5376x4096 tools/gpu-batch ab >/dev/null)
for rep in 1 2; do
  for who in old new; do
    csv=$work/out/ab-$who-$rep.csv
    [ -f "$csv" ] || fail "no $csv"
    want=$old_commit; [ $who = new ] && want=$new_commit
    grep -q "^commit=$want " "$csv" || fail "$csv: $(cat "$csv"), want commit $want"
    grep -q -- "--kernels auto,cublas --shapes 128x5376x4096 --tune-cache $work/out/tune-cache.json" "$csv" ||
      fail "$csv: arguments $(cat "$csv")"
  done
done
order=$(grep -o "step ab-[a-z]*-[0-9]" "$work/out/summary.txt" | tr '\n' ' ' || true)
[ "$order" = "step ab-old-1 step ab-new-1 step ab-old-2 step ab-new-2 " ] || fail "order: $order"

# Build names: malformed, reserved or repeated ones are refused, naming them, and the
# last pack is kept.
for bad in "Fence=$work/build-new" "old=$work/build-new" "a=$work/build-new a=$work/build-old" "nodir"; do
  if msg=$(GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILDS=$bad "$root/tools/gpu-pack" 2>&1); then
    fail "gpu-pack accepted GEMMSCOPE_AB_BUILDS='$bad'"
  fi
  name=${bad%%=*}
  grep -q "'$name" <<<"$msg" || fail "gpu-pack's refusal of '$bad' does not name it: $msg"
  [ -f "$root/.carry/ab/new/COMMIT" ] || fail "the refusal of '$bad' replaced the last pack"
done

# Three builds, packed by xz: a third source tree for the third build.
third=$work/third
git clone -q "$root" "$third"
git -C "$third" -c user.name=t -c user.email=t@t commit -q --allow-empty -m three
third_commit=$(git -C "$third" rev-parse --short HEAD)
stub "$work/build-third" "$third"
GEMMSCOPE_BUILD_DIR=$work/build-old GEMMSCOPE_AB_BUILDS="zeta=$work/build-third alpha=$work/build-new" \
  GEMMSCOPE_PACK_XZ=1 "$root/tools/gpu-pack" >/dev/null
[ -f "$root/.carry/bins.tar.xz" ] || fail "no bins.tar.xz in the xz pack"
loose=$(find "$root/.carry" -name gemmscope -o -name gemm_diff_test)
[ -z "$loose" ] || fail "binaries left loose beside bins.tar.xz: $loose"
[ "$(cat "$root/.carry/ab/zeta/COMMIT")" = "$third_commit" ] || fail "zeta's commit $(cat "$root/.carry/ab/zeta/COMMIT"), want $third_commit"
echo '{}' >"$root/.carry/tune-cache.json"
rm -rf "$work/out"
(cd "$root" && OUT=$work/out AB_REPS=2 AB_SHAPES=128x5376x4096 tools/gpu-batch ab ab-diff >/dev/null)
cmp -s "$work/build-third/bin/gemmscope" "$root/.carry/ab/zeta/gemmscope" || fail "zeta's binary did not come out of bins.tar.xz"
order=$(grep -o "step ab-[a-z]*-[0-9]" "$work/out/summary.txt" | tr '\n' ' ' || true)
[ "$order" = "step ab-old-1 step ab-zeta-1 step ab-alpha-1 step ab-old-2 step ab-zeta-2 step ab-alpha-2 " ] || fail "three-build order: $order"
# ... and ends with one comparison of the six rounds, in that order, by the carried gemmscope.
o=$work/out
want_runs="old-1=$o/ab-old-1.csv zeta-1=$o/ab-zeta-1.csv alpha-1=$o/ab-alpha-1.csv old-2=$o/ab-old-2.csv zeta-2=$o/ab-zeta-2.csv alpha-2=$o/ab-alpha-2.csv"
grep -qxF "compare commit=$old_commit args=compare --kernel auto $want_runs" "$o/ab-compare.txt" ||
  fail "ab-compare.txt: $(cat "$o/ab-compare.txt"), want the six rounds in order"
grep -qxF "compare commit=$old_commit args=compare --kernel auto --per-shape $want_runs" "$o/ab-compare-shapes.txt" ||
  fail "ab-compare-shapes.txt: $(cat "$o/ab-compare-shapes.txt")"
grep -q "step ab-compare: rc=0" "$o/summary.txt" || fail "no ab-compare step in the summary"
for who in old zeta alpha; do
  want=$old_commit; [ $who = zeta ] && want=$third_commit; [ $who = alpha ] && want=$new_commit
  grep -q "^commit=$want " "$work/out/ab-$who-1.csv" || fail "ab-$who-1.csv: $(cat "$work/out/ab-$who-1.csv"), want commit $want"
done
# ab-diff runs each other build's differential tests (not old's), with its commit and the filter.
tar -xzf "$work/out/results.tar.gz" -C "$work/out"
grep -q "diff commit=$third_commit args=--gtest_filter=\*K10\*" "$work/out/logs/ab-diff-zeta.log" || fail "ab-diff-zeta: $(cat "$work/out/logs/ab-diff-zeta.log")"
grep -q "diff commit=$new_commit " "$work/out/logs/ab-diff-alpha.log" || fail "ab-diff-alpha: $(cat "$work/out/logs/ab-diff-alpha.log")"
[ -f "$work/out/logs/ab-diff-old.log" ] && fail "ab-diff ran the base build"

# sanitize expands the named sets (and passes a plain list on), on SANITIZE_BUILD's binary
# with its commit: a stub compute-sanitizer records what it was asked to run.
mkdir -p "$work/path"
printf '#!/usr/bin/env bash\necho "sanitizer commit=$GEMMSCOPE_COMMIT args=$*"\n' >"$work/path/compute-sanitizer"
chmod +x "$work/path/compute-sanitizer"
rm -rf "$work/out"
(cd "$root" && PATH=$work/path:$PATH OUT=$work/out SANITIZE_BUILD=zeta SANITIZE_KERNELS=k10-paths \
  SANITIZE_SHAPES=k10-ragged tools/gpu-batch sanitize >/dev/null)
tar -xzf "$work/out/results.tar.gz" -C "$work/out"
log=$work/out/logs/sanitize-racecheck.log
grep -qF "sanitizer commit=$third_commit args=--tool racecheck --error-exitcode 9 $root/.carry/ab/zeta/gemmscope check --kernels k10:128x256x64.s4.wg2.c2x1.static.g0.sk1,k10:128x168x64.s5.wg2.c2x1.static.g8.sk1," "$log" ||
  fail "sanitize with named sets: $(cat "$log")"
grep -qF -- "k10:128x256x64.s4.wg2.c2x1.dynamic.g0.sk1 --shapes 2176x2056x136,1800x2600x264,512x1024x512" "$log" ||
  fail "sanitize's k10-paths or k10-ragged not expanded whole: $(cat "$log")"
rm -rf "$work/out"
(cd "$root" && PATH=$work/path:$PATH OUT=$work/out SANITIZE_KERNELS=k07,k08 SANITIZE_SHAPES=64x64x64 tools/gpu-batch sanitize >/dev/null)
tar -xzf "$work/out/results.tar.gz" -C "$work/out"
grep -qF "sanitizer commit=$old_commit args=--tool memcheck --error-exitcode 9 $root/.carry/gemmscope check --kernels k07,k08 --shapes 64x64x64" \
  "$work/out/logs/sanitize-memcheck.log" || fail "sanitize with a plain list: $(cat "$work/out/logs/sanitize-memcheck.log")"
rm -rf "$work/out"
(cd "$root" && PATH=$work/path:$PATH OUT=$work/out tools/gpu-batch sanitize >/dev/null)
tar -xzf "$work/out/results.tar.gz" -C "$work/out"
grep -qF -- "--kernels k01,k02,k03,k04,k05,k05_2x2,k06,k07,k08_c1,k08,k08_dyn,k09_c1,k09,k09_dyn --shapes 1x1x8,129x257x72," \
  "$work/out/logs/sanitize-synccheck.log" || fail "sanitize's defaults: $(cat "$work/out/logs/sanitize-synccheck.log")"

# confirm: the carried cache's pick against challengers. The check covers every
# configuration; each shape gets two benches in opposite orders; merge-tune-cache takes the
# challenger that wins both (fast), and the 48-shape rounds alternate the two caches.
printf '64x64x64 old,fast,slow\n96x96x96 keep,slow\n' >"$work/cands.txt"
echo '{"entries":[{"gpu":"G","cuda":"13.0","driver":"D","kernel_version":7,"m":64,"n":64,"k":64,"config":"old","median_ms":1,"cublas_ms":1,"candidates":9,"date":"x"},{"gpu":"G","cuda":"13.0","driver":"D","kernel_version":7,"m":96,"n":96,"k":96,"config":"keep","median_ms":1,"cublas_ms":1,"candidates":9,"date":"x"}],"failures":[]}' \
  >"$root/.carry/tune-cache.json"
mkdir -p "$root/tools" && cp "$repo/tools/merge-tune-cache" "$root/tools/"
rm -rf "$work/out"; : >"$work/stub.log"
(cd "$root" && STUB_LOG=$work/stub.log OUT=$work/out CONFIRM_CANDIDATES=$work/cands.txt CONFIRM_REPEATS=7 AB_REPS=1 \
  AB_SHAPES=64x64x64 tools/gpu-batch confirm >/dev/null)
grep -q "step confirm-merge: rc=0" "$work/out/summary.txt" || fail "confirm: merge did not run: $(cat "$work/out/summary.txt")"
python3 - "$work/out/confirmed-cache.json" <<'PY' || fail "confirm: confirmed cache"
import json, sys
got = {e["m"]: e["config"] for e in json.load(open(sys.argv[1]))["entries"]}
assert got == {64: "fast", 96: "keep"}, got
PY
grep -q -- "--repeats 7 --shapes 64x64x64 --kernels cublas,k10:old,k10:fast,k10:slow --csv" "$work/stub.log" ||
  fail "confirm: no forward bench: $(cat "$work/stub.log")"
grep -q -- "--shapes 64x64x64 --kernels k10:slow,k10:fast,k10:old,cublas --csv" "$work/stub.log" ||
  fail "confirm: no reversed bench: $(cat "$work/stub.log")"
grep -q "step confirm-check: rc=0" "$work/out/summary.txt" || fail "confirm: no check step"
tar -xzf "$work/out/results.tar.gz" -C "$work/out"
grep -q -- "--kernels k10:fast,k10:keep,k10:old,k10:slow --shapes 2176x2056x136,1800x2600x264,512x1024x512" \
  "$work/out/logs/confirm-check.log" || fail "confirm: check of every configuration: $(cat "$work/out/logs/confirm-check.log")"
grep -q "^1 entries replaced" "$work/out/logs/confirm/decisions.txt" || fail "confirm: no decisions.txt"
order=$(grep -o "step confirm-[a-z]*-1" "$work/out/summary.txt" | tr '\n' ' ' || true)
[ "$order" = "step confirm-kept-1 step confirm-confirmed-1 " ] || fail "confirm: 48-shape rounds $order"
grep -q "compare commit=$old_commit args=compare kept-1=" "$work/out/confirm-compare.txt" || fail "confirm: no comparison"
# ... with nothing to take, no rounds run and no confirmed cache is left.
printf '96x96x96 keep,slow\n' >"$work/cands2.txt"
rm -rf "$work/out"
(cd "$root" && OUT=$work/out CONFIRM_CANDIDATES=$work/cands2.txt tools/gpu-batch confirm >/dev/null)
grep -q "step confirm: no entry replaced" "$work/out/summary.txt" || fail "confirm: no message when nothing is taken"
[ ! -e "$work/out/confirmed-cache.json" ] || fail "confirm: a confirmed cache with nothing taken"
# ... and without a candidates file it says so.
rm -rf "$work/out"
(cd "$root" && OUT=$work/out tools/gpu-batch confirm >/dev/null)
grep -q "step confirm: CONFIRM_CANDIDATES='' is not a file" "$work/out/summary.txt" || fail "confirm: no message without candidates"

# Without a second build the step says so and runs nothing.
GEMMSCOPE_BUILD_DIR=$work/build-old "$root/tools/gpu-pack" >/dev/null
echo '{}' >"$root/.carry/tune-cache.json"
rm -rf "$work/out"
(cd "$root" && OUT=$work/out tools/gpu-batch ab >/dev/null)
grep -q "step ab: no second build" "$work/out/summary.txt" || fail "no message without a second build"
ls "$work/out"/ab-*.csv >/dev/null 2>&1 && fail "benches ran without a second build"
echo "gpu_batch_ab_test: passed"
