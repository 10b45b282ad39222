// Probe: what the timeline recorder's pieces cost one thread (docs/timelines.md), in
// SM clock cycles per iteration of a loop of N iterations: a %globaltimer read, a
// %clock64 read, one recorder event (traces/include/gemmscope/traces/timeline.cuh)
// attached, detached and past its region's capacity, and one event of the earlier
// recorder, which read the buffer's descriptor from global memory at each event. A
// read is made dependent by letting the loop's step depend on its value, so that the
// next iteration waits for it; an event depends on the one before through its
// writer's state in shared memory, and stalls on its clocks at its stores.
//
// Its own program, not a `gemmscope probe` case: it prints a text table (the figures
// are timings, not facts for a golden trace). Usage: timeline_event_cost [N]
// (default 4096). Exit 0, 1 on a failed check, 3 without a usable GPU.
#define GEMMSCOPE_TIMELINE 1

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gemmscope/traces/timeline.cuh"

namespace {

namespace tr = gemmscope::traces::timeline_record;
namespace rec = gemmscope::timeline_record;

constexpr int kPasses = 5;  // timed passes after one warm-up; the median is kept

enum Mode : int {
  kEmpty = 0,          // the loop alone
  kTimerDependent,     // %globaltimer, the next iteration waits for the value
  kTimerBackToBack,    // %globaltimer, values summed only
  kClockDependent,     // %clock64, the next iteration waits for the value
  kClockBackToBack,    // %clock64, values summed only
  kEvent,              // a recorder event, attached, written
  kEventDetached,      // a recorder event, no buffer attached
  kEventDropped,       // a recorder event past its region's capacity (counted as dropped)
  kEarlierEvent,       // the earlier recorder's event, attached, written
  kModes
};

const char* const kModeNames[kModes] = {
    "empty loop",
    "%globaltimer read (dependent)",
    "%globaltimer read (back to back)",
    "%clock64 read (dependent)",
    "%clock64 read (back to back)",
    "recorder event",
    "recorder event, detached",
    "recorder event, region full (dropped)",
    "earlier recorder event (global loads)",
};

// ---- the earlier recorder's event, for comparison ------------------------------
// Its code before the per-CTA state: the buffer's capacity, run tag and events
// pointer loaded from global memory at each event, a tagged count in shared memory.
struct EarlierBuffer {
  uint32_t* events = nullptr;
  uint32_t* geometry = nullptr;
  unsigned long long* dropped = nullptr;
  uint32_t capacity = 0;
  uint32_t run_tag = 0;
};
__device__ EarlierBuffer g_earlier_buffer;
__shared__ uint4 g_earlier_writers[rec::kMaxWarpgroups];

__device__ __forceinline__ uint64_t earlier_load_u64(const void* at) {
  uint64_t v;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(at));
  return v;
}
__device__ __forceinline__ uint32_t earlier_load_u32(const void* at) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(at));
  return v;
}
__device__ __forceinline__ uint4 earlier_load_writer(uint32_t warpgroup) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&g_earlier_writers[warpgroup]))));
  return v;
}
__device__ __forceinline__ void earlier_store_writer(uint32_t warpgroup, uint32_t tag, uint32_t count,
                                                     uint32_t capacity) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(&g_earlier_writers[warpgroup]))),
               "r"(tag), "r"(count), "r"(capacity), "r"(0u)
               : "memory");
}
__device__ __forceinline__ void earlier_drop_event() {
  atomicAdd(reinterpret_cast<unsigned long long*>(earlier_load_u64(&g_earlier_buffer.dropped)), 1ull);
}
__device__ __forceinline__ void earlier_record_event(uint32_t header, int m0, int n0) {
  const uint32_t capacity = earlier_load_u32(&g_earlier_buffer.capacity);
  if (capacity == 0) return;
  const uint32_t warpgroup = threadIdx.x / 128;
  if (warpgroup >= rec::kMaxWarpgroups) {
    earlier_drop_event();
    return;
  }
  const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const uint32_t tag = earlier_load_u32(&g_earlier_buffer.run_tag) ^ cta * 0x9e3779b1u;
  uint4 writer = earlier_load_writer(warpgroup);
  if (writer.x != tag) {
    const uint32_t warpgroups = (blockDim.x + 127) / 128;
    const uint64_t regions = uint64_t{gridDim.x} * gridDim.y * gridDim.z * warpgroups;
    writer = make_uint4(tag, 0, regions <= capacity ? capacity / static_cast<uint32_t>(regions) : 0u, 0);
    uint32_t* const geometry = reinterpret_cast<uint32_t*>(earlier_load_u64(&g_earlier_buffer.geometry));
    geometry[0] = writer.z > 0 ? static_cast<uint32_t>(regions) : 0u;
    geometry[1] = writer.z;
    geometry[2] = warpgroups;
  }
  earlier_store_writer(warpgroup, tag, writer.y + 1, writer.z);
  const uint64_t slot = uint64_t{cta * ((blockDim.x + 127) / 128) + warpgroup} * writer.z + writer.y;
  if (writer.y >= writer.z || slot >= capacity) {
    earlier_drop_event();
    return;
  }
  uint4* const e = reinterpret_cast<uint4*>(
      reinterpret_cast<uint32_t*>(earlier_load_u64(&g_earlier_buffer.events)) + slot * tr::kWordsPerEvent);
  uint64_t time_ns;
  uint32_t sm, clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time_ns));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clock));
  e[0] = make_uint4(header, cta, sm, static_cast<uint32_t>(m0));
  e[1] = make_uint4(static_cast<uint32_t>(n0), static_cast<uint32_t>(time_ns), static_cast<uint32_t>(time_ns >> 32), clock);
}

