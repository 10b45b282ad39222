#pragma once
// k10_tunable: k08/k09 with their parameters opened for the autotuner. One
// template, instantiated for the rows of tune/instances.hpp (split over the
// k10_tunable_p*.cu files so that two cores compile them in parallel):
//   BM = 64 x consumer warpgroups, BN, BK (64: one 128-byte swizzle row per
//   stage; 128: two, so a stage holds two k-blocks' boxes behind one barrier),
//   ring depth, cluster (1 or 2 along M: B multicast; 1, 2 or 4 along N: A
//   multicast; at most 8 CTAs), static or dynamic persistent schedule,
//   cooperative or ping-pong consumers;
// and, at run time (Problem): the tile order (group > 0: grouped zig-zag, k09; 0:
// along M, k08), split-K or stream-K for the last waves, and whether B's loads
// carry an L2 evict_first policy (tune::evict_first_b: decode, where each B
// element is loaded once).
//
// The kernel reads as its plan; each part is a device struct in its own header:
//   k10_config.hpp          the instance's constants and rules (CUDA-free)
//   k10/shared_storage.cuh  the ring, staging boxes and barriers in shared memory
//   k10/schedule.cuh        the walk over work units (static, stream-K, dynamic)
//   k10/producer.cuh        the TMA loads that fill the ring
//   k10/mainloop.cuh        the consumers' wgmmas, cooperative or ping-pong
//   k10/fixup.cuh           the sum of a tile cut by split-K or stream-K
//   k10/epilogue.cuh        bf16 out through staging boxes and TMA stores
#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <utility>

#include "common/cluster_launch.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "gemmscope/traces/timeline.cuh"
#include "sm90/k10/epilogue.cuh"
#include "sm90/k10/fixup.cuh"
#include "sm90/k10/mainloop.cuh"
#include "sm90/k10/producer.cuh"
#include "sm90/k10/schedule.cuh"
#include "sm90/k10/shared_storage.cuh"
#include "sm90/k10_config.hpp"
#include "sm90/k10_tunable.hpp"

