"""Shared-memory access traces (docs/traces.md) from Python: read, write, build from
arrays, analyse, compare, and draw. A Trace holds the C++ trace; every rule of the
format is its reader's."""
import ctypes
import json
import os

import numpy as np

from . import _capi
from ._capi import check, int64, lib, text
from .model import _int_array
from .pictures import Picture

__all__ = ["Trace", "read_trace", "parse_trace", "write_trace", "analyse_trace", "trace_from_arrays",
           "trace_pattern", "trace_model", "trace_stages"]

_NAMES = json.loads(lib.gs_trace_names().decode())


def trace_stages():
    """The stage names a record may carry, as the format spells them."""
    return list(_NAMES["stages"])


class Trace:
    """One trace: a header (kernel, source, description, smem_base) and its records.
    In a notebook it shows its bank-by-stage heat map."""

    def __init__(self, handle):
        if not handle:
            raise RuntimeError("no trace")
        self._handle = ctypes.c_void_p(handle)
        header = _capi.call_json(lib.gs_trace_header, self._handle)
        self.kernel = header["kernel"]
        self.source = header["source"]
        self.description = header["description"]
        self.smem_base = header["smem_base"]

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle and lib is not None:
            lib.gs_trace_free(handle)
            self._handle = None

    def __len__(self):
        return lib.gs_trace_count(self._handle)

    def __repr__(self):
        return f"<gemmscope.Trace kernel={self.kernel!r} source={self.source!r}: {len(self)} records>"

    def arrays(self):
        """The records as arrays, under the names trace_from_arrays takes: addresses
        (n x 32, -1 for an inactive lane), mask, width, kind, stage, cta, warp, label and
        record_kernel (a record's own kernel, "" for the trace's)."""
        n = len(self)
        ints = {name: np.empty(n, dtype=np.int64) for name in ("stage", "cta", "warp", "width", "kind", "mask")}
        addresses = np.empty((n, 32), dtype=np.int64)
        check(lib.gs_trace_export(self._handle, *(ints[k].ctypes.data for k in
                                                  ("stage", "cta", "warp", "width", "kind", "mask")),
                                  addresses.ctypes.data))
        stages = np.array(_NAMES["stages"], dtype=object)[ints["stage"]] if n else np.array([], dtype=object)
        kinds = np.array(_NAMES["kinds"], dtype=object)[ints["kind"]] if n else np.array([], dtype=object)
        return {
            "addresses": addresses,
            "mask": ints["mask"],
            "width": ints["width"],
            "kind": kinds,
            "stage": stages,
            "cta": ints["cta"],
            "warp": ints["warp"],
            "label": np.array(_capi.call_json(lib.gs_trace_labels, self._handle), dtype=object),
            "record_kernel": np.array(_capi.call_json(lib.gs_trace_kernels, self._handle), dtype=object),
        }

    def to_text(self, format="jsonl"):
        """The trace as the file would hold it: "jsonl" (every field) or "text"."""
        return _capi.call_text(lib.gs_trace_write, self._handle, text(format))

    def write(self, path, format="jsonl"):
        check(lib.gs_trace_write_file(self._handle, text(os.fspath(path)), text(format)))

    def analyse(self, per_instruction=False):
        """The bank analysis as a dict: the JSON of `gemmscope banks --trace --json`
        ("kernels", "stages", "total", and with per_instruction "instructions")."""
        return _capi.call_json(lib.gs_trace_analyse, self._handle, 1 if per_instruction else 0)

    def analysis_text(self, per_instruction=False):
        """The analysis as `gemmscope banks --trace` prints it (--all: per_instruction)."""
        return _capi.call_text(lib.gs_trace_analysis_text, self._handle, 1 if per_instruction else 0)

    def compare(self, other):
        """None when the records agree (kernel, stage, CTA, warp, width, kind, mask,
        addresses; labels aside), else the first difference: `gemmscope trace compare`."""
        if not isinstance(other, Trace):
            raise TypeError(f"compare needs a Trace, got {type(other).__name__}")
        difference = _capi.call_text(lib.gs_trace_compare, self._handle, other._handle)
        return difference or None

    def model_for(self):
        """The model's trace of the CTAs and stages this (recorded) trace holds."""
        out = ctypes.c_void_p()
        check(lib.gs_trace_model_for(self._handle, ctypes.byref(out)))
        return Trace(out.value)

    def heatmap(self, title=""):
        """Distinct words per bank and stage, conflicts marked (`gemmscope viz TRACE`)."""
        return Picture(_capi.call_text(lib.gs_trace_heatmap_dot, self._handle, text(title)), title)

    def instruction_picture(self, record, title=""):
        """One record's lanes -> banks (`gemmscope viz TRACE --instruction N`)."""
        return Picture(_capi.call_text(lib.gs_trace_instruction_dot, self._handle, int64("record", record),
                                       text(title)), title)

    def _repr_svg_(self):
        return self.heatmap()._repr_svg_()


