// k06 with the timeline recorder compiled in (timeline/ladder_timeline.hpp): the
// library's kernel file, built here with GEMMSCOPE_TIMELINE (kernels/CMakeLists.txt),
// so its kernel and launchers land in k06::timeline.
#if !defined(GEMMSCOPE_TIMELINE)
#error "k06_timeline.cu is the recording build: compile it with -DGEMMSCOPE_TIMELINE"
#endif

#include "sm90/k06_warp_specialized.cu"
#include "timeline/ladder_recorder.cuh"

static_assert(gemmscope::sm90::k06::kSmemBytes + gemmscope::timeline_record::kSharedBytes <= 232448,
              "k06's recording build: its shared memory and the writers' state within 227 KiB per block");

namespace gemmscope::sm90 {
void k06_timeline_fns(LadderTimeline& t) {
  t.launch_detached = &k06::timeline::launch;
  t.recorder = &make_recorder<&k06::timeline::launch>;
}
}  // namespace gemmscope::sm90
