#!/usr/bin/env python3
# Per-entry PTX identity of k10's part files before and after a change.
# Usage: ptx-identity.py OLD_DIR NEW_DIR, each holding p0.ptx p1.ptx p2.ptx from
#   nvcc -ptx -std=c++20 --expt-relaxed-constexpr -DNDEBUG -O3 -I<build>/generated
#        -Ikernels -Ikernels/include -Imodel/include
#        -gencode=arch=compute_90a,code=sm_90a kernels/sm90/k10_tunable_pN.cu
# Each .entry's text is compared with its own mangled name (which changes when a
# template parameter is added) replaced by ENTRY, and the `// .globl` comment lines
# dropped. Old entries are matched to new ones in order; entries past the old count
# are listed as new.
import re
import sys


def entries(path):
    out = []
    for part in re.split(r'(?m)^(?=\.visible \.entry|\.entry)', open(path).read()):
        m = re.match(r'(?:\.visible )?\.entry (\S+)\(', part)
        if not m:
            continue
        body = part.replace(m.group(1), 'ENTRY')
        out.append((m.group(1), re.sub(r'(?m)^\s*// \.globl.*$', '', body)))
    return out


old_dir, new_dir = sys.argv[1], sys.argv[2]
bad = 0
for i in range(3):
    old, new = entries(f'{old_dir}/p{i}.ptx'), entries(f'{new_dir}/p{i}.ptx')
    same = sum(a[1] == b[1] for a, b in zip(old, new))
    print(f'part {i}: {len(old)} old entries, {same} identical; {len(new) - len(old)} new')
    for a, b in zip(old, new):
        if a[1] != b[1]:
            bad += 1
            print('  differs:', a[0], b[0])
    for n in new[len(old):]:
        print('  new:', n[0])
sys.exit(1 if bad else 0)
