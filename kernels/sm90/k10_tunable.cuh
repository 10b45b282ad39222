#pragma once
// k10_tunable: k08/k09 with their parameters opened for the autotuner. One
// template, instantiated for the rows of tune/instances.hpp (split over the
// k10_tunable_p*.cu files so that two cores compile them in parallel):
//   BM = 64 x consumer warpgroups, BN, BK (64: one 128-byte swizzle row per
//   stage; 128: two, so a stage holds two k-blocks' boxes behind one barrier),
//   ring depth, cluster (1 or 2 along M:
//   B multicast; 1, 2 or 4 along N: A multicast; at most 8 CTAs), static or
//   dynamic persistent schedule;
// and two run-time knobs:
//   group  > 0: grouped zig-zag tile order (k09), 0: along M (k08);
//   splits > 1: split-K for the tiles of the last, partial wave (tune::SplitPlan:
//               full waves run whole tiles, the remainder tiles are split S ways
//               along K). Each split writes its fp32 accumulators to a workspace
//               slot and counts itself in with an atomic; the split that arrives
//               last reads all S partials back and adds them in split order
//               0, 1, ..., S-1 (the same order whoever is last: deterministic),
//               then stores the tile like any other. No second kernel.
//   stream-K:   (static schedule) the last waves' k-blocks dealt out evenly
//               (sm90::StreamK); a tile cut between workers is summed the same
//               way, its pieces in k order.
// The host also sets whether B's loads carry an L2 evict_first policy
// (tune::evict_first_b: decode, where each B element is loaded once).
// The epilogue is k07's: stmatrix into two alternating swizzled staging boxes, TMA
// store. A cooperative tile whose boxes all fit gets a buffer per box, and each
// warpgroup stores its 64 rows whole after one barrier (k10_batched_epilogue). Boxes
// are 64 columns (128B swizzle), or 32 (64B swizzle) for a BN that is not a multiple
// of 64, or 16 (32B swizzle) for one that is not a multiple of 32, or 56 (unswizzled,
// an odd number of 16-byte chunks per row) for BN = 168.
// The other cooperative tiles (128 x 168, 176, 224, 256: two alternating buffers, each
// box behind a wait, a fence and two barriers) defer their epilogue when a next unit
// follows (k10_deferred_epilogue): the tile is packed to bf16 in registers and its boxes
// are staged and stored one per k-block during the next unit's first k-blocks, behind
// its wgmmas, so between two tiles the tensor cores wait only for the packing
// (+0.3-1.2% on the multi-wave shapes of those tiles: bench/results/2026-12-02-h200-defer).
// Consumers, cooperative (PingPong = false): each of the BM / 64 consumer
// warpgroups computes 64 rows of every tile. Ping-pong (PingPong = true, BM = 128,
// two consumer warpgroups): the warpgroups take the CTA's work units in turn
// (sm90::pingpong_turn), each computing all 128 rows of its tile (two m64 wgmmas
// per K step); both read the one ring in the order the producer fills it, so one
// warpgroup's epilogue runs while the other's wgmmas keep the tensor cores busy.
// A warpgroup starts a unit only once the other has passed the full barriers of
// the unit before (named barrier hand-off): a full barrier's parity wait is
// exact only for the phase right after the last completed one, and the other's
// unit may span many laps of the ring (verify/cpu/sim_sm90_test.cpp, SimSm90PingPong).
#include <cuda.h>

#include <cuda/atomic>

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <utility>

#include "common/bf16_pack.cuh"
#include "common/cluster_launch.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/sm90_pipeline.hpp"
#include "common/sm90_scheduler.hpp"
#include "sm90/k10_tunable.hpp"

