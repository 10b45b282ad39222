// Trace analysis: hand-worked instructions, grouping by kernel and stage, and the
// laws that tie the totals to the per-instruction costs.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "gemmscope/traces/analysis.hpp"

namespace traces = gemmscope::traces;
namespace model = gemmscope::model;

namespace {

traces::TraceRecord record(traces::Stage stage, int width, uint64_t (*address)(int lane), std::string kernel = "") {
  traces::TraceRecord r;
  r.stage = stage;
  r.kernel = std::move(kernel);
  r.access.width_bytes = width;
  for (int t = 0; t < 32; ++t) r.access.address[t] = address(t);
  return r;
}

}  // namespace

TEST(TraceAnalysis, HandWorkedInstructions) {
  traces::Trace t;
  t.kernel = "hand";
  // 32 lanes, 4-byte loads, one 128-byte row apart: all in bank 0, 32 distinct words:
  // 32 wavefronts where 1 would do.
  t.records.push_back(record(traces::Stage::Load, 4, [](int lane) { return uint64_t(128 * lane); }));
  // Every lane the same word (broadcast): one wavefront, no conflict.
  t.records.push_back(record(traces::Stage::Load, 4, [](int) { return uint64_t(4 * 7); }));
  // Consecutive words: one wavefront, no conflict.
  t.records.push_back(record(traces::Stage::Store, 4, [](int lane) { return uint64_t(4 * lane); }));
  // 8-byte accesses, lane t at 256 t: phases of 16 lanes, each lane two words in banks
  // 0 and 1: 16 distinct words per bank per phase: 16 + 16 wavefronts, ideal 1 + 1.
  t.records.push_back(record(traces::Stage::Load, 8, [](int lane) { return uint64_t(256 * lane); }));
  const traces::TraceAnalysis a = traces::analyze_trace(t);
  ASSERT_EQ(a.instructions.size(), 4u);
  EXPECT_EQ(a.instructions[0].cost.wavefronts, 32);
  EXPECT_EQ(a.instructions[0].cost.ideal, 1);
  EXPECT_EQ(a.instructions[0].worst_bank, 0);
  EXPECT_EQ(a.instructions[0].worst_bank_words, 32);
  EXPECT_EQ(a.instructions[0].banks.words[0], 32);
  EXPECT_EQ(a.instructions[0].banks.excess[0], 31);
  EXPECT_EQ(a.instructions[1].cost.wavefronts, 1);
  EXPECT_EQ(a.instructions[1].cost.conflicts(), 0);
  EXPECT_EQ(a.instructions[1].worst_bank, 7);
  EXPECT_EQ(a.instructions[1].banks.worst_bank(), -1);
  EXPECT_EQ(a.instructions[2].cost.wavefronts, 1);
  EXPECT_EQ(a.instructions[3].cost.wavefronts, 32);
  EXPECT_EQ(a.instructions[3].cost.ideal, 2);
  EXPECT_EQ(a.instructions[3].banks.words[0], 32);
  EXPECT_EQ(a.instructions[3].banks.words[1], 32);
  EXPECT_EQ(a.instructions[3].banks.excess[1], 30);
  // Stages: load (instructions 0, 1, 3) and store (2), in order of first appearance.
  ASSERT_EQ(a.stages.size(), 2u);
  EXPECT_EQ(a.stages[0].stage, "load");
  EXPECT_EQ(a.stages[0].instructions, 3);
  EXPECT_EQ(a.stages[0].wavefronts, 32 + 1 + 32);
  EXPECT_EQ(a.stages[0].ideal, 1 + 1 + 2);
  EXPECT_EQ(a.stages[0].banks.worst_bank(), 0);  // excess 31 + 30 in bank 0, 30 in bank 1
  EXPECT_EQ(a.stages[1].stage, "store");
  EXPECT_EQ(a.stages[1].conflicts(), 0);
  EXPECT_EQ(a.total.wavefronts, 66);
  EXPECT_EQ(a.total.max_instruction_wavefronts, 32);
}

TEST(TraceAnalysis, GroupsByKernelThenStage) {
  traces::Trace t;
  t.kernel = "default";
  auto linear = [](int lane) { return uint64_t(4 * lane); };
  t.records.push_back(record(traces::Stage::Ldmatrix, 4, linear, "a"));
  t.records.push_back(record(traces::Stage::Ldmatrix, 4, linear, ""));
  t.records.push_back(record(traces::Stage::Stmatrix, 4, linear, "a"));
  t.records.push_back(record(traces::Stage::Ldmatrix, 4, linear, "a"));
  const traces::TraceAnalysis a = traces::analyze_trace(t);
  ASSERT_EQ(a.kernels.size(), 2u);
  EXPECT_EQ(a.kernels[0].kernel, "a");
  EXPECT_EQ(a.kernels[0].instructions, 3);
  EXPECT_EQ(a.kernels[1].kernel, "default");
  ASSERT_EQ(a.stages.size(), 3u);
  EXPECT_EQ(a.stages[0].kernel + "/" + a.stages[0].stage, "a/ldmatrix");
  EXPECT_EQ(a.stages[0].instructions, 2);
  EXPECT_EQ(a.stages[1].kernel + "/" + a.stages[1].stage, "default/ldmatrix");
  EXPECT_EQ(a.stages[2].kernel + "/" + a.stages[2].stage, "a/stmatrix");
  const nlohmann::json j = traces::analysis_json(t, a, true);
  EXPECT_EQ(j["instructions"].size(), 4u);
  EXPECT_EQ(j["total"]["wavefronts"], 4);
}

