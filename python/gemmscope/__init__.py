"""gemmscope from Python: the hardware model (swizzles, descriptors, TMEM maps, banks),
shared-memory traces and their pictures, and the bf16 GEMM on PyTorch or DLPack
tensors. docs/python.md is the guide.

Every function is a thin layer over the C++ libraries (through a small C ABI loaded
with ctypes); an input the libraries refuse raises ValueError with the message the
gemmscope command line prints.
"""
from ._capi import have_kernels, version as __version__
from ._banks import BankCollision, BankPhase, BankResult, banks
from ._gemm import gemm, gemm_kernel, load_shape_set
from .check import CheckCase, CheckResult, check_gemm
from .model import (TmemMap, desc_decode, desc_encode, desc_map, idesc_decode, idesc_encode, swizzle, tmem_map)
from .pictures import Picture, swizzle_picture
from . import timing
from .traces import (Trace, analyse_trace, parse_trace, read_trace, trace_from_arrays, trace_model, trace_pattern,
                     trace_stages, write_trace)

__all__ = [
    "swizzle", "desc_encode", "desc_decode", "desc_map", "idesc_encode", "idesc_decode", "tmem_map", "TmemMap",
    "banks", "BankResult", "BankPhase", "BankCollision",
    "Trace", "read_trace", "parse_trace", "write_trace", "analyse_trace", "trace_from_arrays", "trace_pattern",
    "trace_model", "trace_stages",
    "Picture", "swizzle_picture",
    "gemm", "gemm_kernel", "load_shape_set", "have_kernels",
    "check_gemm", "CheckResult", "CheckCase",
]
