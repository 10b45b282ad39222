// NaN and Inf told apart: inputs with NaN, +Inf and -Inf planted among finite values,
// and every output element's class (NaN, +Inf, -Inf, finite) checked against what
// IEEE 754 arithmetic gives, worked out on the CPU by a plain rule over the products
// a[i][k] * b[j][k], never by the kernel:
//   any product NaN (a NaN operand, or Inf * 0)         -> NaN
//   else products of +Inf and of -Inf both present        -> NaN   (Inf + -Inf)
//   else a +Inf (or -Inf) product                         -> +Inf (or -Inf): Inf + finite
//   else                                                  -> finite, within the
//                                                            differential tests' bound
// The finite inputs are normal(0, 1), so no finite sum comes near overflow. The
// infinities sit at both ends of K, so split-K and stream-K meet them in different
// splits and must add the partial sums as IEEE says. C is filled with the largest
// finite bf16 before each run, so an element the kernel never writes fails whatever
// its class. Label "gpu": skipped (GEMMSCOPE_NO_GPU) where no GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "gemmscope/kernel_registry.hpp"

namespace gemmscope {
namespace {

enum class Class { Finite, Nan, PosInf, NegInf };

const char* name(Class c) {
  switch (c) {
    case Class::Finite: return "finite";
    case Class::Nan: return "NaN";
    case Class::PosInf: return "+Inf";
    case Class::NegInf: return "-Inf";
  }
  return "?";
}

Class class_of(float v) {
  if (std::isnan(v)) return Class::Nan;
  if (std::isinf(v)) return v > 0 ? Class::PosInf : Class::NegInf;
  return Class::Finite;
}

// The rule above, one element.
Class expected_class(const harness::HostProblem& p, int64_t i, int64_t j) {
  bool nan = false, pos_inf = false, neg_inf = false;
  for (int64_t k = 0; k < p.shape.k; ++k) {
    const float a = __bfloat162float(p.a[i * p.shape.k + k]), b = __bfloat162float(p.b[j * p.shape.k + k]);
    const bool a_inf = std::isinf(a), b_inf = std::isinf(b);
    if (std::isnan(a) || std::isnan(b) || (a_inf && b == 0.f) || (b_inf && a == 0.f)) {
      nan = true;
    } else if (a_inf || b_inf) {
      (std::signbit(a) == std::signbit(b) ? pos_inf : neg_inf) = true;
    }
  }
  if (nan || (pos_inf && neg_inf)) return Class::Nan;
  if (pos_inf) return Class::PosInf;
  if (neg_inf) return Class::NegInf;
  return Class::Finite;
}

bf16 bf(float v) { return __float2bfloat16_rn(v); }

// Random normal(0, 1) inputs with non-finite values planted (see the comment at the top).
harness::HostProblem planted(const GemmShape& s, uint64_t seed) {
  harness::HostProblem p = harness::HostProblem::random(s, seed);
  const int64_t k = s.k;
  auto a = [&](int64_t row, int64_t col) -> bf16& { return p.a[row * k + col]; };
  auto b = [&](int64_t row, int64_t col) -> bf16& { return p.b[row * k + col]; };
  a(5, 17) = bf(NAN);             // row 5: NaN
  b(9, k - 1) = bf(NAN);          // column 9: NaN, from the last k
  a(20, 3) = bf(INFINITY);        // row 20: +-Inf by the sign of b[j][3] ...
  b(30, 3) = bf(0.f);             // ... NaN in column 30 (Inf * 0)
  b(31, 3) = bf(-0.f);            // ... and in column 31 (Inf * -0)
  a(40, 3) = bf(INFINITY);        // row 40: Inf at both ends of K: +-Inf where the signs
  a(40, k - 2) = bf(-INFINITY);   // of b[j][3] and -b[j][k-2] agree, NaN where they differ
  b(50, k / 2) = bf(-INFINITY);   // column 50: -+Inf by the sign of a[i][k/2]
  return p;
}

// The kernels run: the ladder, and k10 with split-K, stream-K and the dynamic schedule.
std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : sm90_kernels()) names.push_back(k.name);
  for (const char* name : {"k10:128x256x64.s4.wg2.c2x1.static.g0.sk3", "k10:128x256x64.s4.wg2.c2x1.static.g0.streamk",
                           "k10:128x256x64.s4.wg2.c2x1.dynamic.g2.sk3", "k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk2",
                           "k10:64x128x64.s8.wg1.c1x1.static.g1.streamk", "auto"})
    names.push_back(name);
  return names;
}

