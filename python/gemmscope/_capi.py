"""The C ABI (python/capi/gemmscope_capi.h), loaded with ctypes.

One shared library next to this file, libgemmscope_capi.so, holds the model, the
traces library and, when built with them, the CUDA kernels. Every call returns a
status; a refused input becomes ValueError with the library's message (the text the
gemmscope command line prints), anything else RuntimeError.
"""
import ctypes
import json
import os
import sys

GS_OK, GS_INVALID, GS_FAILED, GS_UNAVAILABLE, GS_SHORT = 0, 1, 2, 3, 4
ABI_VERSION = 3

_c_int64_p = ctypes.POINTER(ctypes.c_int64)
_c_uint64_p = ctypes.POINTER(ctypes.c_uint64)
_c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
_c_char_pp = ctypes.POINTER(ctypes.c_char_p)
_c_size_p = ctypes.POINTER(ctypes.c_size_t)
_c_str_p = ctypes.POINTER(ctypes.c_char_p)
_trace_p = ctypes.c_void_p


class GemmArgs(ctypes.Structure):
    """gs_gemm_args: a product's integers in one block (gs_gemm_launch, gs_bench_batch)."""
    _fields_ = [("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64), ("a", ctypes.c_uint64),
                ("b", ctypes.c_uint64), ("c", ctypes.c_uint64), ("stream", ctypes.c_uint64),
                ("device", ctypes.c_int64)]


def _library_path():
    override = os.environ.get("GEMMSCOPE_CAPI_LIBRARY")
    if override:
        return override
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libgemmscope_capi.so")


def _load():
    path = _library_path()
    if not os.path.exists(path):
        raise ImportError(
            f"gemmscope: the C library {path} is missing; build it with tools/build "
            "(it is put in build/python/gemmscope/ next to the package)")
    lib = ctypes.CDLL(path)
    _declare(lib)
    if lib.gs_abi_version() != ABI_VERSION:
        raise ImportError(f"gemmscope: {path} speaks C ABI version {lib.gs_abi_version()}, "
                          f"this package version {ABI_VERSION}; rebuild with tools/build")
    return lib


def _declare(lib):
    i64, u64, u32, i32 = ctypes.c_int64, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_int
    s, p, size = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
    signatures = {
        "gs_abi_version": (i32, []),
        "gs_version": (s, []),
        "gs_last_error": (s, []),
        "gs_swizzle": (i32, [s, p, p, size]),
        "gs_desc_encode": (i32, [s, i64, i64, i64, s, i64, s, _c_uint64_p]),
        "gs_desc_decode": (i32, [s, u64, _c_str_p]),
        "gs_desc_map": (i32, [s, u64, i64, i64, s, i64, p, size, _c_size_p]),
        "gs_idesc_encode": (i32, [i64, i64, s, s, s, s, s, i32, i32, i64, _c_uint32_p]),
        "gs_idesc_decode": (i32, [u32, _c_str_p]),
        "gs_tmem_map": (i32, [s, i64, i64, p, size, _c_size_p, _c_uint32_p, ctypes.POINTER(i32)]),
        "gs_banks": (i32, [p, size, i64, i32, s, _c_str_p]),
        "gs_swizzle_dot": (i32, [s, i64, i64, i64, _c_str_p]),
        "gs_trace_free": (None, [_trace_p]),
        "gs_trace_parse": (i32, [s, size, s, ctypes.POINTER(_trace_p)]),
        "gs_trace_read": (i32, [s, ctypes.POINTER(_trace_p)]),
        "gs_trace_pattern": (i32, [s, s, i64, ctypes.POINTER(_trace_p)]),
        "gs_trace_model": (i32, [s, i64, i64, i64, i32, i32, ctypes.POINTER(_trace_p)]),
        "gs_trace_build": (i32, [s, s, s, i64, size, _c_char_pp, p, p, p, _c_char_pp, p, p, _c_char_pp, _c_char_pp,
                                 ctypes.POINTER(_trace_p)]),
        "gs_trace_names": (s, []),
        "gs_trace_count": (size, [_trace_p]),
        "gs_trace_header": (i32, [_trace_p, _c_str_p]),
        "gs_trace_export": (i32, [_trace_p, p, p, p, p, p, p, p]),
        "gs_trace_labels": (i32, [_trace_p, _c_str_p]),
        "gs_trace_kernels": (i32, [_trace_p, _c_str_p]),
        "gs_trace_write": (i32, [_trace_p, s, _c_str_p]),
        "gs_trace_write_file": (i32, [_trace_p, s, s]),
        "gs_trace_compare": (i32, [_trace_p, _trace_p, _c_str_p]),
        "gs_trace_model_for": (i32, [_trace_p, ctypes.POINTER(_trace_p)]),
        "gs_trace_analyse": (i32, [_trace_p, i32, _c_str_p]),
        "gs_trace_analysis_text": (i32, [_trace_p, i32, _c_str_p]),
        "gs_trace_heatmap_dot": (i32, [_trace_p, s, _c_str_p]),
        "gs_trace_instruction_dot": (i32, [_trace_p, i64, s, _c_str_p]),
        "gs_shape_set": (i32, [s, _c_str_p]),
        "gs_check_inputs": (i32, [i64, i64, i64, u64, p, p]),
        "gs_check_compare": (i32, [i64, i64, i64, p, p, p, _c_str_p]),
        "gs_have_kernels": (i32, []),
        "gs_gemm": (i32, [i64, i64, i64, p, p, p, ctypes.c_size_t, i32, s]),
        "gs_gemm_dispatch": (i32, [i64, i64, i64, p, p, p, s, _c_str_p]),
        "gs_gemm_host_seconds": (i32, [i64, i64, i64, p, p, p, ctypes.c_size_t, i32, s, i64,
                                       ctypes.POINTER(ctypes.c_double)]),
        # No argtypes: the argument block (bytes) and the kernel name (bytes) pass as
        # pointers with no conversion, the cheapest call ctypes makes (gemm's hot path).
        "gs_gemm_launch": (i32, None),
        "gs_bench_plan": (i32, [i64, i64, i64, i32, _c_int64_p, _c_int64_p, ctypes.POINTER(ctypes.c_double)]),
        "gs_bench_spin": (i32, [ctypes.c_size_t, i32, ctypes.c_double]),
        "gs_bench_batch": (i32, [ctypes.POINTER(GemmArgs), i64, s, ctypes.POINTER(ctypes.c_float)]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


lib = _load()


def error(status):
    """The exception for a failed call's status, with the library's message."""
    message = (lib.gs_last_error() or b"").decode("utf-8", "replace")
    if status == GS_INVALID:
        return ValueError(message)
    return RuntimeError(message)


def check(status):
    if status != GS_OK:
        raise error(status)


def text(value):
    """A str argument as the C side's UTF-8 bytes; TypeError for anything else."""
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"expected a str, got {type(value).__name__}")


def call_text(fn, *args):
    """Calls fn(*args, &out) and returns the string it gives back."""
    out = ctypes.c_char_p()
    check(fn(*args, ctypes.byref(out)))
    return out.value.decode("utf-8", "replace")


def call_json(fn, *args):
    return json.loads(call_text(fn, *args))


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def int64(name, value):
    """An integer argument, as the command line reads integers: within 64 bits."""
    try:
        v = value.__index__()
    except AttributeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise ValueError(f"{name} = {v} is outside the 64-bit integer range")
    return v


version = lib.gs_version().decode()
have_kernels = bool(lib.gs_have_kernels())

if sys.byteorder != "little":  # the arrays passed as pointers are native int64
    raise ImportError("gemmscope: a little-endian machine is needed")
