#pragma once
// k10's consumer main loop: for each k-block of a unit, wait for its stage, issue
// its wgmmas (BK / 16 K steps, one m64nBNk16 per 64-row half the warpgroup holds),
// keep that k-block's wgmmas in flight and hand the stage before it back to every
// CTA that multicast into it.
//   cooperative (PingPong = false): each consumer warpgroup computes its 64 rows of
//     every tile (128 rows, two m64 wgmmas per K step, at BM = 256), and every one of
//     them releases each stage;
//   ping-pong (BM = 128, two warpgroups): the warpgroups take the CTA's units in turn
//     (sm90::pingpong_turn), each computing all 128 rows of its tile (two m64 wgmmas
//     per K step). Both read the one ring in the order the producer fills it, so one
//     warpgroup's epilogue runs while the other's wgmmas keep the tensor cores busy.
//     A warpgroup starts a unit only once the other has passed the full barriers of
//     the unit before (named barrier hand-off): a full barrier's parity wait is exact
//     only for the phase right after the last completed one, and the other's unit
//     may span many laps of the ring (verify/cpu/sim_sm90_test.cpp, SimSm90PingPong).
#include <cstdint>

#include "common/ptx_sm90.cuh"
#include "common/sm90_address.hpp"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "common/sm90_pipeline.hpp"
#include "gemmscope/traces/timeline.cuh"
#include "sm90/k10/schedule.cuh"
#include "sm90/k10_config.hpp"

namespace gemmscope::sm90::k10 {

namespace tl = gemmscope::traces::timeline_record;

template <class Cfg, class Storage>
struct Mainloop {
  using Pipe = PipelineState<Cfg::kStages>;
  static constexpr int kHalves = Cfg::kHalves, kAccumulators = Cfg::kBN / 2;
  Storage& s;
  int consumer;
  uint32_t t;  // thread in the warpgroup
  uint16_t peers;  // the cluster CTAs that multicast into this one
  // Operand descriptors of stage 0, K offset 0, formed once: stage st, K offset kk
  // (elements) is desc_advance(d, st * stage bytes + stage_k_offset(rows, kk)); a
  // ping-pong warpgroup's second 64-row half of A is 64 rows of 128 bytes further
  // (verify/cpu/sm90_kernels_vs_model_test.cpp).
  uint64_t desc_a, desc_b;
  Pipe p;
  uint32_t turn = 0;  // ping-pong: this CTA's units seen so far

  __device__ __forceinline__ Mainloop(Storage& s, uint32_t rank, int consumer, uint32_t t)
      : s(s),
        consumer(consumer),
        t(t),
        peers(multicast_peers(Cfg::kCluster, rank)),
        // A from the row this warpgroup's half 0 starts at.
        desc_a(desc_kmajor_sw128(ptx::smem_u32(s.a[0]), Cfg::kPingPong ? 0 : consumer * 64 * kHalves, 0)),
        desc_b(desc_kmajor_sw128(ptx::smem_u32(s.b[0]), 0, 0)) {}

  // Stage st read: one arrival on its empty barrier in every CTA that multicast into it.
  // Named barriers are .aligned: every thread of a warp must reach the bar.sync
  // together. So no lane-0-only branch runs right before one where a warp-uniform
  // condition does the same: ptxas merged two adjacent `t == 0` blocks (the cut
  // tile's counter reset and the epilogue's bulk-store wait) into one region with
  // no reconvergence point, dropped a __syncwarp() placed before the bar.sync as
  // redundant, and lane 0 reached the barrier alone: the ping-pong cut tiles hung
  // (seen in the SASS and by compute-sanitizer's synccheck).
  // Up to two peers (clusters of 2), thread 0 arrives at each in turn; more, thread r
  // arrives at peer r, all at once: from one thread in turn, 4x2 clusters (five peers)
  // ran 11-18% slower (H100, 2026-12-06; CHANGELOG.md, version 7).
  __device__ __forceinline__ void release(uint32_t st) {
    if constexpr (multicast_peer_count(Cfg::kCluster) <= 2) {
      if (t == 0)
        for (uint32_t r = 0; r < Cfg::kCluster.size(); ++r)
          if (peers >> r & 1u) mbarrier_arrive_remote(&s.empty[st], r);
    } else if (t < Cfg::kCluster.size() && (peers >> t & 1u)) {
      mbarrier_arrive_remote(&s.empty[st], t);
    }
  }

