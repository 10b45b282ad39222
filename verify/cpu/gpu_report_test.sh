#!/usr/bin/env bash
# tools/gpu-report's refusals, which come before any build or GPU work (no GPU needed):
# --help prints the usage; an unknown option, two folders, or a results folder that
# exists already are refused with status 2 and one line, and the folder is left as it was.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
tool=$repo/tools/gpu-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$tool" --help >"$work/help.txt" || fail "--help exited with $?"
grep -q 'tools/gpu-report \[RESULTS\]' "$work/help.txt" || fail "--help shows no usage: $(cat "$work/help.txt")"

expect_refused() {  # expected line, then the arguments
  local want=$1 rc=0
  shift
  "$tool" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  [ $rc -eq 2 ] || fail "gpu-report $*: status $rc, expected 2"
  [ "$(cat "$work/err.txt")" = "$want" ] || fail "gpu-report $*: said '$(cat "$work/err.txt")', expected '$want'"
}
expect_refused "tools/gpu-report: unknown option '--bogus'; see tools/gpu-report --help" --bogus
expect_refused "tools/gpu-report: one results folder at most (got 2 arguments); see --help" a b
mkdir "$work/old" && echo keep >"$work/old/summary.txt"
expect_refused "tools/gpu-report: $work/old exists already; give a new folder (nothing is overwritten)" "$work/old"
[ "$(ls "$work/old")" = summary.txt ] && [ "$(cat "$work/old/summary.txt")" = keep ] || fail "$work/old was changed"
echo "gpu_report_test: ok"
