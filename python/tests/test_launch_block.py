"""The C ABI's one-block GEMM call (gs_gemm_launch, gemm's hot path) and the benchmark
harness's plan, on the CPU: the block's fields reach gemmscope::gemm in their order,
shown by its refusals, which come before any CUDA call (device -1 leaves the current
device alone, so no GPU is asked for)."""
import ctypes
import struct

import pytest

import gemmscope
from gemmscope import _capi, _gemm, timing

A, B, C = 0x7f0000000000, 0x7f0001000000, 0x7f0002000000


def launch(m, n, k, a=A, b=B, c=C, stream=0, device=-1, kernel=b"auto"):
    status = _capi.lib.gs_gemm_launch(_gemm._pack_args(m, n, k, a, b, c, stream, device), kernel)
    if status:
        raise _capi.error(status)


def test_block_is_laid_out_as_gs_gemm_args():
    fields = [name for name, _ in _capi.GemmArgs._fields_]
    assert fields == ["m", "n", "k", "a", "b", "c", "stream", "device"]
    block = _gemm._pack_args(1, 2, 3, 4, 5, 6, 7, -1)
    assert len(block) == ctypes.sizeof(_capi.GemmArgs) == 64
    args = _capi.GemmArgs.from_buffer_copy(block)
    assert (args.m, args.n, args.k, args.a, args.b, args.c, args.stream, args.device) == (1, 2, 3, 4, 5, 6, 7, -1)
    assert struct.unpack("=8q", block)[7] == -1


needs_kernels = pytest.mark.skipif(not gemmscope.have_kernels, reason="built without the kernels")


@needs_kernels
def test_each_field_reaches_gemm():
    with pytest.raises(ValueError, match=r"^M = 0 must be at least 1$"):
        launch(0, 64, 64)
    with pytest.raises(ValueError, match=r"^N = -3 must be at least 1$"):
        launch(64, -3, 64)
    with pytest.raises(ValueError, match=r"^K = 0 must be at least 1$"):
        launch(64, 64, 0)
    with pytest.raises(ValueError, match=r"^A is a null pointer$"):
        launch(64, 64, 64, a=0)
    with pytest.raises(ValueError, match=r"^B is a null pointer$"):
        launch(64, 64, 64, b=0)
    with pytest.raises(ValueError, match=r"^C overlaps A: the output must not alias an input$"):
        launch(64, 64, 64, c=A + 64)
    with pytest.raises(ValueError, match=r"^kernel 'k99' is unknown; known kernels: k01, "):
        launch(64, 64, 64, kernel=b"k99")


@needs_kernels
def test_bench_plan_refuses_bad_sizes():
    with pytest.raises(ValueError, match=r"^M, N, K = 0 x 64 x 64 must each be in 1\.\.2\^31-1$"):
        timing.plan(0, 64, 64)
    with pytest.raises(ValueError, match=r"^M, N, K = 64 x 64 x 2147483648 must each be in 1\.\.2\^31-1$"):
        timing.plan(64, 64, 1 << 31)
    with pytest.raises(ValueError, match=r"^operands is empty"):
        timing.batch([])
