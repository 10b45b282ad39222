"""The hardware model from Python: swizzles, shared-memory matrix descriptors (sm90,
sm100), the tcgen05 instruction descriptor and the TMEM thread maps. Each function is
one of the gemmscope command line's calculators (gemmscope swizzle|desc|idesc|tmem),
with the same names, rules and messages; the facts live in the C++ model."""
import ctypes
from dataclasses import dataclass

import numpy as np

from . import _capi
from ._capi import GS_OK, GS_SHORT, check, int64, lib, text

__all__ = ["swizzle", "desc_encode", "desc_decode", "desc_map", "idesc_encode", "idesc_decode", "tmem_map",
           "TmemMap"]


def _int_array(name, values):
    """values as a C-contiguous int64 array (a copy only where needed)."""
    arr = np.asarray(values)
    if arr.size == 0:
        return np.zeros(arr.shape, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise ValueError(f"{name} = {int(arr.max())} is outside the 64-bit integer range")
    return np.asarray(arr, dtype=np.int64, order="C")


def swizzle(mode, offset):
    """The byte address the hardware uses for logical byte `offset` under swizzle `mode`
    ("none", "32B", "64B", "128B", "128B-atom32B"): `gemmscope swizzle --offset`.
    `offset` is an int or an integer array; the result is of the same kind (an array of
    the same shape and dtype)."""
    mode_c = text(mode)
    if isinstance(offset, (int, np.integer)) and not isinstance(offset, bool):
        src = (ctypes.c_int64 * 1)(int64("offset", offset))
        out = (ctypes.c_uint64 * 1)()
        check(lib.gs_swizzle(mode_c, src, out, 1))
        return int(out[0])
    original = np.asarray(offset)
    src = _int_array("offset", original)
    out = np.empty(src.shape, dtype=np.uint64)
    check(lib.gs_swizzle(mode_c, src.ctypes.data, out.ctypes.data, src.size))
    # A swizzle permutes bits below bit 10 only: the result fits the input's dtype.
    return out.astype(original.dtype if original.dtype.kind in "iu" else np.int64)


def desc_encode(arch, start, lbo, sbo, swizzle, base_offset=0, lbo_mode="relative"):
    """The 64-bit shared-memory matrix descriptor of arch "sm90" (wgmma) or "sm100"
    (tcgen05) as an int: `gemmscope desc encode`. Byte values for start, lbo and sbo."""
    word = ctypes.c_uint64()
    check(lib.gs_desc_encode(text(arch), int64("start", start), int64("lbo", lbo), int64("sbo", sbo), text(swizzle),
                             int64("base_offset", base_offset), text(lbo_mode), ctypes.byref(word)))
    return word.value


def _descriptor_word(word):
    """A descriptor given as an int or as hex text, as `gemmscope desc decode` reads it."""
    if isinstance(word, str):
        digits = word[2:] if word[:2] in ("0x", "0X") else word
        if not digits or len(digits) > 16 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError(f"descriptor = '{word}' must be a hexadecimal value of at most 64 bits")
        return int(digits, 16)
    v = word.__index__() if hasattr(word, "__index__") else None
    if v is None:
        raise TypeError(f"descriptor must be an int or hex text, got {type(word).__name__}")
    if not 0 <= v < (1 << 64):
        raise ValueError(f"descriptor = {v} must be a value of at most 64 bits")
    return v


def desc_decode(arch, word):
    """The fields of a descriptor (int or hex text) as a dict with the keys of
    `gemmscope desc decode --json`."""
    return _capi.call_json(lib.gs_desc_decode, text(arch), _descriptor_word(word))


def desc_map(arch, *, rows, k, desc=None, start=0, lbo=0, sbo=0, swizzle="none", base_offset=0,
             lbo_mode="relative", major="K", elem_bytes=2):
    """The shared-memory byte address of every element (row, k) of an operand of `rows`
    x `k` elements read through a descriptor: `gemmscope desc map`. The descriptor is
    `desc` (int or hex text) or, without it, the fields as for desc_encode. Returns an
    int64 array of shape (rows * k, 3), columns (row, k, address), row-major over (row, k)."""
    if desc is None:
        word = desc_encode(arch, start, lbo, sbo, swizzle, base_offset, lbo_mode)
    else:
        word = _descriptor_word(desc)
    rows_v, k_v = int64("rows", rows), int64("k", k)
    count = ctypes.c_size_t()
    guess = rows_v * k_v if 0 < rows_v <= 4096 and 0 < k_v <= 4096 else 0
    while True:
        out = np.empty((max(guess, 1), 3), dtype=np.uint64)
        status = lib.gs_desc_map(text(arch), word, rows_v, k_v, text(major), int64("elem_bytes", elem_bytes),
                                 out.ctypes.data, guess, ctypes.byref(count))
        if status == GS_SHORT:
            guess = count.value
            continue
        check(status)
        return out[:count.value].astype(np.int64)


def idesc_encode(m, n, a="bf16", b="bf16", d="f32", a_major="K", b_major="K", negate_a=False, negate_b=False,
                 cta_group=1):
    """The 32-bit tcgen05.mma instruction descriptor (kind::f16) as an int: `gemmscope
    idesc encode`. cta_group (1 or 2) checks the shape; it is not encoded."""
    word = ctypes.c_uint32()
    check(lib.gs_idesc_encode(int64("m", m), int64("n", n), text(a), text(b), text(d), text(a_major), text(b_major),
                              1 if negate_a else 0, 1 if negate_b else 0, int64("cta_group", cta_group),
                              ctypes.byref(word)))
    return word.value


def idesc_decode(word):
    """The fields of an instruction descriptor (int or hex text) as a dict with the keys
    of `gemmscope idesc decode --json`."""
    if isinstance(word, str):
        digits = word[2:] if word[:2] in ("0x", "0X") else word
        if not digits or len(digits) > 8 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError(f"instruction descriptor = '{word}' must be a hexadecimal value of at most 32 bits")
        value = int(digits, 16)
    else:
        value = word.__index__()
        if not 0 <= value < (1 << 32):
            raise ValueError(f"instruction descriptor = {value} must be a value of at most 32 bits")
    return _capi.call_json(lib.gs_idesc_decode, value)


@dataclass
class TmemMap:
    """A tcgen05.ld/st thread map: `gemmscope tmem --json`. cells: int64 array of shape
    (32 * registers_per_thread, 4), columns (thread, register, lane, column), lane and
    column relative to the instruction's address."""
    shape: str
    num: int
    registers_per_thread: int
    confirmed: bool  # the PTX ISA figures state this map (else the library reading)
    cells: np.ndarray
    columns = ("thread", "register", "lane", "column")

    def cell(self, thread, register):
        """(lane, column) of one thread's register."""
        row = self.cells[thread * self.registers_per_thread + register]
        return int(row[2]), int(row[3])


def tmem_map(shape, num=1, half_split_offset=0):
    """The tcgen05.ld/st map of shape ("32x32b", "16x64b", "16x128b", "16x256b",
    "16x32bx2") repeated .x`num`: (thread, register) -> (lane, column)."""
    num_v, split_v = int64("num", num), int64("half_split_offset", half_split_offset)
    count, regs, confirmed = ctypes.c_size_t(), ctypes.c_uint32(), ctypes.c_int()
    capacity = 32 * 128  # at most 128 registers per thread
    out = np.empty((capacity, 4), dtype=np.uint32)
    status = lib.gs_tmem_map(text(shape), num_v, split_v, out.ctypes.data, capacity, ctypes.byref(count),
                             ctypes.byref(regs), ctypes.byref(confirmed))
    if status == GS_SHORT:  # more than the instruction's limit: not expected from the model
        raise RuntimeError(f"tmem map of {count.value} cells exceeds {capacity}")
    check(status)
    assert status == GS_OK
    return TmemMap(shape, num_v, regs.value, bool(confirmed.value), out[:count.value].astype(np.int64))
