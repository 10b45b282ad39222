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
// does not have: with them k10's 128 x 256 consumers (168 registers) spill ~500 bytes;
// without them 12.
// GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN / _END: an inline namespace `timeline` around the
// kernel and its host launchers when recording, so a recording instance and the plain
// one of the same template arguments are two kernels in one program.
//
// The buffer is split into kPartitions parts by SM (%smid modulo kPartitions), each with
// its own counter, so the SMs do not contend for one atomic. An event claims a slot of
// its SM's part with one atomicAdd; a part is bounded: an event past its capacity is
// counted (the counter goes on) and not written.
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

inline constexpr uint32_t kPartitions = 256;  // at least the SMs of a GPU: one part each

struct DeviceTimelineBuffer {
  unsigned long long* counters = nullptr;  // per part, events claimed (past its capacity: dropped)
  uint32_t* events = nullptr;              // kPartitions * capacity * kWordsPerEvent words
  uint32_t capacity = 0;                   // events per part
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
  auto* const counters = reinterpret_cast<unsigned long long*>(load_u64(&g_timeline_buffer.counters));
  if (counters == nullptr) return;
  uint64_t time_ns;
  uint32_t sm, clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  const uint32_t part = sm % kPartitions;
  const unsigned long long slot = atomicAdd(counters + part, 1ull);
  const uint32_t capacity = load_u32(&g_timeline_buffer.capacity);
  if (slot >= capacity) return;
  uint32_t* e = reinterpret_cast<uint32_t*>(load_u64(&g_timeline_buffer.events)) +
                (static_cast<size_t>(part) * capacity + static_cast<size_t>(slot)) * layout::kWordsPerEvent;
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

// The host side: a device buffer of at least `capacity_events` events (kPartitions
// parts of capacity_events / kPartitions, rounded up), zeroed, that this translation
// unit's kernels record into from construction until finish() or destruction. Throws
// std::runtime_error naming the step on a CUDA error.
class Recording {
 public:
  explicit Recording(uint32_t capacity_events) : capacity_((capacity_events + kPartitions - 1) / kPartitions) {
    if (capacity_events == 0) throw std::invalid_argument("timeline recording: capacity = 0 events; give at least 1");
    const size_t words = size_t{kPartitions} * capacity_ * layout::kWordsPerEvent;
    check_timeline(cudaMalloc(&counters_, kPartitions * sizeof(unsigned long long)), "allocate the counters");
    check_timeline(cudaMalloc(&events_, words * sizeof(uint32_t)), "allocate the events");
    check_timeline(cudaMemset(counters_, 0, kPartitions * sizeof(unsigned long long)), "zero the counters");
    check_timeline(cudaMemset(events_, 0, words * sizeof(uint32_t)), "zero the events");
    attach();
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  ~Recording() {
    detach();
    cudaFree(counters_);
    cudaFree(events_);
  }
  // Recording on (the constructor's state) or off: a detached kernel tests one pointer
  // per event and writes nothing.
  void attach() {
    const DeviceTimelineBuffer buffer{counters_, events_, capacity_};
    check_timeline(cudaMemcpyToSymbol(g_timeline_buffer, &buffer, sizeof buffer), "install the buffer");
  }
  void detach() {
    const DeviceTimelineBuffer off{};
    cudaMemcpyToSymbol(g_timeline_buffer, &off, sizeof off);
  }
  // Empties the buffer for the next recorded run.
  void reset(cudaStream_t stream = nullptr) {
    check_timeline(cudaMemsetAsync(counters_, 0, kPartitions * sizeof(unsigned long long), stream), "zero the counters");
  }
  // Waits for `stream`, copies the events back (part after part, each in the order its
  // events were claimed) and stops recording.
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream = nullptr) {
    check_timeline(cudaStreamSynchronize(stream), "the recorded run");
    traces::timeline_record::RecordedTimeline out;
    unsigned long long claimed[kPartitions];
    check_timeline(cudaMemcpy(claimed, counters_, sizeof claimed, cudaMemcpyDeviceToHost), "copy the counters");
    for (uint32_t p = 0; p < kPartitions; ++p) {
      out.events_claimed += claimed[p];
      const size_t written = claimed[p] < capacity_ ? static_cast<size_t>(claimed[p]) : capacity_;
      if (written == 0) continue;
      const size_t at = out.words.size();
      out.words.resize(at + written * layout::kWordsPerEvent);
      check_timeline(cudaMemcpy(out.words.data() + at, events_ + size_t{p} * capacity_ * layout::kWordsPerEvent,
                                written * layout::kWordsPerEvent * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                     "copy the events");
    }
    detach();
    return out;
  }

 private:
  uint32_t capacity_ = 0;  // events per part
  unsigned long long* counters_ = nullptr;
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
