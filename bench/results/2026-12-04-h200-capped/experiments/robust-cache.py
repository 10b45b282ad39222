#!/usr/bin/env python3
"""Write the cache for the A/B of call 2: the measure's cache with the three power-capped
shapes' entries set to 128x256x64 in 2x1 clusters, split-K 1, the one configuration that was
faster than cuBLAS by its fastest launch (min_ms) in the median run at all three
(run-1/capped), and above 1.00 by median in every run. median_ms and cublas_ms are the
medians over run-1's ten runs. Usage: robust-cache.py KEPT RUN1_CAPPED_DIR OUT"""
import csv, glob, json, os, statistics, sys

kept, capped, out = sys.argv[1:4]
if os.path.exists(out):
    sys.exit(f"{out} exists; not overwritten")
choice = {
    (8192, 6144, 4096): "128x256x64.s4.wg2.c2x1.static.g8.sk1",
    (512, 57344, 8192): "128x256x64.s4.wg2.c2x1.static.g0.sk1",
    (2048, 28672, 4096): "128x256x64.s4.wg2.c2x1.static.g0.sk1",
}
cache = json.load(open(kept))
for (m, n, k), cfg in choice.items():
    med, cub = [], []
    for f in glob.glob(f"{capped}/{m}x{n}x{k}-run*.csv"):
        rows = list(csv.DictReader(open(f)))
        med += [float(r["median_ms"]) for r in rows if r["kernel"] == "k10:" + cfg]
        cub += [float(r["median_ms"]) for r in rows if r["kernel"] == "cublas"]
    if len(med) != 10 or len(cub) != 10:
        sys.exit(f"{m}x{n}x{k}: expected 10 runs of {cfg} and cublas, found {len(med)} and {len(cub)}")
    hits = [e for e in cache["entries"] if (e["m"], e["n"], e["k"]) == (m, n, k)]
    if len(hits) != 1:
        sys.exit(f"{m}x{n}x{k}: {len(hits)} entries in {kept}")
    e = hits[0]
    print(f"{m}x{n}x{k}: {e['config']} -> {cfg}")
    e["config"] = cfg
    e["median_ms"] = round(statistics.median(med), 6)
    e["cublas_ms"] = round(statistics.median(cub), 6)
    e["date"] = "2026-12-04T04:30:00Z"
with open(out, "x") as f:
    json.dump(cache, f, indent=2)
    f.write("\n")
