// The example kernel's shared-memory accesses as the model predicts them
// (predicted_trace.cpp), through gemmscope's bank analysis: with the 128B swizzle
// every staging store and every A-chunk load is conflict-free; with plain 128-byte
// rows the A loads cost 8 wavefronts a phase. Writes both traces and a heat map for
// `gemmscope banks --trace` and `gemmscope viz` (into the test's working folder).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/graphviz.hpp"
#include "gemmscope/traces/trace.hpp"
#include "predicted_trace.hpp"

namespace gtr = gemmscope::traces;

namespace {

const gtr::GroupCost& stage_cost(const gtr::TraceAnalysis& a, const std::string& stage) {
  for (const auto& g : a.stages)
    if (g.stage == stage) return g;
  throw std::runtime_error("no stage " + stage);
}

}  // namespace

TEST(YourKernelTrace, SwizzledTilesAreConflictFree) {
  // One CTA, two K steps: 2 x (8 staging stores + 8 loads) per warp, 4 warps.
  const gtr::Trace t = your_kernel::predicted_trace({64, 64, 128}, 1024);
  ASSERT_EQ(t.records.size(), 4u * 2 * 16);
  const gtr::TraceAnalysis a = gtr::analyze_trace(t);
  // 16-byte accesses: 4 phases of 8 lanes; each phase's 128 bytes fill the 32 banks once.
  const auto& store = stage_cost(a, "store");
  const auto& load = stage_cost(a, "load");
  EXPECT_EQ(store.instructions, 64);
  EXPECT_EQ(store.ideal, 64 * 4);
  EXPECT_EQ(store.conflicts(), 0);
  EXPECT_EQ(load.instructions, 64);
  EXPECT_EQ(load.ideal, 64 * 4);
  EXPECT_EQ(load.conflicts(), 0);
  std::printf("%s", gtr::format_analysis(t, a, false).c_str());
  gtr::write_trace_file("tile_gemm.model.trace.jsonl", t, gtr::TraceFormat::JsonLines);
  std::ofstream("tile_gemm.model.heatmap.dot") << gtr::heatmap_dot(t, a, "tile_gemm, 128B swizzle (model)");
}

TEST(YourKernelTrace, PlainRowsConflictOnTheLoads) {
  const gtr::Trace t = your_kernel::predicted_trace({64, 64, 128}, 1024, false);
  const gtr::TraceAnalysis a = gtr::analyze_trace(t);
  // Eight lanes of a phase read chunk c of eight rows 128 bytes apart: the same 4 banks,
  // 8 different words each: 8 wavefronts a phase, 32 an instruction instead of 4.
  const auto& load = stage_cost(a, "load");
  EXPECT_EQ(load.wavefronts, 64 * 32);
  EXPECT_EQ(load.conflicts(), 64 * 28);
  // The stores stay conflict-free: eight lanes write one row's eight chunks.
  EXPECT_EQ(stage_cost(a, "store").conflicts(), 0);
  std::printf("%s", gtr::format_analysis(t, a, false).c_str());
  gtr::write_trace_file("tile_gemm.plain.trace.jsonl", t, gtr::TraceFormat::JsonLines);
}
