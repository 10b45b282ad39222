#include "host/tensor_map.hpp"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <string>

#include "gemmscope/gemm.hpp"
#include "gemmscope/model/error.hpp"

namespace gemmscope {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* ptr = nullptr;
    cudaDriverEntryPointQueryResult status{};
    const cudaError_t err =
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000, cudaEnableDefault, &status);
    if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || ptr == nullptr)
      throw std::runtime_error(std::string("cuTensorMapEncodeTiled is not available from the driver: ") +
                               cudaGetErrorString(err));
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
  }();
  return fn;
}

CUtensorMapSwizzle to_cu(model::SwizzleMode mode) {
  switch (mode) {
    case model::SwizzleMode::None: return CU_TENSOR_MAP_SWIZZLE_NONE;
    case model::SwizzleMode::B32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case model::SwizzleMode::B64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case model::SwizzleMode::B128: return CU_TENSOR_MAP_SWIZZLE_128B;
    case model::SwizzleMode::B128Atom32: break;
  }
  throw GemmError("swizzle mode 128B-atom32B is Blackwell-only; the H200 driver refuses it");
}

CUtensorMapDataType to_cu_type(uint32_t elem_bytes) {
  switch (elem_bytes) {
    case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case 2: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case 4: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case 8: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  }
  throw GemmError("elem_bytes = " + std::to_string(elem_bytes) + " must be 1, 2, 4 or 8");
}

}  // namespace

CUtensorMap make_tensor_map_2d(const void* global, uint64_t rows, uint64_t cols, uint64_t row_stride_bytes,
                               const model::TmaBox& box) {
  try {
    model::TmaBox placed = box;
    placed.smem_base = 0;  // the box's alignment is the kernel's business; here only its shape
    placed.validate();
  } catch (const model::ModelError& e) {
    throw GemmError(std::string("tensor map box: ") + e.what());
  }
  const auto address = reinterpret_cast<uintptr_t>(global);
  if (address % 16 != 0)
    throw GemmError("tensor base address = " + std::to_string(address) + " must be 16-byte aligned (TMA)");
  if (row_stride_bytes % 16 != 0 || row_stride_bytes >= (uint64_t{1} << 40))
    throw GemmError("row stride = " + std::to_string(row_stride_bytes) +
                    " bytes must be a multiple of 16 below 2^40 (TMA global stride rule)");
  if (rows == 0 || cols == 0 || rows > (uint64_t{1} << 32) || cols > (uint64_t{1} << 32))
    throw GemmError("tensor extent " + std::to_string(rows) + " x " + std::to_string(cols) +
                    " must be in 1..2^32 per dimension (TMA)");
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {row_stride_bytes};
  const cuuint32_t box_dims[2] = {box.inner_elems, box.rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult res = encode_tiled()(&map, to_cu_type(box.elem_bytes), 2, const_cast<void*>(global), dims, strides,
                                      box_dims, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, to_cu(box.swizzle),
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (res != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(static_cast<int>(res)) +
                             " for a " + std::to_string(rows) + " x " + std::to_string(cols) + " tensor, box " +
                             std::to_string(box.rows) + " x " + std::to_string(box.inner_elems));
  return map;
}

}  // namespace gemmscope
