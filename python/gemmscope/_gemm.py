"""gemmscope.gemm from Python: C = A @ B.T on CUDA bf16 tensors, zero-copy, on the
caller's stream, through gemmscope::gemm (its kernels, its shape and alignment rules
and their messages). PyTorch tensors are read directly; any other tensor through
DLPack."""
import ctypes
import os
import struct
import sys

from . import _capi
from . import dlpack
from ._capi import GS_OK, lib

__all__ = ["gemm", "gemm_kernel", "load_shape_set"]

_BF16 = (dlpack.KDL_BFLOAT, 16, 1)
_kernel_names = {}
_have_kernels = _capi.have_kernels
# gs_gemm_launch(args, kernel): the problem as one block of native integers
# (gs_gemm_args: m, n, k, a, b, c, stream, device), so that ctypes converts two
# arguments, both bytes, instead of nine.
_gs_gemm_launch = lib.gs_gemm_launch
_pack_args = struct.Struct("=qqqQQQQq").pack
assert struct.calcsize("=qqqQQQQq") == ctypes.sizeof(_capi.GemmArgs)


def _kernel_bytes(kernel):
    b = _kernel_names.get(kernel)
    if b is None:
        b = _capi.text(kernel)
        _kernel_names[kernel] = b
    return b


def _torch_if_tensor(x):
    torch = sys.modules.get("torch")
    return torch if torch is not None and isinstance(x, torch.Tensor) else None


def _stream_value(stream):
    """A stream given as an int (a cudaStream_t) or an object with .cuda_stream (PyTorch)
    or .ptr (CuPy)."""
    for attr in ("cuda_stream", "ptr"):
        if hasattr(stream, attr):
            stream = getattr(stream, attr)
            break
    value = _capi.int64("stream", stream)
    if value < 0:
        raise ValueError(f"stream = {value} must be a cudaStream_t (>= 0; 0 is the legacy default stream)")
    return value


# What gemm's hot path needs of PyTorch, looked up once, when PyTorch is first seen
# imported (gemmscope never imports it).
_torch = None
_Tensor = None
_bf16 = None
_raw_stream = None


def _find_torch():
    global _torch, _Tensor, _bf16, _raw_stream
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    _Tensor, _bf16 = torch.Tensor, torch.bfloat16
    # One call that makes no Stream object, where PyTorch has it.
    _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or \
        (lambda index: torch.cuda.current_stream(index).cuda_stream)
    _torch = torch
    return torch


def _torch_stream(torch, device_index):
    """PyTorch's current stream of a device, as a cudaStream_t."""
    if _raw_stream is None:
        _find_torch()
    return _raw_stream(device_index)


def _launch(m, n, k, a_pointer, b_pointer, c_pointer, stream, device, kernel):
    status = _gs_gemm_launch(_pack_args(m, n, k, a_pointer, b_pointer, c_pointer, stream, device),
                             _kernel_names.get(kernel) or _kernel_bytes(kernel))
    if status:
        raise _capi.error(status)


_ROLES = {"A": "M x K", "B": "N x K", "out": "M x N"}


def _view(x, name, stream):
    if _torch_if_tensor(x) is not None:
        return dlpack.view_torch(x)
    if dlpack.is_capsule(x):
        return dlpack.view_capsule(x)
    if hasattr(x, "__dlpack__"):
        device = dlpack.dlpack_device(x)
        if device is not None and device[0] != dlpack.KDL_CUDA:
            raise ValueError(f"{name} is on {dlpack.device_name(*device)}: gemmscope.gemm needs CUDA device memory "
                             "(DLPack device type kDLCUDA)")
        return dlpack.view_dlpack(x, stream)
    raise TypeError(f"{name} is of type {type(x).__name__}: gemmscope.gemm takes PyTorch tensors or DLPack tensors "
                    "(an object with __dlpack__, or a DLPack capsule)")


def check_view(v, name):
    """The rules of the memory itself: CUDA, bf16, 2-D, row-major contiguous."""
    if v.device_type != dlpack.KDL_CUDA:
        raise ValueError(f"{name} is on {v.device_text}: gemmscope.gemm needs CUDA device memory "
                         "(DLPack device type kDLCUDA)")
    if v.dtype != _BF16:
        raise ValueError(f"{name} has dtype {v.dtype_name}: gemmscope.gemm needs bfloat16 "
                         "(DLPack kDLBfloat, 16 bits, 1 lane)")
    if len(v.shape) != 2:
        raise ValueError(f"{name} has shape {v.shape}: gemmscope.gemm needs a 2-D matrix ({_ROLES[name]})")
    rows, cols = v.shape
    if v.strides is not None:
        row_ok = rows <= 1 or v.strides[0] == cols
        col_ok = cols <= 1 or v.strides[1] == 1
        if not (row_ok and col_ok):
            raise ValueError(f"{name} has strides {v.strides} (elements) for shape {v.shape}: gemmscope.gemm needs "
                             f"row-major contiguous rows, strides ({cols}, 1); pass a contiguous copy "
                             "(tensor.contiguous())")


