#pragma once
// The raw layout of one timeline event recorded on the GPU by an instrumented kernel
// (gemmscope/traces/timeline.cuh writes it, traces/src/timeline.cpp reads it). Plain
// C++ with no CUDA, so both sides include this one file. Described in docs/timelines.md.
#include <cstdint>
#include <vector>

namespace gemmscope::traces::timeline_record {

// Word offsets inside one event (all 32-bit words).
inline constexpr uint32_t kWordHeader = 0;   // kind | role << 8 | warpgroup << 12 | stage << 16 | barrier << 24
inline constexpr uint32_t kWordCta = 1;      // blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
inline constexpr uint32_t kWordSm = 2;       // %smid
inline constexpr uint32_t kWordM0 = 3;       // the unit's tile origin (int32), or a unit index with n0 = -1
inline constexpr uint32_t kWordN0 = 4;
inline constexpr uint32_t kWordTimeLow = 5;  // %globaltimer, ns
inline constexpr uint32_t kWordTimeHigh = 6;
inline constexpr uint32_t kWordClock = 7;    // %clock: SM cycles, low 32 bits (finer than %globaltimer)
inline constexpr uint32_t kWordsPerEvent = 8;

// Event kinds (0 is never written: an unwritten slot decodes as an error).
inline constexpr uint32_t kKindWaitBegin = 1;     // a wait on `barrier` starts
inline constexpr uint32_t kKindWaitEnd = 2;       // ... and ends
inline constexpr uint32_t kKindTmaIssue = 3;      // the loads of a stage issued
inline constexpr uint32_t kKindWgmmaIssue = 4;    // a stage's wgmmas issued
inline constexpr uint32_t kKindWgmmaCommit = 5;   // ... committed as one group
inline constexpr uint32_t kKindTileBegin = 6;     // a role starts a unit of work
inline constexpr uint32_t kKindTileEnd = 7;       // ... and is done with it
inline constexpr uint32_t kKindEpilogueBegin = 8;
inline constexpr uint32_t kKindEpilogueEnd = 9;
inline constexpr uint32_t kKindStoreIssue = 10;   // a TMA store of a staging box issued
inline constexpr uint32_t kKindStoreComplete = 11;  // the warpgroup's stores have read shared memory
inline constexpr uint32_t kKindLast = kKindStoreComplete;

// Roles (the track of an event, with the warpgroup).
inline constexpr uint32_t kRoleProducer = 0;
inline constexpr uint32_t kRoleMainloop = 1;
inline constexpr uint32_t kRoleFixup = 2;
inline constexpr uint32_t kRoleEpilogue = 3;
inline constexpr uint32_t kRoleLast = kRoleEpilogue;

// What a wait waits on (kKindWaitBegin/End).
inline constexpr uint32_t kBarrierNone = 0;
inline constexpr uint32_t kBarrierFull = 1;     // a ring stage filled (consumers)
inline constexpr uint32_t kBarrierEmpty = 2;    // a ring stage released (producer)
inline constexpr uint32_t kBarrierWgmma = 3;    // wgmma.wait_group
inline constexpr uint32_t kBarrierStaging = 4;  // a staging buffer read by its TMA store
inline constexpr uint32_t kBarrierTurn = 5;     // ping-pong hand-off
inline constexpr uint32_t kBarrierSchedule = 6; // the dynamic schedule's broadcast
inline constexpr uint32_t kBarrierFixup = 7;    // a cut tile's other pieces
inline constexpr uint32_t kBarrierLast = kBarrierFixup;

// The recorder's events call it on the device: marked for both sides, so that a
// kernel's build needs no --expt-relaxed-constexpr.
#if defined(__CUDACC__)
#define GEMMSCOPE_TIMELINE_HOST_DEVICE __host__ __device__
#else
#define GEMMSCOPE_TIMELINE_HOST_DEVICE
#endif
inline constexpr GEMMSCOPE_TIMELINE_HOST_DEVICE uint32_t header(uint32_t kind, uint32_t role, uint32_t warpgroup,
                                                                uint32_t stage, uint32_t barrier) {
  return (kind & 0xffu) | (role & 0xfu) << 8 | (warpgroup & 0xfu) << 12 | (stage & 0xffu) << 16 | (barrier & 0xffu) << 24;
}

// The buffer is split into regions, one per writer: the one thread of a warpgroup that
// records (region = CTA x warpgroups per CTA + warpgroup, CTA as in kWordCta). Each
// region holds region_capacity events, written in the writer's program order from its
// first slot on; the slots after its last event stay zero (kind 0: the buffer is zeroed
// before the run). What a recording run brings back (timeline.cuh's Recording::finish),
// for traces::decode_timeline.
struct RecordedTimeline {
  std::vector<uint32_t> words;      // regions * region_capacity * kWordsPerEvent, region after region
  uint32_t regions = 0;             // 0: no event was recorded
  uint32_t region_capacity = 0;     // events per region
  uint32_t warpgroups_per_cta = 0;  // regions per CTA
  uint64_t dropped = 0;             // events past their region's capacity, counted and not written
};
}  // namespace gemmscope::traces::timeline_record
