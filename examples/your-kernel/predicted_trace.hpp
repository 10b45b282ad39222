#pragma once
// What the model says the example kernel does to shared memory: every warp's staging
// stores and A-chunk loads, in the order the warp issues them, with addresses from
// gemmscope's model of the 128-byte swizzle (model::swizzle_address), not from the
// kernel's own tile_offset. The recorded trace (tile_gemm_traced.cu) must equal it.
#include <cstdint>

#include "gemmscope/testing/reference.hpp"
#include "gemmscope/traces/trace.hpp"

namespace your_kernel {

// `smem_base`: the shared address of the kernel's tiles (the recorded trace's
// smem_base; 1024-aligned). `swizzled` false gives the same kernel with plain rows,
// for comparison.
gemmscope::traces::Trace predicted_trace(const gemmscope::testing::Shape& shape, uint32_t smem_base,
                                         bool swizzled = true);

}  // namespace your_kernel
