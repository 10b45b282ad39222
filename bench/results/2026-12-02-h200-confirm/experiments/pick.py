#!/usr/bin/env python3
"""Call 1's decision: replace a kept cache entry by a confirmed candidate, or keep it.

  pick.py KEPT.json OUT.json RUN.csv... > decisions.txt

Each RUN.csv is one `gemmscope bench --kernels cublas,k10:<cfg>,... --shapes MxNxK` (two
per shape, the candidates in opposite orders). A candidate replaces the kept entry of its
shape only where, as in tools/merge-tune-cache, its worst ratio to cuBLAS over the runs
beats the kept configuration's best, and its fastest launch (min_ms, the mean over the
runs) is no slower. Every shape's figures are printed, taken or not. OUT must not exist.

As run in calls 1 and 4. Since then `tools/merge-tune-cache KEPT --challenger-runs RUN.csv...`
does the same (and `tools/gpu-batch confirm` the whole call). On call 4's CSVs it takes the
same entry with the same medians.
"""
import csv, json, os, sys, time
from collections import defaultdict

def main():
    kept_path, out_path, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    if os.path.exists(out_path):
        sys.exit(f"pick.py: {out_path} exists; nothing is overwritten")
    cache = json.load(open(kept_path))
    # (shape) -> config -> list of (ratio, min_ms); (shape) -> list of cuBLAS medians
    seen = defaultdict(lambda: defaultdict(list))
    cublas = defaultdict(list)
    for path in runs:
        rows = list(csv.DictReader(open(path, newline="")))
        ref = {(r["m"], r["n"], r["k"]): float(r["median_ms"]) for r in rows if r["kernel"] == "cublas" and r["median_ms"]}
        for r in rows:
            s = (r["m"], r["n"], r["k"])
            if not r["kernel"].startswith("k10:") or not r["median_ms"] or s not in ref:
                continue
            seen[s][r["kernel"][4:]].append((ref[s] / float(r["median_ms"]), float(r["min_ms"]), float(r["median_ms"])))
        for s, v in ref.items():
            cublas[s].append(v)
    taken = 0
    for e in cache["entries"]:
        s = (str(e["m"]), str(e["n"]), str(e["k"]))
        if s not in seen:
            continue
        cands = seen[s]
        k = cands.get(e["config"])
        name = "x".join(s)
        if not k or len(k) != len(cublas[s]):
            print(f"{name}: the kept configuration {e['config']} has no time in every run; kept")
            continue
        kept_best = max(r for r, _, _ in k)
        kept_min = sum(m for _, m, _ in k) / len(k)
        print(f"{name}: kept {e['config']}: ratios {' '.join('%.4f' % r for r, _, _ in k)}, min_ms {kept_min:.5f}")
        winner = None
        for c, v in sorted(cands.items(), key=lambda cv: -min(r for r, _, _ in cv[1])):
            if c == e["config"] or len(v) != len(cublas[s]):
                continue
            worst = min(r for r, _, _ in v)
            mean_min = sum(m for _, m, _ in v) / len(v)
            ok = worst > kept_best and mean_min <= kept_min
            print(f"    {c}: ratios {' '.join('%.4f' % r for r, _, _ in v)}, min_ms {mean_min:.5f}{'  <- beats the kept' if ok else ''}")
            if ok and winner is None:
                winner = (c, v)
        if winner:
            c, v = winner
            e["config"] = c
            e["median_ms"] = round(sum(m for _, _, m in v) / len(v), 6)
            e["cublas_ms"] = round(sum(cublas[s]) / len(cublas[s]), 6)
            e["candidates"] = len(cands)
            e["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            taken += 1
            print(f"  taken: {c}")
        else:
            print("  kept")
    with open(out_path, "x") as f:
        json.dump(cache, f, indent=2)
        f.write("\n")
    print(f"{taken} entries replaced; {out_path} written")

main()
