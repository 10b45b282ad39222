// k08_persistent: k07 on a persistent grid. One cluster per pair of SMs stays
// resident and walks a sequence of work tiles (a work tile = the cluster's 2 x 1
// output tiles, 256 x 256); the ring's pipeline state carries over from tile to
// tile, so the producer loads the next tile's stages while the consumers run
// this tile's epilogue, and the last boxes' TMA stores overlap the next tile's
// main loop. Two schedules (common/sm90_scheduler.hpp):
//   static:  cluster w takes work w, w + clusters, ...
//   dynamic: cluster w takes w, then claims from a global atomic counter (reset by
//            cudaMemsetAsync before each launch). Rank 0's producer claims and
//            broadcasts each tile index to both CTAs' roles through a two-slot
//            ring in shared memory (st.shared::cluster + remote mbarrier arrive).
#include <map>
#include <mutex>
#include <utility>

#include "common/bf16_pack.cuh"
#include "common/cluster_launch.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/sm90_pipeline.hpp"
#include "common/sm90_scheduler.hpp"
#include "common/tma_store_rules.hpp"
#include "gemmscope/traces/timeline.cuh"
#include "host/tensor_map.hpp"
#include "sm90/k08_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k08 {

namespace tl = gemmscope::traces::timeline_record;
// A recording build (GEMMSCOPE_TIMELINE, kernels/timeline/) puts the kernel and its
// launchers in an inline namespace of their own, apart from the library's.
GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN

// ---- config: sm90/k08_config.hpp ------------------------------------------

// ---- shared memory -------------------------------------------------------
struct SharedStorage {
  alignas(1024) bf16 a[kStages][kBM * kBK];
  alignas(1024) bf16 b[kStages][kBN * kBK];
  alignas(1024) bf16 c[kConsumers][kStagingBuffers][kConsumerRows * kStoreCols];
  uint64_t full[kStages];
  uint64_t empty[kStages];
  uint64_t schedule_full[kScheduleSlots];   // in each CTA: rank 0 wrote the slot
  uint64_t schedule_empty[kScheduleSlots];  // in rank 0: every reader of both CTAs read it
  uint32_t schedule_tile[kScheduleSlots];
};
constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * sizeof(bf16);
constexpr int kSmemBytes = sizeof(SharedStorage) + 1024;
static_assert(kSmemBytes <= 232448, "227 KiB of shared memory per block");
using Pipe = PipelineState<kStages>;
using SchedulePipe = PipelineState<kScheduleSlots>;

struct Problem {
  WorkGrid grid;  // work tiles: units_m = ceil(M tiles / 2), units_n = N tiles
  int k_blocks;
};