// ---- the timing kernel ------------------------------------------------------------
__device__ __forceinline__ uint64_t read_globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ uint64_t read_clock64() {
  uint64_t c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}

struct PassResult {
  unsigned long long cycles;    // %clock64 over the loop
  unsigned long long ns;        // %globaltimer over the loop
  unsigned long long changes;   // kTimerDependent: how often the read value changed
  unsigned long long sink;      // keeps the summed values alive
};

// One CTA of 32 threads (one warpgroup, so one region); lane 0 runs the loop.
__global__ void cost_kernel(int mode, int n, PassResult* out) {
  GEMMSCOPE_TIMELINE_CTA_BEGIN();
  // The earlier recorder: a state whose tag is not the run's, so its first event sets it up.
  if (mode == kEarlierEvent && threadIdx.x == 0) earlier_store_writer(0, 0, 0, 0);
  __syncthreads();
  if (threadIdx.x != 0) return;
  const uint32_t header = tr::header(tr::kKindTmaIssue, tr::kRoleProducer, 0, 0, tr::kBarrierNone);
  for (int pass = 0; pass <= kPasses; ++pass) {
    unsigned long long sink = 0, changes = 0;
    const uint64_t t0 = read_globaltimer();
    const uint64_t c0 = read_clock64();
    switch (mode) {
      case kEmpty:
        for (int i = 0; i < n; ++i) asm volatile("");
        break;
      case kTimerDependent: {
        uint64_t prev = 0;
        for (int i = 0; i < n;) {
          const uint64_t v = read_globaltimer();
          changes += v != prev;
          prev = v;
          i += 1 + (v == 0);  // the next iteration waits for the value
        }
        sink = prev;
        break;
      }
      case kTimerBackToBack:
        for (int i = 0; i < n; ++i) sink += read_globaltimer();
        break;
      case kClockDependent:
        for (int i = 0; i < n;) {
          const uint64_t v = read_clock64();
          sink += v;
          i += 1 + (v == 0);
        }
        break;
      case kClockBackToBack:
        for (int i = 0; i < n; ++i) sink += read_clock64();
        break;
      case kEvent:
      case kEventDetached:
      case kEventDropped:
        for (int i = 0; i < n; ++i) GEMMSCOPE_TIMELINE_EVENT(true, tr::kKindTmaIssue, tr::kRoleProducer, 0, 0, tr::kBarrierNone, i, pass);
        break;
      case kEarlierEvent:
        for (int i = 0; i < n; ++i) earlier_record_event(header, i, pass);
        break;
      default: break;
    }
    const uint64_t c1 = read_clock64();
    const uint64_t t1 = read_globaltimer();
    if (pass > 0) out[pass - 1] = PassResult{c1 - c0, t1 - t0, changes, sink};
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "timeline_event_cost: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 3 : 1);
  }
}

struct Timing {
  double cycles_per_iteration;
  double ghz;  // SM clock over the passes
  double timer_changes;
};

