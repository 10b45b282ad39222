// k10_tunable, part 1 of 3: the rows of tune/instances.hpp with row % 3 == 1
// (the kernel itself is in k10_tunable.cuh).
#include "sm90/k10_tunable.cuh"

namespace gemmscope::sm90::k10 {
InstanceFns part1_instance(int row) { return part_instance<1>(row); }
}  // namespace gemmscope::sm90::k10
