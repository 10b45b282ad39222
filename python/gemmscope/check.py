"""Differential tests of a GEMM of your own against gemmscope's reference: fresh random
bf16 inputs for every case, the output poisoned with NaN before each call, C = A @ B.T in
double precision (Eigen) and the bound for bf16 inputs, fp32 accumulation and bf16
output, as gemmscope's own kernels are held to it (gemmscope/testing/reference.hpp);
then the first failing shape shrunk to a small one that still fails.

    result = gemmscope.check_gemm(my_gemm)      # my_gemm(a, b, out) writes a @ b.T into out
    assert result.ok, result

`array="torch"` (the default) passes CUDA bf16 tensors; `array="numpy"` passes uint16
arrays of bf16 bits, for a kernel behind an interface of your own or a CPU model of it.
"""
import ctypes
from dataclasses import dataclass, field

import numpy as np

from . import _capi
from ._capi import lib

__all__ = ["check_gemm", "CheckCase", "CheckResult"]

_POISON = 0xFFFF  # a NaN in bf16: an element the kernel never writes fails


@dataclass
class CheckCase:
    """One shape, its inputs' seed and how C compared with the reference."""
    shape: tuple
    seed: int
    ok: bool
    summary: str
    normwise_rel_error: float
    worst_elementwise_ratio: float
    bad_elements: int
    nan_elements: int
    first_bad: tuple  # (row, column) of the first element past the bound, or None

    def __str__(self):
        m, n, k = self.shape
        return f"{m:>6}x{n:>6}x{k:>6} seed {self.seed}: {self.summary}"


@dataclass
class CheckResult:
    cases: list
    smallest_failure: CheckCase = None  # the first failure shrunk (None when all passed)
    shrink_steps: int = 0               # shapes tried while shrinking
    ok: bool = field(init=False)

    def __post_init__(self):
        self.ok = all(c.ok for c in self.cases)

    @property
    def first_failure(self):
        return next((c for c in self.cases if not c.ok), None)

    def __str__(self):
        lines = [str(c) for c in self.cases]
        passed = sum(c.ok for c in self.cases)
        lines.append(f"# {passed} passed, {len(self.cases) - passed} failed")
        if self.smallest_failure is not None:
            lines.append(f"# smallest failing shape ({self.shrink_steps} tried): {self.smallest_failure}")
        return "\n".join(lines)


def _inputs(shape, seed):
    m, n, k = shape
    a = np.empty((m, k), dtype=np.uint16)
    b = np.empty((n, k), dtype=np.uint16)
    _capi.check(lib.gs_check_inputs(m, n, k, seed, a.ctypes.data_as(ctypes.c_void_p),
                                    b.ctypes.data_as(ctypes.c_void_p)))
    return a, b


def _run(fn, array, device, a, b):
    """fn's C for the inputs (bf16 bits), its output poisoned before the call."""
    m, n = a.shape[0], b.shape[0]
    if array == "numpy":
        out = np.full((m, n), _POISON, dtype=np.uint16)
        fn(a, b, out)
        return np.ascontiguousarray(out, dtype=np.uint16)
    import torch
    dev = torch.device(device or "cuda")
    ta = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).to(dev)
    tb = torch.from_numpy(b.view(np.int16)).view(torch.bfloat16).to(dev)
    out = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device=dev)
    fn(ta, tb, out)
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
    return out.cpu().view(torch.int16).numpy().view(np.uint16)


def _case(fn, array, device, shape, seed):
    a, b = _inputs(shape, seed)
    c = _run(fn, array, device, a, b)
    if c.shape != (shape[0], shape[1]):
        raise ValueError(f"out has shape {c.shape} after the call: it must stay {shape[0]} x {shape[1]}")
    m, n, k = shape
    r = _capi.call_json(lib.gs_check_compare, m, n, k, a.ctypes.data_as(ctypes.c_void_p),
                        b.ctypes.data_as(ctypes.c_void_p), c.ctypes.data_as(ctypes.c_void_p))
    first = (r["first_bad_row"], r["first_bad_col"]) if r["first_bad_row"] >= 0 else None
    return CheckCase(tuple(shape), seed, r["ok"], r["summary"], r["normwise_rel_error"],
                     r["worst_elementwise_ratio"], r["bad_elements"], r["nan_elements"], first)


