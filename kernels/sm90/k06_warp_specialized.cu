// k06_warp_specialized: roles instead of one warpgroup doing everything. A
// producer warp issues TMA loads into an N-stage ring; two consumer warpgroups
// run wgmma on 128 x 256 tiles (each consumer 64 x 256, m64n256k16) and hand
// stages back through "empty" mbarriers. setmaxnreg moves registers from the
// producer warpgroup (40) to the consumers (232), who hold 128 fp32 accumulators
// each. Clusters of 2 x 1 (two CTAs along M) multicast the shared B tile, as k05.
// Stage and phase bookkeeping: common/sm90_pipeline.hpp.
#include "common/bf16_pack.cuh"
#include "common/cluster_launch.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/sm90_pipeline.hpp"
#include "common/tma_store_rules.hpp"
#include "gemmscope/traces/timeline.cuh"
#include "host/tensor_map.hpp"
#include "sm90/k06_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k06 {

namespace tl = gemmscope::traces::timeline_record;
// A recording build (GEMMSCOPE_TIMELINE, kernels/timeline/) puts the kernel and its
// launchers in an inline namespace of their own, apart from the library's.
GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN

// ---- config: sm90/k06_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  alignas(1024) bf16 a[kStages][kBM * kBK];
  alignas(1024) bf16 b[kStages][kBN * kBK];
  // Output staging, per consumer: kBN / kStoreCols boxes of 64 rows x 128 bytes.
  alignas(1024) bf16 c[kConsumers][kConsumerRows * kBN];
  uint64_t full[kStages];   // producer's expect_tx + the TMA bytes (A and both B slices)
  uint64_t empty[kStages];  // one release per consumer warpgroup of each CTA the stage's multicast reaches
};
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);
constexpr uint32_t kStoreBoxBytes = kConsumerRows * kStoreCols * sizeof(bf16);
constexpr int kSmemBytes = sizeof(SharedStorage) + 1024;
static_assert(kSmemBytes <= 232448, "227 KiB of shared memory per block");
using Pipe = PipelineState<kStages>;