namespace gemmscope::sm90::k10 {
// A recording build (GEMMSCOPE_TIMELINE) puts the kernel and its launchers in an inline
// namespace of their own: the plain instance of the same arguments stays a kernel apart.
GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong,
          bool SwapAB = false>
__global__ void __launch_bounds__(128 * (1 + k10_consumers(BM)), 1)
    k10_tunable(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_a_tail,
                const __grid_constant__ CUtensorMap map_b, const __grid_constant__ CUtensorMap map_c, Problem prob) {
  using Cfg = Config<BM, BN, BK, Stages, ClusterM, ClusterN, Dynamic, PingPong, SwapAB>;
  using Storage = SharedStorage<BM, BN, BK, Stages>;
  static_assert(sizeof(Storage) + 1024 <= 232448, "227 KiB of shared memory per block");
  static_assert(sizeof(Storage) + 1024 == k10_shared_bytes(BM, BN, BK, Stages, Cfg::kStagingBuffers),
                "k10_shared_bytes (the tuner's count and the staging-buffer rule) is this layout's size");

  // ---- set-up: shared memory, this worker, barriers --------------------------
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  Storage& s = *reinterpret_cast<Storage*>(smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const uint32_t rank = cluster_ctarank();
  const uint32_t worker = blockIdx.x / Cfg::kCluster.size(), workers = gridDim.x / Cfg::kCluster.size();
  const Schedule<Cfg> schedule{prob, rank, prob.dp_tiles + prob.split_tiles * prob.splits};
  // Broadcast from lane 0, so the compiler knows it is warp-uniform and can keep
  // more of the consumers' descriptor arithmetic in the uniform registers wgmma
  // reads them from (the K steps of a stage are uniform adds: the SASS of kernel
  // version 4, CHANGELOG.md).
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x / 128), 0);
  GEMMSCOPE_TIMELINE_CTA_BEGIN();  // the recorder's writers (timeline.cuh); the first barrier publishes them
  constexpr uint32_t kScheduleReaders = Cfg::kScheduleReaders;  // a local: mbarrier_init takes a reference
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i) {
      cuda::ptx::mbarrier_init(&s.full[i], 1);
      cuda::ptx::mbarrier_init(&s.empty[i], Cfg::Consumers::kReleasers * multicast_peer_count(Cfg::kCluster));
    }
    for (int i = 0; i < kScheduleSlots; ++i) {
      cuda::ptx::mbarrier_init(&s.schedule_full[i], 1);
      cuda::ptx::mbarrier_init(&s.schedule_empty[i], kScheduleReaders);
    }
    fence_mbarrier_inits();
  }
  // The static schedule's first unit is walked before the cluster barrier, so the
  // producer's first load follows the barrier at once. The walk (16 integer divisions
  // in 128 x 128's SASS) runs before the arrive; with the arrive above it, so that the
  // divisions ran while the barrier completed, every shape ran level. After that each
  // role walks one unit ahead: the producer once it has queued a unit's loads, a
  // consumer once its unit's main loop is done (a cooperative consumer learns there
  // whether its release was its last remote operation).
  Walk walk{StaticSchedule::first(worker, workers), prob.sk.start(worker)};
  Unit ahead;
  bool have_ahead = false;
  if constexpr (!Dynamic) have_ahead = schedule.walk_next(walk, ahead);
  // The barrier that publishes the inits: each role moves its registers (setmaxnreg)
  // between the arrive and the wait, so that hides behind the barrier's latency too.
  cluster_arrive_after_inits();

  if (warpgroup == 0) {
    // ---- producer: one elected thread issues every TMA load ---------------------
    // (Reading the first load's parameters, the B load form and the tensor maps'
    // address, before this wait instead of after it ran level.)
    ptx::setmaxnreg_dec<kProducerRegisters>();
    cuda::ptx::barrier_cluster_wait();
    if (threadIdx.x / 32 == 0 && ptx::elect_one_sync()) {
      Producer<Cfg, Storage> producer(s, map_a, map_a_tail, map_b, schedule, worker, workers);
      // The loop is instantiated once per B load form, chosen before it: a run-time
      // choice per load cost ~2 us at 128x5376x4096 (docs/experiments.md).
      if (prob.b_evict_first)
        producer.template run<true>(walk, ahead, have_ahead);
      else
        producer.template run<false>(walk, ahead, have_ahead);
    }
    // Dynamic schedule: the producer's last remote operation (a multicast or a
    // schedule slot) is behind it, its half of the exit barrier. Lanes and warps that
    // load nothing arrive at once.
    if constexpr (Dynamic) cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  } else {
    // ---- consumers: main loop, cut-tile fix-up, epilogue, unit after unit --------
    ptx::setmaxnreg_inc<kConsumerRegisters>();
    cuda::ptx::barrier_cluster_wait();
    const int consumer = warpgroup - 1;
    const uint32_t t = threadIdx.x % 128, warp = t / 32, lane = t % 32;
    Mainloop<Cfg, Storage> mainloop(s, rank, consumer, t);
    const int row_base = PingPong ? 0 : consumer * 64 * Cfg::kHalves;  // the tile's row this warpgroup's half 0 starts at
    Fixup<Cfg, Storage> fixup{s, schedule, consumer, row_base, t};
    uint32_t held[BN / 4];  // the deferred epilogue's held tile (k10/epilogue.cuh)
    Epilogue<Cfg, Storage> epilogue(s, map_c, held, consumer, t, warp, lane, row_base);
    SchedulePipe slots;
    for (;;) {
      Unit w;
      if constexpr (Dynamic) {
        const uint32_t u = receive_unit(s, slots);
        if (u >= schedule.total) break;
        w = schedule.unit(u);
      } else {
        if (!have_ahead) break;
        w = ahead;
        // Ping-pong walks now: the other warpgroup's unit is skipped just below.
        if constexpr (PingPong) have_ahead = schedule.walk_next(walk, ahead);
      }
      if constexpr (PingPong) {
        if (!mainloop.my_turn()) {
          mainloop.pass(w);
          continue;
        }
        mainloop.take_turn();
      }

      float acc[Cfg::kHalves][BN / 2];
      mainloop.run(acc, w, [&] {
        if constexpr (Cfg::kDeferEpilogue) epilogue.store_held_box_if_any();
      });
      // A unit of fewer k-blocks than boxes: the rest of the held tile goes now.
      if constexpr (Cfg::kDeferEpilogue) epilogue.flush_held();
      // The static cooperative schedule walks to its next unit here (ping-pong walked
      // at the top of the loop).
      if constexpr (!Dynamic && !PingPong) have_ahead = schedule.walk_next(walk, ahead);

      // A cut tile: only the piece that arrives last stores it.
      if (w.fix >= 0 && !fixup.sum_if_last(acc, w)) continue;
      if constexpr (Cfg::kDeferEpilogue) {
        // A next unit follows (the dynamic schedule cannot tell): hold the tile for its
        // k-blocks to store. The last unit stores at once.
        if (Dynamic || have_ahead) {
          epilogue.hold(acc, w);
          continue;
        }
      }
      if constexpr (Cfg::kBatched)
        epilogue.store_batched(acc, w);
      else
        epilogue.store_alternating(acc, w);
    }
    if constexpr (Cfg::kDeferEpilogue) epilogue.flush_held();
    if constexpr (PingPong) mainloop.take_last_turn();
    if constexpr (Dynamic) cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
    epilogue.drain();
  }
  // The dynamic schedule's exit barrier: no CTA leaves while a peer may still write
  // a schedule slot or arrive on its barriers. Each thread arrived after its last
  // remote operation, so a CTA whose peer is still storing its tile does not wait for
  // it. The static schedule needs none: its producer's tail waits for the last remote
  // arrivals, and a release arrive costs each consumer a MEMBAR.ALL.GPU between its
  // main loop and its epilogue.
  if constexpr (Dynamic) cuda::ptx::barrier_cluster_wait();
}