def _draw_shapes(cases, max_dim, seed):
    """`cases` shapes, each size log-uniform in 1..max_dim: tiny, ragged and multi-tile."""
    rng = np.random.default_rng(seed)
    sizes = np.exp(rng.uniform(0, np.log(max_dim + 1), size=(cases, 3))).astype(np.int64)
    return [tuple(int(min(max(v, 1), max_dim)) for v in row) for row in sizes]


def _shrink(fn, array, device, failure, budget):
    """A smaller shape that still fails: each size in turn tried at 1, half and one less,
    the first that fails taken, until none does or `budget` shapes were tried. Each shape
    draws its inputs from the failing case's seed."""
    smallest, tried = failure, 0
    progress = True
    while progress and tried < budget:
        progress = False
        for axis in range(3):
            size = smallest.shape[axis]
            for candidate in sorted({1, size // 2, size - 1}):
                if candidate < 1 or candidate >= size or tried >= budget:
                    continue
                shape = list(smallest.shape)
                shape[axis] = candidate
                tried += 1
                case = _case(fn, array, device, tuple(shape), failure.seed)
                if not case.ok:
                    smallest, progress = case, True
                    break
    return smallest, tried


def _need_torch():
    """array="torch" passes PyTorch tensors: without PyTorch, say what is missing and what
    runs without it, before any case."""
    try:
        import torch  # noqa: F401
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            f"array = 'torch' (the default) needs PyTorch: no module named {e.name!r}; install it, "
            "or give array='numpy' to pass uint16 arrays of bf16 bits", name=e.name) from e


def check_gemm(fn, shapes=None, cases=20, max_dim=1024, seed=1, array="torch", device=None, shrink=64):
    """Runs fn(a, b, out) on fresh random inputs and holds out to C = a @ b.T.

    fn: writes C (M x N, bf16, row-major) into `out`, which is filled with NaN before
        each call. a is M x K and b is N x K (row-major).
    shapes: (m, n, k) tuples to run; by default `cases` shapes drawn from `seed`, each
        size log-uniform in 1..max_dim.
    seed: case i's inputs come from seed + i (the same values for the same seed and shape).
    array: "torch" (CUDA bf16 tensors on `device`, default "cuda"; without PyTorch,
        ModuleNotFoundError naming the module) or "numpy" (uint16 arrays of bf16 bits).
    shrink: at most this many shapes tried to shrink the first failure (0: none).

    Returns a CheckResult: `ok`, the `cases`, `first_failure` and `smallest_failure`.
    A shape the reference refuses (M x N x K over 2^34 multiply-adds, M x N over 2^26)
    raises ValueError naming the rule.
    """
    if array not in ("torch", "numpy"):
        raise ValueError(f"array = {array!r} must be 'torch' or 'numpy'")
    if array == "torch":
        _need_torch()
    if shapes is None:
        if not 1 <= int(cases) <= 100000:
            raise ValueError(f"cases = {cases} must be in 1..100000")
        if not 1 <= int(max_dim) <= 2147483647:
            raise ValueError(f"max_dim = {max_dim} must be in 1..2^31-1")
        shapes = _draw_shapes(int(cases), int(max_dim), seed)
    shapes = [tuple(int(v) for v in s) for s in shapes]
    for s in shapes:
        if len(s) != 3:
            raise ValueError(f"shape {s} must be (m, n, k)")
    run = [_case(fn, array, device, s, seed + i) for i, s in enumerate(shapes)]
    result = CheckResult(run)
    failure = result.first_failure
    if failure is not None and shrink > 0:
        result.smallest_failure, result.shrink_steps = _shrink(fn, array, device, failure, int(shrink))
    elif failure is not None:
        result.smallest_failure = failure
    return result
