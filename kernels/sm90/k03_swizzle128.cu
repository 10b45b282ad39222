// k03_swizzle128: k02 with the 128B swizzle in the tensor map and in the wgmma
// descriptors. One TMA box per operand per K block (64 bf16 = one 128-byte
// swizzle row), and shared-memory reads free of bank conflicts.
#include "common/ptx_sm90.cuh"
#include "common/sm90_device.cuh"
#include "host/tensor_map.hpp"
#include "sm90/k03_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k03 {

// ---- config: sm90/k03_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  alignas(1024) bf16 a[kBM * kBK];  // 128B swizzle: 1024-byte aligned, 8 rows per 1024 bytes
  alignas(1024) bf16 b[kBN * kBK];
  uint64_t full;
};
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);
constexpr int kSmemBytes = sizeof(SharedStorage) + 1024;  // + slack to align the dynamic base

// ---- kernel --------------------------------------------------------------
__global__ void __launch_bounds__(kThreads, 1)
    k03_swizzle128(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, bf16* C,
                   int M, int N, int K) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // The swizzle is applied to absolute address bits: align the tiles to 1024 bytes.
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  if (threadIdx.x == 0) mbarrier_init_and_fence(&s.full, 1);
  __syncthreads();

  float acc[kBM / kWgmmaM][kBN / 2] = {};
  const uint32_t a_base = ptx::smem_u32(s.a), b_base = ptx::smem_u32(s.b);
  uint32_t phase = 0;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    if (threadIdx.x == 0) {
      mbarrier_expect_bytes(&s.full, kStageBytes);
      tma_load_2d(s.a, &map_a, k0, m0, &s.full);
      tma_load_2d(s.b, &map_b, k0, n0, &s.full);
    }
    mbarrier_wait(&s.full, phase);
    phase ^= 1;

    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kBK; kk += kWgmmaK) {
#pragma unroll
      for (int mi = 0; mi < kBM / kWgmmaM; ++mi)
        ptx::WgmmaBf16F32<kBN>::mma(acc[mi], desc_kmajor_sw128(a_base, mi * kWgmmaM, kk),
                                    desc_kmajor_sw128(b_base, 0, kk), 1);
    }
    ptx::wgmma_commit_group();
    ptx::wgmma_wait_group<0>();
    __syncthreads();
  }

#pragma unroll
  for (int mi = 0; mi < kBM / kWgmmaM; ++mi) store_accumulators_direct<kBN>(acc[mi], C, M, N, m0 + mi * kWgmmaM, n0);
}

// ---- launcher ------------------------------------------------------------
std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if ((shape.m + kBM - 1) / kBM > 65535) return "M = " + std::to_string(shape.m) + " exceeds k03's grid limit (65535 x 128 rows)";
  return {};
}

void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const model::TmaBox box_a{kBM, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_b{kBN, kBK, 2, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  check_cuda(cudaFuncSetAttribute(k03_swizzle128, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "k03 smem attribute");
  const dim3 grid(static_cast<unsigned>((s.n + kBN - 1) / kBN), static_cast<unsigned>((s.m + kBM - 1) / kBM));
  k03_swizzle128<<<grid, kThreads, kSmemBytes, stream>>>(map_a, map_b, ops.c, static_cast<int>(s.m),
                                                          static_cast<int>(s.n), static_cast<int>(s.k));
  check_cuda(cudaGetLastError(), "k03_swizzle128 launch");
}

}  // namespace gemmscope::sm90::k03
