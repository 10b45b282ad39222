// gemmscope::gemm refuses bad problems before any CUDA call: sizes, null and
// misaligned pointers, C aliasing an input, unknown kernel names, TMA's rules, and
// "auto" falls back to a kernel that can run the shape. The kernel registry resolves
// every name and nothing else. No GPU is needed: the
// pointers are made-up addresses that are compared, never dereferenced. (It lives in
// verify/gpu/ only because it links the kernels library, which needs the toolkit.)
// Expected messages are the ones docs/input-validation.md documents; overlap and
// alignment cases are worked by hand from the byte ranges.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "gemmscope/gemm.hpp"
#include "gemmscope/kernel_registry.hpp"

namespace gemmscope {
namespace {

// Made-up device addresses 1 TiB apart: the operands of the shapes below never
// reach from one to the next. Cases with huge sizes place their own pointers.
const bf16* at(uintptr_t address) { return reinterpret_cast<const bf16*>(address); }
bf16* at_mut(uintptr_t address) { return reinterpret_cast<bf16*>(address); }
constexpr uintptr_t kTiB = uintptr_t{1} << 40;
const GemmOperands kApart{at(1 * kTiB), at(2 * kTiB), at_mut(3 * kTiB)};

std::string refusal(const GemmShape& s, const GemmOperands& ops, const std::string& kernel = "auto") {
  try {
    gemm(s, ops, nullptr, kernel);
  } catch (const GemmError& e) {
    return e.what();
  }
  return "(accepted: would have launched)";
}

TEST(GemmValidation, Sizes) {
  EXPECT_EQ(validate_problem({0, 64, 64}, kApart), "M = 0 must be at least 1");
  EXPECT_EQ(validate_problem({64, -3, 64}, kApart), "N = -3 must be at least 1");
  EXPECT_EQ(validate_problem({64, 64, 0}, kApart), "K = 0 must be at least 1");
  EXPECT_EQ(validate_problem({int64_t{1} << 31, 1, 1}, kApart),
            "each of M, N, K must be below 2^31 (got 2147483648 x 1 x 1)");
  EXPECT_EQ(validate_problem({1, 1, int64_t{1} << 40}, kApart),
            "each of M, N, K must be below 2^31 (got 1 x 1 x 1099511627776)");
  // The largest accepted sizes: 2^31-1 rows of one element, operands 4 GiB apart.
  const GemmOperands wide{at(16 * kTiB), at(32 * kTiB), at_mut(48 * kTiB)};
  EXPECT_EQ(validate_problem({(int64_t{1} << 31) - 1, 1, 1}, wide), "");
  // gemm() itself refuses before touching CUDA.
  EXPECT_EQ(refusal({0, 64, 64}, kApart), "M = 0 must be at least 1");
  EXPECT_EQ(refusal({64, 64, -1}, kApart, "k01"), "K = -1 must be at least 1");
}

TEST(GemmValidation, Pointers) {
  const GemmShape s{64, 64, 64};
  EXPECT_EQ(validate_problem(s, {nullptr, kApart.b, kApart.c}), "A is a null pointer");
  EXPECT_EQ(validate_problem(s, {kApart.a, nullptr, kApart.c}), "B is a null pointer");
  EXPECT_EQ(validate_problem(s, {kApart.a, kApart.b, nullptr}), "C is a null pointer");
  EXPECT_EQ(validate_problem(s, {at(kTiB + 1), kApart.b, kApart.c}), "A, B and C must be 2-byte aligned (bf16)");
  EXPECT_EQ(validate_problem(s, {kApart.a, kApart.b, at_mut(3 * kTiB + 3)}),
            "A, B and C must be 2-byte aligned (bf16)");
  EXPECT_EQ(refusal(s, {kApart.a, nullptr, kApart.c}), "B is a null pointer");
}

// A is 64 x 64 bf16 = 8192 bytes at [a, a + 8192).
TEST(GemmValidation, OutputMustNotAliasAnInput) {
  const GemmShape s{64, 64, 64};
  const uintptr_t a = kTiB, b = 2 * kTiB;
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(a)}), "C overlaps A: the output must not alias an input");
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(a + 8190)}), "C overlaps A: the output must not alias an input");
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(a - 8190)}), "C overlaps A: the output must not alias an input");
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(b + 4096)}), "C overlaps B: the output must not alias an input");
  // Touching is not overlapping: C right after A, or ending where A starts.
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(a + 8192)}), "");
  EXPECT_EQ(validate_problem(s, {at(a), at(b), at_mut(a - 8192)}), "");
  // A and B may be the same memory: both are only read.
  EXPECT_EQ(validate_problem(s, {at(a), at(a), at_mut(b)}), "");
}

