#pragma once
// Configuration of the Blackwell (sm_100a) GEMM: tile shapes, cluster shape, warp
// roles, shared-memory layout and barrier counts. One instantiation, so these are
// plain constants; kernels/sm100/gemm_sm100.cu static_asserts every constraint,
// and verify/cpu/sm100_*_test.cpp checks them against the model's rules.
//
// Work decomposition (Modular, "Matrix Multiplication on NVIDIA's Blackwell",
// kernels 5-9; PTX ISA "tcgen05.mma" cta_group::2):
//   cluster = 2 x 2 CTAs, rank = x + 2 y (x fastest, PTX %cluster_ctarank).
//   x (bit 0 of the rank) picks the CTA inside a pair: the pair shares one 2-SM MMA
//   of 256 x 256 x 16; the even CTA (the leader) issues it.
//   y picks the pair; the two pairs cover neighbouring 256-column halves of a
//   256 x 512 cluster tile, so they need the same 256 rows of A: each CTA loads half
//   of its 128 A rows and multicasts them to its counterpart in the other pair.
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm100 {

// ---- Cluster and tile shape ---------------------------------------------------
inline constexpr uint32_t kClusterM = 2;  // the CTA pair of the 2-SM MMA
inline constexpr uint32_t kClusterN = 2;  // pairs that share A through multicast
inline constexpr uint32_t kClusterSize = kClusterM * kClusterN;

inline constexpr uint32_t kMmaM = 256;  // cta_group::2: M in {128, 256}
inline constexpr uint32_t kMmaN = 256;  // cta_group::2: N in 16..256 step 16
inline constexpr uint32_t kMmaK = 16;   // kind::f16: K = 16 (32 bytes of bf16)

inline constexpr uint32_t kElemBytes = 2;                   // bf16
inline constexpr uint32_t kBlockK = 64;                     // one 128-byte swizzle row of bf16
inline constexpr uint32_t kCtaRowsA = kMmaM / kClusterM;    // 128 rows of A (and of C) per CTA
inline constexpr uint32_t kCtaRowsB = kMmaN / kClusterM;    // 128 rows of B (columns of C) per CTA
inline constexpr uint32_t kRowsAPerLoad = kCtaRowsA / kClusterN;  // 64: the half each CTA multicasts
inline constexpr uint32_t kClusterTileM = kMmaM;                  // 256
inline constexpr uint32_t kClusterTileN = kMmaN * kClusterN;      // 512
inline constexpr uint32_t kMmasPerBlockK = kBlockK / kMmaK;       // 4

// ---- Pipelines ----------------------------------------------------------------
inline constexpr uint32_t kTmemLanes = 128;
inline constexpr uint32_t kAccumColumns = kMmaN;  // fp32, one per 32-bit cell

// The schedule's depths as one type: the kernel is built with KernelSchedule; the
// schedule code (sm100_schedule.hpp) takes it as a template argument, so the host
// simulator (verify/lib/.../sm100_binding.hpp) runs the same code with the kernel's
// values, or with a copy that changes one (KernelSchedule::with_stages<4>) to see the
// simulation follow.
template <uint32_t Stages, uint32_t AccumSlots, uint32_t ClcStages, uint32_t GroupRowsM>
struct Schedule {
  static constexpr uint32_t kStages = Stages;          // shared-memory ring of A/B k-blocks
  static constexpr uint32_t kAccumSlots = AccumSlots;  // TMEM accumulator ring: MMA one, epilogue the other
  static constexpr uint32_t kClcStages = ClcStages;    // cluster-launch-control responses in flight
  static constexpr uint32_t kGroupRowsM = GroupRowsM;  // block swizzle: cluster-tile rows per group
  static constexpr uint32_t kTmemColumns = AccumSlots * kAccumColumns;  // the accumulator ring's columns
  static_assert(Stages >= 1 && AccumSlots >= 1 && ClcStages >= 1 && GroupRowsM >= 1, "every ring needs a buffer");

  template <uint32_t S> using with_stages = Schedule<S, AccumSlots, ClcStages, GroupRowsM>;
  template <uint32_t A> using with_accum_slots = Schedule<Stages, A, ClcStages, GroupRowsM>;
  template <uint32_t C> using with_clc_stages = Schedule<Stages, AccumSlots, C, GroupRowsM>;
  template <uint32_t G> using with_group_rows_m = Schedule<Stages, AccumSlots, ClcStages, G>;
};
using KernelSchedule = Schedule</*stages*/ 6, /*accum slots*/ 2, /*CLC stages*/ 2, /*group rows*/ 4>;

inline constexpr uint32_t kStages = KernelSchedule::kStages;
inline constexpr uint32_t kAccumSlots = KernelSchedule::kAccumSlots;
inline constexpr uint32_t kClcStages = KernelSchedule::kClcStages;
inline constexpr uint32_t kGroupRowsM = KernelSchedule::kGroupRowsM;

// ---- Tensor memory --------------------------------------------------------------
inline constexpr uint32_t kTmemColumns = KernelSchedule::kTmemColumns;  // 512: all of it

// ---- Warp roles ---------------------------------------------------------------
inline constexpr uint32_t kProducerWarp = 0;   // TMA loads
inline constexpr uint32_t kMmaWarp = 1;        // TMEM alloc/dealloc; tcgen05.mma in the leader
inline constexpr uint32_t kSchedulerWarp = 2;  // clusterlaunchcontrol.try_cancel
inline constexpr uint32_t kFirstEpilogueWarp = 3;
inline constexpr uint32_t kEpilogueWarps = 4;  // one warpgroup: warp w % 4 owns TMEM lanes 32(w%4)..+31
inline constexpr uint32_t kWarps = kFirstEpilogueWarp + kEpilogueWarps;
inline constexpr uint32_t kThreads = 32 * kWarps;
inline constexpr uint32_t kEpilogueColumnsPerLoad = 32;  // tcgen05.ld.32x32b.x32
inline constexpr uint32_t kEpilogueLoadsPerSlot = kAccumColumns / kEpilogueColumnsPerLoad;

// ---- Shared-memory layout (byte offsets from a 1024-byte aligned base) ----------
inline constexpr uint32_t kSwizzleAlignBytes = 1024;  // 128B swizzle: the XOR pattern repeats every 1024 B
inline constexpr uint32_t kATileBytes = kCtaRowsA * kBlockK * kElemBytes;  // 16 KiB
inline constexpr uint32_t kBTileBytes = kCtaRowsB * kBlockK * kElemBytes;  // 16 KiB
inline constexpr uint32_t kALoadBytes = kRowsAPerLoad * kBlockK * kElemBytes;  // 8 KiB per multicast box
inline constexpr uint32_t kSmemAOffset = 0;
inline constexpr uint32_t kSmemBOffset = kSmemAOffset + kStages * kATileBytes;
inline constexpr uint32_t kSmemBarrierOffset = kSmemBOffset + kStages * kBTileBytes;
// Barriers, 8 bytes each, in this order.
inline constexpr uint32_t kBarrierCount = 2 * kStages + 2 * kAccumSlots + 2 * kClcStages;
inline constexpr uint32_t kSmemClcResponseOffset = kSmemBarrierOffset + 8 * kBarrierCount;  // 16 B each
inline constexpr uint32_t kSmemTmemBaseOffset = kSmemClcResponseOffset + 16 * kClcStages;
inline constexpr uint32_t kSmemUsedBytes = kSmemTmemBaseOffset + 16;
// Dynamic shared memory is only 16-byte aligned: ask for room to round up.
inline constexpr uint32_t kSmemBytes = kSmemUsedBytes + kSwizzleAlignBytes;

GEMMSCOPE_HD constexpr uint32_t smem_a_stage(uint32_t stage) { return kSmemAOffset + stage * kATileBytes; }
GEMMSCOPE_HD constexpr uint32_t smem_b_stage(uint32_t stage) { return kSmemBOffset + stage * kBTileBytes; }
// Where the A box loaded by the CTA of pair `pair` lands inside an A stage tile
// (rows pair*64 .. pair*64+63 of the CTA's 128 rows).
GEMMSCOPE_HD constexpr uint32_t smem_a_load_offset(uint32_t pair) { return pair * kALoadBytes; }

// ---- Barrier counts and transaction bytes ---------------------------------------
// full[s] lives in the leader; both CTAs' loads complete_tx on it; only the leader
// arrives (with expect_tx of the pair's bytes).
inline constexpr uint32_t kFullArrivals = 1;
inline constexpr uint32_t kFullTxBytes = kClusterM * (kATileBytes + kBTileBytes);  // 64 KiB per pair
// empty[s] in every CTA: a commit from the leader of every pair, since each pair's
// multicast writes into the other pair's stage.
inline constexpr uint32_t kEmptyArrivals = kClusterN;
// tmem_full[slot] in both CTAs of a pair: one commit from the leader.
inline constexpr uint32_t kTmemFullArrivals = 1;
// tmem_empty[slot] in the leader: one arrive per epilogue warp of both CTAs.
inline constexpr uint32_t kTmemEmptyArrivals = kClusterM * kEpilogueWarps;
// clc_full[s] in every CTA: the local scheduler's expect_tx(16); the response's 16 bytes.
inline constexpr uint32_t kClcFullArrivals = 1;
inline constexpr uint32_t kClcResponseBytes = 16;
// clc_empty[s] in CTA rank 0 (which issues try_cancel): every reader of a response
// arrives: producer, scheduler and the epilogue warps of every CTA, and the MMA
// thread of each leader.
inline constexpr uint32_t kClcEmptyArrivals = kClusterSize * (1 + 1 + kEpilogueWarps) + kClusterN;

}  // namespace gemmscope::sm100