namespace gemmscope::sm90::k10 {

// kBoxK: K elements per TMA box, one 128-byte row of the 128B swizzle. A stage of
// BK = 128 holds two boxes per operand (stage_k_offset).
constexpr int kBoxK = 64, kWgmmaK = 16, kScheduleSlots = 2;
// Named barriers: 0 __syncthreads, 1 + c consumer c's epilogue, kTurnBarrier + c
// ping-pong consumer c's turn to start a unit.
constexpr uint32_t kTurnBarrier = 3;
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;

template <int BM, int BN, int BK, int Stages>
struct SharedStorage {
  static constexpr int kConsumers = BM / 64;
  static constexpr int kStoreCols = store_box_cols(BN);
  static constexpr int kStagingBuffers = k10_staging_buffers(BM, BN, BK, Stages);
  alignas(1024) bf16 a[Stages][BM * BK];
  alignas(1024) bf16 b[Stages][BN * BK];
  alignas(1024) bf16 c[kConsumers][kStagingBuffers][64 * kStoreCols];
  uint64_t full[Stages];
  uint64_t empty[Stages];
  uint64_t schedule_full[kScheduleSlots];
  uint64_t schedule_empty[kScheduleSlots];
  uint32_t schedule_tile[kScheduleSlots];
  uint32_t last_split[kConsumers];  // split-K: this consumer's unit arrived last
};

// Ping-pong: each of the two consumer warpgroups holds a whole 128-row tile.
template <int BM, bool PingPong>
struct ConsumerShape {
  static constexpr int kConsumers = BM / 64;  // consumer warpgroups
  static constexpr int kHalves = 1;            // 64-row wgmma halves per warpgroup
  static constexpr int kReleasers = kConsumers;  // warpgroups that read (and release) each stage
};
template <int BM>
struct ConsumerShape<BM, true> {
  static_assert(BM == 128, "ping-pong: two consumer warpgroups, each on a whole 128-row tile");
  static constexpr int kConsumers = 2, kHalves = 2, kReleasers = 1;
};

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong>
__global__ void __launch_bounds__(128 * (1 + BM / 64), 1)
    k10_tunable(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_c, Problem prob) {
  using Consumers = ConsumerShape<BM, PingPong>;
  constexpr int kConsumers = Consumers::kConsumers, kHalves = Consumers::kHalves;
  constexpr ClusterShape kCluster{ClusterM, ClusterN};
  constexpr int kClusterSize = ClusterM * ClusterN;
  constexpr uint32_t kStageBytes = (BM + BN) * BK * sizeof(bf16);
  constexpr int kLoadBoxes = BK / kBoxK;  // TMA boxes per operand per stage
  static_assert(BK == 64 || BK == 128, "BK: one or two 128-byte swizzle rows");
  using Storage = SharedStorage<BM, BN, BK, Stages>;
  using Pipe = PipelineState<Stages>;
  using SchedulePipe = PipelineState<kScheduleSlots>;
  static_assert((ClusterM == 1 || ClusterM == 2) && (ClusterN == 1 || ClusterN == 2 || ClusterN == 4),
                "clusters of 1 or 2 CTAs along M and 1, 2 or 4 along N (at most 8, the portable cluster size)");
  static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumer warpgroups");
  // A slice of R rows lands R x 128 bytes into the tile, a 128-byte boundary as TMA
  // asks; the 128B swizzle XORs absolute address bits (traces/hw/tma_swizzle.json,
  // swz128B_in128B_r16_off512), so a slice that starts inside an 8-row atom (BN = 168
  // in 2x1: 84 rows) lands where one box of the whole tile would have put it.
  static_assert(BN % ClusterM == 0, "B slices of whole rows");
  static_assert((BM / ClusterN) % 8 == 0, "A slices are whole 8-row swizzle atoms");
  constexpr int kStoreCols = Storage::kStoreCols, kStagingBuffers = Storage::kStagingBuffers;
  constexpr bool kBatched = k10_batched_epilogue(BM, BN, BK, Stages, PingPong);
  constexpr bool kDeferEpilogue = k10_deferred_epilogue(BM, BN, BK, Stages, PingPong);
  static_assert(BN % kStoreCols == 0, "whole store boxes");
  static_assert(sizeof(Storage) + 1024 <= 232448, "227 KiB of shared memory per block");
  static_assert(sizeof(Storage) + 1024 == k10_shared_bytes(BM, BN, BK, Stages, kStagingBuffers),
                "k10_shared_bytes (the tuner's count and the staging-buffer rule) is this layout's size");
  constexpr uint32_t kScheduleReaders = (kClusterSize - 1) + kClusterSize * kConsumers * 128;

  extern __shared__ __align__(1024) uint8_t smem_raw[];
  Storage& s = *reinterpret_cast<Storage*>(smem_raw + ((1024 - (ptx::smem_u32(smem_raw) & 1023)) & 1023));
  const uint32_t rank = cluster_ctarank();
  const uint32_t worker = blockIdx.x / kCluster.size(), workers = gridDim.x / kCluster.size();
  const uint32_t total = prob.dp_tiles + prob.split_tiles * prob.splits;
  // Broadcast from lane 0, so the compiler knows it is warp-uniform and can keep
  // more of the consumers' descriptor arithmetic in the uniform registers wgmma
  // reads them from (the K steps of a stage are uniform adds; see
  // bench/results/2026-11-30-h200-llm-v4 for the SASS before and after).
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x / 128), 0);
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i) {
      cuda::ptx::mbarrier_init(&s.full[i], 1);
      cuda::ptx::mbarrier_init(&s.empty[i], Consumers::kReleasers * multicast_peer_count(kCluster));
    }
    for (int i = 0; i < kScheduleSlots; ++i) {
      cuda::ptx::mbarrier_init(&s.schedule_full[i], 1);
      cuda::ptx::mbarrier_init(&s.schedule_empty[i], kScheduleReaders);
    }
    fence_mbarrier_inits();
  }

  // A piece of work: output tile origin, k-block range, and for a tile cut into
  // pieces (fix >= 0: its split-K or stream-K tile index) this piece's partial
  // slot, the number of pieces and (stream-K) the worker of piece 0.
  struct Unit {
    int m0 = 0, n0 = 0, kb_begin = 0, kb_end = 0, fix = -1;
    uint32_t part = 0, parts = 1, first = 0;
  };
  auto at_tile = [&](Unit& w, uint32_t linear) {
    const WorkCoord c = prob.group ? order_grouped_zigzag(prob.grid, linear, prob.group) : order_along_m(prob.grid, linear);
    const ClusterPosition at = cluster_position(kCluster, rank);
    w.m0 = static_cast<int>((c.m * ClusterM + at.along_m) * BM);
    w.n0 = static_cast<int>((c.n * ClusterN + at.along_n) * BN);
  };
  auto unit = [&](uint32_t u) {  // whole tiles, then split-K units
    Unit w;
    w.kb_end = prob.k_blocks;
    uint32_t linear = u;
    if (u >= prob.dp_tiles) {
      const uint32_t j = u - prob.dp_tiles, tile = j % prob.split_tiles, split = j / prob.split_tiles;
      linear = prob.dp_tiles + tile;
      w.kb_begin = static_cast<int>(static_cast<int64_t>(split) * prob.k_blocks / prob.splits);
      w.kb_end = static_cast<int>(static_cast<int64_t>(split + 1) * prob.k_blocks / prob.splits);
      w.fix = static_cast<int>(tile);
      w.part = tile * prob.splits + split;
      w.parts = prob.splits;
    }
    at_tile(w, linear);
    return w;
  };
  // Slot of piece j of a cut tile.
  auto part_slot = [&](const Unit& w, uint32_t j) -> uint32_t {
    return prob.sk.tiles ? prob.sk.slot(w.first + j, static_cast<uint32_t>(w.fix))
                         : static_cast<uint32_t>(w.fix) * prob.splits + j;
  };
  // The static schedule's walk: this worker's units of [0, total), then its
  // stream-K segments.
  struct Walk {
    StaticSchedule statik;
    StreamK::Cursor cursor;
  };
  auto walk_next = [&](Walk& walk, Unit& w) -> bool {
    if (walk.statik.linear < total) {
      w = unit(walk.statik.linear);
      walk.statik = walk.statik.next();
      return true;
    }
    StreamKSegment seg;
    if (!prob.sk.next(walk.cursor, seg)) return false;
    w = Unit{};
    w.kb_begin = static_cast<int>(seg.kb_begin);
    w.kb_end = static_cast<int>(seg.kb_end);
    if (seg.count > 1) {
      w.fix = static_cast<int>(seg.tile);
      w.part = seg.slot;
      w.parts = seg.count;
      w.first = seg.first_worker;
    }
    at_tile(w, prob.sk.first_tile + seg.tile);
    return true;
  };
  // The static schedule's first unit is walked before the cluster barrier, so the
  // producer's first load follows the barrier at once. The walk (16 integer divisions
  // in 128 x 128's SASS) runs before the arrive; with the arrive above it, so that the
  // divisions ran while the barrier completed, every shape ran level
  // (bench/results/2026-12-02-h200-fence, call 2). After that each role walks one unit
  // ahead: the producer once it has queued a unit's loads, a consumer once its unit's
  // main loop is done (a cooperative consumer learns there whether its release was its
  // last remote operation).
  Walk walk{StaticSchedule::first(worker, workers), prob.sk.start(worker)};
  Unit ahead;
  bool have_ahead = false;
  if constexpr (!Dynamic) have_ahead = walk_next(walk, ahead);
  // The barrier that publishes the inits: each role moves its registers (setmaxnreg)
  // between the arrive and the wait, so that hides behind the barrier's latency too.
  cluster_arrive_after_inits();

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
    // (Reading the first load's parameters, the B load form and the tensor maps'
    // address, before this wait instead of after it ran level:
    // bench/results/2026-12-02-h200-fence, call 3.)
    ptx::setmaxnreg_dec<kProducerRegisters>();
    cuda::ptx::barrier_cluster_wait();
    if (threadIdx.x / 32 == 0 && ptx::elect_one_sync()) {
      const TileSlice sa = slice_a(kCluster, rank, BM), sb = slice_b(kCluster, rank, BN);
      const uint16_t mask_a = multicast_mask_a(kCluster, rank), mask_b = multicast_mask_b(kCluster, rank);
      const DynamicSchedule dyn{workers};
      // The loop is instantiated once per B load form, chosen before it: a run-time
      // choice per load cost ~2 us at 128x5376x4096 (bench/results/2026-12-01-h200-l2-hints, call 2).
      auto produce = [&](auto evict_first) {
        constexpr bool kEvictFirstB = decltype(evict_first)::value;
        uint64_t policy_b = 0;
        if constexpr (kEvictFirstB) policy_b = ptx::createpolicy_evict_first();
        Pipe p;
        [[maybe_unused]] SchedulePipe slots;  // the dynamic schedule only
        uint32_t u = dyn.first(worker);
        for (;;) {
          Unit w;
          if constexpr (Dynamic) {
            if (rank == 0) {
              const uint32_t slot = slots.stage();
              mbarrier_wait(&s.schedule_empty[slot], slots.empty_parity());
              for (uint32_t r = 0; r < kCluster.size(); ++r) {
                st_shared_cluster_u32(&s.schedule_tile[slot], r, u);
                mbarrier_arrive_cluster(&s.schedule_full[slot], r);
              }
              slots = slots.advance();
            } else {
              u = receive(slots);
            }
            if (u >= total) break;
            w = unit(u);
            if (rank == 0) u = dyn.after_claim(atomicAdd(prob.counter, 1u));
          } else {
            if (!have_ahead) break;
            w = ahead;
          }
          for (int kb = w.kb_begin; kb < w.kb_end; ++kb, p = p.advance()) {
            const uint32_t st = p.stage();
            mbarrier_wait(&s.empty[st], p.empty_parity());
            mbarrier_expect_bytes(&s.full[st], kStageBytes);
#pragma unroll
            for (int j = 0; j < kLoadBoxes; ++j) {
              // Box j: K elements [kb * BK + j * 64, + 64), at stage_k_offset(rows, j * 64).
              const int k0 = kb * BK + j * kBoxK;
              bf16* const a = s.a[st] + stage_k_offset(BM, j * kBoxK) / sizeof(bf16);
              bf16* const b = s.b[st] + stage_k_offset(BN, j * kBoxK) / sizeof(bf16);
              if constexpr (ClusterN == 1)
                tma_load_2d(a, &map_a, k0, w.m0, &s.full[st]);
              else
                tma_load_2d_multicast(a + sa.row0 * kBoxK, &map_a, k0, w.m0 + static_cast<int>(sa.row0),
                                      &s.full[st], mask_a);
              if constexpr (ClusterM == 1) {
                // B shared with no other CTA of the cluster: a plain load, not a multicast
                // to this CTA alone. The 1x1 and 1x2 instances gained 0-5% at most shapes
                // and up to 19% (bench/results/2026-12-01-h200-clocks, call 4). Why is not
                // known. It is not L2's request coalescer: that merges only reads from SMs
                // of one GPC, consecutive clusters sit on different GPCs, and it merged
                // hardly more of B's reads (bench/results/2026-12-01-h200-cluster-2x2,
                // calls 2-3).
                if constexpr (kEvictFirstB)
                  ptx::tma_load_2d_hint(ptx::smem_u32(b), &map_b, k0, w.n0, ptx::smem_u32(&s.full[st]), policy_b);
                else
                  tma_load_2d(b, &map_b, k0, w.n0, &s.full[st]);
              } else {
                bf16* const b_slice = b + sb.row0 * kBoxK;
                const int b_row = w.n0 + static_cast<int>(sb.row0);
                if constexpr (kEvictFirstB)
                  ptx::tma_load_2d_multicast_hint(ptx::smem_u32(b_slice), &map_b, k0, b_row,
                                                  ptx::smem_u32(&s.full[st]), mask_b, policy_b);
                else
                  tma_load_2d_multicast(b_slice, &map_b, k0, b_row, &s.full[st], mask_b);
              }
            }
          }
          if constexpr (!Dynamic) have_ahead = walk_next(walk, ahead);
        }
        // Static schedule: the CTA may leave once the last fill of every ring slot has
        // been released by every consumer that read it, here and in the peers (CUTLASS's
        // load_tail). Those releases are the last remote operations on this CTA's
        // shared memory; the multicasts it receives are waited for by its own consumers.
        // A slot never filled passes at once (its first empty parity).
        if constexpr (!Dynamic)
          for (int i = 0; i < Stages; ++i, p = p.advance()) mbarrier_wait(&s.empty[p.stage()], p.empty_parity());
      };
      if (prob.b_evict_first)
        produce(std::true_type{});
      else
        produce(std::false_type{});
    }
    // Dynamic schedule: the producer's last remote operation (a multicast or a
    // schedule slot) is behind it, its half of the exit barrier. Lanes and warps that
    // load nothing arrive at once.
    if constexpr (Dynamic) cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  } else {
    // ---- consumers ----
    ptx::setmaxnreg_inc<kConsumerRegisters>();
    cuda::ptx::barrier_cluster_wait();
    const int consumer = warpgroup - 1;
    const uint32_t t = threadIdx.x % 128, warp = t / 32, lane = t % 32;
    const uint16_t peers = multicast_peers(kCluster, rank);
    // Named barriers are .aligned: every thread of a warp must reach the bar.sync
    // together. So no lane-0-only branch runs right before one where a warp-uniform
    // condition does the same: ptxas merged two adjacent `t == 0` blocks (the cut
    // tile's counter reset and the epilogue's bulk-store wait) into one region with
    // no reconvergence point, dropped a __syncwarp() placed before the bar.sync as
    // redundant, and lane 0 reached the barrier alone: the ping-pong cut tiles hung
    // (SASS and synccheck: bench/results/2026-11-30-h200-pingpong-cut).
    auto release = [&](uint32_t st) {
      if (t == 0)
        for (uint32_t r = 0; r < kCluster.size(); ++r)
          if (peers >> r & 1u) mbarrier_arrive_remote(&s.empty[st], r);
    };
    // Operand descriptors of stage 0, K offset 0, formed once: stage st, K offset kk
    // (elements) is desc_advance(d, st * stage bytes + stage_k_offset(rows, kk)); a
    // ping-pong warpgroup's second 64-row half of A is 64 rows of 128 bytes further
    // (verify/cpu/sm90_kernels_vs_model_test.cpp).
    constexpr uint32_t kStageBytesA = BM * BK * sizeof(bf16), kStageBytesB = BN * BK * sizeof(bf16);
    constexpr uint32_t kHalfBytesA = 64 * kBoxK * sizeof(bf16);
    // Rows of the tile this warpgroup's half 0 starts at.
    const int row_base = PingPong ? 0 : consumer * 64;
    const uint64_t desc_a = desc_kmajor_sw128(ptx::smem_u32(s.a[0]), row_base, 0);
    const uint64_t desc_b = desc_kmajor_sw128(ptx::smem_u32(s.b[0]), 0, 0);
    Pipe p;
    SchedulePipe slots;
    uint32_t turn = 0;  // ping-pong: this CTA's units seen so far
    // The deferred epilogue (kDeferEpilogue): a unit's tile, packed to bf16, is held in
    // registers and staged and stored one box per k-block during the next unit's first
    // k-blocks, behind that unit's wgmmas (which read other registers), so the tensor
    // cores wait only for the packing between two tiles. held_next: the next box to
    // store (kBoxes: nothing held).
    // box_seq counts the boxes this warpgroup has stored, across units: box i goes to
    // staging buffer i % kStagingBuffers, once the store that read that buffer last,
    // kStagingBuffers boxes back, has read it. (A count that restarted with each tile
    // put an odd-box tile's first box, 128 x 168's three, into the buffer its last box
    // was still being stored from, which the wait for all but the latest store did not
    // cover.)
    constexpr int kBoxes = BN / kStoreCols;
    [[maybe_unused]] uint32_t held[BN / 4];  // (unused, and so allocated nowhere, where nothing is deferred)
    [[maybe_unused]] int held_m0 = 0, held_n0 = 0, held_next = kBoxes;
    [[maybe_unused]] uint32_t box_seq = 0;
    // Box `box` of a 64-row half into the staging buffer at `staging`. word(i): the
    // accumulator registers i and i + 1 as bf16x2; 8-column block j of the tile is
    // registers 4j..4j+3 (box_block_register).
    auto stage_box = [&](auto&& word, int box, uint32_t staging) {
      if constexpr (kStoreCols % 16 == 0) {
#pragma unroll
        for (int pair = 0; pair < kStoreCols / 16; ++pair) {
          const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
          const int r = box_block_register(box, kStoreCols, 2 * pair);
          const uint32_t at_bytes = kStoreCols == 64   ? sw128_offset(at.row, at.col)
                                    : kStoreCols == 32 ? sw64_offset(at.row, at.col)
                                                       : sw32_offset(at.row, at.col);
          ptx::stmatrix_x4(staging + at_bytes, word(r), word(r + 2), word(r + 4), word(r + 6));
        }
      } else {
        // Unswizzled box of an odd number of 8-column blocks (BN = 168: 7): pairs
        // of blocks by stmatrix.x4, the last block by stmatrix.x2.
        constexpr int kBlocks = kStoreCols / 8;
        static_assert(kBlocks % 2 == 1, "plain boxes are an odd number of 16-byte chunks");
#pragma unroll
        for (int pair = 0; pair < kBlocks / 2; ++pair) {
          const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
          const int r = box_block_register(box, kStoreCols, 2 * pair);
          ptx::stmatrix_x4(staging + plain_offset(at.row, at.col, kStoreCols), word(r), word(r + 2), word(r + 4),
                           word(r + 6));
        }
        const StmatrixRow at = stmatrix_x2_row(warp, lane);
        const int r = box_block_register(box, kStoreCols, kBlocks - 1);
        ptx::stmatrix_x2(staging + plain_offset(at.row, at.col + 8 * (kBlocks - 1), kStoreCols), word(r),
                         word(r + 2));
      }
    };
    // Box `box` of the 64 rows from row m0, column n0, from staging buffer `buffer`.
    auto store_box = [&](int m0, int n0, int box, uint32_t buffer) {
      const int32_t coords[2] = {n0 + box * kStoreCols, m0};
      cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, &map_c, coords,
                                      reinterpret_cast<uint8_t*>(s.c[consumer][buffer]));
    };
    // The held tile's box held_next: wait for its buffer, stage, fence, store.
    [[maybe_unused]] auto store_held_box = [&] {
      const uint32_t buffer = box_seq % kStagingBuffers;
      if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kStagingBuffers - 1>{});
      named_barrier_sync(1 + consumer, 128);
      // Each box's register indices are constants, so `held` stays in registers.