def _new(fn, *args):
    out = ctypes.c_void_p()
    check(fn(*args, ctypes.byref(out)))
    return Trace(out.value)


def read_trace(path):
    """A trace file in either form (JSON lines or text)."""
    return _new(lib.gs_trace_read, text(os.fspath(path)))


def parse_trace(source, name="<input>"):
    """A trace from its text; `name` prefixes error messages."""
    data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
    return _new(lib.gs_trace_parse, data, len(data), text(name))


def write_trace(trace, path, format="jsonl"):
    trace.write(path, format)


def analyse_trace(trace, per_instruction=False):
    return trace.analyse(per_instruction)


def trace_pattern(name, swizzle="none", base=0):
    """A built-in bank pattern (`gemmscope banks --list`) as a trace."""
    return _new(lib.gs_trace_pattern, text(name), text(swizzle), int64("base", base))


def trace_model(kernel="k04", k_blocks=1, base=0, cta=0, main_loop=True, epilogue=True):
    """The model's trace of a ladder kernel (k02, k03, k04): `gemmscope trace model`."""
    return _new(lib.gs_trace_model, text(kernel), int64("k_blocks", k_blocks), int64("base", base), int64("cta", cta),
                1 if main_loop else 0, 1 if epilogue else 0)


def _per_record(name, values, n, kind):
    """A scalar or one value per record, as an array of n."""
    if kind == "int":
        arr = _int_array(name, values)
        if arr.ndim == 0:
            return np.full(n, int(arr), dtype=np.int64)
    else:
        if isinstance(values, (str, bytes)) or values is None:
            values = [values] * n
        arr = list(values)
    if len(arr) != n:
        raise ValueError(f"{name} has {len(arr)} entries for {n} records")
    return arr


def _strings(name, values):
    out = []
    for v in values:
        if v is None:
            out.append(None)
        elif isinstance(v, str):
            out.append(v.encode("utf-8"))
        else:
            raise TypeError(f"{name} must hold strings, got {type(v).__name__}")
    return (ctypes.c_char_p * max(len(out), 1))(*out)


def trace_from_arrays(addresses, *, width=4, kind="load", mask=None, stage="user", cta=0, warp=0, label=None,
                      record_kernel=None, kernel="", source="user", description="", smem_base=0):
    """A trace of n warp instructions from arrays. addresses: n x 32 byte addresses (a
    1-D array of up to 32 is one instruction; rows shorter than 32 leave the other lanes
    inactive). Without `mask`, a negative address marks an inactive lane; with it, bit t
    of mask says whether lane t is active. width, kind ("load"/"store"), stage (see
    trace_stages()), cta, warp, label and record_kernel: one value for all records or
    one per record. The records go through the trace reader: a value it refuses raises
    ValueError naming the record."""
    arr = _int_array("addresses", addresses)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] > 32:
        raise ValueError(f"addresses has shape {arr.shape}: give n x 32 (one row per instruction, a lane a column)")
    if arr.shape[1] < 32:
        arr = np.concatenate([arr, np.full((arr.shape[0], 32 - arr.shape[1]), -1, dtype=np.int64)], axis=1)
    arr = np.ascontiguousarray(arr)
    n = arr.shape[0]
    widths = _per_record("width", width, n, "int")
    ctas = _per_record("cta", cta, n, "int")
    warps = _per_record("warp", warp, n, "int")
    masks = None if mask is None else _per_record("mask", mask, n, "int")
    kinds = _strings("kind", _per_record("kind", kind, n, "str"))
    stages = _strings("stage", _per_record("stage", stage, n, "str"))
    labels = None if label is None else _strings("label", _per_record("label", label, n, "str"))
    kernels = None if record_kernel is None else _strings("record_kernel",
                                                          _per_record("record_kernel", record_kernel, n, "str"))
    return _new(lib.gs_trace_build, text(kernel), text(source), text(description), int64("smem_base", smem_base), n,
                stages, ctas.ctypes.data, warps.ctypes.data, widths.ctypes.data, kinds,
                None if masks is None else masks.ctypes.data, arr.ctypes.data, labels, kernels)
