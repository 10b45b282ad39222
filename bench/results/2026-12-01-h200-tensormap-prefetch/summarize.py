#!/usr/bin/env python3
"""Per-shape auto/cuBLAS ratios of old and new bench CSVs (ab-old-N.csv, ab-new-N.csv).
Usage: summarize.py RUN_DIR [RUN_DIR...]  prints, per shape, each run's ratio, then the
geomean and minimum by group: "llm" (the models of llm_projections.csv: the 48 shapes in
calls 1, 3 and 4, their M = 256 rows in call 5), "held-out" (Qwen2.5-7B), and each by M."""
import csv, glob, math, os, sys
from collections import defaultdict

def load(path):
    rows = list(csv.DictReader(open(path)))
    return {(r['label'], int(r['m']), int(r['n']), int(r['k'])): (float(r['ratio_to_cublas']), float(r['median_ms']))
            for r in rows if r['kernel'] == 'auto' and r['ratio_to_cublas']}

def gm(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float('nan')

runs = {}
for d in sys.argv[1:]:
    for p in sorted(glob.glob(os.path.join(d, 'ab-*.csv'))):
        runs[os.path.join(os.path.basename(d), os.path.basename(p)[:-4])] = load(p)
names = list(runs)
shapes = sorted(next(iter(runs.values())), key=lambda s: (s[0].split('/')[0].startswith('qwen'), s[1], s[2], s[3]))
print('%-22s %-18s ' % ('label', 'shape') + ' '.join('%14s' % n.split('/')[-1] for n in names))
for s in shapes:
    print('%-22s %-18s ' % (s[0], '%dx%dx%d' % s[1:]) + ' '.join('%14.3f' % runs[n][s][0] for n in names))
groups = defaultdict(list)
for s in shapes:
    held = s[0].startswith('qwen')
    groups['held-out' if held else 'llm'].append(s)
    groups[('held-out M=%d' if held else 'llm M=%d') % s[1]].append(s)
print()
for g, ss in sorted(groups.items()):
    print('%-18s ' % g + ' '.join('%7.3f/%5.3f' % (gm([runs[n][s][0] for s in ss]), min(runs[n][s][0] for s in ss)) for n in names))