#pragma unroll
      for (int box = 0; box < kBoxes; ++box)
        if (box == held_next)
          stage_box([&](int i) { return held[i / 2]; }, box, ptx::smem_u32(s.c[consumer][buffer]));
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
      named_barrier_sync(1 + consumer, 128);
      if (t == 0) {
        store_box(held_m0, held_n0, held_next, buffer);
        cuda::ptx::cp_async_bulk_commit_group();
      }
      ++held_next;
      ++box_seq;
    };
    for (;;) {
      Unit w;
      if constexpr (Dynamic) {
        const uint32_t u = receive(slots);
        if (u >= total) break;
        w = unit(u);
      } else {
        if (!have_ahead) break;
        w = ahead;
        // Ping-pong walks now: the other warpgroup's unit is skipped just below.
        if constexpr (PingPong) have_ahead = walk_next(walk, ahead);
      }
      if constexpr (PingPong) {
        // The other warpgroup's unit: its k-blocks pass through the ring untouched by us.
        if (!pingpong_turn(turn, static_cast<uint32_t>(consumer))) {
          ++turn;
          p = p.advance(static_cast<uint32_t>(w.kb_end - w.kb_begin));
          continue;
        }
        // Ours: wait until the other warpgroup has passed the barriers of the unit before.
        if (turn > 0) named_barrier_sync(kTurnBarrier + consumer, 256);
        ++turn;
      }

      float acc[kHalves][BN / 2];
#pragma unroll
      for (int h = 0; h < kHalves; ++h)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) acc[h][i] = 0.f;
      uint32_t previous = 0;
      bool ready = false;  // the previous step's early test found this stage filled
      for (int kb = w.kb_begin; kb < w.kb_end; ++kb) {
        const uint32_t st = p.stage();
        if (!ready) mbarrier_wait(&s.full[st], p.phase());
        const uint64_t a = desc_advance(desc_a, st * kStageBytesA), b = desc_advance(desc_b, st * kStageBytesB);
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK; kk += kWgmmaK)
#pragma unroll
          for (int h = 0; h < kHalves; ++h)
            ptx::WgmmaBf16F32<BN>::mma(acc[h], desc_advance(a, stage_k_offset(BM, kk) + h * kHalfBytesA),
                                       desc_advance(b, stage_k_offset(BN, kk)), 1);
        ptx::wgmma_commit_group();
        if constexpr (kDeferEpilogue)
          if (held_next < kBoxes) store_held_box();
        // Test the next stage's barrier while this step's wgmmas run, so the next step
        // starts without a wait when its data is already there (CUTLASS's
        // consumer_try_wait token). Ping-pong tests before waiting for the previous
        // step's wgmmas, so the test's latency hides behind that wait; cooperative
        // after it.
        if constexpr (PingPong) {
          p = p.advance();
          ready = kb + 1 < w.kb_end && mbarrier_test(&s.full[p.stage()], p.phase());
        }
        ptx::wgmma_wait_group<1>();
        if (kb > w.kb_begin) release(previous);
        previous = st;
        if constexpr (!PingPong) {
          p = p.advance();
          ready = kb + 1 < w.kb_end && mbarrier_test(&s.full[p.stage()], p.phase());
        }
      }
      // Every full barrier of this unit has been passed: the other warpgroup's turn.
      if constexpr (PingPong) {
        __syncwarp();
        named_barrier_arrive(kTurnBarrier + (1 - consumer), 256);
      }
      ptx::wgmma_wait_group<0>();
      release(previous);
      // A unit of fewer k-blocks than boxes: the rest of the held tile goes now.
      if constexpr (kDeferEpilogue)
        while (held_next < kBoxes) store_held_box();
      // The static cooperative schedule walks to its next unit here (ping-pong walked
      // at the top of the loop).
      if constexpr (!Dynamic && !PingPong) have_ahead = walk_next(walk, ahead);

      if (w.fix >= 0) {
        // A cut tile: publish this piece's partial (thread-major, so each register's
        // 128 values are one coalesced line), then count in. The last of the
        // pieces to arrive sums all of them, in k order, into acc and stores the tile.
        // Each CTA's slice of a slot holds its 64-row halves in tile order: the
        // cooperative warpgroup c's, or the ping-pong warpgroup's halves 0 and 1.
        constexpr int kRegs = BN / 2;
        const int64_t per_part = int64_t{kClusterSize} * kConsumers * kRegs * 128;
        const int64_t lane = (int64_t{rank} * kConsumers + row_base / 64) * kRegs * 128 + t;
        float* mine = prob.workspace + static_cast<int64_t>(w.part) * per_part + lane;
#pragma unroll
        for (int h = 0; h < kHalves; ++h)
#pragma unroll
          for (int i = 0; i < kRegs; ++i) __stcg(mine + (h * kRegs + i) * 128, acc[h][i]);
        // The warpgroup's partial is written (ordered before thread 0 by the barrier);
        // thread 0's count releases it to the other pieces and, for the last piece,
        // acquires theirs; the second barrier orders every thread's reads after that.
        // One fence-carrying atomic per warpgroup instead of a fence.sc.gpu per thread
        // (CUTLASS's generic barrier does the same: bar.sync, then one red.release).
        named_barrier_sync(1 + consumer, 128);
        // One arrival counter per CTA and cooperative warpgroup (a ping-pong tile's
        // pieces, whichever warpgroup ran them, count into the first).
        uint32_t* arrivals =
            prob.arrivals + (static_cast<int64_t>(w.fix) * kClusterSize + rank) * kConsumers + row_base / 64;
        if (t == 0) {
          cuda::atomic_ref<uint32_t, cuda::thread_scope_device> count(*arrivals);
          const bool last = count.fetch_add(1u, cuda::memory_order_acq_rel) == w.parts - 1;
          if (last) count.store(0u, cuda::memory_order_relaxed);  // every piece is in: zero for the next launch
          s.last_split[consumer] = last;
        }
        named_barrier_sync(1 + consumer, 128);
        if (!s.last_split[consumer]) continue;
        // The partials are read through L2 (__ldcg), where the other pieces wrote them.
#pragma unroll
        for (int h = 0; h < kHalves; ++h)
#pragma unroll
          for (int i = 0; i < kRegs; ++i) acc[h][i] = 0.f;
        for (uint32_t j = 0; j < w.parts; ++j) {
          const float* part = prob.workspace + static_cast<int64_t>(part_slot(w, j)) * per_part + lane;
#pragma unroll
          for (int h = 0; h < kHalves; ++h)
#pragma unroll
            for (int i = 0; i < kRegs; ++i) acc[h][i] += __ldcg(part + (h * kRegs + i) * 128);
        }
      }
      // bf16 epilogue as k07/k08: stmatrix into swizzled staging boxes, TMA store; the
      // last boxes' stores stay in flight into the next unit.
      if constexpr (kDeferEpilogue) {
        // A next unit follows (the dynamic schedule cannot tell): hold the tile for its
        // k-blocks to store. The last unit stores at once.
        if (Dynamic || have_ahead) {
#pragma unroll
          for (int i = 0; i < BN / 4; ++i) held[i] = pack_bf16x2(acc[0][2 * i], acc[0][2 * i + 1]);
          held_m0 = w.m0 + row_base;
          held_n0 = w.n0;
          held_next = 0;
          continue;
        }
      }
      if constexpr (kBatched) {
        // A buffer per box: once the last unit's stores have read them, stage the
        // whole tile, then one fence, one barrier and one bulk group for all boxes.
        static_assert(kHalves == 1, "batched: one 64-row tile per warpgroup");
        if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
        named_barrier_sync(1 + consumer, 128);
#pragma unroll
        for (int box = 0; box < kBoxes; ++box)
          stage_box([&](int i) { return pack_bf16x2(acc[0][i], acc[0][i + 1]); }, box,
                    ptx::smem_u32(s.c[consumer][box]));
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
        named_barrier_sync(1 + consumer, 128);
        if (t == 0) {
#pragma unroll
          for (int box = 0; box < kBoxes; ++box) store_box(w.m0 + row_base, w.n0, box, box);
          cuda::ptx::cp_async_bulk_commit_group();
        }
      } else {
        // Alternating buffers: each box waits until the store kStagingBuffers boxes back
        // has read its buffer.
#pragma unroll
        for (int h = 0; h < kHalves; ++h) {
#pragma unroll
          for (int box = 0; box < kBoxes; ++box, ++box_seq) {
            const uint32_t buffer = box_seq % kStagingBuffers;
            // Warp 0 whole (lanes 1-31 have no bulk groups: no wait), so the warp
            // reaches the bar.sync converged.
            if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kStagingBuffers - 1>{});
            named_barrier_sync(1 + consumer, 128);
            stage_box([&](int i) { return pack_bf16x2(acc[h][i], acc[h][i + 1]); }, box,
                      ptx::smem_u32(s.c[consumer][buffer]));
            cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
            named_barrier_sync(1 + consumer, 128);
            if (t == 0) {
              store_box(w.m0 + row_base + h * 64, w.n0, box, buffer);
              cuda::ptx::cp_async_bulk_commit_group();
            }
          }
        }
      }
    }
    if constexpr (kDeferEpilogue)
      while (held_next < kBoxes) store_held_box();
    // Ping-pong: the last unit handed the turn to the warpgroup that would have run
    // the next one; that warpgroup takes the hand-off, so no arrival is left over.
    if constexpr (PingPong)
      if (turn > 0 && pingpong_turn(turn, static_cast<uint32_t>(consumer)))
        named_barrier_sync(kTurnBarrier + consumer, 256);
    if constexpr (Dynamic) cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
    if (t == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
  }
  // The dynamic schedule's exit barrier: no CTA leaves while a peer may still write
  // a schedule slot or arrive on its barriers. Each thread arrived after its last
  // remote operation, so a CTA whose peer is still storing its tile does not wait for
  // it (bench/results/2026-11-30-h200-tile-168-timeline, call 2). The static schedule
  // needs none: its producer's tail above waits for the last remote arrivals, and a
  // release arrive costs each consumer a MEMBAR.ALL.GPU between its main loop and its
  // epilogue (bench/results/2026-12-01-h200-mainloop, call 4's SASS).
  if constexpr (Dynamic) cuda::ptx::barrier_cluster_wait();
}

