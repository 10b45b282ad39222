#pragma once
// What the sm100 probes share: the sm_100 check before any launch, cluster launches,
// the probes' own encodings of the tcgen05 descriptors (independent of model/, which
// the replay holds them against), and Tensor Memory helpers. Every instruction goes
// through CCCL's cuda::ptx (tcgen05, clusterlaunchcontrol, mbarrier, fences).
// PTX ISA: "Tensor Memory", "tcgen05 instructions", "clusterlaunchcontrol".
#include <cuda/ptx>

#include <cstdint>
#include <string>

#include "probe_cuda.cuh"
#include "probes/sm100_probes.hpp"

namespace gemmscope::probes::sm100 {

// Throws ProbeError("needs an sm_100 GPU; this is ...") before a launch that could
// not run: these objects hold sm_100a code only.
inline void require_sm100() {
  int device = 0;
  GEMMSCOPE_PROBE_CUDA(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  GEMMSCOPE_PROBE_CUDA(cudaGetDeviceProperties(&prop, device));
  traces::GpuInfo gpu;
  gpu.name = prop.name;
  gpu.compute_major = prop.major;
  gpu.compute_minor = prop.minor;
  if (const std::string why = sm100_skip_reason(gpu); !why.empty()) throw ProbeError(why);
}

inline int sm_count() {
  int device = 0, count = 0;
  GEMMSCOPE_PROBE_CUDA(cudaGetDevice(&device));
  GEMMSCOPE_PROBE_CUDA(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// A launch of a grid of clusters of (cluster_x, cluster_y) CTAs; `attr` holds the shape.
inline cudaLaunchConfig_t cluster_config(dim3 grid, dim3 block, dim3 cluster, std::size_t smem_bytes,
                                         cudaLaunchAttribute& attr) {
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster.x;
  attr.val.clusterDim.y = cluster.y;
  attr.val.clusterDim.z = cluster.z;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

// The probes' own encodings (PTX ISA tables; docs in model/desc_sm100.hpp and
// model/idesc_sm100.hpp, which are not used here so that the replay tests them).
// Shared-memory descriptor: start >> 4 at 0-13, LBO >> 4 at 16-29, SBO >> 4 at 32-45,
// version at 46-48, base offset at 49-51, LBO mode at 52, swizzle code at 61-63.
struct DescFields {
  uint32_t start_offset_bytes = 0;  // from the operand region
  uint32_t lbo_bytes = 0;
  uint32_t sbo_bytes = 0;
  uint32_t version = 1;
  uint32_t base_offset = 0;
  uint32_t lbo_mode = 0;     // 0 relative, 1 absolute
  uint32_t swizzle_code = 0;  // 0 none, 1 128B with 32B atom, 2 128B, 4 64B, 6 32B
};
__host__ __device__ constexpr uint64_t encode_smem_desc(uint32_t address, const DescFields& f) {
  return uint64_t{(address & 0x3FFFFu) >> 4} | (uint64_t{(f.lbo_bytes & 0x3FFFFu) >> 4} << 16) |
         (uint64_t{(f.sbo_bytes & 0x3FFFFu) >> 4} << 32) | (uint64_t{f.version & 7u} << 46) |
         (uint64_t{f.base_offset & 7u} << 49) | (uint64_t{f.lbo_mode & 1u} << 52) |
         (uint64_t{f.swizzle_code & 7u} << 61);
}
// Instruction descriptor, kind::f16, bf16 x bf16 -> f32: D type 1 at bits 4-5, A and
// B type 1 (bf16) at 7-9 and 10-12, A/B major (1 = MN) at bits 15/16, N >> 3 at
// 17-22, M >> 4 at 24-28.
__host__ __device__ constexpr uint32_t encode_instr_desc_bf16(uint32_t m, uint32_t n, bool a_mn_major = false,
                                                              bool b_mn_major = false) {
  return (1u << 4) | (1u << 7) | (1u << 10) | (a_mn_major ? 1u << 15 : 0u) | (b_mn_major ? 1u << 16 : 0u) |
         ((n >> 3) << 17) | ((m >> 4) << 24);
}

// The plain K-major, unswizzled operand layout the probes use where the layout is not
// under test: core matrices of 8 rows x 16 bytes, the two K halves kPlainLbo apart,
// 8-row groups kPlainSbo apart.
inline constexpr uint32_t kPlainLbo = 128;
inline constexpr uint32_t kPlainSbo = 256;
__host__ __device__ constexpr uint32_t plain_offset(uint32_t row, uint32_t k) {
  return (row % 8) * 16 + (k % 8) * 2 + (k / 8) * kPlainLbo + (row / 8) * kPlainSbo;
}

inline constexpr uint32_t kSentinel = 0xFFFFFFFFu;  // a TMEM cell nothing wrote (a NaN as fp32)

}  // namespace gemmscope::probes::sm100

#if defined(__CUDACC__)
namespace gemmscope::probes::sm100 {
namespace ptx = cuda::ptx;

__device__ __forceinline__ uint32_t tmem_at(uint32_t base, uint32_t lane, uint32_t column) {
  return base + (lane << 16) + column;
}

// Everyone's tcgen05 work before, everyone's after: the CTA barrier with the tcgen05
// fences around it (PTX ISA "tcgen05 memory consistency").
__device__ __forceinline__ void tcgen05_cta_sync() {
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
}
__device__ __forceinline__ void tcgen05_cluster_sync() {
  ptx::tcgen05_fence_before_thread_sync();
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  ptx::tcgen05_fence_after_thread_sync();
}

// This warp's 32 lanes (32 (warp % 4) ..), columns [first, first + count), count a
// multiple of 16: every cell set to `value(lane, column)` with tcgen05.st.32x32b
// (thread t = lane t, register j = column j: the map the PTX ISA figure states).
template <typename Value>
__device__ __forceinline__ void tmem_fill_quadrant(uint32_t base, uint32_t first, uint32_t count, Value value) {
  const uint32_t lane = 32 * ((threadIdx.x / 32) % 4) + threadIdx.x % 32;
  for (uint32_t c0 = first; c0 < first + count; c0 += 16) {
    uint32_t v[16];
#pragma unroll
    for (uint32_t j = 0; j < 16; ++j) v[j] = value(lane, c0 + j);
    ptx::tcgen05_st_32x32b(tmem_at(base, 32 * ((threadIdx.x / 32) % 4), c0), v);
  }
  ptx::tcgen05_wait_st();
}

// The same quadrant read back with tcgen05.ld.32x32b: out[lane_in_quadrant * stride + column - first].
__device__ __forceinline__ void tmem_dump_quadrant(uint32_t base, uint32_t first, uint32_t count, uint32_t* out,
                                                   uint32_t stride) {
  const uint32_t lane = threadIdx.x % 32;
  for (uint32_t c0 = first; c0 < first + count; c0 += 16) {
    uint32_t v[16];
    ptx::tcgen05_ld_32x32b(v, tmem_at(base, 32 * ((threadIdx.x / 32) % 4), c0));
    ptx::tcgen05_wait_ld();
#pragma unroll
    for (uint32_t j = 0; j < 16; ++j) out[lane * stride + c0 - first + j] = v[j];
  }
}

}  // namespace gemmscope::probes::sm100
#endif
