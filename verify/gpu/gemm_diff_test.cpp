// Differential tests: every ladder kernel on the GPU against an Eigen reference
// on the CPU, on fresh random inputs, with C poisoned before each run. Shapes are
// drawn by rapidcheck, so a failure shrinks to the smallest failing (M, N, K).
// Label "gpu": where no GPU is present every test reports skipped.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <cstring>

#include <algorithm>
#include <cctype>

#include "bench/harness.hpp"
#include "gemmscope/testing/differential.hpp"
#include "gemmscope/auto_choice.hpp"
#include "gemmscope/kernel_registry.hpp"
#include "gemmscope/tuned.hpp"
#include "tune/cache.hpp"
#include "tune/config.hpp"

namespace gemmscope {
namespace {

using harness::HostProblem;
namespace testing_kit = gemmscope::testing;

bool need_gpu() {
  std::string why;
  if (harness::gpu_available(&why)) return true;
  std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
  return false;
}

#define REQUIRE_GPU()                       \
  do {                                      \
    if (!need_gpu()) GTEST_SKIP() << "no GPU"; \
  } while (0)

// Empty on a GPU that runs the Blackwell kernel (compute capability 10.0); else
// "needs an sm_100 GPU; this is <name> sm_XY".
std::string sm100_gpu_missing() {
  int device = 0;
  cudaDeviceProp prop{};
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  if (runs_sm100({prop.major, prop.minor})) return {};
  return "needs an sm_100 GPU; this is " + std::string(prop.name) + " sm_" + std::to_string(prop.major) +
         std::to_string(prop.minor);
}

// Skipped with the reason, never passed, where the GPU is not an sm_100.
#define REQUIRE_SM100()                                                        \
  do {                                                                         \
    if (const std::string why = sm100_gpu_missing(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// Dimensions: mostly small and ragged, some around tile edges, some large
// (gemmscope::testing's generators, as any kernel's differential test draws them).
rc::Gen<int64_t> dimension() { return testing_kit::gen::edgy_dimension(); }
rc::Gen<int64_t> multiple_of_8() { return testing_kit::gen::edgy_multiple_of_8(); }

// One random case: fresh inputs from a rapidcheck-drawn seed, then the check.
void check_case(const std::string& kernel, const GemmShape& shape, uint64_t seed) {
  const HostProblem p = HostProblem::random(shape, seed);
  const harness::Reference ref = harness::reference_gemm(p);
  const harness::CaseResult r = harness::run_case(kernel, p, ref);
  RC_LOG() << kernel << " " << shape.m << "x" << shape.n << "x" << shape.k << " seed " << seed << ": "
           << (r.ran ? r.cmp.summary() : "refused: " + r.refusal) << "\n";
  RC_ASSERT(r.ran);
  RC_ASSERT(r.cmp.ok);
}

// A registry kernel under the differential harness any launcher goes through
// (gemmscope/testing/differential.hpp): random shapes, fresh inputs, C poisoned,
// the K-scaled bound, a failure shrunk to its smallest shape. A refusal fails the case.
void property(const std::string& kernel, bool k_multiple_of_8, bool n_multiple_of_8) {
  const RunnableKernel k = resolve_kernel(kernel);
  testing_kit::DiffOptions options;
  options.name = kernel;
  options.m = dimension();
  options.n = n_multiple_of_8 ? multiple_of_8() : dimension();
  options.k = k_multiple_of_8 ? multiple_of_8() : dimension();
  const testing_kit::DiffResult r = testing_kit::differential_test(
      [&k](testing_kit::Shape s, const bf16* a, const bf16* b, bf16* c, cudaStream_t stream) {
        const GemmShape shape{s.m, s.n, s.k};
        const GemmOperands ops{a, b, c};
        if (const std::string why = k.can_implement(shape, ops); !why.empty()) throw GemmError("refused: " + why);
        k.launch(shape, ops, stream);
      },
      options);
  EXPECT_TRUE(r.ok) << r.summary();
}

TEST(GemmDiff, K01Naive) { REQUIRE_GPU(); property("k01", false, false); }
TEST(GemmDiff, K02TmaWgmma) { REQUIRE_GPU(); property("k02", true, false); }
TEST(GemmDiff, K03Swizzle128) { REQUIRE_GPU(); property("k03", true, false); }
TEST(GemmDiff, K04TmaStore) { REQUIRE_GPU(); property("k04", true, true); }
TEST(GemmDiff, K05Multicast2x1) { REQUIRE_GPU(); property("k05", true, true); }
TEST(GemmDiff, K05Multicast2x2) { REQUIRE_GPU(); property("k05_2x2", true, true); }
TEST(GemmDiff, K06WarpSpecialized) { REQUIRE_GPU(); property("k06", true, true); }
TEST(GemmDiff, K07EpilogueDoubleBuffer) { REQUIRE_GPU(); property("k07", true, true); }
TEST(GemmDiff, K08PersistentStatic) { REQUIRE_GPU(); property("k08", true, true); }
TEST(GemmDiff, K08PersistentNoCluster) { REQUIRE_GPU(); property("k08_c1", true, true); }
TEST(GemmDiff, K08PersistentDynamic) { REQUIRE_GPU(); property("k08_dyn", true, true); }
TEST(GemmDiff, K09BlockSwizzleStatic) { REQUIRE_GPU(); property("k09", true, true); }
TEST(GemmDiff, K09BlockSwizzleNoCluster) { REQUIRE_GPU(); property("k09_c1", true, true); }
TEST(GemmDiff, K09BlockSwizzleDynamic) { REQUIRE_GPU(); property("k09_dyn", true, true); }
// The Blackwell kernel under the same property (its rules: K and N multiples of 8;
// M anything), on an sm_100 GPU only.
TEST(GemmDiff, Sm100) { REQUIRE_GPU(); REQUIRE_SM100(); property("sm100", true, true); }
// Tiny, ragged and multi-tile shapes: one row, a partial 256 x 512 cluster tile in
// each direction, exactly one tile, and grids of several tiles (the CLC walk and the
// two-slot accumulator ring: more tiles than resident clusters, long and short K).
TEST(GemmDiff, Sm100FixedShapes) {
  REQUIRE_GPU();
  REQUIRE_SM100();
  const GemmShape shapes[] = {{1, 8, 8},       {1, 1, 8} /* refused: N */, {7, 16, 8},     {129, 264, 72},
                              {255, 520, 136}, {256, 512, 64},             {257, 1032, 520}, {1000, 2056, 1000},
                              {4096, 4096, 4096}, {8192, 512, 64}};
  uint64_t seed = 100;
  for (const auto& s : shapes) {
    const HostProblem p = HostProblem::random(s, seed++);
    const auto r = harness::run_case("sm100", p, harness::reference_gemm(p));
    if (s.n % 8 != 0) {
      EXPECT_FALSE(r.ran) << s.m << "x" << s.n << "x" << s.k;
      continue;
    }
    ASSERT_TRUE(r.ran) << s.m << "x" << s.n << "x" << s.k << ": " << r.refusal;
    EXPECT_TRUE(r.cmp.ok) << "sm100 " << s.m << "x" << s.n << "x" << s.k << ": " << r.cmp.summary();
  }
}
// gemmscope::gemm's dispatch on any shape, K and N not multiples of 8 included.
// k10, the tunable kernel: every compiled instance, plain and with the grouped
// tile order, with and without split-K (the split count is drawn per case: 2..8,
// at most one split per BK-deep k-block) or stream-K (static instances, one case
// in three), against Eigen.
class K10Instances : public ::testing::TestWithParam<int> {};
TEST_P(K10Instances, MatchesEigen) {
  REQUIRE_GPU();
  const tune::KernelConfig base = tune::compiled_instances().at(GetParam());
  const bool ok = rc::check(tune::to_string(base) + " matches Eigen", [&] {
    GemmShape s;
    s.m = *dimension();
    s.n = *multiple_of_8();
    s.k = *multiple_of_8();
    tune::KernelConfig c = base;
    c.group = *rc::gen::element(0, 0, 1, 2, 8);
    const int64_t k_blocks = tune::decompose(base, {s.m, s.n, s.k}).k_blocks;
    c.splits = static_cast<int>(*rc::gen::inRange<int64_t>(1, std::min<int64_t>(8, k_blocks) + 1));
    if (c.schedule == tune::Schedule::Static && *rc::gen::inRange(0, 3) == 0) c.splits = 1, c.stream_k = true;
    check_case("k10:" + tune::to_string(c), s, *rc::gen::arbitrary<uint64_t>());
  });
  EXPECT_TRUE(ok);
}
INSTANTIATE_TEST_SUITE_P(GemmDiff, K10Instances,
                         ::testing::Range(0, static_cast<int>(tune::compiled_instances().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name = tune::to_string(tune::compiled_instances().at(info.param));
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// Split-K and the grouped order on shapes where they matter: few output tiles and
// a long K (the shapes the tuner picks split-K for), ragged in M.
// Stream-K (splits 0 below) on the same shapes and on one with whole waves before
// the stream-K tiles (16 x 25 tiles of 128 x 64: 264 whole, 136 stream-K).
// One random problem and one Eigen reference per shape, shared by every configuration
// (each run's output is poisoned first, harness::run_case): the references, not the
// GPU, are what this test's time goes on.
TEST(GemmDiff, K10SplitKLongK) {
  REQUIRE_GPU();
  uint64_t seed = 4242;
  // The third shape has more tiles than clusters for the small-tile instances
  // (e.g. 9 x 25 tiles of 128 x 64 on 132 SMs): whole tiles in the full wave,
  // split-K only for the remainder.
  for (const GemmShape s : {GemmShape{100, 264, 4096}, GemmShape{129, 512, 2056}, GemmShape{1100, 1600, 1024},
                            GemmShape{2000, 1600, 520}}) {
    const HostProblem p = HostProblem::random(s, seed++);
    const auto reference = harness::reference_gemm(p);
    for (const auto& base : tune::compiled_instances())
      for (const int splits : {1, 3, 8, 0}) {
        tune::KernelConfig c = base;
        if (splits == 0 && c.schedule != tune::Schedule::Static) continue;
        // At most one split per k-block (K = 520 is 5 k-blocks of BK = 128).
        c.splits = static_cast<int>(std::min<int64_t>(std::max(splits, 1), tune::decompose(c, {s.m, s.n, s.k}).k_blocks));
        c.stream_k = splits == 0;
        c.group = splits == 3 || splits == 0 ? 2 : 0;
        const auto r = harness::run_case("k10:" + tune::to_string(c), p, reference);
        ASSERT_TRUE(r.ran) << r.refusal;
        EXPECT_TRUE(r.cmp.ok) << tune::to_string(c) << " " << s.m << "x" << s.n << "x" << s.k << ": "
                              << r.cmp.summary();
      }
  }
}

// Rows past M: M below one tile, a tail tile of a few rows, and whole CTAs of a
// cluster past M (the kernel loads A's tail box, or no A, for those; Problem::a_rows),
// for every instance, with and without split-K.
TEST(GemmDiff, K10RowsPastM) {
  REQUIRE_GPU();
  uint64_t seed = 7700;
  for (const GemmShape s : {GemmShape{1, 1032, 520}, GemmShape{7, 264, 1024}, GemmShape{64, 520, 264},
                            GemmShape{65, 1032, 1024}, GemmShape{200, 520, 520}}) {
    const HostProblem p = HostProblem::random(s, seed++);
    const auto ref = harness::reference_gemm(p);
    for (const auto& base : tune::compiled_instances())
      for (const int splits : {1, 2}) {
        tune::KernelConfig c = base;
        c.splits = splits;
        const auto r = harness::run_case("k10:" + tune::to_string(c), p, ref);
        ASSERT_TRUE(r.ran) << r.refusal;
        EXPECT_TRUE(r.cmp.ok) << tune::to_string(c) << " " << s.m << "x" << s.n << "x" << s.k << ": "
                              << r.cmp.summary();
      }
  }
}

// Several units per CTA: more tiles than the persistent grid has CTAs (132 SMs), for
// every instance, so each CTA runs two or more units in a row. The deferred epilogue
// (the alternating-buffer cooperative tiles: 128 x 168, 224, 256) stores a unit's tile
// during the next unit's first k-blocks; K = 136 gives units of fewer k-blocks than
// store boxes (the rest of the held tile goes after the main loop), K = 1000 longer
// ones. The box count runs on across units, so 128 x 168's three boxes per tile
// start the next tile in the other buffer.
TEST(GemmDiff, K10ManyUnitsPerCta) {
  REQUIRE_GPU();
  uint64_t seed = 9100;
  for (const GemmShape s : {GemmShape{2176, 2312, 136}, GemmShape{1800, 3000, 1000}}) {
    const HostProblem p = HostProblem::random(s, seed++);
    const auto ref = harness::reference_gemm(p);
    for (const auto& base : tune::compiled_instances())
      for (const int group : {0, 8}) {
        tune::KernelConfig c = base;
        c.group = group;
        const tune::Decomposition d = tune::decompose(c, {s.m, s.n, s.k});
        ASSERT_GT(d.tiles_m * d.tiles_n, 132) << tune::to_string(c);
        const auto r = harness::run_case("k10:" + tune::to_string(c), p, ref);
        ASSERT_TRUE(r.ran) << r.refusal;
        EXPECT_TRUE(r.cmp.ok) << tune::to_string(c) << " " << s.m << "x" << s.n << "x" << s.k << ": "
                              << r.cmp.summary();
      }
  }
}

// Split-K and stream-K are deterministic too: the reduction sums the pieces of a
// tile in a fixed order.
TEST(GemmDiff, K10SplitKDeterministic) {
  REQUIRE_GPU();
  const GemmShape s{300, 520, 3000};
  const HostProblem p = HostProblem::random(s, 5);
  harness::DeviceProblem d(p);
  for (const auto& base : tune::compiled_instances())
    for (const bool stream_k : {false, true}) {
      if (stream_k && base.schedule != tune::Schedule::Static) continue;
      tune::KernelConfig c = base;
      c.splits = stream_k ? 1 : 5;
      c.stream_k = stream_k;
      std::vector<bf16> first;
      for (int run = 0; run < 3; ++run) {
        d.poison_c();
        gemm(s, d.operands(), nullptr, "k10:" + tune::to_string(c));
        check_cuda(cudaDeviceSynchronize(), "split-K determinism run");
        auto out = d.download_c();
        if (run == 0) first = out;
        else EXPECT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(bf16))) << tune::to_string(c);
      }
    }
}

// Dispatch through the tuning cache: an entry for this GPU/CUDA/driver/kernel version
// and shape is used; the same entry from another GPU is ignored (the heuristic
// decides, with a warning); either way the result matches Eigen.
TEST(GemmDiff, TuningCacheDispatch) {
  REQUIRE_GPU();
  const GemmShape s{200, 512, 1024};
  const std::string path = ::testing::TempDir() + "/gemmscope_dispatch_cache.json";
  const std::string picked = "64x128x64.s8.wg1.c1x1.static.g1.sk2";
  auto write_cache = [&](const std::string& gpu) {
    tune::TuneCache cache;
    tune::TuneKey key = tune_key_here(s);
    key.gpu = gpu;
    cache.upsert(tune::TuneEntry{key, picked, 0.01, 0.01, 1, "2026-11-29T00:00:00Z"});
    tune::save_tune_cache(path, cache);
  };
  write_cache(tune_key_here(s).gpu);
  use_tune_cache(path);
  EXPECT_EQ(tune::to_string(choose(s).config), picked);
  EXPECT_EQ(choose(s).source, "tuning cache " + path);
  const HostProblem p = HostProblem::random(s, 77);
  const auto ref = harness::reference_gemm(p);
  auto r = harness::run_case("auto", p, ref);
  ASSERT_TRUE(r.ran) << r.refusal;
  EXPECT_TRUE(r.cmp.ok) << r.cmp.summary();

  write_cache("Some Other GPU");
  use_tune_cache(path);
  EXPECT_EQ(choose(s).source, "heuristic");
  r = harness::run_case("auto", p, ref);
  ASSERT_TRUE(r.ran) << r.refusal;
  EXPECT_TRUE(r.cmp.ok) << r.cmp.summary();
  use_tune_cache("");
}

TEST(GemmDiff, AutoAnyShape) { REQUIRE_GPU(); property("auto", false, false); }

// auto runs sm100 exactly on an sm_100 GPU, where the shape suits it; elsewhere a
// rung of the ladder.
TEST(GemmDiff, AutoRunsSm100OnlyOnAnSm100Gpu) {
  REQUIRE_GPU();
  const bool sm100_gpu = sm100_gpu_missing().empty();
  const RunnableKernel k = resolve_kernel("auto");
  for (const GemmShape& s : {GemmShape{512, 4096, 1024}, GemmShape{129, 257, 72}}) {
    const HostProblem p = HostProblem::random(s, 3);
    harness::DeviceProblem d(p);
    const bool suits_sm100 = s.n % 8 == 0 && s.k % 8 == 0;
    EXPECT_EQ(k.dispatch(s, d.operands()) == "sm100", sm100_gpu && suits_sm100)
        << s.m << "x" << s.n << "x" << s.k << ": " << k.dispatch(s, d.operands());
  }
}

// Fixed shapes every run: tiny, LLM-like, square.
TEST(GemmDiff, FixedShapes) {
  REQUIRE_GPU();
  const GemmShape shapes[] = {{1, 1, 8}, {1, 1, 1}, {3, 5, 7}, {128, 128, 64}, {129, 257, 72}, {2048, 2048, 2048},
                              {512, 4096, 1024}, {1000, 1000, 1000}};
  uint64_t seed = 12345;
  for (const auto& s : shapes)
    for (const auto& k : sm90_kernels()) {
      const HostProblem p = HostProblem::random(s, seed++);
      const auto ref = harness::reference_gemm(p);
      const auto r = harness::run_case(k.name, p, ref);
      if (!r.ran) continue;  // refusals (K % 8) are covered by can_implement's own tests
      EXPECT_TRUE(r.cmp.ok) << k.name << " " << s.m << "x" << s.n << "x" << s.k << ": " << r.cmp.summary();
    }
}

// Same inputs, same kernel: bitwise-identical outputs across launches.
TEST(GemmDiff, Deterministic) {
  REQUIRE_GPU();
  const GemmShape s{777, 1032, 1096};
  const HostProblem p = HostProblem::random(s, 99);
  for (const auto& k : sm90_kernels()) {
    harness::DeviceProblem d(p);
    if (!k.can_implement(s, d.operands()).empty()) continue;
    std::vector<bf16> first;
    for (int run = 0; run < 3; ++run) {
      d.poison_c();
      k.launch(s, d.operands(), nullptr);
      check_cuda(cudaDeviceSynchronize(), "determinism run");
      auto c = d.download_c();
      if (run == 0) first = c;
      else EXPECT_EQ(0, std::memcmp(first.data(), c.data(), c.size() * sizeof(bf16))) << k.name << " run " << run;
    }
  }
}

// NaN and Inf in the inputs reach exactly the outputs they touch, as in the reference.
TEST(GemmDiff, NonFinitePropagates) {
  REQUIRE_GPU();
  const GemmShape s{200, 136, 256};
  HostProblem p = HostProblem::random(s, 7);
  p.a[5 * s.k + 17] = __float2bfloat16_rn(NAN);        // row 5 of C becomes NaN
  p.b[9 * s.k + 3] = __float2bfloat16_rn(INFINITY);    // column 9 of C becomes +-Inf or NaN
  for (const auto& k : sm90_kernels()) {
    harness::DeviceProblem d(p);
    if (!k.can_implement(s, d.operands()).empty()) continue;
    d.poison_c();
    k.launch(s, d.operands(), nullptr);
    check_cuda(cudaDeviceSynchronize(), "non-finite run");
    const auto c = d.download_c();
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        const float v = __bfloat162float(c[i * s.n + j]);
        const bool touched = i == 5 || j == 9;
        EXPECT_EQ(!std::isfinite(v), touched) << k.name << " C(" << i << "," << j << ") = " << v;
        if (HasFailure()) return;
      }
  }
}

// The registry's other names, as bench and check run them: cuBLAS holds the same
// reference; sm100 runs on a Blackwell GPU only and is refused by name elsewhere.
TEST(GemmDiff, CublasAndSm100ThroughTheRegistry) {
  REQUIRE_GPU();
  for (const GemmShape& s : {GemmShape{129, 257, 72}, GemmShape{512, 4096, 1024}}) {
    const HostProblem p = HostProblem::random(s, 5);
    const auto ref = harness::reference_gemm(p);
    const auto r = harness::run_case("cublas", p, ref);
    ASSERT_TRUE(r.ran) << r.refusal;
    EXPECT_TRUE(r.cmp.ok) << "cublas " << s.m << "x" << s.n << "x" << s.k << ": " << r.cmp.summary();
    const auto b = harness::run_case("sm100", p, ref);
    if (sm100_gpu_missing().empty()) {
      if (b.ran) EXPECT_TRUE(b.cmp.ok) << b.cmp.summary();  // N = 257 is refused by its rules
    } else {
      EXPECT_FALSE(b.ran);
      EXPECT_TRUE(b.refusal.starts_with("needs an sm_100 GPU (compute capability 10.0); this GPU is ")) << b.refusal;
    }
  }
}

// Refusals name the value and the rule.
TEST(GemmDiff, RefusesBadInput) {
  REQUIRE_GPU();
  const GemmShape s{64, 64, 64};
  const HostProblem p = HostProblem::random(s, 1);
  harness::DeviceProblem d(p);
  auto expect_error = [&](const GemmShape& shape, GemmOperands ops, const std::string& kernel, const char* needle) {
    try {
      gemm(shape, ops, nullptr, kernel);
      ADD_FAILURE() << "accepted " << needle;
    } catch (const GemmError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error({0, 64, 64}, d.operands(), "auto", "M = 0");
  expect_error({64, -3, 64}, d.operands(), "auto", "N = -3");
  expect_error({64, 64, 60}, d.operands(), "k03", "K = 60");
  expect_error({64, 60, 64}, d.operands(), "k04", "N = 60");
  expect_error(s, {nullptr, d.operands().b, d.operands().c}, "auto", "A is a null pointer");
  expect_error(s, {d.operands().a, d.operands().b, const_cast<bf16*>(d.operands().a)}, "auto", "C overlaps A");
  expect_error(s, d.operands(), "k99", "unknown");
  expect_error(s, d.operands(), "k10:128x256x64.s9.wg2.c2x1.static.g0.sk1", "not a compiled instance");
  expect_error(s, d.operands(), "k10:128x256x64.s4.wg2.c2x1.static.g0.sk2", "split-K = 2 exceeds");
  expect_error({64, 64, 60}, d.operands(), "k10", "K = 60");
}

}  // namespace
}  // namespace gemmscope

int main(int argc, char** argv) {
  // Enough random shapes per kernel for the ladder's acceptance (200+), unless set.
  if (!std::getenv("RC_PARAMS")) setenv("RC_PARAMS", "max_success=250", 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
