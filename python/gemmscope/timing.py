"""The benchmark harness's timing, from Python: the same kernel timed natively by the C++
harness that `gemmscope bench` uses, on operands the caller owns, so that one process can
interleave it with its own timing of gemmscope.gemm and compare the two on the same
shapes, buffers and GPU state (python/bench_gemm.py).

gemmscope bench times a shape in batches: a spin kernel of about 300 us queued first (so
that the host has queued the launches before the GPU reaches them), then 4 launches back
to back, each between its own pair of CUDA events, on input sets that rotate through more
than 3x L2; the median over all timed launches is the result. plan() says how many sets and
launches; batch() takes one such batch natively; spin() queues the same spin kernel ahead
of a batch timed in Python.
"""
import ctypes
from typing import NamedTuple

from . import _capi
from ._capi import lib
from ._gemm import _kernel_bytes, _launch_stream, _problem, _torch_if_tensor, _unavailable

__all__ = ["Plan", "plan", "spin", "batch", "host_seconds"]


class Plan(NamedTuple):
    sets: int        # input/output sets to rotate through (together more than 3x L2)
    launches: int    # launches per timed batch
    spin_us: float   # GPU spin queued before each batch


def plan(m, n, k, device=0):
    """How gemmscope bench times an M x N x K product on CUDA device `device`."""
    sets, launches, spin_us = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_double()
    _capi.check(lib.gs_bench_plan(_capi.int64("m", m), _capi.int64("n", n), _capi.int64("k", k),
                                  _capi.int64("device", device), ctypes.byref(sets), ctypes.byref(launches),
                                  ctypes.byref(spin_us)))
    return Plan(sets.value, launches.value, spin_us.value)


def spin(stream=0, device=0, microseconds=None):
    """Queues the harness's spin kernel on `stream` (an int cudaStream_t): `microseconds`
    of GPU time, by default what gemmscope bench spins before a batch."""
    if microseconds is None:
        microseconds = plan(1, 1, 1, device).spin_us
    _capi.check(lib.gs_bench_spin(_capi.int64("stream", stream), _capi.int64("device", device), float(microseconds)))


def batch(operands, kernel="auto", stream=None):
    """One batch timed natively as gemmscope bench times it: the spin, then one launch of
    the registry's `kernel` per (a, b, c) of `operands` (at most plan().launches, all of
    one shape and device), back to back on `stream` (default: as gemmscope.gemm picks it),
    each between its own pair of CUDA events. Waits; returns each launch's milliseconds.
    The operands are checked as gemmscope.gemm checks them."""
    operands = list(operands)
    if not operands:
        raise ValueError("operands is empty: give at least one (a, b, c)")
    _unavailable()
    first = operands[0][0]
    torch = _torch_if_tensor(first)
    launch_stream = _launch_stream(torch, stream, 0 if torch is None else first.get_device())
    blocks = (_capi.GemmArgs * len(operands))()
    for i, (a, b, c) in enumerate(operands):
        m, n, k, va, vb, vc = _problem(a, b, c, launch_stream)
        blocks[i] = _capi.GemmArgs(m, n, k, va.pointer, vb.pointer, vc.pointer, launch_stream, va.device_id)
    ms = (ctypes.c_float * len(operands))()
    _capi.check(lib.gs_bench_batch(blocks, len(operands), _kernel_bytes(kernel), ms))
    return list(ms)


def host_seconds(a, b, out, kernel="auto", calls=1000, stream=None):
    """Host time per call of the same launch made from C++ (gemmscope::gemm in a loop, no
    Python), in seconds, launches not waited for: the baseline for a Python call's own cost."""
    torch = _torch_if_tensor(a)
    launch_stream = _launch_stream(torch, stream, 0 if torch is None else a.get_device())
    m, n, k, va, vb, vc = _problem(a, b, out, launch_stream)
    _unavailable()
    seconds = ctypes.c_double()
    _capi.check(lib.gs_gemm_host_seconds(m, n, k, va.pointer, vb.pointer, vc.pointer, launch_stream, va.device_id,
                                         _kernel_bytes(kernel), _capi.int64("calls", calls), ctypes.byref(seconds)))
    return seconds.value