// The host half of one instance: shared-memory attribute and resident clusters
// (once per device), cluster launch of the persistent grid.
template <int BM, int BN, int BK, int Stages, int ClusterSize>
ClusterLaunch launch_config(cudaStream_t stream) {
  constexpr int kSmem = static_cast<int>(sizeof(SharedStorage<BM, BN, BK, Stages>)) + 1024;
  // Grid: a placeholder for the occupancy query. 1-D clusters: rank r is
  // (along_m, along_n) = (r % ClusterM, r / ClusterM).
  return ClusterLaunch::with_dims(dim3(2 * ClusterSize), dim3(128 * (1 + BM / 64)), kSmem, stream,
                                  dim3(ClusterSize, 1, 1));
}

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong>
int resident_clusters(int device, int sm_count) {
  static std::atomic<int> by_device[kMaxDevices] = {};
  const int slot = device >= 0 && device < kMaxDevices ? device : 0;
  int resident = by_device[slot].load(std::memory_order_relaxed);
  if (resident == 0) {
    auto* kernel = k10_tunable<BM, BN, BK, Stages, ClusterM, ClusterN, Dynamic, PingPong>;
    ClusterLaunch l = launch_config<BM, BN, BK, Stages, ClusterM * ClusterN>(nullptr);
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, l.config.dynamicSmemBytes),
               "k10 smem attribute");
    check_cuda(l.max_active_clusters(&resident, kernel), "k10 resident clusters");
    if (resident <= 0) resident = std::max(1, sm_count / (ClusterM * ClusterN));
    by_device[slot].store(resident, std::memory_order_relaxed);
  }
  return resident;
}