bool need_gpu() {
  std::string why;
  if (harness::gpu_available(&why)) return true;
  std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
  return false;
}

void check_shape(const GemmShape& s, uint64_t seed) {
  const harness::HostProblem p = planted(s, seed);
  // The expected classes, and the reference for the finite ones.
  std::vector<Class> want(static_cast<size_t>(s.m * s.n));
  int counts[4] = {};
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j) ++counts[static_cast<int>(want[i * s.n + j] = expected_class(p, i, j))];
  // The planting reaches every class, and each rule: Inf * 0 (column 30), Inf + -Inf (row 40).
  ASSERT_GT(counts[static_cast<int>(Class::PosInf)], 0);
  ASSERT_GT(counts[static_cast<int>(Class::NegInf)], 0);
  ASSERT_GT(counts[static_cast<int>(Class::Nan)], s.m + s.n);
  ASSERT_EQ(want[20 * s.n + 30], Class::Nan);
  ASSERT_EQ(want[20 * s.n + 31], Class::Nan);
  int row40_nan = 0, row40_inf = 0;
  for (int64_t j = 0; j < s.n; ++j)
    if (j != 9 && j != 50) (want[40 * s.n + j] == Class::Nan ? row40_nan : row40_inf)++;
  ASSERT_GT(row40_nan, 0);
  ASSERT_GT(row40_inf, 0);
  const harness::Reference ref = harness::reference_gemm(p);
  const double k_term = static_cast<double>(s.k) * std::ldexp(1.0, -23);

  harness::DeviceProblem d(p);
  int ran = 0;
  for (const std::string& kernel : kernel_names()) {
    const RunnableKernel k = resolve_kernel(kernel);
    if (!k.can_implement(s, d.operands()).empty()) continue;
    ++ran;
    const size_t c_bytes = static_cast<size_t>(s.m * s.n) * sizeof(bf16);
    check_cuda(cudaMemset(d.operands().c, 0x7F, c_bytes), "fill C with 0x7F7F");  // the largest finite bf16
    k.launch(s, d.operands(), nullptr);
    check_cuda(cudaDeviceSynchronize(), ("non-finite run of " + kernel).c_str());
    const std::vector<bf16> c = d.download_c();
    int wrong = 0;
    for (int64_t i = 0; i < s.m && wrong < 10; ++i)
      for (int64_t j = 0; j < s.n && wrong < 10; ++j) {
        const size_t at = static_cast<size_t>(i * s.n + j);
        const float got = __bfloat162float(c[at]);
        const Class expected = want[at];
        if (class_of(got) != expected) {
          ++wrong;
          ADD_FAILURE() << kernel << " " << s.m << "x" << s.n << "x" << s.k << ": C(" << i << "," << j << ") = " << got
                        << ", expected " << name(expected);
        } else if (expected == Class::Finite) {
          const double bound = std::ldexp(std::abs(ref.c[at]), -8) + k_term * ref.abs_dot[at] + 1e-30;
          if (std::abs(got - ref.c[at]) > bound) {
            ++wrong;
            ADD_FAILURE() << kernel << " " << s.m << "x" << s.n << "x" << s.k << ": C(" << i << "," << j
                          << ") = " << got << ", reference " << ref.c[at] << " (bound " << bound << ")";
          }
        }
      }
  }
  EXPECT_GE(ran, 10) << "too few kernels ran " << s.m << "x" << s.n << "x" << s.k;
}

// A ragged M, N a multiple of 8 (the TMA store), K of 4 k-blocks.
TEST(GemmNonFinite, NanAndInfToldApart) {
  if (!need_gpu()) GTEST_SKIP() << "no GPU";
  check_shape({200, 136, 256}, 7);
}

// Few tiles and a long K: split-K splits every tile, stream-K spreads them over CTAs.
TEST(GemmNonFinite, NanAndInfToldApartAcrossSplits) {
  if (!need_gpu()) GTEST_SKIP() << "no GPU";
  check_shape({300, 520, 3000}, 11);
}

}  // namespace
}  // namespace gemmscope
