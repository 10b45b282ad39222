// Probe: what the timeline recorder's pieces cost one thread (docs/timelines.md), in
// SM clock cycles per iteration of a loop of N iterations: a %globaltimer read, a
// %clock64 read, one recorder event (traces/include/gemmscope/traces/timeline.cuh)
// attached, detached and past its region's capacity, and a wait's end into the slot
// its begin reserved. A read is made dependent by letting the loop's step depend on
// its value, so that the next iteration waits for it; an event depends on the one before through its
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
  kWaitEnd,            // a wait's end: the clocks into the slot its begin reserved
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
    "recorder wait end (reserved slot)",
};

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
  __syncthreads();
  if (threadIdx.x != 0) return;
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
      case kWaitEnd: {
        // One begin per pass reserves the slot; the loop times the end alone.
        rec::record_wait_begin(tr::header(tr::kKindWaitBegin, tr::kRoleProducer, 0, 0, tr::kBarrierEmpty),
                               tr::header(tr::kKindWaitEnd, tr::kRoleProducer, 0, 0, tr::kBarrierEmpty), 0, pass);
        for (int i = 0; i < n; ++i) rec::record_wait_end(i);
        break;
      }
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
    if (mode == kEvent || mode == kEventDetached || mode == kEventDropped || mode == kWaitEnd) {
      rec::Recording recording(mode == kEventDropped ? 1u : slots);
      if (mode == kEventDetached) recording.detach();
      t[mode] = run(mode, n);
      const tr::RecordedTimeline raw = recording.finish();
      // The recorder's own bookkeeping, checked: every event written or counted.
      uint64_t written = 0;
      for (std::size_t s = 0; s < raw.words.size() / tr::kWordsPerEvent; ++s)
        written += raw.words[s * tr::kWordsPerEvent + tr::kWordHeader] != 0;
      const uint64_t expected = mode == kEventDetached ? 0 : mode == kWaitEnd ? 2 * (kPasses + 1) : uint64_t{slots};
      const uint64_t expected_written = mode == kEventDropped ? 1 : expected;
      if (written != expected_written || written + raw.dropped != expected) {
        std::fprintf(stderr, "timeline_event_cost: %s: %llu events written and %llu dropped, expected %llu and %llu\n",
                     kModeNames[mode], static_cast<unsigned long long>(written),
                     static_cast<unsigned long long>(raw.dropped), static_cast<unsigned long long>(expected_written),
                     static_cast<unsigned long long>(expected - expected_written));
        return 1;
      }
    } else {
      t[mode] = run(mode, n);
    }
  }

  // The clock from the longest loop: the empty one is too short for %globaltimer's ticks.
  const double ghz = t[kTimerDependent].ghz;
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
