// k04_tma_store built a second time with GEMMSCOPE_TRACE_RECORD on, in namespace
// k04_traced, for `gemmscope trace record --kernel k04`: the same source, the
// epilogue's stmatrix row addresses recorded into a device buffer
// (kernels/common/trace_record.cuh). The normal k04 (k04_tma_store.cu) is unchanged.
#include "common/ptx_sm90.cuh"
#include "common/sm90_device.cuh"
#include "host/tensor_map.hpp"
#include "sm90/ladder.hpp"

#define GEMMSCOPE_TRACE_RECORD 1
#include "common/trace_record.cuh"
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
  namespace layout = gemmscope::traces::device_record;
  const size_t words = size_t{capacity_records} * layout::kWordsPerRecord;
  uint32_t* counter = nullptr;
  uint32_t* records = nullptr;
  check_cuda(cudaMalloc(&counter, sizeof(uint32_t)), "trace counter");
  check_cuda(cudaMalloc(&records, words * sizeof(uint32_t)), "trace records");
  RecordedBuffer out;
  try {
    check_cuda(cudaMemset(counter, 0, sizeof(uint32_t)), "trace counter reset");
    check_cuda(cudaMemset(records, 0, words * sizeof(uint32_t)), "trace records reset");
    const trace_record::DeviceTraceBuffer buffer{counter, records, capacity_records};
    check_cuda(cudaMemcpyToSymbol(trace_record::g_trace_buffer, &buffer, sizeof buffer), "trace buffer symbol");
    launch(shape, ops, stream);
    check_cuda(cudaStreamSynchronize(stream), "k04 (recording) run");
    uint32_t written = 0;
    check_cuda(cudaMemcpy(&written, counter, sizeof written, cudaMemcpyDeviceToHost), "trace counter copy");
    out.records_written = written;
    out.words.resize(words);
    check_cuda(cudaMemcpy(out.words.data(), records, words * sizeof(uint32_t), cudaMemcpyDeviceToHost),
               "trace records copy");
    const trace_record::DeviceTraceBuffer off{};
    check_cuda(cudaMemcpyToSymbol(trace_record::g_trace_buffer, &off, sizeof off), "trace buffer symbol reset");
  } catch (...) {
    cudaFree(counter);
    cudaFree(records);
    throw;
  }
  cudaFree(counter);
  cudaFree(records);
  return out;
}

}  // namespace gemmscope::sm90::k04_traced
