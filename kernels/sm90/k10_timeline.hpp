#pragma once
// k10 with the timeline recorder compiled in (gemmscope/traces/timeline.cuh,
// docs/timelines.md): a few instances of k10_tunable built with GEMMSCOPE_TIMELINE in a
// library of their own (gemmscope_kernels_timeline), so the library's instances stay
// as they are. `gemmscope timeline record` runs them.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gemmscope/gemm.hpp"
#include "gemmscope/traces/timeline_record.hpp"
#include "tune/config.hpp"

namespace gemmscope::sm90::k10 {

// The configurations (group 0, split 1) whose instance is compiled with the recorder.
const std::vector<tune::KernelConfig>& timeline_instances();
// Whether c's template arguments are one of them (group and split-K are run-time).
bool has_timeline_instance(const tune::KernelConfig& c);

// A device buffer of `capacity_events` events that the recording instances write into.
// arm() empties it and attaches it (a synchronous copy to the kernels' symbol: call it
// outside a timed region); launch() runs c on `shape` asynchronously on `stream`, arming
// first if finish() ran since; finish() waits, copies the events back and detaches the
// buffer. Throws GemmError when c has no recording instance, std::runtime_error on a CUDA
// error.
class TimelineRecorder {
 public:
  explicit TimelineRecorder(uint32_t capacity_events);
  ~TimelineRecorder();
  TimelineRecorder(const TimelineRecorder&) = delete;
  TimelineRecorder& operator=(const TimelineRecorder&) = delete;
  void arm(cudaStream_t stream = nullptr);
  void launch(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream = nullptr);
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream = nullptr);

 private:
  struct State;
  State* state_;
};

// The recording instance run with no buffer attached (no TimelineRecorder alive: each
// CTA reads a capacity of 0 at its start, and its events write nothing), for timing it
// against the library's instance.
void launch_timeline_detached(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops,
                              cudaStream_t stream = nullptr);

}  // namespace gemmscope::sm90::k10
