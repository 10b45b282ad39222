#include "gemmscope/testing/reference.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

namespace gemmscope::testing {

std::string to_string(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

float bf16_bits_to_float(uint16_t bits) {
  const uint32_t u = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t float_to_bf16_bits(float value) {
  uint32_t u;
  std::memcpy(&u, &value, sizeof u);
  if (std::isnan(value)) return static_cast<uint16_t>((u >> 16) | 0x40);  // stays a quiet NaN
  u += 0x7FFFu + ((u >> 16) & 1u);                                         // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}

HostProblem HostProblem::random(const Shape& shape, uint64_t seed) {
  HostProblem p;
  p.shape = shape;
  auto fill = [&](std::vector<uint16_t>& v, size_t count, uint64_t operand) {
    std::seed_seq seq{seed, operand};
    std::mt19937_64 rng(seq);
    std::normal_distribution<float> normal(0.f, 1.f);
    v.resize(count);
    for (auto& x : v) x = float_to_bf16_bits(normal(rng));
  };
  fill(p.a, static_cast<size_t>(shape.m * shape.k), 0);
  fill(p.b, static_cast<size_t>(shape.n * shape.k), 1);
  return p;
}

Reference reference_gemm(const Shape& shape, const uint16_t* a_bits, const uint16_t* b_bits) {
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto m = shape.m, n = shape.n, k = shape.k;
  Mat a(m, k), b(n, k);
  for (int64_t i = 0; i < m * k; ++i) a.data()[i] = bf16_bits_to_float(a_bits[i]);
  for (int64_t i = 0; i < n * k; ++i) b.data()[i] = bf16_bits_to_float(b_bits[i]);
  Reference r;
  r.c.resize(static_cast<size_t>(m * n));
  r.abs_dot.resize(static_cast<size_t>(m * n));
  Eigen::Map<Mat>(r.c.data(), m, n).noalias() = a * b.transpose();
  Eigen::Map<Mat>(r.abs_dot.data(), m, n).noalias() = a.cwiseAbs() * b.cwiseAbs().transpose();
  return r;
}

std::string Comparison::summary() const {
  std::ostringstream os;
  os << (ok ? "PASS" : "FAIL") << " rel_err=" << normwise_rel_error << " worst/bound=" << worst_elementwise_ratio;
  if (nan_elements) os << " nan=" << nan_elements;
  if (bad_elements) os << " bad=" << bad_elements;
  if (first_bad_row >= 0) os << " first_bad=(" << first_bad_row << "," << first_bad_col << ")";
  return os.str();
}

Comparison compare(const Shape& shape, const Reference& ref, const uint16_t* c) {
  Comparison out;
  const int64_t n = shape.n, total = shape.m * shape.n;
  const double k_term = static_cast<double>(shape.k) * std::ldexp(1.0, -23);
  double err2 = 0, ref2 = 0;
  for (int64_t i = 0; i < total; ++i) {
    const double got = bf16_bits_to_float(c[i]);
    const double want = ref.c[i];
    if (!std::isfinite(got)) {
      ++out.nan_elements;
      if (out.first_bad_row < 0) out.first_bad_row = i / n, out.first_bad_col = i % n;
      continue;
    }
    const double diff = std::abs(got - want);
    const double bound = std::ldexp(std::abs(want), -8) + k_term * ref.abs_dot[i] + 1e-30;
    out.worst_elementwise_ratio = std::max(out.worst_elementwise_ratio, diff / bound);
    if (diff > bound) {
      ++out.bad_elements;
      if (out.first_bad_row < 0) out.first_bad_row = i / n, out.first_bad_col = i % n;
    }
    err2 += diff * diff;
    ref2 += want * want;
  }
  out.normwise_rel_error = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  out.ok = out.nan_elements == 0 && out.bad_elements == 0 && out.normwise_rel_error <= 4e-3;
  return out;
}

}  // namespace gemmscope::testing
