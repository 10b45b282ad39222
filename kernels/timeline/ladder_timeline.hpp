#pragma once
// k06-k09 with the timeline recorder compiled in (gemmscope/traces/timeline.cuh,
// docs/timelines.md): each kernel file built once more with GEMMSCOPE_TIMELINE
// (kernels/timeline/kNN_timeline.cu) into gemmscope_kernels_timeline, its kernel and
// launchers in the inline namespace kNN::timeline, apart from the library's. k08 and k09
// record their static schedule with 2 x 1 clusters, k09 its default group, as the
// registry's names run them. `gemmscope timeline record` runs them; k10 has its own
// (sm90/k10_timeline.hpp).
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gemmscope/gemm.hpp"
#include "gemmscope/traces/timeline_record.hpp"

namespace gemmscope::sm90 {

// A device buffer of `capacity_events` events that one recording build writes into, as
// k10's TimelineRecorder: arm() empties and attaches it (a synchronous copy to the
// kernel's symbol: outside a timed region); launch() runs the recording build
// asynchronously, arming first if finish() ran since; finish() waits, copies the
// events back and detaches the buffer. Throws std::runtime_error on a CUDA error.
class LadderRecorder {
 public:
  virtual ~LadderRecorder() = default;
  virtual void arm(cudaStream_t stream) = 0;
  virtual void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) = 0;
  virtual traces::timeline_record::RecordedTimeline finish(cudaStream_t stream) = 0;
};

struct LadderTimeline {
  std::string name;  // "k06"
  std::string (*can_implement)(const GemmShape&, const GemmOperands&) = nullptr;  // the library's rules
  void (*launch_library)(const GemmShape&, const GemmOperands&, cudaStream_t) = nullptr;
  // The recording build with no buffer attached (no recorder alive): each CTA reads
  // the buffer's capacity (0) at its start, and its events write nothing.
  void (*launch_detached)(const GemmShape&, const GemmOperands&, cudaStream_t) = nullptr;
  std::unique_ptr<LadderRecorder> (*recorder)(uint32_t capacity_events) = nullptr;
};

// k06, k07, k08, k09.
const std::vector<LadderTimeline>& ladder_timelines();
// The one named `name`; throws GemmError naming it and the list.
const LadderTimeline& ladder_timeline(const std::string& name);

}  // namespace gemmscope::sm90
