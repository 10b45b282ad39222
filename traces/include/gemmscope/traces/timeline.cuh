#pragma once
// Recording a timeline of what each warp role of a kernel did (docs/timelines.md):
// events with %globaltimer, %clock and %smid into a device buffer. Off unless the
// translation unit defines GEMMSCOPE_TIMELINE before including this header: then
// GEMMSCOPE_TIMELINE_EVENT expands to nothing and its arguments are never evaluated,
// so a normal build of a kernel is unchanged (same SASS: verify/cpu/timeline_sass_test.cmake).
//
// GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0): the
// thread for which `leader` is true writes one event (timeline_record.hpp's layout and
// codes; pass the role's one elected thread, or t == 0 of a warpgroup). Write each call
// on a line of its own: the SASS test removes the lines that name GEMMSCOPE_TIMELINE.
// GEMMSCOPE_TIMELINE_DETAIL_EVENT(...): the same, for the finer events (wgmma issue,
// commit and wait; staging waits; store issue and completion): recorded only where
// GEMMSCOPE_TIMELINE_DETAIL is defined too. They cost registers a kernel at its limit
// does not have: with them k10's 128 x 256 consumers (168 registers) spill; without, not.
// GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN / _END: an inline namespace `timeline` around the
// kernel and its host launchers when recording, so a recording instance and the plain
// one of the same template arguments are two kernels in one program.
//
// Each event claims a slot with one atomicAdd; the buffer is bounded: an event past the
// capacity is counted (the counter goes on) and not written.
//
// Host side, in the same translation unit as the recording kernel (the buffer's
// device symbol is private to it):
//   gemmscope::timeline_record::Recording rec(capacity_events);
//   my_kernel<<<...>>>(...);
//   gemmscope::traces::timeline_record::RecordedTimeline raw = rec.finish(stream);
//   gemmscope::traces::Timeline t = gemmscope::traces::decode_timeline(raw);  // timeline.hpp
#include "gemmscope/traces/timeline_record.hpp"

#if defined(GEMMSCOPE_TIMELINE)

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gemmscope::timeline_record {

namespace layout = gemmscope::traces::timeline_record;

struct DeviceTimelineBuffer {
  unsigned long long* counter = nullptr;  // events claimed (may pass capacity: those were dropped)
  uint32_t* events = nullptr;             // capacity * kWordsPerEvent words
  uint32_t capacity = 0;                  // events
};

namespace {

// Set by Recording with cudaMemcpyToSymbol; one per translation unit.
__device__ DeviceTimelineBuffer g_timeline_buffer;

// The buffer's fields are read at each event by volatile loads: plain loads of the
// __device__ variable were hoisted out of the main loop, and the five registers they
// held there made the 128 x 256 consumers spill.
__device__ __forceinline__ uint64_t load_u64(const void* at) {
  uint64_t v;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(at));
  return v;
}
__device__ __forceinline__ uint32_t load_u32(const void* at) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(at));
  return v;
}

__device__ __forceinline__ void record_event(uint32_t header, int m0, int n0) {
  auto* const counter = reinterpret_cast<unsigned long long*>(load_u64(&g_timeline_buffer.counter));
  if (counter == nullptr) return;
  uint64_t time_ns;
  uint32_t sm, clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  const unsigned long long slot = atomicAdd(counter, 1ull);
  if (slot >= load_u32(&g_timeline_buffer.capacity)) return;
  uint32_t* e = reinterpret_cast<uint32_t*>(load_u64(&g_timeline_buffer.events)) +
                static_cast<size_t>(slot) * layout::kWordsPerEvent;
  e[layout::kWordHeader] = header;
  e[layout::kWordCta] = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  e[layout::kWordSm] = sm;
  e[layout::kWordM0] = static_cast<uint32_t>(m0);
  e[layout::kWordN0] = static_cast<uint32_t>(n0);
  e[layout::kWordTimeLow] = static_cast<uint32_t>(time_ns);
  e[layout::kWordTimeHigh] = static_cast<uint32_t>(time_ns >> 32);
  e[layout::kWordClock] = clock;
}

inline void check_timeline(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("timeline recording: ") + what + ": " + cudaGetErrorString(err));
}

// The host side: a device buffer of `capacity_events` events, zeroed, that this
// translation unit's kernels record into from construction until finish() or
// destruction. Throws std::runtime_error naming the step on a CUDA error.
class Recording {
 public:
  explicit Recording(uint32_t capacity_events) : capacity_(capacity_events) {
    if (capacity_events == 0) throw std::invalid_argument("timeline recording: capacity = 0 events; give at least 1");
    const size_t words = size_t{capacity_} * layout::kWordsPerEvent;
    check_timeline(cudaMalloc(&counter_, sizeof(unsigned long long)), "allocate the counter");
    check_timeline(cudaMalloc(&events_, words * sizeof(uint32_t)), "allocate the events");
    check_timeline(cudaMemset(counter_, 0, sizeof(unsigned long long)), "zero the counter");
    check_timeline(cudaMemset(events_, 0, words * sizeof(uint32_t)), "zero the events");
    attach();
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  ~Recording() {
    detach();
    cudaFree(counter_);
    cudaFree(events_);
  }
  // Recording on (the constructor's state) or off: a detached kernel tests one pointer
  // per event and writes nothing.
  void attach() {
    const DeviceTimelineBuffer buffer{counter_, events_, capacity_};
    check_timeline(cudaMemcpyToSymbol(g_timeline_buffer, &buffer, sizeof buffer), "install the buffer");
  }
  void detach() {
    const DeviceTimelineBuffer off{};
    cudaMemcpyToSymbol(g_timeline_buffer, &off, sizeof off);
  }
  // Empties the buffer for the next recorded run.
  void reset(cudaStream_t stream = nullptr) {
    check_timeline(cudaMemsetAsync(counter_, 0, sizeof(unsigned long long), stream), "zero the counter");
  }
  // Waits for `stream`, copies the events back and stops recording.
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream = nullptr) {
    check_timeline(cudaStreamSynchronize(stream), "the recorded run");
    traces::timeline_record::RecordedTimeline out;
    unsigned long long claimed = 0;
    check_timeline(cudaMemcpy(&claimed, counter_, sizeof claimed, cudaMemcpyDeviceToHost), "copy the counter");
    out.events_claimed = claimed;
    const size_t written = claimed < capacity_ ? static_cast<size_t>(claimed) : capacity_;
    out.words.resize(written * layout::kWordsPerEvent);
    if (written > 0)
      check_timeline(cudaMemcpy(out.words.data(), events_, out.words.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                     "copy the events");
    detach();
    return out;
  }

 private:
  uint32_t capacity_ = 0;
  unsigned long long* counter_ = nullptr;
  uint32_t* events_ = nullptr;
};

}  // namespace
}  // namespace gemmscope::timeline_record

#define GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0)                         \
  do {                                                                                                           \
    if (leader)                                                                                                  \
      ::gemmscope::timeline_record::record_event(                                                                \
          ::gemmscope::traces::timeline_record::header((kind), (role), (warpgroup), (stage), (barrier)), (m0), (n0)); \
  } while (0)
#if defined(GEMMSCOPE_TIMELINE_DETAIL)
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...) GEMMSCOPE_TIMELINE_EVENT(__VA_ARGS__)
#else
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...)
#endif
#define GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN inline namespace timeline {
#define GEMMSCOPE_TIMELINE_NAMESPACE_END }

#else

#define GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0)
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...)
#define GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN
#define GEMMSCOPE_TIMELINE_NAMESPACE_END

#endif