def _problem(a, b, out, stream):
    """Checks the operands; returns (m, n, k, views, device) for the launch."""
    va, vb = _view(a, "A", stream), _view(b, "B", stream)
    check_view(va, "A")
    check_view(vb, "B")
    (m, k), (n, kb) = va.shape, vb.shape
    if k != kb:
        raise ValueError(f"A is {m} x {k} and B is {n} x {kb}: K must agree (C = A @ B.T with A M x K, B N x K)")
    if va.device_id != vb.device_id:
        raise ValueError(f"A is on {va.device_text} and B on {vb.device_text}: the operands must be on one device")
    vc = None
    if out is not None:
        vc = _view(out, "out", stream)
        check_view(vc, "out")
        if vc.shape != (m, n):
            raise ValueError(f"out has shape {vc.shape}: it must be M x N = ({m}, {n})")
        if vc.device_id != va.device_id:
            raise ValueError(f"out is on {vc.device_text} and A on {va.device_text}: the operands must be on one "
                             "device")
    return m, n, k, va, vb, vc


def _unavailable():
    if not _capi.have_kernels:
        raise _capi.error(lib.gs_gemm(0, 0, 0, None, None, None, 0, -1, b"auto"))


_NEED_OUT = ("out = None: give an output tensor (M x N bf16 on the operands' device); only PyTorch inputs get "
             "one made for them")


def _output(torch, a, vc, out, m, n):
    if out is not None:
        return out, vc.pointer
    if torch is None:
        raise ValueError(_NEED_OUT)
    c = torch.empty((m, n), dtype=torch.bfloat16, device=a.device)
    return c, c.data_ptr()


def _launch_stream(torch, stream, device_id):
    if stream is not None:
        return _stream_value(stream)
    if torch is not None:
        return _torch_stream(torch, device_id)
    return 0


def gemm(a, b, out=None, kernel="auto", stream=None):
    """C = A @ B.T: A is M x K, B is N x K (both K-major, as a linear layer stores its
    weight), C is M x N, all bf16, row-major and contiguous, on one CUDA device; fp32
    accumulation. Zero-copy: the kernel reads and writes the tensors' own memory. `out`
    (optional for PyTorch inputs, which get a new tensor) receives C and is returned.
    kernel: a name of the kernel registry ("auto", "k08", "k10:<configuration>", ...).
    Runs on `stream` (an int cudaStream_t, or a stream object), else PyTorch's current
    stream for PyTorch tensors, else the legacy default stream; it does not wait for it.
    A refused input raises ValueError naming the value and the rule."""
    torch = _torch or _find_torch()
    if torch is not None and stream is None and _have_kernels:
        # The common case in as few PyTorch calls as it takes (each costs a fraction of a
        # microsecond), the cheapest first; anything unusual takes the general path,
        # which says what is wrong.
        Tensor, bf16 = _Tensor, _bf16
        if isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype is bf16 and b.dtype is bf16:
            shape_a, shape_b = a.shape, b.shape
            if len(shape_a) == 2 and len(shape_b) == 2 and shape_a[1] == shape_b[1]:
                m, k = shape_a
                n = shape_b[0]
                device = a.get_device()
                if device >= 0 and b.get_device() == device and a.is_contiguous() and b.is_contiguous():
                    if out is None:
                        result = torch.empty((m, n), dtype=bf16, device=a.device)
                    elif (isinstance(out, Tensor) and out.dtype is bf16 and out.shape == (m, n)
                          and out.get_device() == device and out.is_contiguous()):
                        result = out
                    else:
                        result = None
                    if result is not None:
                        status = _gs_gemm_launch(
                            _pack_args(m, n, k, a.data_ptr(), b.data_ptr(), result.data_ptr(), _raw_stream(device),
                                       device),
                            _kernel_names.get(kernel) or _kernel_bytes(kernel))
                        if status:
                            raise _capi.error(status)
                        return result
    torch = _torch_if_tensor(a)
    # The general path: DLPack objects, explicit streams, and every refusal.
    launch_stream = None
    if stream is not None:
        launch_stream = _stream_value(stream)
    elif torch is not None and a.is_cuda:
        launch_stream = _torch_stream(torch, a.get_device())
    m, n, k, va, vb, vc = _problem(a, b, out, launch_stream or 0)
    if out is None and torch is None:
        raise ValueError(_NEED_OUT)
    _unavailable()
    if launch_stream is None:
        launch_stream = _launch_stream(torch, None, va.device_id)
    out, c_pointer = _output(torch, a, vc, out, m, n)
    _launch(m, n, k, va.pointer, vb.pointer, c_pointer, launch_stream, va.device_id, kernel)
    return out


def gemm_kernel(a, b, out=None, kernel="auto"):
    """What gemm(a, b, out, kernel) would run for these operands: the kernel and, for
    "auto" and k10, the configuration and where it came from ("k10:<configuration>
    (tuning cache)")."""
    m, n, k, va, vb, vc = _problem(a, b, out, 0)
    torch = _torch_if_tensor(a)
    if out is None and torch is None:
        raise ValueError(_NEED_OUT)
    _unavailable()
    out, c_pointer = _output(torch, a, vc, out, m, n)
    name = ctypes.c_char_p()
    status = lib.gs_gemm_dispatch(m, n, k, va.pointer, vb.pointer, c_pointer, _kernel_bytes(kernel),
                                  ctypes.byref(name))
    if status != GS_OK:
        raise _capi.error(status)
    return name.value.decode()


def load_shape_set(path):
    """The shapes of a shape-set CSV (bench/shapes/*.csv), read by the reader `gemmscope
    bench` and the autotuner use: a list of dicts with model, layer, m, n, k."""
    return _capi.call_json(lib.gs_shape_set, _capi.text(os.fspath(path)))
