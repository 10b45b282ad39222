#pragma once
// Recording a timeline of what each warp role of a kernel did (docs/timelines.md):
// events with %globaltimer, %clock and %smid into a device buffer. Off unless the
// translation unit defines GEMMSCOPE_TIMELINE before including this header: then
// the macros expand to nothing and their arguments are never evaluated, so a normal
// build of a kernel is unchanged (same SASS: verify/cpu/timeline_sass_test.cmake).
//
// GEMMSCOPE_TIMELINE_CTA_BEGIN(): every thread of a kernel that records runs it once,
// at its start, before the kernel's first __syncthreads or cluster barrier (which
// publishes what it wrote). It sets up the writers' state of the CTA from the buffer's
// descriptor; an event before it, or in a kernel without it, reads what an earlier
// kernel left in shared memory and may write anywhere.
// GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0): the
// thread for which `leader` is true writes one event (timeline_record.hpp's layout and
// codes; pass the role's one elected thread, or t == 0 of a warpgroup).
// Write each call on a line of its own: the SASS test removes the lines that name
// GEMMSCOPE_TIMELINE.
// GEMMSCOPE_TIMELINE_WAIT_BEGIN(flag, leader, bar, parity, role, warpgroup, stage, barrier,
// m0, n0) and GEMMSCOPE_TIMELINE_WAIT_END(flag, role, warpgroup, stage, barrier, m0, n0),
// on the lines before and after an mbarrier wait: the begin tests the barrier (an
// mbarrier.test_wait of phase `parity`, no waiting) and, only where the wait will block,
// records its begin, reserves the next slot for the end and writes all of it but the
// clocks, and sets the bool `flag` it declares. The end then only reads the clocks and
// its writer's state (the reserved slot is the one before the next) and stores the
// clocks: the wait's end is on the thread's path to its next step, its begin is not. A
// wait that does not block records nothing.
// GEMMSCOPE_TIMELINE_DETAIL_EVENT(...): the same as _EVENT, for the finer events (wgmma issue,
// commit and wait; staging waits; store issue and completion): recorded only where
// GEMMSCOPE_TIMELINE_DETAIL is defined too. They cost registers a kernel at its limit
// does not have (docs/timelines.md).
// GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN / _END: an inline namespace `timeline` around the
// kernel and its host launchers when recording, so a recording instance and the plain
// one of the same template arguments are two kernels in one program.
//
// The buffer is split into regions, one per writer (timeline_record.hpp): the one thread
// of each warpgroup that records (each role passes its one elected thread, or t == 0,
// and no warpgroup has two writers). Each writer's state is a 16-byte word of static
// shared memory (kSharedBytes per CTA: a recording build must leave that much of the
// 227 KiB free): the events its region still has room for, the CTA's index, and the
// address of its region's next slot. GEMMSCOPE_TIMELINE_CTA_BEGIN writes it: one thread
// per warpgroup reads the buffer's descriptor (one __device__ variable) once; thread 0
// also writes the buffer's geometry (regions, capacity of each, warpgroups per CTA) for
// the host. Detached (capacity 0), the state says so and no event writes anything.
// An event then does no global load: one shared-memory load of its writer's state, a
// compare, a shared-memory store of the advanced state, %smid and the clocks, and two
// 16-byte stores that it does not wait for. Past its region's capacity an event is
// counted in the buffer's dropped counter (one atomic without a return) and not written.
// A recorded run's buffer must start zeroed (reset): the host finds each region's
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

#include <cuda/ptx>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gemmscope::timeline_record {

namespace layout = gemmscope::traces::timeline_record;

inline constexpr uint32_t kMaxWarpgroups = 8;  // 1024 threads, the most a CTA has
inline constexpr uint32_t kSharedBytes = kMaxWarpgroups * 16;  // the writers' state, per CTA

struct DeviceTimelineBuffer {
  uint32_t* events = nullptr;             // capacity * kWordsPerEvent words, zeroed before a run
  uint32_t* geometry = nullptr;           // regions, region capacity, warpgroups per CTA (CTA set-up writes it)
  unsigned long long* dropped = nullptr;  // events past their region's capacity
  uint32_t capacity = 0;                  // events in all; 0: detached
};

namespace {

// Set by Recording with cudaMemcpyToSymbol; one per translation unit.
__device__ DeviceTimelineBuffer g_timeline_buffer;
// Each warpgroup's writer: events its region still has room for, the CTA's index, the
// address of the region's next slot (low, high word; 0 when detached).
__shared__ uint4 g_timeline_writers[kMaxWarpgroups];

// The writer's state is read and written at each event by volatile shared-memory
// accesses: a plain one could be kept in registers from one event to the next, and the
// 128 x 256 consumers have none to spare. The dropped counter's address is read only on
// the drop path, by a volatile load, so that it is not hoisted into the main loop either.
__device__ __forceinline__ uint4 load_writer(uint32_t warpgroup) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&g_timeline_writers[warpgroup]))));
  return v;
}
__device__ __forceinline__ void store_writer(uint32_t warpgroup, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(&g_timeline_writers[warpgroup]))),
               "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// st.global: the slot's address is an integer in shared memory, and a plain store