TEST(GemmValidation, UnknownKernelNames) {
  for (const std::string name : {"k99", "", "K01", "k01 ", "cuBLAS", "sm90", "k10 "}) {
    const std::string why = refusal({64, 64, 64}, kApart, name);
    const std::string expected = "kernel '" + name + "' is unknown; known kernels: k01, ";
    EXPECT_EQ(why.substr(0, expected.size()), expected) << name;
    EXPECT_NE(why.find(", k10, auto, k10:<configuration>"), std::string::npos) << why;
    EXPECT_EQ(why.substr(why.size() - 15), ", cublas, sm100") << why;
  }
  // Bytes a terminal would not show are shown as \xHH.
  EXPECT_TRUE(refusal({64, 64, 64}, kApart, std::string("k0\x01")).starts_with("kernel 'k0\\x01' is unknown;"));
  // A malformed or uncompiled configuration: the configuration's own message.
  EXPECT_TRUE(refusal({64, 64, 64}, kApart, "k10:junk").starts_with("configuration 'junk': expected 7 fields"));
}

// Every name the registry lists resolves, to a kernel of that name; nothing touches the GPU.
TEST(GemmValidation, RegistryResolvesEveryName) {
  std::vector<std::string> names;
  for (const auto& k : sm90_kernels()) names.push_back(k.name);
  for (const char* other : {"auto", "cublas", "sm100", "k10:128x256x64.s4.wg2.c2x1.static.g0.sk1"})
    names.push_back(other);
  for (const std::string& name : names) {
    const RunnableKernel k = resolve_kernel(name);
    EXPECT_EQ(k.name, name);
    EXPECT_TRUE(k.can_implement && k.prepare && k.launch && k.dispatch) << name;
    if (name.find(':') == std::string::npos)
      EXPECT_NE(known_kernel_names().find(name), std::string::npos) << name;
    // validate_problem's rules come first, for every kernel.
    EXPECT_EQ(k.can_implement({0, 64, 64}, kApart), "M = 0 must be at least 1") << name;
  }
  EXPECT_EQ(resolve_kernel("cublas").can_implement({64, 64, 60}, kApart), "");  // cuBLAS takes any K
}

// sm100 goes through the registry like the others and refuses any GPU but compute
// capability 10.0 by name: here (no GPU, or a Hopper GPU) it is refused before launch.
TEST(GemmValidation, Sm100NeedsABlackwellGpu) {
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess && major == 10)
    GTEST_SKIP() << "a Blackwell GPU: sm100 runs here";
  cudaGetLastError();
  const std::string why = resolve_kernel("sm100").can_implement({256, 256, 64}, kApart);
  EXPECT_TRUE(why.starts_with("needs an sm_100 GPU (compute capability 10.0); ")) << why;
  EXPECT_TRUE(refusal({256, 256, 64}, kApart, "sm100").starts_with("sm100: needs an sm_100 GPU")) << why;
}

// TMA global strides are multiples of 16 bytes: K % 8 != 0 rules out every TMA kernel.
TEST(GemmValidation, TmaRulesAndTheAutoFallback) {
  const GemmShape odd_k{64, 64, 60};
  int refusing = 0;
  for (const auto& k : sm90_kernels()) {
    const std::string why = k.can_implement(odd_k, kApart);
    if (k.name == "k01") {
      EXPECT_EQ(why, "");  // the naive kernel reads with plain loads
    } else {
      ++refusing;
      EXPECT_EQ(why, "K = 60 must be a multiple of 8 for TMA (row stride 120 bytes must be a multiple of 16)")
          << k.name;
    }
  }
  EXPECT_GE(refusing, 3);
  EXPECT_EQ(select_kernel(odd_k, kApart).name, "k01");
  EXPECT_EQ(refusal(odd_k, kApart, "k03"),
            "k03: K = 60 must be a multiple of 8 for TMA (row stride 120 bytes must be a multiple of 16)");

  // An operand that is 2-byte but not 16-byte aligned: TMA kernels refuse, auto falls back.
  const GemmOperands a_off{at(kTiB + 2), kApart.b, kApart.c};
  EXPECT_EQ(sm90_kernels().at(1).can_implement({64, 64, 64}, a_off), "A must be 16-byte aligned for TMA");
  EXPECT_EQ(select_kernel({64, 64, 64}, a_off).name, "k01");
  const GemmOperands b_off{kApart.a, at(2 * kTiB + 8), kApart.c};
  EXPECT_EQ(sm90_kernels().at(1).can_implement({64, 64, 64}, b_off), "B must be 16-byte aligned for TMA");

  // With the rules met, auto picks a kernel that accepts the problem, and not k01.
  const KernelInfo& chosen = select_kernel({4096, 4096, 4096}, kApart);
  EXPECT_EQ(chosen.can_implement({4096, 4096, 4096}, kApart), "");
  EXPECT_NE(chosen.name, "k01");
}

// k01 runs one 16 x 16 thread block per output tile: gridDim.y <= 65535 tiles of 16 rows.
TEST(GemmValidation, GridLimits) {
  EXPECT_EQ(refusal({1048561, 8, 8}, kApart, "k01"), "k01: M = 1048561 exceeds k01's grid limit of 1048560");
  EXPECT_EQ(sm90_kernels().at(0).can_implement({1048560, 8, 8}, kApart), "");
}

}  // namespace
}  // namespace gemmscope
