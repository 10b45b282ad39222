#pragma once
// Device pieces the Hopper ladder shares: mbarrier set-up and waits (through
// cuda::ptx), TMA loads, and the plain register-to-global epilogue of k02/k03.
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_bf16.h>

#include <cstdint>

#include "common/sm90_address.hpp"

namespace gemmscope::sm90 {

// Make the barriers initialised so far visible to the async proxy (TMA) and the
// cluster. One fence publishes every init before it: k10 inits all its barriers
// with cuda::ptx::mbarrier_init, then fences once.
__device__ __forceinline__ void fence_mbarrier_inits() {
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

__device__ __forceinline__ void mbarrier_init_and_fence(uint64_t* bar, uint32_t arrivals) {
  cuda::ptx::mbarrier_init(bar, arrivals);
  fence_mbarrier_inits();
}

// How long one try_wait may suspend the thread before it polls again (PTX ISA
// "mbarrier.try_wait", suspendTimeHint, in ns; CUTLASS's ClusterBarrier uses the
// same). The thread resumes as soon as the phase completes, so this only spares
// the shared-memory pipe the polls of a tight loop.
inline constexpr uint32_t kWaitSuspendHintNs = 0x989680;

__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t phase_parity) {
  const uint32_t hint = kWaitSuspendHintNs;  // the wrapper takes a reference: a device-side copy
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, phase_parity, hint)) {
  }
}

// One non-blocking test of the phase with this parity (acquire, like the wait):
// true when it has completed.
__device__ __forceinline__ bool mbarrier_test(uint64_t* bar, uint32_t phase_parity) {
  return cuda::ptx::mbarrier_test_wait_parity(bar, phase_parity);
}

__device__ __forceinline__ void mbarrier_expect_bytes(uint64_t* bar, uint32_t bytes) {
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, bar,
                                       bytes);
}

// TMA 2-D tile load into this CTA's shared memory, completing on `bar`.
// coords = {inner (column) element, row}.
__device__ __forceinline__ void tma_load_2d(void* smem_dst, const CUtensorMap* map, int32_t col, int32_t row,
                                            uint64_t* bar) {
  const int32_t coords[2] = {col, row};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst, map, coords, bar);
}

// Accumulators of one m64nNk16 wgmma (this thread's N/2 registers) stored to C
// with bounds checks: the epilogue of the kernels before k04.
template <int N>
__device__ __forceinline__ void store_accumulators_direct(const float (&acc)[N / 2], __nv_bfloat16* C, int M,
                                                          int Ncols, int row0, int col0) {
  const uint32_t t = threadIdx.x % 128;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    const int row = row0 + static_cast<int>(accumulator_row(t, i));
    const int col = col0 + static_cast<int>(accumulator_col(t, i));
    if (row < M && col < Ncols) C[static_cast<int64_t>(row) * Ncols + col] = __float2bfloat16_rn(acc[i]);
  }
}

}  // namespace gemmscope::sm90
