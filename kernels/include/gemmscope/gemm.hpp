#pragma once
// gemmscope::gemm: C[M,N] = A[M,K] * B[N,K]^T, bf16 in, fp32 accumulate, bf16 out,
// all row-major and contiguous (A and B K-major). Every shape with M, N, K >= 1.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemmscope {

using bf16 = __nv_bfloat16;

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
};

struct GemmOperands {
  const bf16* a = nullptr;  // M x K, row-major
  const bf16* b = nullptr;  // N x K, row-major
  bf16* c = nullptr;        // M x N, row-major
};

// A refused input: the message names the value and the rule.
class GemmError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Checks common to every kernel (sizes >= 1, non-null pointers, C not overlapping
// A or B); empty when fine.
std::string validate_problem(const GemmShape& shape, const GemmOperands& ops);

// Runs the product with `kernel`, any name of the kernel registry
// (gemmscope/kernel_registry.hpp): "auto" (the default) is the autotuned k10 where it
// can run the shape, with the configuration from the tuning cache or the heuristic
// (gemmscope/tuned.hpp), falling back down the ladder where TMA's alignment rules
// forbid it. Throws GemmError for an unknown name or a refused input (the message
// names the value and the rule); launch errors as std::runtime_error.
void gemm(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream = nullptr,
          const std::string& kernel = "auto");

// Throws std::runtime_error with the CUDA error string and the call site.
void check_cuda(cudaError_t err, const char* what);

}  // namespace gemmscope
