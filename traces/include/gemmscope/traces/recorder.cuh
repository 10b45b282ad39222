#pragma once
// Recording the shared-memory addresses a kernel's warps use, for the trace format
// (docs/traces.md, "Recording on the GPU"). Any .cu file may include it. Off unless
// the translation unit defines GEMMSCOPE_TRACE_RECORD to 1 before including this
// header: then GEMMSCOPE_TRACE_SMEM expands to ((void)0) and its arguments are never
// evaluated, so a normal build of a kernel is unchanged (same SASS).
//
// GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store): every lane
// of the warp that executes the instruction calls it with the address it gives the
// instruction; one record (device_record.hpp's layout) per call per warp. `stage` is a
// code of device_record.hpp (kStageLoad, kStageStmatrix, ...: traces::Stage names
// them); region_base the shared address the kernel's offsets count from (the trace's
// smem_base). The warp's leader claims a slot with one atomicAdd, so a warp's records
// sit in the buffer in the order it issued them.
//
// Host side, in the same translation unit as the recording kernel (the buffer's
// device symbol is private to it):
//   gemmscope::trace_record::Recording rec(capacity_records);  // allocates, points the kernel at it
//   my_kernel<<<...>>>(...);
//   gemmscope::traces::device_record::RecordedBuffer raw = rec.finish(stream);
//   gemmscope::traces::write_device_trace("my.trace.jsonl", raw, "my_kernel");  // device_decode.hpp
#include "gemmscope/traces/device_record.hpp"

#if defined(GEMMSCOPE_TRACE_RECORD) && GEMMSCOPE_TRACE_RECORD

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gemmscope::trace_record {

namespace layout = gemmscope::traces::device_record;

struct DeviceTraceBuffer {
  uint32_t* counter = nullptr;   // records claimed (may pass capacity: the host refuses the trace then)
  uint32_t* records = nullptr;   // capacity * kWordsPerRecord words
  uint32_t capacity = 0;         // records
};

namespace {

// Set by Recording with cudaMemcpyToSymbol; one per translation unit.
__device__ DeviceTraceBuffer g_trace_buffer;

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

inline void check_recording(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("trace recording: ") + what + ": " + cudaGetErrorString(err));
}

// The host side: a device buffer of `capacity_records` records, zeroed, that this
// translation unit's kernels record into from construction until finish() or
// destruction. Throws std::runtime_error naming the step on a CUDA error.
class Recording {
 public:
  explicit Recording(uint32_t capacity_records) : capacity_(capacity_records) {
    if (capacity_records == 0) throw std::invalid_argument("trace recording: capacity = 0 records; give at least 1");
    const size_t words = size_t{capacity_} * layout::kWordsPerRecord;
    check_recording(cudaMalloc(&counter_, sizeof(uint32_t)), "allocate the counter");
    check_recording(cudaMalloc(&records_, words * sizeof(uint32_t)), "allocate the records");
    check_recording(cudaMemset(counter_, 0, sizeof(uint32_t)), "zero the counter");
    check_recording(cudaMemset(records_, 0, words * sizeof(uint32_t)), "zero the records");
    const DeviceTraceBuffer buffer{counter_, records_, capacity_};
    check_recording(cudaMemcpyToSymbol(g_trace_buffer, &buffer, sizeof buffer), "install the buffer");
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  ~Recording() {
    const DeviceTraceBuffer off{};
    cudaMemcpyToSymbol(g_trace_buffer, &off, sizeof off);
    cudaFree(counter_);
    cudaFree(records_);
  }
  // Waits for `stream`, copies the records back and stops recording.
  traces::device_record::RecordedBuffer finish(cudaStream_t stream = nullptr) {
    check_recording(cudaStreamSynchronize(stream), "the recorded run");
    traces::device_record::RecordedBuffer out;
    uint32_t written = 0;
    check_recording(cudaMemcpy(&written, counter_, sizeof written, cudaMemcpyDeviceToHost), "copy the counter");
    out.records_written = written;
    out.words.resize(size_t{capacity_} * layout::kWordsPerRecord);
    check_recording(cudaMemcpy(out.words.data(), records_, out.words.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                    "copy the records");
    const DeviceTraceBuffer off{};
    check_recording(cudaMemcpyToSymbol(g_trace_buffer, &off, sizeof off), "detach the buffer");
    return out;
  }

 private:
  uint32_t capacity_ = 0;
  uint32_t* counter_ = nullptr;
  uint32_t* records_ = nullptr;
};

}  // namespace
}  // namespace gemmscope::trace_record

#define GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store) \
  ::gemmscope::trace_record::record((stage), (region_base), (address), (width_bytes), (is_store))

#else

#define GEMMSCOPE_TRACE_SMEM(stage, region_base, address, width_bytes, is_store) ((void)0)

#endif
