// k02_tma_wgmma: tiles arrive by TMA (no swizzle: the "interleaved" core-matrix
// layout, one 16-byte-wide box per 8-element K chunk), completion on an mbarrier,
// and the tensor cores read them through wgmma shared-memory descriptors.
// One warpgroup computes a 128x128 tile as two m64n128k16 wgmma per K step.
#include "common/ptx_sm90.cuh"
#include "common/sm90_device.cuh"
#include "host/tensor_map.hpp"
#include "sm90/k02_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k02 {

// ---- config: sm90/k02_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  alignas(128) bf16 a[kBM * kBK];  // kChunks boxes of kBM rows x 16 bytes
  alignas(128) bf16 b[kBN * kBK];
  uint64_t full;                   // TMA -> wgmma
};
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);

// ---- kernel --------------------------------------------------------------
__global__ void __launch_bounds__(kThreads, 1)
    k02_tma_wgmma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, bf16* C,
                  int M, int N, int K) {
  extern __shared__ __align__(128) uint8_t smem_raw[];
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(smem_raw);
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  if (threadIdx.x == 0) mbarrier_init_and_fence(&s.full, 1);
  __syncthreads();

  float acc[kBM / kWgmmaM][kBN / 2] = {};
  const uint32_t a_base = ptx::smem_u32(s.a), b_base = ptx::smem_u32(s.b);
  uint32_t phase = 0;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    if (threadIdx.x == 0) {
      mbarrier_expect_bytes(&s.full, kStageBytes);
      for (int c = 0; c < kChunks; ++c) {
        tma_load_2d(s.a + c * kBM * kChunkElems, &map_a, k0 + c * kChunkElems, m0, &s.full);
        tma_load_2d(s.b + c * kBN * kChunkElems, &map_b, k0 + c * kChunkElems, n0, &s.full);
      }
    }
    mbarrier_wait(&s.full, phase);
    phase ^= 1;

    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBK; kk += kWgmmaK) {
#pragma unroll
      for (int mi = 0; mi < kBM / kWgmmaM; ++mi) {
        const uint64_t da = desc_kmajor_interleaved(a_base, kBM, mi * kWgmmaM, kk);
        const uint64_t db = desc_kmajor_interleaved(b_base, kBN, 0, kk);
        ptx::WgmmaBf16F32<kBN>::mma(acc[mi], da, db, 1);
      }
    }
    ptx::wgmma_commit_group();
    ptx::wgmma_wait_group<0>();
    __syncthreads();  // every wgmma of this block has read the tiles before TMA overwrites them
  }

#pragma unroll
  for (int mi = 0; mi < kBM / kWgmmaM; ++mi) store_accumulators_direct<kBN>(acc[mi], C, M, N, m0 + mi * kWgmmaM, n0);
}

// ---- launcher ------------------------------------------------------------
std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if ((shape.m + kBM - 1) / kBM > 65535) return "M = " + std::to_string(shape.m) + " exceeds k02's grid limit (65535 x 128 rows)";
  return {};
}

void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const model::TmaBox box_a{kBM, kChunkElems, 2, model::SwizzleMode::None, 0};
  const model::TmaBox box_b{kBN, kChunkElems, 2, model::SwizzleMode::None, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  const int smem = sizeof(SharedStorage);
  check_cuda(cudaFuncSetAttribute(k02_tma_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "k02 smem attribute");
  const dim3 grid(static_cast<unsigned>((s.n + kBN - 1) / kBN), static_cast<unsigned>((s.m + kBM - 1) / kBM));
  k02_tma_wgmma<<<grid, kThreads, smem, stream>>>(map_a, map_b, ops.c, static_cast<int>(s.m), static_cast<int>(s.n),
                                                  static_cast<int>(s.k));
  check_cuda(cudaGetLastError(), "k02_tma_wgmma launch");
}

}  // namespace gemmscope::sm90::k02
