// The example kernel built a second time with recording on: the same source
// (tile_gemm.cuh), its shared-memory addresses written into a device buffer by
// gemmscope's recorder (gemmscope/traces/recorder.cuh). The normal build is unchanged.
#define GEMMSCOPE_TRACE_RECORD 1
#include "gemmscope/traces/recorder.cuh"

#define your_kernel your_kernel_traced  // this build's kernel under another name
#include "tile_gemm.cuh"
#undef your_kernel

#include "tile_gemm.hpp"

namespace your_kernel {

gemmscope::traces::device_record::RecordedBuffer record_tile_gemm(Shape shape, const __nv_bfloat16* a,
                                                                  const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                  uint32_t capacity_records) {
  gemmscope::trace_record::Recording recording(capacity_records);
  your_kernel_traced::launch<false>(shape, a, b, c, nullptr);
  return recording.finish(nullptr);
}

}  // namespace your_kernel
