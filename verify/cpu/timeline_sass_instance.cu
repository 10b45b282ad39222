// One k10 instance (128 x 256 x 64, 4 stages, 2x1 cluster, static cooperative), for
// timeline_sass_test.cmake: the kernel's SASS with the timeline recorder compiled out
// must equal the SASS of the same source with every timeline line removed.
#include "sm90/k10_tunable.cuh"

namespace gemmscope::sm90::k10 {
void* timeline_sass_instance() {
  return reinterpret_cast<void*>(&k10_tunable<128, 256, 64, 4, 2, 1, false, false>);
}
}  // namespace gemmscope::sm90::k10
