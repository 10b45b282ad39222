#pragma once
// The kernel body, included by tile_gemm.cu (normal and broken variants), by
// tile_gemm_traced.cu (with GEMMSCOPE_TRACE_RECORD on) and by tile_gemm_timeline.cu
// (with GEMMSCOPE_TIMELINE on): one source, four builds.
#include <cuda_bf16.h>

#include <cstdint>

#include "gemmscope/testing/reference.hpp"  // gemmscope::testing::Shape
#include "gemmscope/traces/recorder.cuh"  // GEMMSCOPE_TRACE_SMEM: nothing unless GEMMSCOPE_TRACE_RECORD
#include "gemmscope/traces/timeline.cuh"  // GEMMSCOPE_TIMELINE_*: nothing unless GEMMSCOPE_TIMELINE
#include "tile_address.hpp"

namespace your_kernel {

namespace stage = gemmscope::traces::device_record;
namespace tl = gemmscope::traces::timeline_record;
using Shape = gemmscope::testing::Shape;

struct alignas(1024) SharedTiles {  // 1024: the swizzle pattern starts at the tile's first byte
  uint4 a[kTileBytes / 16];
  uint4 b[kTileBytes / 16];
};

// Eight consecutive bf16 of `row` from column k0 on, zero past the matrix's edge.
__device__ inline uint4 load_chunk(const uint16_t* m, int64_t rows, int64_t cols, int64_t row, int64_t k0) {
  uint16_t v[8];
#pragma unroll
  for (int e = 0; e < 8; ++e) v[e] = (row < rows && k0 + e < cols) ? m[row * cols + k0 + e] : uint16_t{0};
  return make_uint4(v[0] | uint32_t{v[1]} << 16, v[2] | uint32_t{v[3]} << 16, v[4] | uint32_t{v[5]} << 16,
                    v[6] | uint32_t{v[7]} << 16);
}

__device__ inline float bf16_lo(uint32_t w) { return __uint_as_float(w << 16); }
__device__ inline float bf16_hi(uint32_t w) { return __uint_as_float(w & 0xFFFF0000u); }
__device__ inline float dot8(const uint4& x, const uint4& y) {
  return bf16_lo(x.x) * bf16_lo(y.x) + bf16_hi(x.x) * bf16_hi(y.x) + bf16_lo(x.y) * bf16_lo(y.y) +
         bf16_hi(x.y) * bf16_hi(y.y) + bf16_lo(x.z) * bf16_lo(y.z) + bf16_hi(x.z) * bf16_hi(y.z) +
         bf16_lo(x.w) * bf16_lo(y.w) + bf16_hi(x.w) * bf16_hi(y.w);
}

template <bool kBroken>
__global__ void __launch_bounds__(kThreads) tile_gemm_kernel(int64_t m, int64_t n, int64_t k, const uint16_t* a,
                                                             const uint16_t* b, __nv_bfloat16* c) {
  __shared__ SharedTiles smem;
  char* tiles = reinterpret_cast<char*>(&smem);
  [[maybe_unused]] const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(&smem));
  const uint32_t t = threadIdx.x;
  const int64_t m0 = int64_t{blockIdx.y} * kTileM, n0 = int64_t{blockIdx.x} * kTileN;
  const uint32_t row = compute_row(t), col0 = compute_col0(t);
  GEMMSCOPE_TIMELINE_CTA_BEGIN();  // the timeline's writer (one warpgroup: thread 0 records)
  float acc[32] = {};

  // The timeline: the K loop as the tile, the stores of C as the epilogue (as thread 0
  // sees them: it records without waiting for the other threads).
  GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileBegin, tl::kRoleMainloop, 0, 0, tl::kBarrierNone, static_cast<int>(m0), static_cast<int>(n0));
  for (int64_t k0 = 0; k0 < k; k0 += kTileK) {
    // Global -> shared, A then B, through the swizzle.
#pragma unroll
    for (uint32_t step = 0; step < kStagingSteps; ++step) {
      const StagingChunk s = staging_chunk(step, t);
      const uint32_t at = kBroken ? broken_tile_offset(s.row, s.chunk) : tile_offset(s.row, s.chunk);
      GEMMSCOPE_TRACE_SMEM(stage::kStageStore, base, base + at, 16u, true);
      *reinterpret_cast<uint4*>(tiles + at) = load_chunk(a, m, k, m0 + s.row, k0 + 8 * s.chunk);
    }
#pragma unroll
    for (uint32_t step = 0; step < kStagingSteps; ++step) {
      const StagingChunk s = staging_chunk(step, t);
      const uint32_t at = kTileBytes + tile_offset(s.row, s.chunk);
      GEMMSCOPE_TRACE_SMEM(stage::kStageStore, base, base + at, 16u, true);
      *reinterpret_cast<uint4*>(tiles + at) = load_chunk(b, n, k, n0 + s.row, k0 + 8 * s.chunk);
    }
    __syncthreads();
    // One A chunk per lane (32 rows a warp), then the B rows of this thread's columns.
    for (uint32_t chunk = 0; chunk < kChunksPerRow; ++chunk) {
      const uint32_t at = tile_offset(row, chunk);
      GEMMSCOPE_TRACE_SMEM(stage::kStageLoad, base, base + at, 16u, false);
      const uint4 x = *reinterpret_cast<const uint4*>(tiles + at);
#pragma unroll
      for (uint32_t j = 0; j < 32; ++j)
        acc[j] += dot8(x, *reinterpret_cast<const uint4*>(tiles + kTileBytes + tile_offset(col0 + j, chunk)));
    }
    __syncthreads();
  }
  GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileEnd, tl::kRoleMainloop, 0, 0, tl::kBarrierNone, static_cast<int>(m0), static_cast<int>(n0));
  GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, 0, 0, tl::kBarrierNone, static_cast<int>(m0), static_cast<int>(n0));
  if (m0 + row < m)
#pragma unroll
    for (uint32_t j = 0; j < 32; ++j)
      if (n0 + col0 + j < n) c[(m0 + row) * n + n0 + col0 + j] = __float2bfloat16_rn(acc[j]);
  GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, 0, 0, tl::kBarrierNone, static_cast<int>(m0), static_cast<int>(n0));
}

template <bool kBroken>
void launch(Shape s, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((s.n + kTileN - 1) / kTileN), static_cast<unsigned>((s.m + kTileM - 1) / kTileM));
  tile_gemm_kernel<kBroken><<<grid, kThreads, 0, stream>>>(s.m, s.n, s.k, reinterpret_cast<const uint16_t*>(a),
                                                           reinterpret_cast<const uint16_t*>(b), c);
}

}  // namespace your_kernel
