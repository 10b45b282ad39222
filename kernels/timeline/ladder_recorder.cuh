#pragma once
// The recorder of one ladder kernel's recording build (timeline/ladder_timeline.hpp),
// for the kNN_timeline.cu that includes the kernel: the buffer's symbol is private to
// that translation unit, so this header is included there, after the kernel. Such a
// file includes the library's kernel file, built with GEMMSCOPE_TIMELINE
// (kernels/CMakeLists.txt), so its kernel and launchers land in kNN::timeline, then
// this header, then GEMMSCOPE_LADDER_RECORDER(kNN).
#include <memory>

#include "gemmscope/traces/timeline.cuh"
#include "timeline/ladder_timeline.hpp"

#if !defined(GEMMSCOPE_TIMELINE)
#error "ladder_recorder.cuh belongs to a recording build: compile it with -DGEMMSCOPE_TIMELINE"
#endif

namespace gemmscope::sm90 {
namespace {

using LaunchFn = void (*)(const GemmShape&, const GemmOperands&, cudaStream_t);

template <LaunchFn Launch>
class RecorderOf final : public LadderRecorder {
 public:
  explicit RecorderOf(uint32_t capacity_events) : recording_(capacity_events) {}
  void arm(cudaStream_t stream) override {
    recording_.reset(stream);
    recording_.attach();
    armed_ = true;
  }
  void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) override {
    if (!armed_) arm(stream);
    armed_ = false;  // the next launch records afresh
    Launch(shape, ops, stream);
  }
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream) override {
    armed_ = false;
    return recording_.finish(stream);
  }

 private:
  timeline_record::Recording recording_;
  bool armed_ = true;  // the constructor attaches the empty buffer
};

template <LaunchFn Launch>
std::unique_ptr<LadderRecorder> make_recorder(uint32_t capacity_events) {
  return std::make_unique<RecorderOf<Launch>>(capacity_events);
}

}  // namespace
}  // namespace gemmscope::sm90

// The body of kNN_timeline.cu after its kernel file's include: the check that the
// kernel's shared memory and the writers' state fit, and kNN_timeline_fns
// (timeline/ladder_timeline.hpp) for kernel namespace NS (k06 ... k09).
#define GEMMSCOPE_LADDER_RECORDER(NS)                                                                  \
  static_assert(gemmscope::sm90::NS::kSmemBytes + gemmscope::timeline_record::kSharedBytes <= 232448, \
                #NS "'s recording build: its shared memory and the writers' state within 227 KiB");   \
  namespace gemmscope::sm90 {                                                                          \
  void NS##_timeline_fns(LadderTimeline& t) {                                                          \
    t.launch_detached = &NS::timeline::launch;                                                         \
    t.recorder = &make_recorder<&NS::timeline::launch>;                                                \
  }                                                                                                    \
  }
