#pragma once
// k09_block_swizzle's constants (CUDA-free: the kernel includes them, and the
// pipeline simulator's binding reads them here).
#include <cstdint>

namespace gemmscope::sm90::k09 {

constexpr int kBM = 128, kBN = 256, kBK = 64;
constexpr int kStages = 4;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kConsumerRows = kBM / kConsumers;
constexpr int kWgmmaK = 16;
constexpr int kStoreCols = 64;
constexpr int kStagingBuffers = 2;
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
// Clusters of ClusterM x 1 (template parameter: 2 x 1 multicasts B, 1 x 1 does not).
constexpr uint32_t kDefaultGroup = 8;  // work-tile rows per band (256 rows of C each)
constexpr int kScheduleSlots = 2;  // dynamic schedule: tile indices in flight from rank 0 to the roles
static_assert(kConsumerRows == 64, "each consumer is one m64nNk16 wgmma tall");
static_assert(kBK * 2 == 128 && kStoreCols * 2 == 128, "128-byte swizzle rows (bf16)");
static_assert(kProducerRegisters * 128 + kConsumerRegisters * 128 * kConsumers <= 65536, "register file");

}  // namespace gemmscope::sm90::k09