template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong>
void launch_instance(const Launch& l, uint32_t clusters) {
  auto* kernel = k10_tunable<BM, BN, BK, Stages, ClusterM, ClusterN, Dynamic, PingPong>;
  ClusterLaunch cl = launch_config<BM, BN, BK, Stages, ClusterM * ClusterN>(l.stream);
  cl.config.gridDim = dim3(std::max<uint32_t>(1, clusters) * ClusterM * ClusterN);
  check_cuda(cl.launch(kernel, l.map_a, l.map_b, l.map_c, l.prob), "k10_tunable launch");
}

// The launchers of this part's rows of tune/instances.hpp (row % kParts == Part,
// decided at compile time so each part file instantiates only its own rows),
// nullptr for the others.
struct Row {
  int bm, bn, bk, stages, cluster_m, cluster_n, dynamic, pingpong;
};
inline constexpr Row kRows[] = {
#define GEMMSCOPE_K10_ROW(BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG) \
  Row{BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG},
    GEMMSCOPE_K10_INSTANCES(GEMMSCOPE_K10_ROW)
#undef GEMMSCOPE_K10_ROW
};
inline constexpr int kRowCount = static_cast<int>(sizeof(kRows) / sizeof(kRows[0]));

template <int Part, int I>
constexpr InstanceFns instance_if_mine() {
  if constexpr (I % kParts == Part) {
    constexpr Row r = kRows[I];
    return InstanceFns{
        &resident_clusters<r.bm, r.bn, r.bk, r.stages, r.cluster_m, r.cluster_n, r.dynamic != 0, r.pingpong != 0>,
        &launch_instance<r.bm, r.bn, r.bk, r.stages, r.cluster_m, r.cluster_n, r.dynamic != 0, r.pingpong != 0>};
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

}  // namespace gemmscope::sm90::k10
