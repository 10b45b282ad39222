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
// does not have (docs/timelines.md).
// GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN / _END: an inline namespace `timeline` around the
// kernel and its host launchers when recording, so a recording instance and the plain
// one of the same template arguments are two kernels in one program.
//
// An event costs its writer a %globaltimer read, a few shared-memory words and two
// stores that it does not wait for: no atomic on the way. The buffer is split into
// regions, one per writer (timeline_record.hpp): the one thread of each warpgroup that
// records (each role passes its one elected thread, or t == 0, and no warpgroup has two
// writers). The writer keeps its event count in a 16-byte word of static shared memory
// (kSharedBytes per CTA: a recording build must leave that much of the 227 KiB free) and
// writes each event to its region's next slot; past the region's capacity an event is
// counted in the buffer's dropped counter (one atomic without a return) and not written.
// Shared memory starts a CTA with what an earlier one left there, so the count carries a
// tag, the run's tag (new at each attach after reset) mixed with the CTA's index: a
// writer that finds another tag starts from 0. The first event of each writer also
// writes the buffer's geometry (regions, capacity of each, warpgroups per CTA) for the
// host. A recorded run's buffer must start zeroed (reset): the host finds each region's
// events as the slots before its first zero one.
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

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

namespace gemmscope::timeline_record {

namespace layout = gemmscope::traces::timeline_record;

inline constexpr uint32_t kMaxWarpgroups = 8;  // 1024 threads: a writer of a ninth would drop its events
inline constexpr uint32_t kSharedBytes = kMaxWarpgroups * 16;  // the writers' state, per CTA

struct DeviceTimelineBuffer {
  uint32_t* events = nullptr;             // capacity * kWordsPerEvent words, zeroed before a run
  uint32_t* geometry = nullptr;           // regions, region capacity, warpgroups per CTA (the first events write it)
  unsigned long long* dropped = nullptr;  // events past their region's capacity
  uint32_t capacity = 0;                  // events in all
  uint32_t run_tag = 0;                   // new for each recorded run
};

// A tag no earlier run of this process is likely to have used: a counter from a random
// start, mixed (splitmix64's finalizer). Process-wide, so that two recording builds
// that leave their state at the same shared-memory address do not share tags.
inline uint32_t next_run_tag() {
  static std::atomic<uint64_t> counter{(uint64_t{std::random_device{}()} << 32) ^ std::random_device{}()};
  uint64_t z = counter.fetch_add(0x9e3779b97f4a7c15ull) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

namespace {

// Set by Recording with cudaMemcpyToSymbol; one per translation unit.
__device__ DeviceTimelineBuffer g_timeline_buffer;
// Each warpgroup's writer: tag, events so far, its region's capacity, unused.
__shared__ uint4 g_timeline_writers[kMaxWarpgroups];

// The buffer's fields and the writer's state are read at each event by volatile
// loads: plain loads of the __device__ variable were hoisted out of the main loop, and
// the five registers they held there made the 128 x 256 consumers spill; a plain
// shared-memory count could be kept in a register from one event to the next likewise.
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
__device__ __forceinline__ uint4 load_writer(uint32_t warpgroup) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&g_timeline_writers[warpgroup]))));
  return v;
}
__device__ __forceinline__ void store_writer(uint32_t warpgroup, uint32_t tag, uint32_t count, uint32_t capacity) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(&g_timeline_writers[warpgroup]))),
               "r"(tag), "r"(count), "r"(capacity), "r"(0u)
               : "memory");
}

__device__ __forceinline__ void drop_event() {
  // No return value used: a reduction the thread does not wait for.
  atomicAdd(reinterpret_cast<unsigned long long*>(load_u64(&g_timeline_buffer.dropped)), 1ull);
}

