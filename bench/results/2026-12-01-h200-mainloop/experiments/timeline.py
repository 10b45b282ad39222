#!/usr/bin/env python3
"""Per-phase medians of a k10 timeline CSV (GEMMSCOPE_TIMELINE; experiments/timeline.patch,
or timeline-on-tail.patch on top of producer-tail.patch).

Stamps per CTA, globaltimer gI and clock64 cI:
  0 entry (thread 0)                       1 producer past the first cluster barrier
  8 consumer 0 past setmaxnreg and it      2 producer's first TMA issued
  3 consumer 0 past its first full barrier 4 consumer 0's last main loop done
  5 consumer 0's last store issued (not ping-pong)
  6 consumer 0's stores read               7 after the exit barrier (or the tail's end)
Usage: timeline.py TIMELINE.csv [--skip N]   (the first N launches are warm-up, default 8)
"""
import csv
import statistics
import sys

PHASES = [('prologue to the barrier 0->1', 0, 1), ('to the first TMA 1->2', 1, 2),
          ('consumer start 0->8', 0, 8), ('first data 2->3', 2, 3), ('main loops 3->4', 3, 4),
          ('stores issued 4->5', 4, 5), ('stores read 5->6', 5, 6), ('stores 4->6', 4, 6),
          ('exit 6->7', 6, 7)]


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def main():
    paths = [a for a in sys.argv[1:] if not a.startswith('--') and not a.isdigit()]
    skip = int(sys.argv[sys.argv.index('--skip') + 1]) if '--skip' in sys.argv else 8
    launches = {}
    for row in csv.DictReader(open(paths[0])):
        launches.setdefault(int(row['launch']), []).append({k: int(v) for k, v in row.items()})
    kept = [l for l in sorted(launches) if l >= skip]
    spans, tails = [], []
    phase = {name: [] for name, _, _ in PHASES}
    for l in kept:
        ctas = [c for c in launches[l] if c['g0'] and c['g7']]
        if not ctas:
            continue
        start = min(c['g0'] for c in ctas)
        end = max(c['g7'] for c in ctas)
        spans.append(end - start)
        loops = [c['g4'] for c in ctas if c['g4']]
        if loops:
            tails.append(end - max(loops))
        for c in ctas:
            for name, a, b in PHASES:
                if c['g%d' % a] and c['g%d' % b]:
                    phase[name].append(c['g%d' % b] - c['g%d' % a])
    print(f'{paths[0]}: {len(kept)} launches after {skip} skipped, {len(launches[kept[0]])} CTAs each')

    def show(name, xs):
        if xs:
            print(f'  {name:40s} median {statistics.median(xs) / 1000:7.2f} us'
                  f'  p10 {quantile(xs, .1) / 1000:7.2f}  p90 {quantile(xs, .9) / 1000:7.2f}')

    show('first entry -> last exit', spans)
    show('last main loop end -> last exit', tails)
    for name, _, _ in PHASES:
        show('per CTA: ' + name, phase[name])


main()
