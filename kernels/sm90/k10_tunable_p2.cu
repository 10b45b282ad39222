// k10_tunable, part 2 of 3: the rows of tune/instances.hpp with row % 3 == 2
// (the kernel itself is in k10_tunable.cuh).
#include "sm90/k10_tunable.cuh"

namespace gemmscope::sm90::k10 {
InstanceFns part2_instance(int row) { return part_instance<2>(row); }
}  // namespace gemmscope::sm90::k10