// ---- kernel --------------------------------------------------------------
// Grid: 1-D, clusters of 2 along x; worker = cluster index.
template <bool Dynamic, uint32_t ClusterM>
__global__ void __launch_bounds__(kThreads, 1)
    k08_persistent(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, Problem prob, uint32_t* counter) {
  constexpr ClusterShape kCluster{ClusterM, 1};
  static_assert(ClusterM == 1 || ClusterM == 2, "clusters of 1 or 2 CTAs along M");
  static_assert((kBN / ClusterM) % 8 == 0, "B slices are whole 8-row swizzle atoms");
  // Readers of each broadcast tile index: the other CTAs' producers and every consumer thread.
  constexpr uint32_t kScheduleReaders = (ClusterM - 1) + ClusterM * kConsumers * 128;
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const uint32_t rank = cluster_ctarank();
  const uint32_t worker = blockIdx.x / kCluster.size(), workers = gridDim.x / kCluster.size();
  const uint32_t total = prob.grid.total();
  const int warpgroup = threadIdx.x / 128;
  GEMMSCOPE_TIMELINE_CTA_BEGIN();  // the recorder's writers (timeline.cuh); the first barrier publishes them
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init_and_fence(&s.full[i], 1);
      mbarrier_init_and_fence(&s.empty[i], kConsumers * multicast_peer_count(kCluster));
    }
    for (int i = 0; i < kScheduleSlots; ++i) {
      mbarrier_init_and_fence(&s.schedule_full[i], 1);
      mbarrier_init_and_fence(&s.schedule_empty[i], kScheduleReaders);
    }
  }
  cluster_sync();

  // Dynamic schedule: the reader side. Waits for the next broadcast index, reads it,
  // and releases the slot in rank 0 (one arrival per reading thread).
  auto receive = [&](SchedulePipe& slots) -> uint32_t {
    const uint32_t slot = slots.stage();
    mbarrier_wait_cluster(&s.schedule_full[slot], slots.phase());
    const uint32_t tile = *reinterpret_cast<volatile uint32_t*>(&s.schedule_tile[slot]);
    mbarrier_arrive_cluster(&s.schedule_empty[slot], 0);
    slots = slots.advance();
    return tile;
  };

  if (warpgroup == 0) {
    // ---- producer ----
    ptx::setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x / 32 == 0 && ptx::elect_one_sync()) {
      const TileSlice sb = slice_b(kCluster, rank, kBN);
      const uint16_t mask_b = multicast_mask_b(kCluster, rank);
      const DynamicSchedule dyn{workers};
      Pipe p;
      SchedulePipe slots;
      StaticSchedule statik = StaticSchedule::first(worker, workers);
      uint32_t tile = Dynamic ? dyn.first(worker) : statik.linear;
      for (;;) {
        if constexpr (Dynamic) {
          if (rank == 0) {
            // Publish this tile index (or the end) to both CTAs.
            const uint32_t slot = slots.stage();
            mbarrier_wait(&s.schedule_empty[slot], slots.empty_parity());
            for (uint32_t r = 0; r < kCluster.size(); ++r) {
              st_shared_cluster_u32(&s.schedule_tile[slot], r, tile);
              mbarrier_arrive_cluster(&s.schedule_full[slot], r);
            }
            slots = slots.advance();
          } else {
            tile = receive(slots);
          }
        }
        if (tile >= total) break;
        // Rank 0 claims the next index now, so the atomic's latency hides behind the loads.
        uint32_t next = 0;
        if constexpr (Dynamic) {
          if (rank == 0) next = dyn.after_claim(atomicAdd(counter, 1u));
        } else {
          statik = statik.next();
          next = statik.linear;
        }
        const WorkCoord w = order_along_m(prob.grid, tile);
        const int m0 = static_cast<int>((w.m * kCluster.m + rank) * kBM), n0 = static_cast<int>(w.n * kBN);
        GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTileBegin, tl::kRoleProducer, 0, 0, tl::kBarrierNone, m0, n0);
        for (int kb = 0; kb < prob.k_blocks; ++kb, p = p.advance()) {
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
        tile = next;
      }
    }
  } else {
    // ---- consumers ----
    ptx::setmaxnreg_inc<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    const uint32_t t = threadIdx.x % 128, warp = t / 32, lane = t % 32;
    const uint16_t peers = multicast_peers(kCluster, rank);
    auto release = [&](uint32_t st) {
      if (t == 0)
        for (uint32_t r = 0; r < kCluster.size(); ++r)
          if (peers >> r & 1u) mbarrier_arrive_remote(&s.empty[st], r);
    };
    Pipe p;
    SchedulePipe slots;
    StaticSchedule statik = StaticSchedule::first(worker, workers);
    for (;;) {
      uint32_t tile;
      if constexpr (Dynamic) {
        tile = receive(slots);
      } else {
        tile = statik.linear;
        statik = statik.next();
      }
      if (tile >= total) break;
      const WorkCoord w = order_along_m(prob.grid, tile);
      const int m0 = static_cast<int>((w.m * kCluster.m + rank) * kBM), n0 = static_cast<int>(w.n * kBN);

      float acc[kBN / 2];
#pragma unroll
      for (int i = 0; i < kBN / 2; ++i) acc[i] = 0.f;
      uint32_t previous = 0;
      GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileBegin, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, m0, n0);
      for (int kb = 0; kb < prob.k_blocks; ++kb, p = p.advance()) {
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
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, m0, n0);
        ptx::wgmma_wait_group<1>();
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, m0, n0);
        if (kb > 0) release(previous);
        previous = st;
      }
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, m0, n0);
      ptx::wgmma_wait_group<0>();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, m0, n0);
      release(previous);
      GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileEnd, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, m0, n0);

      // Epilogue as k07; the store groups of this tile's last boxes stay in flight
      // into the next tile.
      GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
#pragma unroll
      for (int box = 0; box < kBN / kStoreCols; ++box) {
        const int buffer = box % kStagingBuffers;
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierStaging, m0 + consumer * kConsumerRows, n0);
        if (t == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kStagingBuffers - 1>{});
        named_barrier_sync(1 + consumer, 128);
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierStaging, m0 + consumer * kConsumerRows, n0);
        const uint32_t staging = ptx::smem_u32(s.c[consumer][buffer]);
