// gemmscope::gemm: validation, the TMA kernels' shared rules, and the product through
// the kernel registry (host/kernel_registry.cpp).
#include "gemmscope/gemm.hpp"

#include "gemmscope/kernel_registry.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope {

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

namespace {
bool overlaps(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + static_cast<uintptr_t>(b_bytes) && y < x + static_cast<uintptr_t>(a_bytes);
}
}  // namespace

std::string validate_problem(const GemmShape& s, const GemmOperands& ops) {
  if (s.m < 1) return "M = " + std::to_string(s.m) + " must be at least 1";
  if (s.n < 1) return "N = " + std::to_string(s.n) + " must be at least 1";
  if (s.k < 1) return "K = " + std::to_string(s.k) + " must be at least 1";
  constexpr int64_t kMaxDim = int64_t{1} << 31;
  if (s.m >= kMaxDim || s.n >= kMaxDim || s.k >= kMaxDim)
    return "each of M, N, K must be below 2^31 (got " + std::to_string(s.m) + " x " + std::to_string(s.n) + " x " +
           std::to_string(s.k) + ")";
  if (!ops.a) return "A is a null pointer";
  if (!ops.b) return "B is a null pointer";
  if (!ops.c) return "C is a null pointer";
  if (reinterpret_cast<uintptr_t>(ops.a) % 2 || reinterpret_cast<uintptr_t>(ops.b) % 2 ||
      reinterpret_cast<uintptr_t>(ops.c) % 2)
    return "A, B and C must be 2-byte aligned (bf16)";
  const int64_t c_bytes = s.m * s.n * 2;
  if (overlaps(ops.c, c_bytes, ops.a, s.m * s.k * 2)) return "C overlaps A: the output must not alias an input";
  if (overlaps(ops.c, c_bytes, ops.b, s.n * s.k * 2)) return "C overlaps B: the output must not alias an input";
  return {};
}

namespace sm90 {
std::string tma_operand_rules(const GemmShape& s, const GemmOperands& ops) {
  if (s.k % 8 != 0)
    return "K = " + std::to_string(s.k) + " must be a multiple of 8 for TMA (row stride " + std::to_string(s.k * 2) +
           " bytes must be a multiple of 16)";
  if (reinterpret_cast<uintptr_t>(ops.a) % 16 != 0) return "A must be 16-byte aligned for TMA";
  if (reinterpret_cast<uintptr_t>(ops.b) % 16 != 0) return "B must be 16-byte aligned for TMA";
  return {};
}
}  // namespace sm90

void gemm(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream, const std::string& kernel) {
  const RunnableKernel k = resolve_kernel(kernel);
  if (auto why = validate_problem(shape, ops); !why.empty()) throw GemmError(why);
  // A named kernel's refusal names it; auto's ("no kernel can implement ...") says it all.
  if (auto why = k.can_implement(shape, ops); !why.empty())
    throw GemmError(kernel == "auto" ? why : k.name + ": " + why);
  k.launch(shape, ops, stream);
}

}  // namespace gemmscope