// The order keeps few registers live at once (a producer has 40 of them): the capacity
// first (0: detached), the clocks last, right before the stores.
__device__ __forceinline__ void record_event(uint32_t header, int m0, int n0) {
  const uint32_t capacity = load_u32(&g_timeline_buffer.capacity);
  if (capacity == 0) return;
  const uint32_t warpgroup = threadIdx.x / 128;
  if (warpgroup >= kMaxWarpgroups) {
    drop_event();
    return;
  }
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const uint32_t tag = load_u32(&g_timeline_buffer.run_tag) ^ cta * 0x9e3779b1u;  // one per CTA of the run
  uint4 writer = load_writer(warpgroup);
  if (writer.x != tag) {
    // This writer's first event in this CTA: its region's capacity, and the geometry.
    const uint32_t warpgroups = (blockDim.x + 127) / 128;
    const uint64_t regions = uint64_t{gridDim.x} * gridDim.y * gridDim.z * warpgroups;
    // A 32-bit division: a 64-bit one is a call, and its saved registers spilled.
    writer = make_uint4(tag, 0, regions <= capacity ? capacity / static_cast<uint32_t>(regions) : 0u, 0);
    uint32_t* const geometry = reinterpret_cast<uint32_t*>(load_u64(&g_timeline_buffer.geometry));
    geometry[0] = writer.z > 0 ? static_cast<uint32_t>(regions) : 0u;  // no room: every event is dropped
    geometry[1] = writer.z;
    geometry[2] = warpgroups;
  }
  store_writer(warpgroup, tag, writer.y + 1, writer.z);
  // The slot, bounded by the whole buffer too: a state word whose tag matched by chance
  // cannot send a store outside it.
  const uint64_t slot = uint64_t{cta * ((blockDim.x + 127) / 128) + warpgroup} * writer.z + writer.y;
  if (writer.y >= writer.z || slot >= capacity) {
    drop_event();
    return;
  }
  uint4* const e = reinterpret_cast<uint4*>(reinterpret_cast<uint32_t*>(load_u64(&g_timeline_buffer.events)) +
                                            slot * layout::kWordsPerEvent);
  static_assert(layout::kWordsPerEvent == 8 && layout::kWordHeader == 0 && layout::kWordCta == 1 && layout::kWordSm == 2 &&
                    layout::kWordM0 == 3 && layout::kWordN0 == 4 && layout::kWordTimeLow == 5 &&
                    layout::kWordTimeHigh == 6 && layout::kWordClock == 7,
                "the two 16-byte stores below write the words in timeline_record.hpp's order");
  uint64_t time_ns;
  uint32_t sm, clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  e[0] = make_uint4(header, cta, sm, static_cast<uint32_t>(m0));
  e[1] = make_uint4(static_cast<uint32_t>(n0), static_cast<uint32_t>(time_ns), static_cast<uint32_t>(time_ns >> 32), clock);
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
    check_timeline(cudaMalloc(&events_, words() * sizeof(uint32_t)), "allocate the events");
    check_timeline(cudaMalloc(&geometry_, 3 * sizeof(uint32_t)), "allocate the geometry");
    check_timeline(cudaMalloc(&dropped_, sizeof(unsigned long long)), "allocate the dropped counter");
    reset();
    check_timeline(cudaStreamSynchronize(nullptr), "zero the buffer");
    attach();
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  ~Recording() {
    detach();
    cudaFree(events_);
    cudaFree(geometry_);
    cudaFree(dropped_);
  }
  // Recording on (the constructor's state) or off: a detached kernel reads the capacity
  // (0) at each event and writes nothing. attach() installs the run tag reset() chose.
  void attach() {
    const DeviceTimelineBuffer buffer{events_, geometry_, dropped_, capacity_, run_tag_};
    check_timeline(cudaMemcpyToSymbol(g_timeline_buffer, &buffer, sizeof buffer), "install the buffer");
  }
  void detach() {
    const DeviceTimelineBuffer off{};
    cudaMemcpyToSymbol(g_timeline_buffer, &off, sizeof off);
  }
  // Empties the buffer for the next recorded run and picks its tag; attach() after it.
  void reset(cudaStream_t stream = nullptr) {
    check_timeline(cudaMemsetAsync(events_, 0, words() * sizeof(uint32_t), stream), "zero the events");
    check_timeline(cudaMemsetAsync(geometry_, 0, 3 * sizeof(uint32_t), stream), "zero the geometry");
    check_timeline(cudaMemsetAsync(dropped_, 0, sizeof(unsigned long long), stream), "zero the dropped counter");
    run_tag_ = next_run_tag();
  }
  // Waits for `stream`, copies the regions back and stops recording. Throws
  // std::runtime_error where the geometry the kernel wrote does not fit the buffer.
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream = nullptr) {
    check_timeline(cudaStreamSynchronize(stream), "the recorded run");
    traces::timeline_record::RecordedTimeline out;
    uint32_t geometry[3];
    check_timeline(cudaMemcpy(geometry, geometry_, sizeof geometry, cudaMemcpyDeviceToHost), "copy the geometry");
    check_timeline(cudaMemcpy(&out.dropped, dropped_, sizeof out.dropped, cudaMemcpyDeviceToHost), "copy the dropped counter");
    detach();
    out.regions = geometry[0];
    out.region_capacity = geometry[1];
    out.warpgroups_per_cta = geometry[2];
    const uint64_t slots = uint64_t{out.regions} * out.region_capacity;
    if (slots > capacity_)
      throw std::runtime_error("timeline recording: the kernel's " + std::to_string(out.regions) + " regions of " +
                               std::to_string(out.region_capacity) + " events exceed the buffer's " +
                               std::to_string(capacity_));
    out.words.resize(slots * layout::kWordsPerEvent);
    if (slots > 0)
      check_timeline(cudaMemcpy(out.words.data(), events_, out.words.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                     "copy the events");
    return out;
  }

 private:
  size_t words() const { return size_t{capacity_} * layout::kWordsPerEvent; }
  uint32_t capacity_ = 0;  // events in all
  uint32_t run_tag_ = 0;
  uint32_t* events_ = nullptr;
  uint32_t* geometry_ = nullptr;
  unsigned long long* dropped_ = nullptr;
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
