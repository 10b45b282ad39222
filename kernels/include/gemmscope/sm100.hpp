#pragma once
// The Blackwell (sm_100a) GEMM: C[M,N] = A[M,K] * B[N,K]^T, bf16 in, fp32
// accumulate in Tensor Memory, bf16 out, all row-major and contiguous (A and B
// K-major). 2-SM tcgen05.mma (cta_group::2), TMA multicast in a 2 x 2 cluster,
// persistent through cluster launch control. kernels/sm100/README.md says how it
// was checked: compiled and its host-side parts tested; it has not run on a
// Blackwell GPU here.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>

namespace gemmscope::sm100 {

using bf16 = __nv_bfloat16;

// Empty when the kernel can run this problem; else one line naming the value and
// the rule (sizes >= 1, K and N multiples of 8, 16-byte aligned pointers).
std::string can_implement(int M, int N, int K, const bf16* A, const bf16* B, const bf16* C);

// Launches on `stream`. Throws std::runtime_error("this kernel needs compute
// capability 10.0; found X.Y") on any other device (the sm_100a binary runs on
// 10.0 only), std::invalid_argument with can_implement's message on a refused
// problem, std::runtime_error on a CUDA error.
void launch_gemm(const bf16* A, const bf16* B, bf16* C, int M, int N, int K, cudaStream_t stream);

}  // namespace gemmscope::sm100
