"""Shared-memory bank cost of one warp instruction (`gemmscope banks --addresses`): per
phase, the wavefronts, the ideal count and the lanes that collide in a bank. The phase
rule and the cost rule are the C++ model's (model/banks.hpp)."""
import ctypes
from dataclasses import dataclass, field
from typing import List

import numpy as np

from . import _capi
from ._capi import int64, lib, text
from .model import _int_array

__all__ = ["banks", "BankResult", "BankPhase", "BankCollision"]


@dataclass
class BankCollision:
    """One bank asked for several distinct 32-bit words in one phase."""
    bank: int
    lanes: List[int]
    words: List[int]                # byte addresses of the distinct words, ascending
    word_lanes: List[List[int]]     # word_lanes[i]: the lanes asking for words[i]


@dataclass
class BankPhase:
    lanes: List[int]                # the active lanes served in this phase
    distinct_words: int
    wavefronts: int
    ideal: int                      # ceil(distinct words / 32)
    conflicts: int                  # wavefronts - ideal
    collisions: List[BankCollision] = field(default_factory=list)


@dataclass
class BankResult:
    """The cost of one warp instruction. addresses: each lane's byte address after the
    swizzle."""
    addresses: List[int]
    width: int
    store: bool
    swizzle: str
    wavefronts: int
    ideal: int
    conflicts: int
    phases: List[BankPhase]

    @property
    def wavefronts_per_phase(self):
        return [p.wavefronts for p in self.phases]

    @property
    def colliding_lanes(self):
        """Every lane that shares a bank with another lane's distinct word, ascending."""
        return sorted({lane for p in self.phases for c in p.collisions for lane in c.lanes})

    def picture(self, title=""):
        """Lanes -> banks, conflicts drawn red (`gemmscope viz --instruction`)."""
        from .traces import trace_from_arrays
        row = np.full((1, 32), -1, dtype=np.int64)
        row[0, :len(self.addresses)] = self.addresses
        t = trace_from_arrays(row, width=self.width, kind="store" if self.store else "load")
        return t.instruction_picture(0, title)

    def __str__(self):
        lines = [f"{self.wavefronts} wavefronts, ideal {self.ideal}, conflicts {self.conflicts} "
                 f"({len(self.addresses)} lanes, {self.width} bytes, {'store' if self.store else 'load'})"]
        for p in self.phases:
            lines.append(f"  phase lanes {_ranges(p.lanes)}: {p.wavefronts} wavefronts, ideal {p.ideal}, "
                         f"conflicts {p.conflicts} ({p.distinct_words} distinct words)")
            for c in p.collisions:
                words = " ".join(f"{w}<-{_ranges(ls)}" for w, ls in zip(c.words, c.word_lanes))
                lines.append(f"    bank {c.bank:2d}: {len(c.words)} distinct words from lanes {_ranges(c.lanes)}: "
                             f"{words}")
        return "\n".join(lines)


def _ranges(lanes):
    """[0, 1, 2, 5] -> "0-2,5"."""
    out, lanes = [], sorted(lanes)
    i = 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        out.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ",".join(out) or "none"


def _result(j, width, store):
    phases = []
    for p in j["phases"]:
        collisions = [BankCollision(c["bank"], c["lanes"], [w["address"] for w in c["words"]],
                                    [w["lanes"] for w in c["words"]]) for c in p["collisions"]]
        phases.append(BankPhase(p["lanes"], p["distinct_words"], p["wavefronts"], p["ideal"], p["conflicts"],
                                collisions))
    return BankResult(j["addresses"], width, store, j["swizzle"], j["wavefronts"], j["ideal"], j["conflicts"],
                      phases)


def banks(addresses, width=4, store=False, swizzle="none"):
    """The bank cost of one warp instruction: lane t accesses `width` bytes (4, 8, 16)
    at addresses[t] (up to 32 addresses; lanes past them are inactive), after applying
    `swizzle` to each. A 2-D array (instructions x lanes) gives a list, one result per
    row."""
    arr = _int_array("addresses", addresses)
    if arr.ndim == 2:
        return [banks(row, width, store, swizzle) for row in arr]
    if arr.ndim != 1:
        raise ValueError(f"addresses has {arr.ndim} dimensions: give one instruction's addresses (1-D) "
                         "or one row per instruction (2-D)")
    width_v = int64("width", width)
    j = _capi.call_json(lib.gs_banks, arr.ctypes.data, arr.size, width_v, 1 if store else 0, text(swizzle))
    return _result(j, width_v, bool(store))
