"""Reading a tensor without copying it: a PyTorch tensor directly, anything else through
DLPack (an object with __dlpack__, or a "dltensor" capsule), its structs read with
ctypes as dlpack.h lays them out. Only describes the memory; gemm.py checks it."""
import ctypes
from typing import NamedTuple, Optional, Tuple

# dlpack.h: DLDeviceType, DLDataTypeCode.
KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 1, 2, 3, 13
KDL_INT, KDL_UINT, KDL_FLOAT, KDL_BFLOAT = 0, 1, 2, 4
DEVICE_NAMES = {1: "kDLCPU", 2: "kDLCUDA", 3: "kDLCUDAHost", 4: "kDLOpenCL", 7: "kDLVulkan", 8: "kDLMetal",
                9: "kDLVPI", 10: "kDLROCM", 11: "kDLROCMHost", 12: "kDLExtDev", 13: "kDLCUDAManaged",
                14: "kDLOneAPI", 15: "kDLWebGPU", 16: "kDLHexagon"}
DTYPE_CODES = {0: "int", 1: "uint", 2: "float", 3: "handle", 4: "bfloat", 5: "complex", 6: "bool"}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.CFUNCTYPE(None, ctypes.c_void_p))]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):  # DLPack 1.x, capsule "dltensor_versioned"
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.CFUNCTYPE(None, ctypes.c_void_p)), ("flags", ctypes.c_uint64),
                ("dl_tensor", DLTensor)]


_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class TensorView(NamedTuple):
    """What the memory of a tensor is: pointer (data + byte_offset), device, dtype,
    shape and strides in elements (None: row-major contiguous)."""
    pointer: int
    device_type: int
    device_id: int
    dtype: Tuple[int, int, int]  # (code, bits, lanes)
    dtype_name: str
    device_text: str  # "cuda:0", "kDLCPU:0", ...
    shape: Tuple[int, ...]
    strides: Optional[Tuple[int, ...]]
    keep: object  # what must stay alive while the pointer is used (the capsule)


def dtype_name(code, bits, lanes):
    name = f"{DTYPE_CODES.get(code, f'code {code} ')}{bits}"
    return name if lanes == 1 else f"{name}x{lanes}"


def device_name(device_type, device_id):
    return f"{DEVICE_NAMES.get(device_type, f'device type {device_type}')}:{device_id}"


def is_capsule(obj):
    return type(obj).__name__ == "PyCapsule"


def view_capsule(capsule):
    """A DLPack capsule, read without consuming it (its owner frees it)."""
    if _capsule_is_valid(capsule, b"dltensor"):
        managed = DLManagedTensor.from_address(_capsule_get_pointer(capsule, b"dltensor"))
    elif _capsule_is_valid(capsule, b"dltensor_versioned"):
        managed = DLManagedTensorVersioned.from_address(_capsule_get_pointer(capsule, b"dltensor_versioned"))
        if managed.version.major != 1:
            raise ValueError(f"DLPack version {managed.version.major}.{managed.version.minor} is not one this "
                             "reader knows (it reads 0.x \"dltensor\" and 1.x \"dltensor_versioned\")")
    else:
        raise ValueError("the capsule is not an unconsumed DLPack tensor (named \"dltensor\" or "
                         "\"dltensor_versioned\"): a capsule can be used once")
    t = managed.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    dtype = (t.dtype.code, t.dtype.bits, t.dtype.lanes)
    return TensorView((t.data or 0) + t.byte_offset, t.device.device_type, t.device.device_id, dtype,
                      dtype_name(*dtype), device_name(t.device.device_type, t.device.device_id), shape, strides,
                      capsule)


def dlpack_device(obj):
    """(device_type, device_id) of an object with __dlpack_device__, else None."""
    fn = getattr(obj, "__dlpack_device__", None)
    if fn is None:
        return None
    device_type, device_id = fn()
    return int(device_type), int(device_id)


def view_dlpack(obj, stream):
    """An object with __dlpack__: exported for use on `stream` (the DLPack protocol makes
    the producer order its pending work before that stream; 1 names the legacy default
    stream, as the protocol spells it)."""
    try:
        capsule = obj.__dlpack__(stream=stream if stream else 1)
    except TypeError:
        capsule = obj.__dlpack__()
    return view_capsule(capsule)


def view_torch(t):
    """A PyTorch tensor, read directly (no export: the cheapest path)."""
    import torch  # already imported: t is one of its tensors
    device = t.device
    device_type = {"cuda": KDL_CUDA, "cpu": KDL_CPU}.get(device.type, -1)
    dtype = (KDL_BFLOAT, 16, 1) if t.dtype is torch.bfloat16 else (-1, t.element_size() * 8, 1)
    return TensorView(t.data_ptr(), device_type, device.index if device.index is not None else 0, dtype,
                      str(t.dtype).replace("torch.", ""), str(device), tuple(t.shape), tuple(t.stride()), t)
