#pragma once
// k07_epilogue_double_buffer's constants (CUDA-free: the kernel includes them, and
// the pipeline simulator's binding reads them here).
#include <cstdint>

#include "common/sm90_cluster.hpp"

namespace gemmscope::sm90::k07 {

constexpr int kBM = 128, kBN = 256, kBK = 64;
constexpr int kStages = 4;
constexpr int kConsumers = 2;                        // warpgroups, 64 rows each
constexpr int kThreads = 128 * (1 + kConsumers);     // producer warpgroup + consumers
constexpr int kConsumerRows = kBM / kConsumers;      // 64: one m64 wgmma
constexpr int kWgmmaK = 16;
constexpr int kStoreCols = 64;                       // one TMA store box is 128 bytes wide
constexpr int kStagingBuffers = 2;                   // per consumer: stmatrix into one, TMA store from the other
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
constexpr ClusterShape kCluster{2, 1};
constexpr uint32_t kSliceRowsB = kBN / kCluster.m;   // each CTA loads half of B and multicasts it
static_assert(kConsumerRows == 64, "each consumer is one m64nNk16 wgmma tall");
static_assert(kBN <= 256 && kBN % 16 == 0, "wgmma N is at most 256");
static_assert(kBK * 2 == 128 && kStoreCols * 2 == 128, "128-byte swizzle rows (bf16)");
static_assert(kSliceRowsB % 8 == 0, "B slices are whole 8-row swizzle atoms");
static_assert(kProducerRegisters * 128 + kConsumerRegisters * 128 * kConsumers <= 65536, "register file");

}  // namespace gemmscope::sm90::k07
