#pragma once
// k10's schedule walk: which unit of work (an output tile and its k-block range; for
// a tile cut into pieces, the piece) a worker cluster takes next. Every role walks
// the same sequence, so the producer fills the ring in the order the consumers read it.
//   static:  the worker's units of [0, total) (sm90::StaticSchedule: whole tiles,
//            then split-K pieces), then its stream-K segments (sm90::StreamK);
//   dynamic: rank 0's producer claims indices from a global counter and broadcasts
//            each one to every role of the cluster (Producer::run, receive_unit).
// A unit's index and tile order (along M or grouped zig-zag) come from Problem.
#include <cstdint>

#include "common/sm90_cluster.cuh"
#include "common/sm90_pipeline.hpp"
#include "common/sm90_scheduler.hpp"
#include "sm90/k10_config.hpp"
#include "sm90/k10_tunable.hpp"

namespace gemmscope::sm90::k10 {

// A piece of work: output tile origin, k-block range, and for a tile cut into
// pieces (fix >= 0: its split-K or stream-K tile index) this piece's partial
// slot, the number of pieces and (stream-K) the worker of piece 0.
struct Unit {
  int m0 = 0, n0 = 0, kb_begin = 0, kb_end = 0, fix = -1;
  uint32_t part = 0, parts = 1, first = 0;
};

// Where a worker stands in the static schedule: its next unit of [0, total), then
// its next stream-K segment.
struct Walk {
  StaticSchedule statik;
  StreamK::Cursor cursor;
};

using SchedulePipe = PipelineState<kScheduleSlots>;

template <class Cfg>
struct Schedule {
  const Problem& prob;
  uint32_t rank;   // this CTA in its cluster
  uint32_t total;  // units of [0, total): whole tiles, then split-K pieces

  // The CTA tile of cluster work tile `linear` this CTA computes.
  __device__ __forceinline__ void at_tile(Unit& w, uint32_t linear) const {
    const WorkCoord c = prob.group ? order_grouped_zigzag(prob.grid, linear, prob.group) : order_along_m(prob.grid, linear);
    const ClusterPosition at = cluster_position(Cfg::kCluster, rank);
    w.m0 = static_cast<int>((c.m * Cfg::kCluster.m + at.along_m) * Cfg::kBM);
    w.n0 = static_cast<int>((c.n * Cfg::kCluster.n + at.along_n) * Cfg::kBN);
  }
  // Unit u of [0, total): whole tiles, then split-K units.
  __device__ __forceinline__ Unit unit(uint32_t u) const {
    Unit w{};
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
  }
  // Slot of piece j of a cut tile.
  __device__ __forceinline__ uint32_t part_slot(const Unit& w, uint32_t j) const {
    return prob.sk.tiles ? prob.sk.slot(w.first + j, static_cast<uint32_t>(w.fix))
                         : static_cast<uint32_t>(w.fix) * prob.splits + j;
  }
  // The static schedule's next unit into w; false when the walk is done.
  __device__ __forceinline__ bool walk_next(Walk& walk, Unit& w) const {
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
  }
};

// Dynamic schedule, every other role: the next broadcast work index; the slot is
// freed in rank 0 (one arrival per reading thread).
template <class Storage>
__device__ __forceinline__ uint32_t receive_unit(Storage& s, SchedulePipe& slots) {
  const uint32_t slot = slots.stage();
  mbarrier_wait_cluster(&s.schedule_full[slot], slots.phase());
  const uint32_t tile = *reinterpret_cast<volatile uint32_t*>(&s.schedule_tile[slot]);
  mbarrier_arrive_cluster(&s.schedule_empty[slot], 0);
  slots = slots.advance();
  return tile;
}

}  // namespace gemmscope::sm90::k10
