// The example kernel built once more with the timeline recorder on: the same source
// (tile_gemm.cuh), its events written into a device buffer by gemmscope's recorder
// (gemmscope/traces/timeline.cuh). The normal build is unchanged.
#define GEMMSCOPE_TIMELINE 1
#include "gemmscope/traces/timeline.cuh"

#define your_kernel your_kernel_timeline  // this build's kernel under another name
#include "tile_gemm.cuh"
#undef your_kernel

#include "tile_gemm.hpp"

namespace your_kernel {

gemmscope::traces::timeline_record::RecordedTimeline record_tile_gemm_timeline(Shape shape, const __nv_bfloat16* a,
                                                                              const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                              uint32_t capacity_events) {
  gemmscope::timeline_record::Recording recording(capacity_events);
  your_kernel_timeline::launch<false>(shape, a, b, c, nullptr);
  return recording.finish(nullptr);
}

}  // namespace your_kernel
