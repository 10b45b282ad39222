#!/usr/bin/env python3
"""Compare the .entry functions of two PTX files of the k10 part files (before and
after a change): a kernel counts as unchanged when its body is byte-identical once
the new template parameter (bool PingPong = false, mangled 'Lb0E') is taken out of
the new file's names. Used to show the cooperative instances' code did not change.

  nvcc -std=c++20 -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels/include \
       -Ikernels -Imodel/include -Ibuild/generated kernels/sm90/k10_tunable_pN.cu -o X.ptx
  ptx_identity.py before.ptx after.ptx
"""
import re
import sys


def entries(path, strip_pingpong):
    text = open(path).read()
    if strip_pingpong:  # <..., bool Dynamic, bool PingPong=false>: drop the last bool
        text = text.replace('ELb0ELb0EE', 'ELb0EE').replace('ELb1ELb0EE', 'ELb1EE')
    out = {}
    for m in re.finditer(r'\.entry (\S+)\(', text):
        end = text.find('\n}\n', m.start())
        out[m.group(1)] = text[m.start():end]
    return out


before, after = entries(sys.argv[1], False), entries(sys.argv[2], True)
same = [k for k in before if after.get(k) == before[k]]
print(f'{len(before)} kernels before, {len(after)} after; {len(same)} of the {len(before)} byte-identical;',
      f'{len([k for k in after if k not in before])} new')
sys.exit(0 if len(same) == len(before) else 1)
