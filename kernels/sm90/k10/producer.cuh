#pragma once
// k10's producer: one elected thread of the producer warpgroup fills the ring, a unit
// at a time in the schedule's order, each k-block into the next stage once every
// consumer that read its last fill (here and in the peers it multicasts to) has
// released it. Each CTA loads its slice of the A and B boxes of a k-block and
// multicasts it to the CTAs of the cluster that share the operand
// (common/sm90_cluster.hpp); the full barrier counts the bytes of all slices.
#include <cuda.h>

#include <cstdint>

#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/sm90_pipeline.hpp"
#include "common/sm90_scheduler.hpp"
#include "gemmscope/traces/timeline.cuh"
#include "sm90/k10/schedule.cuh"
#include "sm90/k10_config.hpp"

namespace gemmscope::sm90::k10 {

namespace tl = gemmscope::traces::timeline_record;

template <class Cfg, class Storage>
struct Producer {
  using Pipe = PipelineState<Cfg::kStages>;
  Storage& s;
  const CUtensorMap& map_a;
  const CUtensorMap& map_a_tail;
  const CUtensorMap& map_b;
  const Schedule<Cfg>& schedule;
  uint32_t rank, worker;
  TileSlice sa, sb;
  uint16_t mask_a, mask_b;
  DynamicSchedule dyn;

  __device__ __forceinline__ Producer(Storage& s, const CUtensorMap& map_a, const CUtensorMap& map_a_tail,
                                      const CUtensorMap& map_b, const Schedule<Cfg>& schedule, uint32_t worker,
                                      uint32_t workers)
      : s(s),
        map_a(map_a),
        map_a_tail(map_a_tail),
        map_b(map_b),
        schedule(schedule),
        rank(schedule.rank),
        worker(worker),
        sa(slice_a(Cfg::kCluster, schedule.rank, Cfg::kBM)),
        sb(slice_b(Cfg::kCluster, schedule.rank, Cfg::kBN)),
        mask_a(multicast_mask_a(Cfg::kCluster, schedule.rank)),
        mask_b(multicast_mask_b(Cfg::kCluster, schedule.rank)),
        dyn{workers} {}

