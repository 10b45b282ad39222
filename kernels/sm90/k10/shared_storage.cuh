#pragma once
// k10's shared memory: the ring of stages (A and B boxes of BK / 64 k-blocks each),
// the epilogue's staging boxes per consumer warpgroup, the ring's full and empty
// barriers, the dynamic schedule's broadcast slots, and each consumer's cut-tile flag.
// Its size is k10_shared_bytes (common/sm90_address.hpp), the tuner's count.
#include <cuda_bf16.h>

#include <cstdint>

#include "common/sm90_address.hpp"
#include "sm90/k10_config.hpp"

namespace gemmscope::sm90::k10 {

template <int BM, int BN, int BK, int Stages>
struct SharedStorage {
  static constexpr int kConsumers = k10_consumers(BM);
  static constexpr int kStoreCols = store_box_cols(BN);
  static constexpr int kStagingBuffers = k10_staging_buffers(BM, BN, BK, Stages);
  alignas(1024) __nv_bfloat16 a[Stages][BM * BK];
  alignas(1024) __nv_bfloat16 b[Stages][BN * BK];
  alignas(1024) __nv_bfloat16 c[kConsumers][kStagingBuffers][64 * kStoreCols];
  uint64_t full[Stages];
  uint64_t empty[Stages];
  uint64_t schedule_full[kScheduleSlots];
  uint64_t schedule_empty[kScheduleSlots];
  uint32_t schedule_tile[kScheduleSlots];
  uint32_t last_split[kConsumers];  // split-K: this consumer's unit arrived last
};

// Bytes the launch asks for: the storage and 1 KiB of slack to align its base.
template <int BM, int BN, int BK, int Stages>
inline constexpr int kSharedBytes = static_cast<int>(sizeof(SharedStorage<BM, BN, BK, Stages>)) + 1024;

}  // namespace gemmscope::sm90::k10