// through it would be a generic one.
__device__ __forceinline__ void store_event_half(uint64_t at, uint4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(at), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
}

__device__ __forceinline__ void drop_event() {
  unsigned long long* dropped;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(dropped) : "l"(&g_timeline_buffer.dropped));
  // No return value used: a reduction the thread does not wait for.
  atomicAdd(dropped, 1ull);
}

// Run by every thread at the kernel's start (GEMMSCOPE_TIMELINE_CTA_BEGIN): thread w <
// warpgroups writes warpgroup w's state, thread 0 the geometry too. The fence orders
// the state before a kernel's first barrier even where that barrier's arrive is relaxed.
__device__ __forceinline__ void cta_begin() {
  const uint32_t warpgroups = (blockDim.x + 127) / 128;
  if (threadIdx.x >= warpgroups) return;
  const DeviceTimelineBuffer b = g_timeline_buffer;
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint4 state = make_uint4(0, cta, 0, 0);
  if (b.capacity != 0) {
    const uint64_t regions = uint64_t{gridDim.x} * gridDim.y * gridDim.z * warpgroups;
    // Region r holds slots [r * per_region, (r + 1) * per_region): inside the buffer,
    // since regions * per_region <= capacity. No room (more regions than slots): every
    // event is dropped, and the geometry says 0 regions.
    const uint32_t per_region = regions <= b.capacity ? b.capacity / static_cast<uint32_t>(regions) : 0u;
    const uint64_t region = uint64_t{cta} * warpgroups + threadIdx.x;
    const uint64_t next = reinterpret_cast<uint64_t>(b.events + region * per_region * layout::kWordsPerEvent);
    state = make_uint4(per_region, cta, static_cast<uint32_t>(next), static_cast<uint32_t>(next >> 32));
    if (threadIdx.x == 0) {
      b.geometry[0] = per_region > 0 ? static_cast<uint32_t>(regions) : 0u;
      b.geometry[1] = per_region;
      b.geometry[2] = warpgroups;
    }
  }
  store_writer(threadIdx.x, state);
  __threadfence_block();
}

// An event's clocks and SM. Read first: their reads (about 50 cycles to %globaltimer's
// value) overlap the state's load and store, which would otherwise come first and be
// waited for (122 cycles per event that way, on the H200).
__device__ __forceinline__ void read_clocks(uint64_t& time_ns, uint32_t& sm, uint32_t& clock) {
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
}

constexpr uint64_t kSlotBytes = layout::kWordsPerEvent * sizeof(uint32_t);

// An event's second half: n0 and its clocks (timeline_record.hpp's words 4-7).
__device__ __forceinline__ void store_clock_half(uint64_t slot, int n0, uint64_t time_ns, uint32_t clock) {
  store_event_half(slot + 16, make_uint4(static_cast<uint32_t>(n0), static_cast<uint32_t>(time_ns),
                                         static_cast<uint32_t>(time_ns >> 32), clock));
}

__device__ __forceinline__ void record_event(uint32_t header, int m0, int n0) {
  uint64_t time_ns;
  uint32_t sm, clock;
  read_clocks(time_ns, sm, clock);
  const uint32_t warpgroup = threadIdx.x / 128;
  const uint4 writer = load_writer(warpgroup);
  if (writer.x == 0) {
    if ((writer.z | writer.w) != 0) drop_event();  // region full (attached); detached: nothing
    return;
  }
  const uint64_t slot = (uint64_t{writer.w} << 32) | writer.z;
  const uint64_t next = slot + kSlotBytes;
  store_writer(warpgroup, make_uint4(writer.x - 1, writer.y, static_cast<uint32_t>(next), static_cast<uint32_t>(next >> 32)));
  static_assert(layout::kWordsPerEvent == 8 && layout::kWordHeader == 0 && layout::kWordCta == 1 && layout::kWordSm == 2 &&
                    layout::kWordM0 == 3 && layout::kWordN0 == 4 && layout::kWordTimeLow == 5 &&
                    layout::kWordTimeHigh == 6 && layout::kWordClock == 7,
                "the two 16-byte stores below write the words in timeline_record.hpp's order");
  store_event_half(slot, make_uint4(header, writer.y, sm, static_cast<uint32_t>(m0)));
  store_clock_half(slot, n0, time_ns, clock);
}

