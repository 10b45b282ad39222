#pragma once
// The example kernel: C = A * B^T (bf16 in, fp32 accumulate, bf16 out, row-major, any
// M, N, K >= 1), one 64 x 64 C tile per CTA, A and B staged through 128B-swizzled
// shared memory. A teaching kernel, not a fast one.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "gemmscope/testing/reference.hpp"  // gemmscope::testing::Shape
#include "gemmscope/traces/device_record.hpp"
#include "gemmscope/traces/timeline_record.hpp"

namespace your_kernel {

using Shape = gemmscope::testing::Shape;

// The launcher the differential harness takes (gemmscope::testing::Launcher).
void launch_tile_gemm(Shape shape, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c,
                      cudaStream_t stream);
// The same kernel with broken_tile_offset for A's staging (tile_address.hpp).
void launch_tile_gemm_broken(Shape shape, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c,
                             cudaStream_t stream);

// The recording build (tile_gemm_traced.cu): runs the kernel once with
// GEMMSCOPE_TRACE_RECORD on and returns what its warps recorded: every staging store
// (stage "store") and every A-chunk load (stage "load"), 16 bytes a lane.
gemmscope::traces::device_record::RecordedBuffer record_tile_gemm(Shape shape, const __nv_bfloat16* a,
                                                                  const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                  uint32_t capacity_records);

// The timeline build (tile_gemm_timeline.cu): runs the kernel once with
// GEMMSCOPE_TIMELINE on and returns its events: per CTA, the K loop (tile begin and
// end) and the stores of C (epilogue begin and end), with %globaltimer and the SM.
gemmscope::traces::timeline_record::RecordedTimeline record_tile_gemm_timeline(Shape shape, const __nv_bfloat16* a,
                                                                              const __nv_bfloat16* b, __nv_bfloat16* c,
                                                                              uint32_t capacity_events);

}  // namespace your_kernel