Timing run(int mode, int n) {
  PassResult* d_out = nullptr;
  check(cudaMalloc(&d_out, kPasses * sizeof(PassResult)), "allocate the results");
  cost_kernel<<<1, 32>>>(mode, n, d_out);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "the timing kernel");
  std::vector<PassResult> r(kPasses);
  check(cudaMemcpy(r.data(), d_out, kPasses * sizeof(PassResult), cudaMemcpyDeviceToHost), "copy the results");
  check(cudaFree(d_out), "free the results");
  std::sort(r.begin(), r.end(), [](const PassResult& a, const PassResult& b) { return a.cycles < b.cycles; });
  const PassResult& m = r[kPasses / 2];
  return Timing{static_cast<double>(m.cycles) / n, m.ns > 0 ? static_cast<double>(m.cycles) / m.ns : 0.0,
                static_cast<double>(m.changes)};
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n < 16 || n > (1 << 20)) {
    std::fprintf(stderr, "timeline_event_cost: N = %s must be in 16..1048576\n", argc > 1 ? argv[1] : "");
    return 2;
  }
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "find a GPU");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "read the GPU's properties");

  const uint32_t slots = static_cast<uint32_t>(n) * (kPasses + 1);  // every pass's events fit
  std::vector<Timing> t(kModes);
  for (int mode = 0; mode < kModes; ++mode) {
    if (mode == kEvent || mode == kEventDetached || mode == kEventDropped) {
      rec::Recording recording(mode == kEventDropped ? 1u : slots);
      if (mode == kEventDetached) recording.detach();
      t[mode] = run(mode, n);
      const tr::RecordedTimeline raw = recording.finish();
      // The recorder's own bookkeeping, checked: every event written or counted.
      uint64_t written = 0;
      for (std::size_t s = 0; s < raw.words.size() / tr::kWordsPerEvent; ++s)
        written += raw.words[s * tr::kWordsPerEvent + tr::kWordHeader] != 0;
      const uint64_t expected = mode == kEventDetached ? 0 : uint64_t{slots};
      const uint64_t expected_written = mode == kEventDropped ? 1 : expected;
      if (written != expected_written || written + raw.dropped != expected) {
        std::fprintf(stderr, "timeline_event_cost: %s: %llu events written and %llu dropped, expected %llu and %llu\n",
                     kModeNames[mode], static_cast<unsigned long long>(written),
                     static_cast<unsigned long long>(raw.dropped), static_cast<unsigned long long>(expected_written),
                     static_cast<unsigned long long>(expected - expected_written));
        return 1;
      }
    } else if (mode == kEarlierEvent) {
      uint32_t* events = nullptr;
      uint32_t* geometry = nullptr;
      unsigned long long* dropped = nullptr;
      check(cudaMalloc(&events, std::size_t{slots} * tr::kWordsPerEvent * sizeof(uint32_t)), "allocate the events");
      check(cudaMalloc(&geometry, 3 * sizeof(uint32_t)), "allocate the geometry");
      check(cudaMalloc(&dropped, sizeof(unsigned long long)), "allocate the dropped counter");
      check(cudaMemset(dropped, 0, sizeof(unsigned long long)), "zero the dropped counter");
      const EarlierBuffer b{events, geometry, dropped, slots, 0x2545f491u};
      check(cudaMemcpyToSymbol(g_earlier_buffer, &b, sizeof b), "install the buffer");
      t[mode] = run(mode, n);
      const EarlierBuffer off{};
      check(cudaMemcpyToSymbol(g_earlier_buffer, &off, sizeof off), "detach the buffer");
      cudaFree(events);
      cudaFree(geometry);
      cudaFree(dropped);
    } else {
      t[mode] = run(mode, n);
    }
  }

  const double ghz = t[kEmpty].ghz;
  std::printf("timeline recorder costs on %s (sm_%d%d), one thread, N = %d iterations, median of %d passes\n",
              prop.name, prop.major, prop.minor, n, kPasses);
  std::printf("SM clock over the passes: %.3f GHz\n", ghz);
  std::printf("  %-40s %12s %12s %10s\n", "what", "cycles/iter", "less loop", "ns/iter");
  for (int mode = 0; mode < kModes; ++mode) {
    const double less = t[mode].cycles_per_iteration - (mode == kEmpty ? 0.0 : t[kEmpty].cycles_per_iteration);
    std::printf("  %-40s %12.1f %12.1f %10.1f\n", kModeNames[mode], t[mode].cycles_per_iteration, less,
                ghz > 0 ? less / ghz : 0.0);
  }
  const double changes = t[kTimerDependent].timer_changes;
  if (changes > 1) {
    const double ns = t[kTimerDependent].cycles_per_iteration * n / (t[kTimerDependent].ghz > 0 ? t[kTimerDependent].ghz : 1);
    std::printf("%%globaltimer: %.0f distinct values in %d dependent reads: one tick per %.1f ns\n", changes, n,
                ns / changes);
  }
  return 0;
}
