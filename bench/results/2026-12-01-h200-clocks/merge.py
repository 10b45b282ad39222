#!/usr/bin/env python3
"""Builds merged-cache.json: the last session's merged cache, with call 5's entry taken
for each shape where both of call 6's new runs beat both of its old runs (ratio to
cuBLAS, auto through each cache). Call 7 then measures the result afresh."""
import csv, json, os
here = os.path.dirname(os.path.abspath(__file__))
old = json.load(open(os.path.join(here, '../2026-12-01-h200-tensormap-prefetch/merged-cache.json')))
new = json.load(open(os.path.join(here, 'run-5/tune-cache.json')))

def ratios(name):
    rows = csv.DictReader(open(os.path.join(here, 'run-6', name)))
    return {(int(r['m']), int(r['n']), int(r['k'])): float(r['ratio_to_cublas']) for r in rows if r['kernel'] == 'auto'}

o = [ratios('bench-old-1.csv'), ratios('bench-old-2.csv')]
n = [ratios('bench-new-1.csv'), ratios('bench-new-2.csv')]
by_shape = {(e['m'], e['n'], e['k']): e for e in new['entries']}
taken = []
for e in old['entries']:
    s = (e['m'], e['n'], e['k'])
    if by_shape[s]['config'] != e['config'] and min(n[0][s], n[1][s]) > max(o[0][s], o[1][s]):
        taken.append((s, e['config'], by_shape[s]['config']))
        e.clear()
        e.update(by_shape[s])
json.dump(old, open(os.path.join(here, 'merged-cache.json'), 'w'), indent=2)
for s, was, now in taken:
    print('x'.join(map(str, s)), was, '->', now)
print(len(taken), 'entries taken from call 5')
