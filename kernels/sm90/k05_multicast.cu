// k05_multicast: k04 in thread-block clusters. The CTAs of a cluster that share an
// operand tile each load one slice of it and TMA-multicast the slice to all of
// them, so L2 serves each shared tile once per cluster instead of once per CTA.
// Clusters of 2 x 1 (two CTAs along M share the B tile) and 2 x 2 (A shared along
// N as well). Who loads what: common/sm90_cluster.hpp (CPU-tested).
// Because a peer's multicast writes into this CTA's tile, a CTA may refill the
// tile only once every CTA it writes into has finished reading: an "empty"
// mbarrier per CTA counts one release from each multicast peer.
#include "common/bf16_pack.cuh"
#include "common/cluster_launch.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/tma_store_rules.hpp"
#include "host/tensor_map.hpp"
#include "sm90/k05_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k05 {

// ---- config: sm90/k05_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  alignas(1024) bf16 a[kBM * kBK];
  alignas(1024) bf16 b[kBN * kBK];
  uint64_t full;   // this CTA's tile has arrived (all slices, from all peers)
  uint64_t empty;  // every CTA this one multicasts into has read the previous tile
};
static_assert(sizeof(bf16) * kBM * kBN <= sizeof(bf16) * (kBM + kBN) * kBK, "staging fits in the operand tiles");
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);
constexpr uint32_t kStoreBoxBytes = kBM * kStoreCols * sizeof(bf16);
constexpr int kSmemBytes = sizeof(SharedStorage) + 1024;

// ---- kernel --------------------------------------------------------------
// Grid: x = M tiles, y = N tiles (each rounded up to the cluster; the extra CTAs
// load zeros and store nothing, but still serve their slices to their peers).
template <uint32_t ClusterM, uint32_t ClusterN>
__global__ void __launch_bounds__(kThreads, 1)
    k05_multicast(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                  const __grid_constant__ CUtensorMap map_c, int K) {
  using Cfg = Config<ClusterM, ClusterN>;
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const int m0 = blockIdx.x * kBM, n0 = blockIdx.y * kBN;
  const uint32_t rank = cluster_ctarank();
  const uint16_t mask_a = multicast_mask_a(Cfg::kCluster, rank), mask_b = multicast_mask_b(Cfg::kCluster, rank);
  const uint16_t peers = multicast_peers(Cfg::kCluster, rank);
  const TileSlice sa = slice_a(Cfg::kCluster, rank, kBM), sb = slice_b(Cfg::kCluster, rank, kBN);
  if (threadIdx.x == 0) {
    mbarrier_init_and_fence(&s.full, 1);
    mbarrier_init_and_fence(&s.empty, multicast_peer_count(Cfg::kCluster));
  }
  cluster_sync();  // peers' barriers exist before anyone multicasts into them

  float acc[kBM / kWgmmaM][kBN / 2] = {};
  const uint32_t a_base = ptx::smem_u32(s.a), b_base = ptx::smem_u32(s.b);
  uint32_t phase = 0;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    if (threadIdx.x == 0) {
      mbarrier_wait(&s.empty, phase ^ 1);  // the first wait passes: fresh barrier
      mbarrier_expect_bytes(&s.full, kStageBytes);  // whole tiles arrive, slice by slice
      tma_load_2d_multicast(s.a + sa.row0 * kBK, &map_a, k0, m0 + static_cast<int>(sa.row0), &s.full, mask_a);
      tma_load_2d_multicast(s.b + sb.row0 * kBK, &map_b, k0, n0 + static_cast<int>(sb.row0), &s.full, mask_b);
    }
    mbarrier_wait(&s.full, phase);

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
    __syncthreads();  // every warp's reads of this tile are done
    if (threadIdx.x == 0)
      for (uint32_t r = 0; r < Cfg::kCluster.size(); ++r)
        if (peers >> r & 1u) mbarrier_arrive_remote(&s.empty, r);
    phase ^= 1;
  }

  // Epilogue, as k04: registers -> stmatrix -> swizzled staging -> TMA store. No
  // peer writes into this CTA after its last full wait, so the tiles are free.
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t staging = a_base;
#pragma unroll
  for (int mi = 0; mi < kBM / kWgmmaM; ++mi) {
#pragma unroll
    for (int p = 0; p < kBN / 16; ++p) {
      const StmatrixRow at = stmatrix_x4_row(warp, lane, p);
      const uint32_t row = mi * kWgmmaM + at.row;
      const uint32_t half = at.col / kStoreCols;
      const uint32_t addr = staging + half * kStoreBoxBytes + sw128_offset(row, at.col % kStoreCols);
      const float* r = &acc[mi][8 * p];
      ptx::stmatrix_x4(addr, pack_bf16x2(r[0], r[1]), pack_bf16x2(r[2], r[3]), pack_bf16x2(r[4], r[5]),
                       pack_bf16x2(r[6], r[7]));
    }
  }
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
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
  }
  cluster_sync();  // peers' last arrivals on this CTA's empty barrier land before it exits
}

// ---- launcher ------------------------------------------------------------
template <uint32_t ClusterM, uint32_t ClusterN>
std::string can_implement_cluster(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if (auto why = tma_store_rules(shape.n, ops.c, "k05"); !why.empty()) return why;
  if ((shape.n + kBN - 1) / kBN > 65535 - ClusterN)
    return "N = " + std::to_string(shape.n) + " exceeds k05's grid limit (65535 x 128 columns)";
  return {};
}

template <uint32_t ClusterM, uint32_t ClusterN>
void launch_cluster(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  using Cfg = Config<ClusterM, ClusterN>;
  const model::TmaBox box_a{Cfg::kSliceRowsA, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_b{Cfg::kSliceRowsB, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_c{kBM, kStoreCols, 2, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  const CUtensorMap map_c = make_tensor_map_2d(ops.c, s.m, s.n, s.n * 2, box_c);
  auto* kernel = k05_multicast<ClusterM, ClusterN>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "k05 smem attribute");
  const auto round_up = [](int64_t x, int64_t m) { return (x + m - 1) / m * m; };
  const dim3 grid(static_cast<unsigned>(round_up((s.m + kBM - 1) / kBM, ClusterM)),
                  static_cast<unsigned>(round_up((s.n + kBN - 1) / kBN, ClusterN)));
  ClusterLaunch l = ClusterLaunch::with_dims(grid, dim3(kThreads), kSmemBytes, stream, dim3(ClusterM, ClusterN, 1));
  check_cuda(l.launch(kernel, map_a, map_b, map_c, static_cast<int>(s.k)), "k05_multicast launch");
}

std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  return can_implement_cluster<2, 1>(shape, ops);
}
void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  launch_cluster<2, 1>(shape, ops, stream);
}
std::string can_implement_2x2(const GemmShape& shape, const GemmOperands& ops) {
  return can_implement_cluster<2, 2>(shape, ops);
}
void launch_2x2(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  launch_cluster<2, 2>(shape, ops, stream);
}

}  // namespace gemmscope::sm90::k05