// The host half of one instance: shared-memory attribute and resident clusters
// (once per device), cluster launch of the persistent grid.
template <int BM, int BN, int BK, int Stages, int ClusterSize>
ClusterLaunch launch_config(cudaStream_t stream) {
  constexpr int kSmem = kSharedBytes<BM, BN, BK, Stages>;
  // Grid: a placeholder for the occupancy query. 1-D clusters: rank r is
  // (along_m, along_n) = (r % ClusterM, r / ClusterM).
  return ClusterLaunch::with_dims(dim3(2 * ClusterSize), dim3(128 * (1 + k10_consumers(BM))), kSmem, stream,
                                  dim3(ClusterSize, 1, 1));
}

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong,
          bool SwapAB = false>
int resident_clusters(int device, int sm_count) {
  static std::atomic<int> by_device[kMaxDevices] = {};
  const int slot = device >= 0 && device < kMaxDevices ? device : 0;
  int resident = by_device[slot].load(std::memory_order_relaxed);
  if (resident == 0) {
    auto* kernel = k10_tunable<BM, BN, BK, Stages, ClusterM, ClusterN, Dynamic, PingPong, SwapAB>;
    ClusterLaunch l = launch_config<BM, BN, BK, Stages, ClusterM * ClusterN>(nullptr);
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, l.config.dynamicSmemBytes),
               "k10 smem attribute");
    check_cuda(l.max_active_clusters(&resident, kernel), "k10 resident clusters");
    if (resident <= 0) resident = std::max(1, sm_count / (ClusterM * ClusterN));
    by_device[slot].store(resident, std::memory_order_relaxed);
  }
  return resident;
}

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong,
          bool SwapAB = false>
void launch_instance(const Launch& l, uint32_t clusters) {
  auto* kernel = k10_tunable<BM, BN, BK, Stages, ClusterM, ClusterN, Dynamic, PingPong, SwapAB>;
  ClusterLaunch cl = launch_config<BM, BN, BK, Stages, ClusterM * ClusterN>(l.stream);
  cl.config.gridDim = dim3(std::max<uint32_t>(1, clusters) * ClusterM * ClusterN);
  check_cuda(cl.launch(kernel, l.map_a, l.map_a_tail, l.map_b, l.map_c, l.prob), "k10_tunable launch");
}

// The launchers of this part's rows of tune/instances.hpp (row % kParts == Part,
// decided at compile time so each part file instantiates only its own rows),
// nullptr for the others.
struct Row {
  int bm, bn, bk, stages, cluster_m, cluster_n, dynamic, pingpong, swap_ab;
};
inline constexpr Row kRows[] = {
#define GEMMSCOPE_K10_ROW(BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG, SWAP) \
  Row{BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG, SWAP},
    GEMMSCOPE_K10_INSTANCES(GEMMSCOPE_K10_ROW)
#undef GEMMSCOPE_K10_ROW
};
inline constexpr int kRowCount = static_cast<int>(sizeof(kRows) / sizeof(kRows[0]));

template <int Part, int I>
constexpr InstanceFns instance_if_mine() {
  if constexpr (I % kParts == Part) {
    constexpr Row r = kRows[I];
    return InstanceFns{
        &resident_clusters<r.bm, r.bn, r.bk, r.stages, r.cluster_m, r.cluster_n, r.dynamic != 0, r.pingpong != 0,
                           r.swap_ab != 0>,
        &launch_instance<r.bm, r.bn, r.bk, r.stages, r.cluster_m, r.cluster_n, r.dynamic != 0, r.pingpong != 0,
                         r.swap_ab != 0>};
  } else {
    return InstanceFns{};
  }
}

template <int Part, int... I>
InstanceFns pick(int row, std::integer_sequence<int, I...>) {
  InstanceFns fns{};
  ((fns = (I == row) ? instance_if_mine<Part, I>() : fns), ...);
  return fns;
}

template <int Part>
InstanceFns part_instance(int row) {
  return pick<Part>(row, std::make_integer_sequence<int, kRowCount>{});
}

GEMMSCOPE_TIMELINE_NAMESPACE_END
}  // namespace gemmscope::sm90::k10
