#pragma once
// The reference a GEMM kernel is held to: C = A * B^T from the same bf16 inputs, in
// double precision (Eigen), and the error bound for bf16 inputs, fp32 accumulation and
// bf16 output. Plain C++ (no CUDA): bf16 values are their 16 bits here, the layout of
// CUDA's __nv_bfloat16. The differential harness (differential.hpp) runs a kernel
// against it; gemmscope's own `check`, `bench` and GPU tests use the same.
#include <cstdint>
#include <string>
#include <vector>

namespace gemmscope::testing {

// C[M,N] = A[M,K] * B[N,K]^T; A, B and C row-major.
struct Shape {
  int64_t m = 0, n = 0, k = 0;
  bool operator==(const Shape&) const = default;
};
std::string to_string(const Shape& s);  // "MxNxK"

// bf16 <-> float on the 16 bits (round to nearest even; NaN stays NaN).
float bf16_bits_to_float(uint16_t bits);
uint16_t float_to_bf16_bits(float value);

// A host problem with fresh normal(0, 1) inputs drawn from `seed` (the same values
// for the same seed and shape).
struct HostProblem {
  Shape shape;
  std::vector<uint16_t> a, b;  // M x K, N x K bf16 bits, row-major
  static HostProblem random(const Shape& shape, uint64_t seed);
};

// C = A * B^T in double from the bf16 inputs, and per element the sum of |a_k||b_k|
// that scales the accumulation error bound.
struct Reference {
  std::vector<double> c, abs_dot;
};
Reference reference_gemm(const Shape& shape, const uint16_t* a, const uint16_t* b);
inline Reference reference_gemm(const HostProblem& p) { return reference_gemm(p.shape, p.a.data(), p.b.data()); }

// The bound: element-wise |c - r| <= 2^-8 |r| + K 2^-23 sum_k |a_k b_k| (bf16
// rounding of the output plus fp32 accumulation over K terms), norm-wise
// ||c - r|| / ||r|| <= 4e-3. Any NaN or Inf fails (outputs are poisoned with NaN
// before each run, so an element never written fails too).
struct Comparison {
  bool ok = false;
  double normwise_rel_error = 0;
  double worst_elementwise_ratio = 0;  // max |c - r| / bound (<= 1 passes)
  int64_t bad_elements = 0, nan_elements = 0;
  int64_t first_bad_row = -1, first_bad_col = -1;
  std::string summary() const;  // "PASS rel_err=... worst/bound=..." or "FAIL ... first_bad=(i,j)"
};
Comparison compare(const Shape& shape, const Reference& ref, const uint16_t* c);

}  // namespace gemmscope::testing
