#pragma once
// Host side of the recording build (kernels/sm90/k04_tma_store_traced.cu): run k04
// with GEMMSCOPE_TRACE_RECORD on and bring back the raw records (device_record.hpp),
// for traces::decode_device_records. Built only with the kernels.
#include <cstdint>
#include <vector>

#include "gemmscope/gemm.hpp"
#include "gemmscope/traces/device_record.hpp"

namespace gemmscope::sm90::k04_traced {

using RecordedBuffer = traces::device_record::RecordedBuffer;

// Runs k04 (recording build) on `ops` and returns the records of every warp's
// epilogue stmatrix. Throws GemmError when k04 cannot run the shape,
// std::runtime_error on a CUDA error.
RecordedBuffer record_k04(const GemmShape& shape, const GemmOperands& ops, uint32_t capacity_records,
                          cudaStream_t stream = nullptr);

}  // namespace gemmscope::sm90::k04_traced
