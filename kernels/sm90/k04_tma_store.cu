// k04_tma_store: k03 with a TMA-store epilogue. The accumulators go through
// stmatrix into 128B-swizzled shared memory (conflict-free), then one TMA store
// per 64-column half writes the tile; TMA clips the ragged edges.
#include "common/bf16_pack.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_device.cuh"
#include "common/tma_store_rules.hpp"
#include "host/tensor_map.hpp"
#include "sm90/k04_config.hpp"
#include "sm90/ladder.hpp"
#include "gemmscope/traces/recorder.cuh"  // GEMMSCOPE_TRACE_SMEM: nothing unless GEMMSCOPE_TRACE_RECORD (docs/traces.md)

namespace gemmscope::sm90::k04 {

// ---- config: sm90/k04_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  // The operand tiles, reused after the main loop as the output staging tile:
  // kBN / kStoreCols halves of kBM rows x 128 bytes, each 1024-byte aligned.
  alignas(1024) bf16 a[kBM * kBK];
  alignas(1024) bf16 b[kBN * kBK];
  uint64_t full;
};
static_assert(sizeof(bf16) * kBM * kBN <= sizeof(bf16) * (kBM + kBN) * kBK, "staging fits in the operand tiles");
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);
constexpr uint32_t kStoreBoxBytes = kBM * kStoreCols * sizeof(bf16);
constexpr int kSmemBytes = sizeof(SharedStorage) + 1024;

// ---- kernel --------------------------------------------------------------
__global__ void __launch_bounds__(kThreads, 1)
    k04_tma_store(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                  const __grid_constant__ CUtensorMap map_c, int K) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
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
    __syncthreads();  // all reads of the operand tiles done: they become the staging tile
  }

  // Epilogue: registers -> stmatrix -> swizzled staging -> TMA store.
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t staging = a_base;  // halves at staging + h * kStoreBoxBytes (a, then b)
#pragma unroll
  for (int mi = 0; mi < kBM / kWgmmaM; ++mi) {
#pragma unroll
    for (int p = 0; p < kBN / 16; ++p) {
      const StmatrixRow at = stmatrix_x4_row(warp, lane, p);
      const uint32_t row = mi * kWgmmaM + at.row;
      const uint32_t half = at.col / kStoreCols;
      const uint32_t addr = staging + half * kStoreBoxBytes + sw128_offset(row, at.col % kStoreCols);
      const float* r = &acc[mi][8 * p];  // column blocks 2p and 2p+1: registers 8p..8p+7
      // Trace hook (k04_tma_store_traced.cu): the row address this lane gives stmatrix; ((void)0) when off.
      GEMMSCOPE_TRACE_SMEM(traces::device_record::kStageStmatrix, staging, addr, 16u, true);
      ptx::stmatrix_x4(addr, pack_bf16x2(r[0], r[1]), pack_bf16x2(r[2], r[3]), pack_bf16x2(r[4], r[5]),
                       pack_bf16x2(r[6], r[7]));
    }
  }
  // stmatrix writes are generic-proxy stores; TMA reads through the async proxy.
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int h = 0; h < kBN / kStoreCols; ++h) {
      const int32_t coords[2] = {n0 + h * kStoreCols, m0};
      cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, &map_c, coords,
                                      reinterpret_cast<uint8_t*>(s.a) + h * kStoreBoxBytes);
    }
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});  // shared memory must outlive the reads
  }
}

// ---- launcher ------------------------------------------------------------
std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if (auto why = tma_store_rules(shape.n, ops.c, "k04"); !why.empty()) return why;
  if ((shape.m + kBM - 1) / kBM > 65535) return "M = " + std::to_string(shape.m) + " exceeds k04's grid limit (65535 x 128 rows)";
  return {};
}

void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const model::TmaBox box_a{kBM, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_b{kBN, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_c{kBM, kStoreCols, 2, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  const CUtensorMap map_c = make_tensor_map_2d(ops.c, s.m, s.n, s.n * 2, box_c);
  check_cuda(cudaFuncSetAttribute(k04_tma_store, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "k04 smem attribute");
  const dim3 grid(static_cast<unsigned>((s.n + kBN - 1) / kBN), static_cast<unsigned>((s.m + kBM - 1) / kBM));
  k04_tma_store<<<grid, kThreads, kSmemBytes, stream>>>(map_a, map_b, map_c, static_cast<int>(s.k));
  check_cuda(cudaGetLastError(), "k04_tma_store launch");
}

}  // namespace gemmscope::sm90::k04
