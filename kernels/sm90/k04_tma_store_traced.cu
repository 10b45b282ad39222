// k04_tma_store built a second time with GEMMSCOPE_TRACE_RECORD on, in namespace
// k04_traced, for `gemmscope trace record --kernel k04`: the same source, the
// epilogue's stmatrix row addresses recorded into a device buffer
// (gemmscope/traces/recorder.cuh). The normal k04 (k04_tma_store.cu) is unchanged.
#include "common/ptx_sm90.cuh"
#include "common/sm90_device.cuh"
#include "host/tensor_map.hpp"
#include "sm90/ladder.hpp"

#define GEMMSCOPE_TRACE_RECORD 1
#include "gemmscope/traces/recorder.cuh"
#include "common/trace_record_host.hpp"

// The kernel file's namespace gemmscope::sm90::k04 becomes gemmscope::sm90::k04_traced
// (its headers are already included above, so nothing else is renamed).
#define k04 k04_traced
#include "sm90/k04_tma_store.cu"
#undef k04

namespace gemmscope::sm90::k04_traced {

RecordedBuffer record_k04(const GemmShape& shape, const GemmOperands& ops, uint32_t capacity_records,
                          cudaStream_t stream) {
  if (auto why = validate_problem(shape, ops); !why.empty()) throw GemmError(why);
  if (auto why = can_implement(shape, ops); !why.empty()) throw GemmError(why);
  trace_record::Recording recording(capacity_records);
  launch(shape, ops, stream);
  return recording.finish(stream);
}

}  // namespace gemmscope::sm90::k04_traced
