#pragma once
// The raw layout of one shared-memory access recorded on the GPU by an instrumented
// kernel (gemmscope/traces/recorder.cuh writes it, traces/src/device_decode.cpp
// reads it). Plain C++ with no CUDA, so both sides include this one file: the layout
// is one fact with one home. Described in docs/traces.md, "Recording on the GPU".
#include <cstdint>
#include <vector>

namespace gemmscope::traces::device_record {

// Bump kMagic's low byte when the layout changes: the decoder refuses other values.
inline constexpr uint32_t kMagic = 0x47535401u;  // "GST" + layout version 1

// Word offsets inside one record (all 32-bit words).
inline constexpr uint32_t kWordMagic = 0;
inline constexpr uint32_t kWordStage = 1;        // a stage code below
inline constexpr uint32_t kWordCta = 2;          // blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
inline constexpr uint32_t kWordWarp = 3;         // threadIdx.x / 32 (1-D blocks)
inline constexpr uint32_t kWordWidthKind = 4;    // width_bytes | (is_store << 8)
inline constexpr uint32_t kWordActiveMask = 5;   // __activemask() at the instruction
inline constexpr uint32_t kWordRegionBase = 6;   // shared address of the region the kernel addresses from
inline constexpr uint32_t kWordReserved = 7;
inline constexpr uint32_t kWordFirstAddress = 8; // lane t's shared byte address at word 8 + t
inline constexpr uint32_t kWordsPerRecord = 40;

// Stage codes (traces::Stage has the names).
inline constexpr uint32_t kStageTmaWrite = 1;
inline constexpr uint32_t kStageWgmmaOperandRead = 2;
inline constexpr uint32_t kStageLdmatrix = 3;
inline constexpr uint32_t kStageStmatrix = 4;
inline constexpr uint32_t kStageEpilogueStore = 5;
inline constexpr uint32_t kStageTmaStoreRead = 6;
inline constexpr uint32_t kStageLoad = 7;
inline constexpr uint32_t kStageStore = 8;

// What a recording run brings back to the host (recorder.cuh's Recording::finish),
// for traces::decode_device_records.
struct RecordedBuffer {
  std::vector<uint32_t> words;   // capacity_records * kWordsPerRecord
  uint64_t records_written = 0;  // the device counter (more than the capacity: too small)
};

}  // namespace gemmscope::traces::device_record
