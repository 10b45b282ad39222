// k10_tunable with the timeline recorder compiled in, for the configurations below.
// Built only into gemmscope_kernels_timeline, with GEMMSCOPE_TIMELINE defined for this
// file (kernels/CMakeLists.txt): the kernel and launchers land in the inline namespace
// k10::timeline, apart from the library's instances of the same arguments.
#include "sm90/k10_timeline.hpp"

#include <string>

#include "sm90/k10_tunable.cuh"

#if !defined(GEMMSCOPE_TIMELINE)
#error "k10_timeline.cu is the recording build: compile it with -DGEMMSCOPE_TIMELINE"
#endif

// BM, BN, BK, stages, cluster M, cluster N, dynamic, ping-pong, swap: rows of
// tune/instances.hpp.
#define GEMMSCOPE_K10_TIMELINE_INSTANCES(X) \
  X(128, 256, 64, 4, 2, 1, 0, 0, 0)         \
  X(64, 128, 64, 8, 1, 1, 0, 0, 0)          \
  X(64, 256, 64, 5, 1, 1, 0, 0, 0)          \
  X(128, 128, 64, 6, 1, 1, 0, 0, 0)         \
  X(128, 160, 64, 5, 1, 1, 0, 0, 1)

namespace gemmscope::sm90::k10 {
namespace {

// The writers' state (timeline.cuh) in static shared memory, beside each instance's own.
#define GEMMSCOPE_K10_TIMELINE_FITS(BM, BN, BK, STAGES, CM, CN, DYN, PP, SWAP)                                    \
  static_assert(kSharedBytes<BM, BN, BK, STAGES> + timeline_record::kSharedBytes <= tune::kSm90MaxSharedPerBlock, \
                "k10 recording instance: its shared memory and the timeline writers' state within 227 KiB");
GEMMSCOPE_K10_TIMELINE_INSTANCES(GEMMSCOPE_K10_TIMELINE_FITS)
#undef GEMMSCOPE_K10_TIMELINE_FITS

struct TimelineInstance {
  tune::KernelConfig config;
  InstanceFns fns;
};

const std::vector<TimelineInstance>& table() {
  static const std::vector<TimelineInstance> t = [] {
    std::vector<TimelineInstance> v;
#define GEMMSCOPE_K10_TIMELINE_ROW(BM, BN, BK, STAGES, CM, CN, DYN, PP, SWAP)                                         \
  v.push_back({tune::instance_config(BM, BN, BK, STAGES, CM, CN, (DYN) != 0, (PP) != 0, (SWAP) != 0),                \
               InstanceFns{&resident_clusters<BM, BN, BK, STAGES, CM, CN, (DYN) != 0, (PP) != 0, (SWAP) != 0>,        \
                           &launch_instance<BM, BN, BK, STAGES, CM, CN, (DYN) != 0, (PP) != 0, (SWAP) != 0>}});
    GEMMSCOPE_K10_TIMELINE_INSTANCES(GEMMSCOPE_K10_TIMELINE_ROW)
#undef GEMMSCOPE_K10_TIMELINE_ROW
    return v;
  }();
  return t;
}

// c's compile-time part (group, split-K and stream-K are run-time).
tune::KernelConfig instance_part(tune::KernelConfig c) {
  c.group = 0;
  c.splits = 1;
  c.stream_k = false;
  return c;
}

const InstanceFns& fns_for(const tune::KernelConfig& c) {
  for (const auto& i : table())
    if (i.config == instance_part(c)) return i.fns;
  std::string list;
  for (const auto& i : table()) list += (list.empty() ? "" : ", ") + tune::to_string(i.config);
  throw GemmError("configuration " + tune::to_string(c) + " has no timeline recording instance; compiled: " + list);
}

}  // namespace

const std::vector<tune::KernelConfig>& timeline_instances() {
  static const std::vector<tune::KernelConfig> v = [] {
    std::vector<tune::KernelConfig> out;
    for (const auto& i : table()) out.push_back(i.config);
    return out;
  }();
  return v;
}

bool has_timeline_instance(const tune::KernelConfig& c) {
  for (const auto& i : table())
    if (i.config == instance_part(c)) return true;
  return false;
}

struct TimelineRecorder::State {
  explicit State(uint32_t capacity_events) : recording(capacity_events) {}
  gemmscope::timeline_record::Recording recording;
  bool armed = true;  // the constructor attaches the empty buffer
};

TimelineRecorder::TimelineRecorder(uint32_t capacity_events) : state_(new State(capacity_events)) {}
TimelineRecorder::~TimelineRecorder() { delete state_; }

void TimelineRecorder::launch(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops,
                              cudaStream_t stream) {
  const InstanceFns& fns = fns_for(c);
  if (!state_->armed) arm(stream);
  state_->armed = false;  // the next launch records afresh
  launch_with(fns, c, shape, ops, stream);
}

void TimelineRecorder::arm(cudaStream_t stream) {
  state_->recording.reset(stream);
  state_->recording.attach();
  state_->armed = true;
}

traces::timeline_record::RecordedTimeline TimelineRecorder::finish(cudaStream_t stream) {
  state_->armed = false;
  return state_->recording.finish(stream);
}

void launch_timeline_detached(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops,
                              cudaStream_t stream) {
  launch_with(fns_for(c), c, shape, ops, stream);
}

}  // namespace gemmscope::sm90::k10
