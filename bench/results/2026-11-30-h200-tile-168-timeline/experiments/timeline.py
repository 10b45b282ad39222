#!/usr/bin/env python3
"""Summarise a k10 timeline CSV (GEMMSCOPE_TIMELINE, experiments/timeline.patch).

Stamps per CTA (globaltimer gI, clock64 cI): 0 entry, 1 after the first cluster sync
(or its arrive), 2 producer's first TMA issued, 3 consumer 0 past its first full
barrier, 4 consumer 0's last main loop done (wgmma wait 0), 5 consumer 0's last store
issued, 6 its bulk stores read (wait_group.read 0), 7 after the final cluster sync.
Call 2's binary adds the producer's path 1 -> 2: 8 after setmaxnreg, 9 the elected
thread's setup done, 10 past the first cluster barrier's wait (split start only), 11
past the first empty barrier, 12 first A box issued.
Usage: timeline.py TIMELINE.csv [BENCH.csv] [--skip N]
"""
import csv, statistics, sys

def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    skip = 8
    if '--skip' in sys.argv:
        skip = int(sys.argv[sys.argv.index('--skip') + 1])
    rows = list(csv.DictReader(open(args[0])))
    by_launch = {}
    for r in rows:
        by_launch.setdefault(int(r['launch']), []).append({k: int(v) for k, v in r.items()})
    launches = sorted(l for l in by_launch if l >= skip)
    names = ['prologue 0->1', 'to first TMA 1->2', 'first data 2->3', 'main loop 3->4',
             'stores issued 4->5', 'stores read 5->6', 'exit sync 6->7']
    per = {n: [] for n in names}
    spans, entry_spread, exit_spread, first_entry_to_last_mainloop, last_main_to_last_exit = [], [], [], [], []
    ticks = set()
    for l in launches:
        ctas = [c for c in by_launch[l] if c['g0'] and c['g7']]
        if not ctas:
            continue
        t0 = min(c['g0'] for c in ctas)
        spans.append(max(c['g7'] for c in ctas) - t0)
        entry_spread.append(max(c['g0'] for c in ctas) - t0)
        exit_spread.append(max(c['g7'] for c in ctas) - min(c['g7'] for c in ctas))
        done = [c['g4'] for c in ctas if c['g4']]
        if done:
            first_entry_to_last_mainloop.append(max(done) - t0)
            last_main_to_last_exit.append(max(c['g7'] for c in ctas) - max(done))
        for c in ctas:
            for i, n in enumerate(names):
                a, b = c['g%d' % i], c['g%d' % (i + 1)]
                if a and b:
                    per[n].append(b - a)
            ticks.update(c['g%d' % i] % 1000 for i in range(8))
    print(f'{args[0]}: {len(launches)} launches, {len(by_launch[launches[0]])} CTAs; '
          f'globaltimer residues mod 1000 ns seen: {len(ticks)}')
    def show(name, xs):
        if xs:
            print(f'  {name:34s} median {statistics.median(xs)/1000:7.2f} us  p10 {pct(xs,.1)/1000:7.2f}  p90 {pct(xs,.9)/1000:7.2f}')
    show('span (first entry -> last exit)', spans)
    show('CTA entry spread', entry_spread)
    show('CTA exit spread', exit_spread)
    show('first entry -> last main loop end', first_entry_to_last_mainloop)
    show('last main loop end -> last exit', last_main_to_last_exit)
    for n in names:
        show('per CTA: ' + n, per[n])
    chain = [0, 1, 8, 9, 10, 11, 12, 2]
    steps = {}
    for l in launches:
        for c in by_launch[l]:
            pts = [i for i in chain if c.get('g%d' % i)]
            for a, b in zip(pts, pts[1:]):
                steps.setdefault(f'{a}->{b}', []).append(c['g%d' % b] - c['g%d' % a])
    for k, xs in steps.items():
        show('producer path ' + k, xs)
    if len(args) > 1:
        for r in csv.DictReader(open(args[1])):
            print(f"  event median {r['kernel']:45s} {float(r['median_ms'])*1000:7.2f} us")

main()
