#pragma once
// k10_tunable's constants: the fixed ones, and those each compiled instance
// (tune/instances.hpp) derives from its template parameters, with the rules an
// instance must meet. CUDA-free: the kernel's parts read them here, and so may host
// code and tests.
#include <cstdint>

#include "common/sm90_address.hpp"
#include "common/sm90_cluster.hpp"

namespace gemmscope::sm90::k10 {

// kBoxK: K elements per TMA box, one 128-byte row of the 128B swizzle. A stage of
// BK = 128 holds two boxes per operand (stage_k_offset).
constexpr int kBoxK = 64, kWgmmaK = 16, kScheduleSlots = 2;
// Named barriers: 0 __syncthreads, 1 + c consumer c's epilogue, kTurnBarrier + c
// ping-pong consumer c's turn to start a unit.
constexpr uint32_t kTurnBarrier = 3;
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;

// Cooperative (PingPong = false): the k10_consumers(BM) warpgroups split every tile's
// rows, 64 each (BM = 64, 128) or 128 as two 64-row halves (BM = 256). Ping-pong:
// each of the two holds a whole 128-row tile.
template <int BM, bool PingPong>
struct ConsumerShape {
  static_assert(BM == 64 || BM == 128 || BM == 256, "BM: 64, 128 or 256 rows");
  static constexpr int kConsumers = k10_consumers(BM);  // consumer warpgroups
  static constexpr int kHalves = k10_halves(BM);        // 64-row wgmma halves per warpgroup
  static constexpr int kReleasers = kConsumers;  // warpgroups that read (and release) each stage
};
template <int BM>
struct ConsumerShape<BM, true> {
  static_assert(BM == 128, "ping-pong: two consumer warpgroups, each on a whole 128-row tile");
  static constexpr int kConsumers = 2, kHalves = 2, kReleasers = 1;
};

// One instance: its template parameters and what follows from them. SwapAB: the
// launcher passed B as the kernel's A and A as its B (Cᵀ = B·Aᵀ), so the epilogue
// stores each box transposed into C (tune/instances.hpp).
template <int BM, int BN, int BK, int Stages, int ClusterM, int ClusterN, bool Dynamic, bool PingPong,
          bool SwapAB = false>
struct Config {
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kStages = Stages;
  static constexpr bool kDynamic = Dynamic, kPingPong = PingPong, kSwapAB = SwapAB;
  static constexpr int kThreads = 128 * (1 + k10_consumers(BM));  // the producer warpgroup, then the consumers
  using Consumers = ConsumerShape<BM, PingPong>;
  static constexpr int kConsumers = Consumers::kConsumers, kHalves = Consumers::kHalves;
  static constexpr ClusterShape kCluster{ClusterM, ClusterN};
  static constexpr int kClusterSize = ClusterM * ClusterN;
  // Bytes of bf16 per stage: both operands, A alone, B alone, and one 64-row half of A.
  static constexpr uint32_t kStageBytes = (BM + BN) * BK * 2;
  static constexpr uint32_t kStageBytesA = BM * BK * 2, kStageBytesB = BN * BK * 2;
  static constexpr uint32_t kHalfBytesA = 64 * kBoxK * 2;
  static constexpr int kLoadBoxes = BK / kBoxK;  // TMA boxes per operand per stage
  // The epilogue: store boxes of kStoreCols columns, kBoxes per 64-row half, through
  // kStagingBuffers buffers per consumer warpgroup; batched or deferred (sm90_address.hpp).
  static constexpr int kStoreCols = store_box_cols(BN);
  static constexpr int kBoxes = BN / kStoreCols;
  static constexpr int kStagingBuffers = k10_staging_buffers(BM, BN, BK, Stages);
  static constexpr bool kBatched = k10_batched_epilogue(BM, BN, BK, Stages, PingPong);
  static constexpr bool kDeferEpilogue = k10_deferred_epilogue(BM, BN, BK, Stages, PingPong);
  // Readers of each broadcast work index (dynamic schedule): the other CTAs' producers
  // and every consumer thread of the cluster.
  static constexpr uint32_t kScheduleReaders = (kClusterSize - 1) + kClusterSize * kConsumers * 128;

  static_assert(BK == 64 || BK == 128, "BK: one or two 128-byte swizzle rows");
  static_assert((ClusterM == 1 || ClusterM == 2 || ClusterM == 4) && (ClusterN == 1 || ClusterN == 2 || ClusterN == 4) &&
                    ClusterM * ClusterN <= 8,
                "clusters of 1, 2 or 4 CTAs along M and N, at most 8 (the portable cluster size)");
  static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumer warpgroups");
  // A slice of R rows lands R x 128 bytes into the tile, a 128-byte boundary as TMA
  // asks; the 128B swizzle XORs absolute address bits (traces/hw/tma_swizzle.json,
  // swz128B_in128B_r16_off512), so a slice that starts inside an 8-row atom (BN = 168
  // in 2x1: 84 rows) lands where one box of the whole tile would have put it.
  static_assert(BN % ClusterM == 0, "B slices of whole rows");
  static_assert((BM / ClusterN) % 8 == 0, "A slices are whole 8-row swizzle atoms");
  static_assert(BN % kStoreCols == 0, "whole store boxes");
  static_assert(!SwapAB || (BN % 8 == 0 && !PingPong),
                "swapped operands: transposed boxes of whole 8-column blocks, cooperative consumers");
  static_assert(kProducerRegisters * 128 + kConsumerRegisters * 128 * kConsumers <= 65536, "register file");
};

}  // namespace gemmscope::sm90::k10