  // Every unit's k-blocks, then (static schedule) the tail. The static walk goes on
  // from `ahead`, the unit walked before the cluster barrier, one unit ahead of the
  // loads. EvictFirstB: B's loads carry an L2 evict_first policy (Problem::b_evict_first).
  template <bool EvictFirstB>
  __device__ __forceinline__ void run(Walk& walk, Unit& ahead, bool& have_ahead) {
    uint64_t policy_b = 0;
    if constexpr (EvictFirstB) policy_b = ptx::createpolicy_evict_first();
    Pipe p;
    [[maybe_unused]] SchedulePipe slots;  // the dynamic schedule only
    uint32_t u = dyn.first(worker);
    for (;;) {
      Unit w;
      if constexpr (Cfg::kDynamic) {
        if (rank == 0) {
          // Publish this work index (or the end) to every CTA of the cluster, once
          // every reader has freed the slot.
          const uint32_t slot = slots.stage();
          mbarrier_wait(&s.schedule_empty[slot], slots.empty_parity());
          for (uint32_t r = 0; r < Cfg::kCluster.size(); ++r) {
            st_shared_cluster_u32(&s.schedule_tile[slot], r, u);
            mbarrier_arrive_cluster(&s.schedule_full[slot], r);
          }
          slots = slots.advance();
        } else {
          u = receive_unit(s, slots);
        }
        if (u >= schedule.total) break;
        w = schedule.unit(u);
        if (rank == 0) u = dyn.after_claim(atomicAdd(schedule.prob.counter, 1u));
      } else {
        if (!have_ahead) break;
        w = ahead;
      }
      // A's box for this CTA's rows: all BM, the tail box where they run past M, or
      // none past it (Problem::a_rows).
      // B's box: BN rows, or b_rows (swapped operands, Problem::b_rows).
      const CUtensorMap* a_map = &map_a;
      uint32_t bytes_b = Cfg::kStageBytesB;
      if constexpr (Cfg::kSwapAB)
        if (schedule.prob.b_rows > 0) bytes_b = schedule.prob.b_rows * Cfg::kBK * 2;
      uint32_t stage_bytes = Cfg::kStageBytesA + bytes_b;
      if constexpr (Cfg::kCluster.n == 1) {
        const int rows_left = schedule.prob.a_rows - w.m0;
        if (schedule.prob.a_rows > 0 && rows_left < Cfg::kBM) {
          a_map = rows_left > 0 ? &map_a_tail : nullptr;
          stage_bytes = bytes_b + (rows_left > 0 ? schedule.prob.a_tail_rows * Cfg::kBK * 2 : 0);
        }
      }
      // Each k-block into the next stage: wait until it is free, expect its bytes, load
      // this CTA's slices of its boxes.
      GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTileBegin, tl::kRoleProducer, 0, 0, tl::kBarrierNone, w.m0, w.n0);
      for (int kb = w.kb_begin; kb < w.kb_end; ++kb, p = p.advance()) {
        const uint32_t st = p.stage();
        GEMMSCOPE_TIMELINE_WAIT_BEGIN(waited, true, &s.empty[st], p.empty_parity(), tl::kRoleProducer, 0, st, tl::kBarrierEmpty, w.m0, w.n0);
        mbarrier_wait(&s.empty[st], p.empty_parity());
        GEMMSCOPE_TIMELINE_WAIT_END(waited, tl::kRoleProducer, 0, st, tl::kBarrierEmpty, w.m0, w.n0);
        mbarrier_expect_bytes(&s.full[st], stage_bytes);
#pragma unroll
        for (int j = 0; j < Cfg::kLoadBoxes; ++j) {
          // Box j: K elements [kb * BK + j * 64, + 64), at stage_k_offset(rows, j * 64).
          const int k0 = kb * Cfg::kBK + j * kBoxK;
          auto* const a = s.a[st] + stage_k_offset(Cfg::kBM, j * kBoxK) / 2;
          auto* const b = s.b[st] + stage_k_offset(Cfg::kBN, j * kBoxK) / 2;
          if constexpr (Cfg::kCluster.n == 1) {
            if (a_map) tma_load_2d(a, a_map, k0, w.m0, &s.full[st]);
          } else
            tma_load_2d_multicast(a + sa.row0 * kBoxK, &map_a, k0, w.m0 + static_cast<int>(sa.row0), &s.full[st],
                                  mask_a);
          if constexpr (Cfg::kCluster.m == 1) {
            // B shared with no other CTA of the cluster: a plain load, not a multicast
            // to this CTA alone. The 1x1 and 1x2 instances gained 0-5% at most shapes
            // and up to 19% on the H200 (CHANGELOG.md, version 7). Why is not known. It
            // is not L2's request coalescer: that merges only reads from SMs of one GPC,
            // consecutive clusters sit on different GPCs, and it merged hardly more of
            // B's reads.
            if constexpr (EvictFirstB)
              ptx::tma_load_2d_hint(ptx::smem_u32(b), &map_b, k0, w.n0, ptx::smem_u32(&s.full[st]), policy_b);
            else
              tma_load_2d(b, &map_b, k0, w.n0, &s.full[st]);
          } else {
            auto* const b_slice = b + sb.row0 * kBoxK;
            const int b_row = w.n0 + static_cast<int>(sb.row0);
            if constexpr (EvictFirstB)
              ptx::tma_load_2d_multicast_hint(ptx::smem_u32(b_slice), &map_b, k0, b_row, ptx::smem_u32(&s.full[st]),
                                              mask_b, policy_b);
            else
              tma_load_2d_multicast(b_slice, &map_b, k0, b_row, &s.full[st], mask_b);
          }
        }
        GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTmaIssue, tl::kRoleProducer, 0, st, tl::kBarrierNone, w.m0, w.n0);
      }
      GEMMSCOPE_TIMELINE_EVENT(true, tl::kKindTileEnd, tl::kRoleProducer, 0, 0, tl::kBarrierNone, w.m0, w.n0);
      if constexpr (!Cfg::kDynamic) have_ahead = schedule.walk_next(walk, ahead);
    }
    // Static schedule: the CTA may leave once the last fill of every ring slot has
    // been released by every consumer that read it, here and in the peers (CUTLASS's
    // load_tail). Those releases are the last remote operations on this CTA's
    // shared memory; the multicasts it receives are waited for by its own consumers.
    // A slot never filled passes at once (its first empty parity).
    if constexpr (!Cfg::kDynamic)
      for (int i = 0; i < Cfg::kStages; ++i, p = p.advance()) mbarrier_wait(&s.empty[p.stage()], p.empty_parity());
  }
};

}  // namespace gemmscope::sm90::k10
