// The example kernel on the GPU (ctest label "gpu"; without a usable GPU every test
// reports SKIPPED, never passed):
//   - the differential harness on its launcher: random shapes against Eigen;
//   - the deliberately broken variant: the harness fails it and shrinks the failure to
//     the smallest shape that shows the bug;
//   - the recording build: the shared-memory addresses its warps used equal the model's
//     prediction (predicted_trace.cpp), record for record;
//   - the timeline build: one tile and one epilogue per CTA, consistent, on this GPU's
//     SMs, as a Chrome trace that passes the format's rules.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <utility>

#include "gemmscope/testing/differential.hpp"
#include "gemmscope/testing/gtest.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/chrome_trace.hpp"
#include "gemmscope/traces/device_decode.hpp"
#include "gemmscope/traces/timeline.hpp"
#include "gemmscope/traces/trace.hpp"
#include "predicted_trace.hpp"
#include "tile_address.hpp"
#include "tile_gemm.hpp"

namespace gt = gemmscope::testing;
namespace gtr = gemmscope::traces;

namespace {

// Device operands of a shape, zeroed: what the recording builds record does not depend on
// the values.
struct ZeroOperands {
  __nv_bfloat16 *a = nullptr, *b = nullptr, *c = nullptr;
  bool ok = false;
  explicit ZeroOperands(const gt::Shape& s) {
    ok = cudaMalloc(&a, s.m * s.k * 2) == cudaSuccess && cudaMalloc(&b, s.n * s.k * 2) == cudaSuccess &&
         cudaMalloc(&c, s.m * s.n * 2) == cudaSuccess && cudaMemset(a, 0, s.m * s.k * 2) == cudaSuccess &&
         cudaMemset(b, 0, s.n * s.k * 2) == cudaSuccess;
  }
  ZeroOperands(const ZeroOperands&) = delete;
  ZeroOperands& operator=(const ZeroOperands&) = delete;
  ~ZeroOperands() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

gt::DiffOptions options(const std::string& name) {
  gt::DiffOptions o;
  o.name = name;
  o.m = gt::gen::dimension(300);  // ragged and multi-tile (64 x 64 tiles, K steps of 64)
  o.n = gt::gen::dimension(300);
  o.k = gt::gen::dimension(300);
  return o;
}

}  // namespace

TEST(YourKernelGpu, MatchesEigenOnRandomShapes) {
  GEMMSCOPE_REQUIRE_GPU();
  gt::DiffOptions o = options("tile_gemm");
  o.max_success = 200;
  const gt::DiffResult r = gt::differential_test(your_kernel::launch_tile_gemm, o);
  std::printf("tile_gemm: %s\n", r.summary().c_str());
  EXPECT_TRUE(r.ok) << r.summary();
}

TEST(YourKernelGpu, MatchesEigenOnFixedShapes) {
  GEMMSCOPE_REQUIRE_GPU();
  uint64_t seed = 1;
  for (const gt::Shape s : {gt::Shape{1, 1, 1}, gt::Shape{64, 64, 64}, gt::Shape{65, 129, 200}, gt::Shape{13, 14, 15},
                            gt::Shape{300, 17, 1000}, gt::Shape{512, 512, 512}}) {
    const gt::CaseOutcome c = gt::run_differential_case(your_kernel::launch_tile_gemm, s, seed++);
    std::printf("tile_gemm %s\n", c.summary().c_str());
    EXPECT_TRUE(c.ok) << c.summary();
  }
}

// Row 13 of every A tile is staged without the swizzle (tile_address.hpp), so C's row 13
// is wrong whenever it exists: the smallest failing shape is M = 14 with N = K = 1.
TEST(YourKernelGpu, BrokenVariantIsCaughtAndShrunk) {
  GEMMSCOPE_REQUIRE_GPU();
  gt::DiffOptions o = options("tile_gemm (broken row 13)");
  o.seed = 1;
  o.print_report = false;
  const gt::DiffResult r = gt::differential_test(your_kernel::launch_tile_gemm_broken, o);
  std::printf("broken: %s\n", r.summary().c_str());
  ASSERT_FALSE(r.ok);
  ASSERT_TRUE(r.first_failure);
  ASSERT_TRUE(r.smallest_failure);
  EXPECT_FALSE(r.context_lost);
  EXPECT_GE(r.first_failure->shape.m, int64_t{your_kernel::kBrokenRow} + 1);
  EXPECT_EQ(r.smallest_failure->shape, (gt::Shape{your_kernel::kBrokenRow + 1, 1, 1}))
      << gt::to_string(r.smallest_failure->shape);
  EXPECT_EQ(r.smallest_failure->cmp.first_bad_row, your_kernel::kBrokenRow);
}

TEST(YourKernelGpu, RecordedTraceIsTheModelsPrediction) {
  GEMMSCOPE_REQUIRE_GPU();
  const gt::Shape s{128, 128, 128};  // 4 CTAs, 2 K steps each
  const ZeroOperands ops(s);
  ASSERT_TRUE(ops.ok);
  const auto raw = your_kernel::record_tile_gemm(s, ops.a, ops.b, ops.c, 4096);
  const gtr::Trace recorded = gtr::write_device_trace("tile_gemm.gpu.trace.jsonl", raw, "tile_gemm",
                                                      "tile_gemm recorded on the GPU, shape 128x128x128");
  std::printf("wrote tile_gemm.gpu.trace.jsonl: %zu records, smem_base %llu\n", recorded.records.size(),
              static_cast<unsigned long long>(recorded.smem_base));
  EXPECT_EQ(recorded.smem_base % 1024, 0u) << "the tiles must start on a 1024-byte boundary";
  const gtr::Trace expected = your_kernel::predicted_trace(s, static_cast<uint32_t>(recorded.smem_base));
  ASSERT_EQ(recorded.records.size(), expected.records.size());
  const auto diff = gtr::first_difference(recorded, expected);
  EXPECT_FALSE(diff) << *diff;
  const gtr::TraceAnalysis analysis = gtr::analyze_trace(recorded);
  std::printf("%s", gtr::format_analysis(recorded, analysis, false).c_str());
  EXPECT_EQ(analysis.total.conflicts(), 0);
}

// 300 x 200 in 64 x 64 tiles: 5 x 4 CTAs, ragged in both. Each CTA's one warpgroup records
// its K loop as a tile and its stores as an epilogue: 4 events per CTA. The trace and its
// summary are left in the working folder (tile_gemm.timeline.json opens in
// ui.perfetto.dev).
TEST(YourKernelGpu, RecordedTimelineIsConsistent) {
  GEMMSCOPE_REQUIRE_GPU();
  const gt::Shape s{300, 200, 512};
  const ZeroOperands ops(s);
  ASSERT_TRUE(ops.ok);
  const auto raw = your_kernel::record_tile_gemm_timeline(s, ops.a, ops.b, ops.c, 1024);
  const gtr::Timeline t = gtr::decode_timeline(raw);
  EXPECT_EQ(t.dropped, 0u);
  EXPECT_EQ(gtr::check_timeline(t), std::vector<std::string>{});
  ASSERT_EQ(t.events.size(), 5u * 4u * 4u);
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  std::set<std::pair<int32_t, int32_t>> tiles;
  for (const gtr::TimelineEvent& e : t.events) {
    EXPECT_LT(e.sm, static_cast<uint32_t>(sms));
    if (e.kind == gtr::timeline_record::kKindTileBegin) tiles.insert({e.m0, e.n0});
  }
  std::set<std::pair<int32_t, int32_t>> expected;
  for (int32_t m0 = 0; m0 < 300; m0 += 64)
    for (int32_t n0 = 0; n0 < 200; n0 += 64) expected.insert({m0, n0});
  EXPECT_EQ(tiles, expected);
  const nlohmann::json chrome = gtr::timeline_to_chrome(t, "tile_gemm 300x200x512");
  EXPECT_EQ(gtr::validate_chrome_trace(chrome), std::vector<std::string>{});
  std::ofstream("tile_gemm.timeline.json") << chrome.dump();
  std::ofstream("tile_gemm.timeline.svg") << gtr::timeline_summary_svg(chrome, "tile_gemm 300x200x512");
  std::printf("wrote tile_gemm.timeline.json and tile_gemm.timeline.svg: %zu events\n", t.events.size());
}
