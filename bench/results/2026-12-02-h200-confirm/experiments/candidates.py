#!/usr/bin/env python3
"""The candidates of call 1: per shape, the kept cache's configuration and the fastest
others of the two latest tunes (by their best ratio to cuBLAS in any round).

  candidates.py KEPT_CACHE.json BENCH.csv > candidates.txt

Shapes: those where the latest tune's best differs from the kept pick (all at M = 8192
but two, plus two power-capped ones at M = 2048 and 512). Output lines: MxNxK cfg,cfg,...
"""
import csv, json, sys
from collections import defaultdict

kept = {(e["m"], e["n"], e["k"]): e["config"] for e in json.load(open(sys.argv[1]))["entries"] if "config" in e}
tunes = ["bench/results/2026-12-02-h200-defer/run-3/tune-times.csv",   # kernels as on main
         "bench/results/2026-12-01-h200-clocks/run-5/tune-times.csv"]  # before the tail and defer
best = [defaultdict(dict) for _ in tunes]
for t, path in enumerate(tunes):
    for r in csv.DictReader(open(path)):
        s = (int(r["m"]), int(r["n"]), int(r["k"]))
        ratio = float(r["ratio_to_cublas"])
        best[t][s][r["config"]] = max(best[t][s].get(r["config"], 0.0), ratio)
shapes = sorted(kept, key=lambda s: (s[0], s[1], s[2]))
for s in shapes:
    ranked = sorted(best[0][s], key=lambda c: -best[0][s][c])
    if not ranked:
        continue
    if ranked[0] == kept[s] and s[0] != 8192:
        continue
    if s[0] < 2048 and s != (512, 57344, 8192):
        continue
    cands = [kept[s]] + [c for c in ranked if c != kept[s]][:5]
    cands += [c for c in sorted(best[1][s], key=lambda c: -best[1][s][c]) if c not in cands][:2]
    print("%dx%dx%d %s" % (s + (",".join(cands),)))