// A wait's begin (GEMMSCOPE_TIMELINE_WAIT_BEGIN, where the wait will block): writes the
// begin event and the end's first half into the next two slots. False where there is
// nothing to record: detached, or fewer than two slots left (both events are counted
// as dropped, so that no begin lacks its end).
__device__ __forceinline__ bool record_wait_begin(uint32_t begin_header, uint32_t end_header, int m0, int n0) {
  uint64_t time_ns;
  uint32_t sm, clock;
  read_clocks(time_ns, sm, clock);
  const uint32_t warpgroup = threadIdx.x / 128;
  const uint4 writer = load_writer(warpgroup);
  if (writer.x < 2) {
    if ((writer.z | writer.w) != 0) {  // attached: the region has no room for the pair
      drop_event();
      drop_event();
    }
    return false;
  }
  const uint64_t slot = (uint64_t{writer.w} << 32) | writer.z;
  const uint64_t next = slot + 2 * kSlotBytes;
  store_writer(warpgroup, make_uint4(writer.x - 2, writer.y, static_cast<uint32_t>(next), static_cast<uint32_t>(next >> 32)));
  store_event_half(slot, make_uint4(begin_header, writer.y, sm, static_cast<uint32_t>(m0)));
  store_clock_half(slot, n0, time_ns, clock);
  store_event_half(slot + kSlotBytes, make_uint4(end_header, writer.y, sm, static_cast<uint32_t>(m0)));
  return true;
}

// A wait's end: the clocks into the slot record_wait_begin reserved (its second half),
// the one before the writer's next. The slot's address is read back from shared memory
// rather than kept in registers across the wait: a producer runs with 40.
__device__ __forceinline__ void record_wait_end(int n0) {
  uint64_t time_ns;
  uint32_t clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  const uint4 writer = load_writer(threadIdx.x / 128);
  store_clock_half(((uint64_t{writer.w} << 32) | writer.z) - kSlotBytes, n0, time_ns, clock);
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
  // Recording on (the constructor's state) or off: the CTAs of a kernel launched
  // detached read a capacity of 0 at their start, and their events write nothing.
  void attach() {
    const DeviceTimelineBuffer buffer{events_, geometry_, dropped_, capacity_};
    check_timeline(cudaMemcpyToSymbol(g_timeline_buffer, &buffer, sizeof buffer), "install the buffer");
  }
  void detach() {
    const DeviceTimelineBuffer off{};
    cudaMemcpyToSymbol(g_timeline_buffer, &off, sizeof off);
  }
  // Empties the buffer for the next recorded run.
  void reset(cudaStream_t stream = nullptr) {
    check_timeline(cudaMemsetAsync(events_, 0, words() * sizeof(uint32_t), stream), "zero the events");
    check_timeline(cudaMemsetAsync(geometry_, 0, 3 * sizeof(uint32_t), stream), "zero the geometry");
    check_timeline(cudaMemsetAsync(dropped_, 0, sizeof(unsigned long long), stream), "zero the dropped counter");
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
  uint32_t* events_ = nullptr;
  uint32_t* geometry_ = nullptr;
  unsigned long long* dropped_ = nullptr;
};

}  // namespace
}  // namespace gemmscope::timeline_record

#define GEMMSCOPE_TIMELINE_CTA_BEGIN() ::gemmscope::timeline_record::cta_begin()
#define GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0)                         \
  do {                                                                                                           \
    if (leader)                                                                                                  \
      ::gemmscope::timeline_record::record_event(                                                                \
          ::gemmscope::traces::timeline_record::header((kind), (role), (warpgroup), (stage), (barrier)), (m0), (n0)); \
  } while (0)
#define GEMMSCOPE_TIMELINE_WAIT_BEGIN(flag, leader, bar, parity, role, warpgroup, stage, barrier, m0, n0)             \
  const bool flag = (leader) && !::cuda::ptx::mbarrier_test_wait_parity((bar), (parity)) &&                            \
                    ::gemmscope::timeline_record::record_wait_begin(                                                   \
                        ::gemmscope::traces::timeline_record::header(::gemmscope::traces::timeline_record::kKindWaitBegin, \
                                                                     (role), (warpgroup), (stage), (barrier)),          \
                        ::gemmscope::traces::timeline_record::header(::gemmscope::traces::timeline_record::kKindWaitEnd,   \
                                                                     (role), (warpgroup), (stage), (barrier)),          \
                        (m0), (n0))
#define GEMMSCOPE_TIMELINE_WAIT_END(flag, role, warpgroup, stage, barrier, m0, n0) \
  do {                                                                             \
    if (flag) ::gemmscope::timeline_record::record_wait_end((n0));                 \
  } while (0)
#if defined(GEMMSCOPE_TIMELINE_DETAIL)
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...) GEMMSCOPE_TIMELINE_EVENT(__VA_ARGS__)
#else
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...)
#endif
#define GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN inline namespace timeline {
#define GEMMSCOPE_TIMELINE_NAMESPACE_END }

#else

#define GEMMSCOPE_TIMELINE_CTA_BEGIN()
#define GEMMSCOPE_TIMELINE_EVENT(leader, kind, role, warpgroup, stage, barrier, m0, n0)
#define GEMMSCOPE_TIMELINE_WAIT_BEGIN(flag, leader, bar, parity, role, warpgroup, stage, barrier, m0, n0)
#define GEMMSCOPE_TIMELINE_WAIT_END(flag, role, warpgroup, stage, barrier, m0, n0)
#define GEMMSCOPE_TIMELINE_DETAIL_EVENT(...)
#define GEMMSCOPE_TIMELINE_NAMESPACE_BEGIN
#define GEMMSCOPE_TIMELINE_NAMESPACE_END

#endif