TEST(TraceAnalysis, BadRecordNamesIt) {
  traces::Trace t;
  t.records.push_back(record(traces::Stage::Load, 16, [](int lane) { return uint64_t(4 * lane); }));
  try {
    traces::analyze_trace(t);
    FAIL();
  } catch (const traces::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("record 0"), std::string::npos) << e.what();
  }
}

namespace {

rc::Gen<traces::Trace> gen_trace() {
  return rc::gen::exec([] {
    traces::Trace t;
    t.kernel = "k";
    const int n = *rc::gen::inRange(0, 12);
    for (int i = 0; i < n; ++i) {
      traces::TraceRecord r;
      r.kernel = *rc::gen::element(std::string(), std::string("other"));
      r.stage = *rc::gen::element(traces::Stage::Ldmatrix, traces::Stage::Stmatrix, traces::Stage::Load);
      r.access.width_bytes = *rc::gen::element(4, 8, 16);
      r.access.active_mask = *rc::gen::arbitrary<uint32_t>();
      // Small address space so that banks collide often.
      for (int lane = 0; lane < 32; ++lane)
        r.access.address[lane] = uint64_t{*rc::gen::inRange<uint32_t>(0, 96)} * r.access.width_bytes;
      t.records.push_back(r);
    }
    return t;
  });
}

}  // namespace

// Totals are sums: the trace's, each kernel's and each stage's wavefronts and ideal
// equal the sums of model::analyze over their records (computed here directly).
RC_GTEST_PROP(TraceAnalysisLaws, TotalsAreSumsOfInstructionCosts, ()) {
  const traces::Trace t = *gen_trace();
  const traces::TraceAnalysis a = traces::analyze_trace(t);
  int64_t wavefronts = 0, ideal = 0;
  std::map<std::string, int64_t> by_kernel, by_stage;
  for (const traces::TraceRecord& r : t.records) {
    const model::AccessCost c = model::analyze(r.access);
    wavefronts += c.wavefronts;
    ideal += c.ideal;
    by_kernel[t.kernel_of(r)] += c.wavefronts;
    by_stage[t.kernel_of(r) + "/" + std::string(traces::to_string(r.stage))] += c.wavefronts;
  }
  RC_ASSERT(a.total.wavefronts == wavefronts);
  RC_ASSERT(a.total.ideal == ideal);
  RC_ASSERT(a.total.instructions == static_cast<int64_t>(t.records.size()));
  RC_ASSERT(a.kernels.size() == by_kernel.size());
  for (const traces::GroupCost& k : a.kernels) RC_ASSERT(k.wavefronts == by_kernel[k.kernel]);
  RC_ASSERT(a.stages.size() == by_stage.size());
  for (const traces::GroupCost& s : a.stages) RC_ASSERT(s.wavefronts == by_stage[s.kernel + "/" + s.stage]);
}

// Bank pressure agrees with the model's phases: the words over all banks are the
// phases' distinct words; the excess is at least the conflicts (a phase's conflicts
// are its busiest bank's excess), and zero exactly when there are none.
RC_GTEST_PROP(TraceAnalysisLaws, BankPressureMatchesThePhases, ()) {
  const traces::Trace t = *gen_trace();
  const traces::TraceAnalysis a = traces::analyze_trace(t);
  for (const traces::InstructionCost& c : a.instructions) {
    int64_t distinct = 0;
    for (const model::PhaseCost& p : c.cost.phases) distinct += p.distinct_words;
    RC_ASSERT(std::accumulate(c.banks.words.begin(), c.banks.words.end(), int64_t{0}) == distinct);
    const int64_t excess = std::accumulate(c.banks.excess.begin(), c.banks.excess.end(), int64_t{0});
    RC_ASSERT(excess >= c.cost.conflicts());
    RC_ASSERT((excess == 0) == (c.cost.conflicts() == 0));
    if (!c.cost.phases.empty()) {
      int worst_phase = 0;
      for (const model::PhaseCost& p : c.cost.phases) worst_phase = std::max(worst_phase, p.wavefronts);
      RC_ASSERT(c.worst_bank_words == worst_phase);
    }
  }
}
