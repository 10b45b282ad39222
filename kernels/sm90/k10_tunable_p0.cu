// k10_tunable, part 0 of 3: the rows of tune/instances.hpp with row % 3 == 0
// (the kernel itself is in k10_tunable.cuh).
#include "sm90/k10_tunable.cuh"

namespace gemmscope::sm90::k10 {
InstanceFns part0_instance(int row) { return part_instance<0>(row); }
}  // namespace gemmscope::sm90::k10

