#pragma once
// Two fp32 values rounded to bf16 (round to nearest even) in one 32-bit register,
// `lo` in the low half: the register form stmatrix takes, and the word of a
// 16-byte vector store of C (the ladder's epilogues, sm100's).
#include <cuda_bf16.h>

#include <cstdint>

namespace gemmscope {

__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

}  // namespace gemmscope