// ---- kernel --------------------------------------------------------------
// Grid: x = M tiles (rounded up to the cluster), y = N tiles.
__global__ void __launch_bounds__(kThreads, 1)
    k06_warp_specialized(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                         const __grid_constant__ CUtensorMap map_c, int K) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const int m0 = blockIdx.x * kBM, n0 = blockIdx.y * kBN;
  const uint32_t rank = cluster_ctarank();
  const int warpgroup = threadIdx.x / 128;
  GEMMSCOPE_TIMELINE_CTA_BEGIN();  // the recorder's writers (timeline.cuh); the first barrier publishes them
  const int k_blocks = (K + kBK - 1) / kBK;
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init_and_fence(&s.full[i], 1);
      mbarrier_init_and_fence(&s.empty[i], kConsumers * multicast_peer_count(kCluster));
    }
  }
  cluster_sync();

  if (warpgroup == 0) {
    // ---- producer: one elected thread of warp 0 ----
    ptx::setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x / 32 == 0 && ptx::elect_one_sync()) {
      const TileSlice sb = slice_b(kCluster, rank, kBN);
      const uint16_t mask_b = multicast_mask_b(kCluster, rank);
      Pipe p;
      GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTileBegin, tl::kRoleProducer, 0, 0, tl::kBarrierNone, m0, n0);
      for (int kb = 0; kb < k_blocks; ++kb, p = p.advance()) {
        const uint32_t st = p.stage();
        GEMMSCOPE_TIMELINE_WAIT_BEGIN(waited, true, &s.empty[st], p.empty_parity(), tl::kRoleProducer, 0, st, tl::kBarrierEmpty, m0, n0);
        mbarrier_wait(&s.empty[st], p.empty_parity());
        GEMMSCOPE_TIMELINE_WAIT_END(waited, tl::kRoleProducer, 0, st, tl::kBarrierEmpty, m0, n0);
        mbarrier_expect_bytes(&s.full[st], kStageBytes);
        tma_load_2d(s.a[st], &map_a, kb * kBK, m0, &s.full[st]);
        tma_load_2d_multicast(s.b[st] + sb.row0 * kBK, &map_b, kb * kBK, n0 + static_cast<int>(sb.row0),
                              &s.full[st], mask_b);
        GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTmaIssue, tl::kRoleProducer, 0, st, tl::kBarrierNone, m0, n0);
      }
      GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTileEnd, tl::kRoleProducer, 0, 0, tl::kBarrierNone, m0, n0);
    }
  } else {
    // ---- consumers: rows (warpgroup - 1) * 64 .. + 63 of the tile ----
    ptx::setmaxnreg_inc<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const uint32_t t = threadIdx.x % 128;
    const uint16_t peers = multicast_peers(kCluster, rank);
    float acc[kBN / 2];
#pragma unroll
    for (int i = 0; i < kBN / 2; ++i) acc[i] = 0.f;
    auto release = [&](uint32_t st) {
      if (t == 0)
        for (uint32_t r = 0; r < kCluster.size(); ++r)
          if (peers >> r & 1u) mbarrier_arrive_remote(&s.empty[st], r);
    };
    Pipe p;
    uint32_t previous = 0;
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileBegin, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, m0, n0);
    for (int kb = 0; kb < k_blocks; ++kb, p = p.advance()) {
      const uint32_t st = p.stage();
      GEMMSCOPE_TIMELINE_WAIT_BEGIN(waited, t == 0, &s.full[st], p.phase(), tl::kRoleMainloop, consumer, st, tl::kBarrierFull, m0, n0);
      mbarrier_wait(&s.full[st], p.phase());
      GEMMSCOPE_TIMELINE_WAIT_END(waited, tl::kRoleMainloop, consumer, st, tl::kBarrierFull, m0, n0);
      const uint32_t a_base = ptx::smem_u32(s.a[st]), b_base = ptx::smem_u32(s.b[st]);
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWgmmaIssue, tl::kRoleMainloop, consumer, st, tl::kBarrierNone, m0, n0);
      ptx::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kBK; kk += kWgmmaK)
        ptx::WgmmaBf16F32<kBN>::mma(acc, desc_kmajor_sw128(a_base, consumer * kConsumerRows, kk),
                                    desc_kmajor_sw128(b_base, 0, kk), 1);
      ptx::wgmma_commit_group();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWgmmaCommit, tl::kRoleMainloop, consumer, st, tl::kBarrierNone, m0, n0);
      // Keep this stage's wgmma in flight; the previous one is done: hand its stage back.
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, m0, n0);
      ptx::wgmma_wait_group<1>();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, m0, n0);
      if (kb > 0) release(previous);
      previous = st;
    }
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, m0, n0);
    ptx::wgmma_wait_group<0>();
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, m0, n0);
    if (k_blocks > 0) release(previous);
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileEnd, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, m0, n0);

    // Epilogue: registers -> stmatrix -> this consumer's swizzled staging -> TMA store.
    const uint32_t warp = t / 32, lane = t % 32;
    const uint32_t staging = ptx::smem_u32(s.c[consumer]);
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
#pragma unroll
    for (int pair = 0; pair < kBN / 16; ++pair) {
      const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
      const uint32_t addr = staging + (at.col / kStoreCols) * kStoreBoxBytes + sw128_offset(at.row, at.col % kStoreCols);
      const float* r = &acc[8 * pair];
      ptx::stmatrix_x4(addr, pack_bf16x2(r[0], r[1]), pack_bf16x2(r[2], r[3]), pack_bf16x2(r[4], r[5]),
                       pack_bf16x2(r[6], r[7]));
    }
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // generic-proxy writes, async-proxy reads
    named_barrier_sync(1 + consumer, 128);
    if (t == 0) {
#pragma unroll
      for (int box = 0; box < kBN / kStoreCols; ++box) {
        const int32_t coords[2] = {n0 + box * kStoreCols, m0 + consumer * kConsumerRows};
        cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, &map_c, coords,
                                        reinterpret_cast<uint8_t*>(s.c[consumer]) + box * kStoreBoxBytes);
      }
      cuda::ptx::cp_async_bulk_commit_group();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(true, tl::kKindStoreIssue, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(true, tl::kKindStoreComplete, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
    }
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
  }
  cluster_sync();  // peers' arrivals on this CTA's barriers land before it exits
}

// ---- launcher ------------------------------------------------------------
std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if (auto why = tma_store_rules(shape.n, ops.c, "k06"); !why.empty()) return why;
  if ((shape.n + kBN - 1) / kBN > 65535)
    return "N = " + std::to_string(shape.n) + " exceeds k06's grid limit (65535 x 256 columns)";
  return {};
}

void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const model::TmaBox box_a{kBM, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_b{kSliceRowsB, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_c{kConsumerRows, kStoreCols, 2, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  const CUtensorMap map_c = make_tensor_map_2d(ops.c, s.m, s.n, s.n * 2, box_c);
  check_cuda(cudaFuncSetAttribute(k06_warp_specialized, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "k06 smem attribute");
  const int64_t tiles_m = (s.m + kBM - 1) / kBM;
  const dim3 grid(static_cast<unsigned>((tiles_m + kCluster.m - 1) / kCluster.m * kCluster.m),
                  static_cast<unsigned>((s.n + kBN - 1) / kBN));
  ClusterLaunch l = ClusterLaunch::with_dims(grid, dim3(kThreads), kSmemBytes, stream, dim3(kCluster.m, kCluster.n, 1));
  check_cuda(l.launch(k06_warp_specialized, map_a, map_b, map_c, static_cast<int>(s.k)), "k06_warp_specialized launch");
}

GEMMSCOPE_TIMELINE_NAMESPACE_END
}  // namespace gemmscope::sm90::k06
