"""gemmscope.gemm's checks of its operands, on the CPU: DLPack capsules made here with
ctypes (laid out as dlpack.h says) describe CUDA tensors that are never touched, and
numpy arrays are CPU tensors. With a GPU, test_gemm_gpu.py runs the product itself."""
import ctypes

import numpy as np
import pytest

import gemmscope
from gemmscope import dlpack
from gemmscope._gemm import check_view

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_keep = []   # the structs a capsule points at stay alive for the whole test run

KDL_CUDA, KDL_CPU, KDL_BFLOAT, KDL_FLOAT = 2, 1, 4, 2


def capsule(shape, strides=None, device=(KDL_CUDA, 0), dtype=(KDL_BFLOAT, 16, 1), data=0x7f0000000000,
            byte_offset=0, name=b"dltensor", versioned=False):
    """A DLPack capsule of a tensor that does not exist (data is never read)."""
    ndim = len(shape)
    shape_c = (ctypes.c_int64 * max(ndim, 1))(*shape)
    strides_c = (ctypes.c_int64 * max(ndim, 1))(*strides) if strides is not None else None
    t = dlpack.DLTensor(data, dlpack.DLDevice(*device), ndim, dlpack.DLDataType(*dtype),
                        ctypes.cast(shape_c, ctypes.POINTER(ctypes.c_int64)),
                        ctypes.cast(strides_c, ctypes.POINTER(ctypes.c_int64)) if strides_c else None, byte_offset)
    if versioned:
        managed = dlpack.DLManagedTensorVersioned(dlpack.DLPackVersion(1, 0), None, dlpack.DLManagedTensorVersioned.
                                                  _fields_[2][1](), 0, t)
        name = b"dltensor_versioned" if name == b"dltensor" else name
    else:
        managed = dlpack.DLManagedTensor(t, None, dlpack.DLManagedTensor._fields_[2][1]())
    _keep.extend([shape_c, strides_c, managed, name])
    return _capsule_new(ctypes.addressof(managed), name, None)


def cuda_bf16(rows, cols, data=0x7f0000000000):
    return capsule((rows, cols), (cols, 1), data=data)


def test_capsule_is_read_without_copying():
    view = dlpack.view_capsule(capsule((3, 5), None, data=0x1000, byte_offset=64))
    assert view.pointer == 0x1000 + 64 and view.shape == (3, 5) and view.strides is None
    assert view.device_type == KDL_CUDA and view.dtype == (KDL_BFLOAT, 16, 1) and view.dtype_name == "bfloat16"
    versioned = dlpack.view_capsule(capsule((2, 8), (8, 1), versioned=True))
    assert versioned.shape == (2, 8) and versioned.strides == (8, 1)


def operands_refused(a, b, out=None, match=""):
    with pytest.raises(ValueError, match=match) as refused:
        gemmscope.gemm(a, b, out)
    return str(refused.value)


def test_wrong_device():
    host = np.zeros((4, 8), dtype=np.float32)
    operands_refused(host, host, match=r"^A is on kDLCPU:0: gemmscope.gemm needs CUDA device memory")
    operands_refused(cuda_bf16(4, 8), capsule((4, 8), device=(KDL_CPU, 0)), match=r"^B is on kDLCPU:0")


def test_wrong_dtype():
    operands_refused(capsule((4, 8), dtype=(KDL_FLOAT, 32, 1)), cuda_bf16(4, 8),
                     match=r"^A has dtype float32: gemmscope.gemm needs bfloat16")
    operands_refused(cuda_bf16(4, 8), capsule((4, 8), dtype=(KDL_BFLOAT, 16, 2)), match="B has dtype bfloat16x2")


def test_wrong_layout_and_strides():
    operands_refused(capsule((2, 4, 8), None), cuda_bf16(4, 8),
                     match=r"^A has shape \(2, 4, 8\): gemmscope.gemm needs a 2-D matrix \(M x K\)$")
    operands_refused(cuda_bf16(4, 8), capsule((4, 8), (1, 4)),
                     match=r"^B has strides \(1, 4\) \(elements\) for shape \(4, 8\): .* strides \(8, 1\)")
    operands_refused(cuda_bf16(4, 8), capsule((4, 8), (16, 1)), match=r"^B has strides \(16, 1\)")
    operands_refused(cuda_bf16(4, 8), cuda_bf16(6, 8), out=capsule((4, 6), (6, 2)), match=r"^out has strides")


def test_shapes_must_agree():
    operands_refused(cuda_bf16(4, 8), cuda_bf16(6, 16),
                     match=r"^A is 4 x 8 and B is 6 x 16: K must agree \(C = A @ B.T")
    operands_refused(cuda_bf16(4, 8), cuda_bf16(6, 8), out=cuda_bf16(6, 4),
                     match=r"^out has shape \(6, 4\): it must be M x N = \(4, 6\)$")
    operands_refused(cuda_bf16(4, 8), capsule((6, 8), (8, 1), device=(KDL_CUDA, 1)),
                     match=r"^A is on kDLCUDA:0 and B on kDLCUDA:1: the operands must be on one device$")


def test_size_one_dimensions_and_null_strides_are_contiguous():
    a, b, out = capsule((1, 8), (999, 1)), capsule((6, 1), (1, 7)), capsule((1, 6), None)
    for x, name in ((a, "A"), (b, "B"), (out, "out")):
        check_view(dlpack.view_capsule(x), name)   # no refusal


def test_not_a_tensor_and_a_used_capsule():
    with pytest.raises(TypeError, match=r"^A is of type list: gemmscope.gemm takes PyTorch tensors or DLPack"):
        gemmscope.gemm([[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="not an unconsumed DLPack tensor"):
        gemmscope.gemm(capsule((4, 8), (8, 1), name=b"used_dltensor"), cuda_bf16(4, 8))


def test_non_pytorch_inputs_need_out():
    with pytest.raises(ValueError, match=r"^out = None: give an output tensor"):
        gemmscope.gemm(cuda_bf16(4, 8), cuda_bf16(6, 8, data=0x7f0001000000))


def test_stream_must_be_a_stream():
    with pytest.raises(ValueError, match=r"^stream = -1 must be a cudaStream_t"):
        gemmscope.gemm(cuda_bf16(4, 8), cuda_bf16(6, 8), stream=-1)


def test_without_kernels_gemm_says_so():
    if gemmscope.have_kernels:
        pytest.skip("built with the kernels")
    out = cuda_bf16(4, 6, data=0x7f0002000000)
    with pytest.raises(RuntimeError, match=r"built without the CUDA kernels \(GEMMSCOPE_BUILD_KERNELS=OFF\)"):
        gemmscope.gemm(cuda_bf16(4, 8), cuda_bf16(6, 8, data=0x7f0001000000), out)
    with pytest.raises(RuntimeError, match="built without the CUDA kernels"):
        gemmscope.gemm_kernel(cuda_bf16(4, 8), cuda_bf16(6, 8, data=0x7f0001000000), out)
