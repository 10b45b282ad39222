#pragma once
// Tensor maps for TMA, from the model's description of the box (model::TmaBox),
// so the model and the kernels share one description of each tile.
// cuTensorMapEncodeTiled is reached through the runtime
// (cudaGetDriverEntryPointByVersion), so nothing links libcuda.
#include <cuda.h>

#include <cstdint>

#include "gemmscope/model/tma_box.hpp"

namespace gemmscope {

// A 2-D row-major tensor of `rows` x `cols` elements (cols contiguous) with
// `row_stride_bytes` between rows, read or written in boxes `box` (box.inner_elems
// along cols, box.rows along rows, box.swizzle). Out-of-bounds reads fill zeros;
// out-of-bounds writes are dropped. Throws GemmError naming the value and the rule
// (16-byte aligned address, stride a multiple of 16 below 2^40, box limits).
CUtensorMap make_tensor_map_2d(const void* global, uint64_t rows, uint64_t cols, uint64_t row_stride_bytes,
                               const model::TmaBox& box);

}  // namespace gemmscope
