#pragma once
// Recording the shared-memory addresses a kernel's warps use, for the trace format
// (docs/traces.md, "Recording on the GPU"). Off unless the translation unit defines
// GEMMSCOPE_TRACE_RECORD to 1 before including this header: then GEMMSCOPE_TRACE_SMEM
// expands to ((void)0) and its arguments are never evaluated, so a normal build of a
// kernel is unchanged (same SASS). kernels/sm90/k04_tma_store_traced.cu builds k04 with
// it on under another namespace.
//
// GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store): every lane
// of the warp that executes the instruction calls it with the address it gives the
// instruction; one record (device_record.hpp's layout) per call per warp. The warp's
// leader claims a slot with one atomicAdd, so a warp's records sit in the buffer in
// the order it issued them.
#if defined(GEMMSCOPE_TRACE_RECORD) && GEMMSCOPE_TRACE_RECORD

#include <cstdint>

// The raw record layout is one fact shared with the host decoder (CUDA-free header).
#include "../../traces/include/gemmscope/traces/device_record.hpp"

namespace gemmscope::trace_record {

namespace layout = gemmscope::traces::device_record;

struct DeviceTraceBuffer {
  uint32_t* counter = nullptr;   // records claimed (may pass capacity: the host refuses the trace then)
  uint32_t* records = nullptr;   // capacity * kWordsPerRecord words
  uint32_t capacity = 0;         // records
};

// Set by the recording launcher with cudaMemcpyToSymbol; one per translation unit.
static __device__ DeviceTraceBuffer g_trace_buffer;

__device__ __forceinline__ void record(uint32_t stage, uint32_t region_base, uint32_t address, uint32_t width_bytes,
                                       bool is_store) {
  const uint32_t lane = threadIdx.x % 32u;
  const uint32_t mask = __activemask();
  const uint32_t leader = static_cast<uint32_t>(__ffs(mask)) - 1u;
  const DeviceTraceBuffer buffer = g_trace_buffer;
  if (buffer.counter == nullptr) return;
  uint32_t slot = 0;
  if (lane == leader) slot = atomicAdd(buffer.counter, 1u);
  slot = __shfl_sync(mask, slot, leader);
  if (slot >= buffer.capacity) return;
  uint32_t* r = buffer.records + static_cast<size_t>(slot) * layout::kWordsPerRecord;
  if (lane == leader) {
    r[layout::kWordMagic] = layout::kMagic;
    r[layout::kWordStage] = stage;
    r[layout::kWordCta] = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    r[layout::kWordWarp] = threadIdx.x / 32u;
    r[layout::kWordWidthKind] = width_bytes | (is_store ? 1u << 8 : 0u);
    r[layout::kWordActiveMask] = mask;
    r[layout::kWordRegionBase] = region_base;
    r[layout::kWordReserved] = 0;
  }
  r[layout::kWordFirstAddress + lane] = address;
}

}  // namespace gemmscope::trace_record

#define GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store) \
  ::gemmscope::trace_record::record((stage), (region_base), (address), (width_bytes), (is_store))

#else

#define GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store) ((void)0)

#endif