#pragma unroll
        for (int pair = 0; pair < kStoreCols / 16; ++pair) {
          const int tile_pair = box * (kStoreCols / 16) + pair;
          const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
          const float* r = &acc[8 * tile_pair];
          ptx::stmatrix_x4(staging + sw128_offset(at.row, at.col), pack_bf16x2(r[0], r[1]), pack_bf16x2(r[2], r[3]),
                           pack_bf16x2(r[4], r[5]), pack_bf16x2(r[6], r[7]));
        }
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
        named_barrier_sync(1 + consumer, 128);
        if (t == 0) {
          const int32_t coords[2] = {n0 + box * kStoreCols, m0 + consumer * kConsumerRows};
          cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, &map_c, coords,
                                          reinterpret_cast<uint8_t*>(s.c[consumer][buffer]));
          cuda::ptx::cp_async_bulk_commit_group();
          GEMMSCOPE_TIMELINE_DETAIL_EVENT(true, tl::kKindStoreIssue, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
        }
      }
      GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, m0 + consumer * kConsumerRows, n0);
    }
    if (t == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindStoreComplete, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, -1, -1);
  }
  cluster_sync();
}

// ---- launcher ------------------------------------------------------------
// One work counter per (device, stream), so launches on different streams don't share one.
uint32_t* work_counter(cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, uint32_t*> counters;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "k08 device");
  const std::lock_guard<std::mutex> lock(mutex);
  uint32_t*& c = counters[{device, stream}];
  if (!c) check_cuda(cudaMalloc(&c, sizeof(uint32_t)), "k08 work counter");
  return c;
}

std::string can_implement(const GemmShape& shape, const GemmOperands& ops) {
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  if (auto why = tma_store_rules(shape.n, ops.c, "k08"); !why.empty()) return why;
  const int64_t units = (shape.m + 2 * kBM - 1) / (2 * kBM) * ((shape.n + kBN - 1) / kBN);
  if (units >= (int64_t{1} << 31))
    return "M x N = " + std::to_string(shape.m) + " x " + std::to_string(shape.n) +
           " has too many 256 x 256 work tiles for k08's 32-bit schedule (limit 2^31)";
  return {};
}

template <bool Dynamic, uint32_t ClusterM = 2>
void launch_schedule(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  constexpr ClusterShape kCluster{ClusterM, 1};
  constexpr uint32_t kSliceRowsB = kBN / ClusterM;
  const model::TmaBox box_a{kBM, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_b{kSliceRowsB, kBK, 2, model::SwizzleMode::B128, 0};
  const model::TmaBox box_c{kConsumerRows, kStoreCols, 2, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(ops.a, s.m, s.k, s.k * 2, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(ops.b, s.n, s.k, s.k * 2, box_b);
  const CUtensorMap map_c = make_tensor_map_2d(ops.c, s.m, s.n, s.n * 2, box_c);
  auto* kernel = k08_persistent<Dynamic, ClusterM>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "k08 smem attribute");
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), "k08 device");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "k08 SM count");
  Problem prob;
  prob.grid = WorkGrid{static_cast<uint32_t>((s.m + ClusterM * kBM - 1) / (ClusterM * kBM)), static_cast<uint32_t>((s.n + kBN - 1) / kBN)};
  prob.k_blocks = static_cast<int>((s.k + kBK - 1) / kBK);
  uint32_t* counter = nullptr;
  if (Dynamic) {
    counter = work_counter(stream);
    check_cuda(cudaMemsetAsync(counter, 0, sizeof(uint32_t), stream), "k08 counter reset");
  }
  // Grid: a placeholder for the occupancy query below.
  ClusterLaunch l = ClusterLaunch::with_dims(dim3(2 * kCluster.size()), dim3(kThreads), kSmemBytes, stream,
                                             dim3(kCluster.size(), 1, 1));
  // As many clusters as can be resident at once: a GPC with an odd number of free
  // SMs holds one CTA fewer than sms / 2 clusters would assume, and a cluster left
  // for a second wave would double the run time.
  int resident = 0;
  check_cuda(l.max_active_clusters(&resident, kernel), "k08 resident clusters");
  const uint32_t clusters =
      std::max<uint32_t>(1, std::min<uint32_t>(static_cast<uint32_t>(resident > 0 ? resident : sms / 2), prob.grid.total()));
  l.config.gridDim = dim3(clusters * kCluster.size());
  check_cuda(l.launch(kernel, map_a, map_b, map_c, prob, counter), "k08_persistent launch");
}

void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  launch_schedule<false>(shape, ops, stream);
}
void launch_dynamic(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  launch_schedule<true>(shape, ops, stream);
}
void launch_no_cluster(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  launch_schedule<false, 1>(shape, ops, stream);
}

GEMMSCOPE_TIMELINE_NAMESPACE_END
}  // namespace gemmscope::sm90::k08
