#!/usr/bin/env python3
"""Tables of call 1's logs: the M = 128 modes side by side, the K sweep, the ncu figures."""
import csv
import glob
import math
import os
import re
import sys

logs = sys.argv[1]
prefixes = sys.argv[2:] or ["m128"]


def rows(path):
    try:
        return list(csv.DictReader(open(path)))
    except OSError:
        return []


def gm(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


# auto's median (us) and ratio per shape and run, runs side by side, per file prefix.
for prefix in prefixes:
    runs = sorted(glob.glob(os.path.join(logs, prefix + "-*.csv")))
    names = [os.path.basename(r)[len(prefix) + 1:-4] for r in runs]
    table = {}
    for name, path in zip(names, runs):
        for r in rows(path):
            if r["kernel"] != "auto" or not r["median_ms"]:
                continue
            shape = f'{r["m"]}x{r["n"]}x{r["k"]}'
            table.setdefault(shape, {})[name] = (float(r["median_ms"]) * 1e3, float(r["ratio_to_cublas"]))
    print(prefix + ", auto: median us / ratio to cuBLAS")
    print("%-16s" % "shape" + "".join("%16s" % n for n in names))
    for shape, by in table.items():
        print("%-16s" % shape + "".join("%9.2f/%.3f" % by[n] if n in by else "%16s" % "-" for n in names))
    for label, keep in (("geomean", lambda m: True), ("  M=128", lambda m: m == 128), ("  M=512", lambda m: m == 512),
                        ("  M=2048", lambda m: m == 2048), ("  M=8192", lambda m: m == 8192)):
        sel = [by for shape, by in table.items() if keep(int(shape.split("x")[0]))]
        if sel:
            print("%-16s" % label + "".join("%16.4f" % gm([by[n][1] for by in sel if n in by]) for n in names))
    print("%-16s" % "min" + "".join("%16.4f" % min([by[n][1] for by in table.values() if n in by] or [0]) for n in names))
    print()

print("K sweep: median us (ratio)")
for path in sorted(glob.glob(os.path.join(logs, "ksweep-*.csv"))):
    name = os.path.basename(path)[7:-4]
    for r in rows(path):
        if not r["median_ms"]:
            continue
        print("%-8s %-6s %-44s %8.2f us (%.3f)" % (name, r["k"], r["kernel"], float(r["median_ms"]) * 1e3,
                                                 float(r["ratio_to_cublas"] or 0)))

print("\nncu")
keys = ["Duration", "SM Frequency", "Elapsed Cycles", "SM Active Cycles", "gpu__time_duration.sum",
        "sm__cycles_active.max", "sm__cycles_active.avg", "sm__cycles_elapsed.max", "L2 Hit Rate",
        "DRAM Throughput", "Grid Size", "Cluster Size", "Stall No Instruction", "No Instruction",
        "Warp Cycles Per Issued Instruction"]
for path in sorted(glob.glob(os.path.join(logs, "ncu-*.txt"))):
    print("--", os.path.basename(path))
    for line in open(path, errors="replace"):
        s = line.strip()
        if any(s.startswith(k) for k in keys) or "no_instruction" in s:
            print("   ", re.sub(r"\s+", " ", s))