  // Ping-pong: whether the CTA's next unit is this warpgroup's.
  __device__ __forceinline__ bool my_turn() const { return pingpong_turn(turn, static_cast<uint32_t>(consumer)); }
  // Ping-pong, the other warpgroup's unit w: its k-blocks pass through the ring
  // untouched by this one.
  __device__ __forceinline__ void pass(const Unit& w) {
    ++turn;
    p = p.advance(static_cast<uint32_t>(w.kb_end - w.kb_begin));
  }
  // Ping-pong, this warpgroup's unit: wait until the other has passed the barriers of
  // the unit before.
  __device__ __forceinline__ void take_turn() {
    if (turn > 0) named_barrier_sync(kTurnBarrier + consumer, 256);
    ++turn;
  }
  // Ping-pong, after the last unit: it handed the turn to the warpgroup that would
  // have run the next one; that warpgroup takes the hand-off, so no arrival is left over.
  __device__ __forceinline__ void take_last_turn() {
    if (turn > 0 && pingpong_turn(turn, static_cast<uint32_t>(consumer)))
      named_barrier_sync(kTurnBarrier + consumer, 256);
  }

  // Unit w's k-blocks into acc (from zero); every stage read is released when this
  // returns. after_issue() runs once per k-block, behind its wgmmas (the deferred
  // epilogue's held box).
  template <class AfterIssue>
  __device__ __forceinline__ void run(float (&acc)[kHalves][kAccumulators], const Unit& w, AfterIssue&& after_issue) {
#pragma unroll
    for (int h = 0; h < kHalves; ++h)
#pragma unroll
      for (int i = 0; i < kAccumulators; ++i) acc[h][i] = 0.f;
    bool ready = false;  // the previous step's early test found this stage filled
    uint32_t previous = 0;
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileBegin, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, w.m0, w.n0);
    for (int kb = w.kb_begin; kb < w.kb_end; ++kb) {
      const uint32_t st = p.stage();
      if (!ready) {
        GEMMSCOPE_TIMELINE_WAIT_BEGIN(waited, t == 0, &s.full[st], p.phase(), tl::kRoleMainloop, consumer, st, tl::kBarrierFull, w.m0, w.n0);
        mbarrier_wait(&s.full[st], p.phase());
        GEMMSCOPE_TIMELINE_WAIT_END(waited, tl::kRoleMainloop, consumer, st, tl::kBarrierFull, w.m0, w.n0);
      }
      const uint64_t a = desc_advance(desc_a, st * Cfg::kStageBytesA), b = desc_advance(desc_b, st * Cfg::kStageBytesB);
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWgmmaIssue, tl::kRoleMainloop, consumer, st, tl::kBarrierNone, w.m0, w.n0);
      ptx::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < Cfg::kBK; kk += kWgmmaK)
#pragma unroll
        for (int h = 0; h < kHalves; ++h)
          ptx::WgmmaBf16F32<Cfg::kBN>::mma(acc[h], desc_advance(a, stage_k_offset(Cfg::kBM, kk) + h * Cfg::kHalfBytesA),
                                           desc_advance(b, stage_k_offset(Cfg::kBN, kk)), 1);
      ptx::wgmma_commit_group();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWgmmaCommit, tl::kRoleMainloop, consumer, st, tl::kBarrierNone, w.m0, w.n0);
      after_issue();
      // Test the next stage's barrier while this step's wgmmas run, so the next step
      // starts without a wait when its data is already there (CUTLASS's
      // consumer_try_wait token). Ping-pong tests before waiting for the previous
      // step's wgmmas, so the test's latency hides behind that wait; cooperative
      // after it.
      if constexpr (Cfg::kPingPong) {
        p = p.advance();
        ready = kb + 1 < w.kb_end && mbarrier_test(&s.full[p.stage()], p.phase());
      }
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, w.m0, w.n0);
      ptx::wgmma_wait_group<1>();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, st, tl::kBarrierWgmma, w.m0, w.n0);
      if (kb > w.kb_begin) release(previous);
      previous = st;
      if constexpr (!Cfg::kPingPong) {
        p = p.advance();
        ready = kb + 1 < w.kb_end && mbarrier_test(&s.full[p.stage()], p.phase());
      }
    }
    // Every full barrier of this unit has been passed: the other warpgroup's turn.
    if constexpr (Cfg::kPingPong) {
      __syncwarp();
      named_barrier_arrive(kTurnBarrier + (1 - consumer), 256);
    }
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, w.m0, w.n0);
    ptx::wgmma_wait_group<0>();
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleMainloop, consumer, previous, tl::kBarrierWgmma, w.m0, w.n0);
    release(previous);
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindTileEnd, tl::kRoleMainloop, consumer, 0, tl::kBarrierNone, w.m0, w.n0);
  }
};

}  // namespace gemmscope::sm90::k10
