#pragma once
// k10's cut-tile fix-up. Split-K (tune::SplitPlan: full waves run whole tiles, the
// remainder tiles are split S ways along K) and stream-K (the last waves' k-blocks
// dealt out evenly, sm90::StreamK) cut a tile into pieces that different workers
// compute. Each piece writes its fp32 accumulators to a workspace slot and counts
// itself in with an atomic; the piece that arrives last reads all of them back and
// adds them in k order (the same order whoever is last: deterministic), then stores
// the tile like any other. No second kernel.
#include <cuda/atomic>

#include <cstdint>

#include "common/sm90_cluster.cuh"
#include "sm90/k10/schedule.cuh"
#include "sm90/k10_config.hpp"
#include "sm90/k10_tunable.hpp"

namespace gemmscope::sm90::k10 {

template <class Cfg, class Storage>
struct Fixup {
  static constexpr int kHalves = Cfg::kHalves, kRegs = Cfg::kBN / 2;
  Storage& s;
  const Schedule<Cfg>& schedule;
  int consumer, row_base;  // row_base: the row of the tile this warpgroup's half 0 starts at
  uint32_t t;

  // Piece w of a cut tile: publish this piece's partial (thread-major, so each
  // register's 128 values are one coalesced line), then count in. The last of the
  // pieces to arrive sums all of them, in k order, into acc: true then, and the
  // warpgroup stores the tile; false for the others.
  // Each CTA's slice of a slot holds its 64-row halves in tile order: the cooperative
  // warpgroup c's, or the ping-pong warpgroup's halves 0 and 1.
  __device__ __forceinline__ bool sum_if_last(float (&acc)[kHalves][kRegs], const Unit& w) {
    const Problem& prob = schedule.prob;
    const uint32_t rank = schedule.rank;
    const int64_t per_part = int64_t{Cfg::kClusterSize} * (Cfg::kBM / 64) * kRegs * 128;
    const int64_t lane = (int64_t{rank} * (Cfg::kBM / 64) + row_base / 64) * kRegs * 128 + t;
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
        prob.arrivals + (static_cast<int64_t>(w.fix) * Cfg::kClusterSize + rank) * Cfg::kConsumers +
        (Cfg::kPingPong ? 0 : consumer);
    if (t == 0) {
      cuda::atomic_ref<uint32_t, cuda::thread_scope_device> count(*arrivals);
      const bool last = count.fetch_add(1u, cuda::memory_order_acq_rel) == w.parts - 1;
      if (last) count.store(0u, cuda::memory_order_relaxed);  // every piece is in: zero for the next launch
      s.last_split[consumer] = last;
    }
    named_barrier_sync(1 + consumer, 128);
    if (!s.last_split[consumer]) return false;
    // The partials are read through L2 (__ldcg), where the other pieces wrote them.
#pragma unroll
    for (int h = 0; h < kHalves; ++h)
#pragma unroll
      for (int i = 0; i < kRegs; ++i) acc[h][i] = 0.f;
    for (uint32_t j = 0; j < w.parts; ++j) {
      const float* part = prob.workspace + static_cast<int64_t>(schedule.part_slot(w, j)) * per_part + lane;
#pragma unroll
      for (int h = 0; h < kHalves; ++h)
#pragma unroll
        for (int i = 0; i < kRegs; ++i) acc[h][i] += __ldcg(part + (h * kRegs + i) * 128);
    }
    return true;
  }
};

}  // namespace gemmscope::sm90::k10
