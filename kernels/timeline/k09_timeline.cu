// k09 with the timeline recorder compiled in (timeline/ladder_timeline.hpp): the
// library's kernel file, built here with GEMMSCOPE_TIMELINE (kernels/CMakeLists.txt),
// so its kernel and launchers land in k09::timeline.
#if !defined(GEMMSCOPE_TIMELINE)
#error "k09_timeline.cu is the recording build: compile it with -DGEMMSCOPE_TIMELINE"
#endif

#include "sm90/k09_block_swizzle.cu"
#include "timeline/ladder_recorder.cuh"

static_assert(gemmscope::sm90::k09::kSmemBytes + gemmscope::timeline_record::kSharedBytes <= 232448,
              "k09's recording build: its shared memory and the writers' state within 227 KiB per block");

namespace gemmscope::sm90 {
void k09_timeline_fns(LadderTimeline& t) {
  t.launch_detached = &k09::timeline::launch;
  t.recorder = &make_recorder<&k09::timeline::launch>;
}
}  // namespace gemmscope::sm90
