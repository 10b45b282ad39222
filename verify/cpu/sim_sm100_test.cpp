// The Blackwell kernel's own schedule code run by the pipeline simulator
// (gemmscope/testing/sm100_binding.hpp): random interleavings of random configurations,
// exhaustive search of small ones (the kernel's PipelineState instantiated with two
// stages), every injected mutation caught, and tile coverage of the grouped order
// and of the cluster-launch-control walk.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if __has_include("common/sm100_schedule.hpp")
#include "gemmscope/testing/sm100_binding.hpp"

namespace {
using namespace gemmscope;
using model::sim::ExploreResult;
using model::sim::SimResult;
using model::sim::Violation;
using gemmscope::testing::sim::Sm100Mutations;
using gemmscope::testing::sim::Sm100ScheduleSim;
using gemmscope::testing::sim::Sm100ScheduleSimOf;
using gemmscope::testing::sim::Sm100SimConfig;

Sm100SimConfig config_of(uint32_t tiles_m, uint32_t tiles_n, uint32_t k_blocks, uint32_t clusters, bool lockstep) {
  Sm100SimConfig c;
  c.tiles_m = tiles_m;
  c.tiles_n = tiles_n;
  c.k_blocks = k_blocks;
  c.resident_clusters = clusters;
  c.epilogue_lockstep = lockstep;
  return c;
}

// 100 cases: random grids, K, resident clusters, one random interleaving each, with
// the kernel's own 6-stage ring. Every 32 x 256 block of C is stored exactly once
// (16 per 256 x 512 tile).
RC_GTEST_PROP(SimSm100, RandomSchedulesOfRandomConfigsPass, ()) {
  const auto config = config_of(*rc::gen::inRange<uint32_t>(1, 4), *rc::gen::inRange<uint32_t>(1, 4),
                                *rc::gen::inRange<uint32_t>(1, 9), *rc::gen::inRange<uint32_t>(1, 4),
                                *rc::gen::arbitrary<bool>());
  Sm100ScheduleSim<> sim(config);
  const SimResult r = run_random(sim, *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(r.ok());
  RC_ASSERT(sim.outputs_in_order().size() == size_t{16} * config.tiles_m * config.tiles_n);
}

TEST(SimSm100, SameSeedSameSchedule) {
  const auto config = config_of(2, 2, 3, 2, false);
  Sm100ScheduleSim<> a(config), b(config);
  ASSERT_TRUE(run_random(a, 42).ok());
  ASSERT_TRUE(run_random(b, 42).ok());
  EXPECT_EQ(a.steps(), b.steps());
  EXPECT_EQ(a.outputs_in_order(), b.outputs_in_order());
}

TEST(SimSm100, InOrderScheduleAndHandWorkedCounts) {
  // One cluster, one tile, K = 64: each of the 4 producers issues one A and one B
  // box (8 TMA copies), each leader one MMA commit and one tmem_full commit, and
  // CTA 0 one try_cancel, which fails (the grid has one tile).
  Sm100ScheduleSim<> sim(config_of(1, 1, 1, 1, true));
  const SimResult r = run_in_order(sim);
  ASSERT_TRUE(r.ok()) << r.message;
  size_t tma = 0, commits = 0, cancels = 0;
  for (const auto& e : sim.events()) {
    if (e.kind != model::sim::SimEvent::Kind::async) continue;
    const std::string& lane = sim.async_lanes()[e.lane - sim.role_count()];
    tma += lane == "TMA";
    commits += lane == "tensor core";
    cancels += lane == "cluster launch control";
  }
  EXPECT_EQ(tma, 8u);
  EXPECT_EQ(commits, 4u);
  EXPECT_EQ(cancels, 1u);
  EXPECT_EQ(sim.outputs_in_order().size(), 16u);
}

// Bounded exhaustive: depth-first over the interleavings of one cluster, one tile,
// one k-block, a 2-stage ring (epilogue warps in lockstep), visiting distinct states
// up to a budget. The full space is larger than a unit test can walk (14 roles and
// 8 TMA copies that land in any order give hundreds of thousands of states), so
// this reports how far it got; every state visited must be clean.
TEST(SimSm100, BoundedExhaustiveSearchFindsNoViolation) {
  const ExploreResult r = explore(Sm100ScheduleSim<2>(config_of(1, 1, 1, 1, true)), 8'000);
  EXPECT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.states, 8'001u);  // the budget ran out before the space did
  std::printf("bounded exhaustive sm100 (2 stages, 1 tile, 1 k-block): %llu states, complete=%d\n",
              static_cast<unsigned long long>(r.states), r.complete ? 1 : 0);
}

// ---- One source: the kernel's schedule constants drive the simulation -------------------
// The binding takes the kernel's own schedule type (sm100::KernelSchedule, which
// gemm_sm100.cu is built with). A copy with one depth changed must change what is
// simulated; the unchanged type must reproduce the kernel's run exactly. 5 x 2 tiles
// (more than one group of the grouped order), K = 8 k-blocks, one resident cluster
// (the rest through CLC), epilogue warps in lockstep, the in-order schedule.
struct SimFigures {
  bool ok = false;
  uint64_t steps = 0;
  size_t waits = 0;
  std::vector<std::string> events;  // lane, first step and label of each, in order
  std::vector<std::string> outputs;
  std::string labels;  // every label, one per line
};
template <class Sched>
SimFigures simulate_with() {
  Sm100ScheduleSimOf<Sched> sim(config_of(5, 2, 8, 1, true));
  SimFigures f;
  f.ok = run_in_order(sim).ok();
  f.steps = sim.steps();
  for (const auto& e : sim.events()) {
    f.waits += e.kind == model::sim::SimEvent::Kind::wait;
    f.events.push_back(std::to_string(e.lane) + "@" + std::to_string(e.begin) + " " + e.label);
    f.labels += e.label + "\n";
  }
  f.outputs = sim.outputs_in_order();
  return f;
}
bool mentions(const SimFigures& f, const std::string& text) { return f.labels.find(text) != std::string::npos; }

TEST(SimSm100, FollowsTheKernelsConfig) {
  using Kernel = sm100::KernelSchedule;
  static_assert(Kernel::kStages == sm100::kStages && Kernel::kClcStages == sm100::kClcStages &&
                Kernel::kAccumSlots == sm100::kAccumSlots && Kernel::kGroupRowsM == sm100::kGroupRowsM);
  const SimFigures kernel = simulate_with<Kernel>();
  // Today's figures (the binding's run before it took the schedule as a type).
  ASSERT_TRUE(kernel.ok);
  EXPECT_EQ(kernel.steps, 1588u);
  EXPECT_EQ(kernel.events.size(), 2156u);
  EXPECT_EQ(kernel.waits, 568u);
  EXPECT_EQ(kernel.outputs.size(), 160u);  // 10 tiles x 16 blocks of 32 x 256
  using SpelledOut = sm100::Schedule<6, 2, 2, 4>;  // the same values, written out
  EXPECT_EQ(simulate_with<SpelledOut>().events, kernel.events);
  std::printf("kernel's schedule (6 stages, 2 slots, 2 CLC, group 4): %llu steps, %zu events, %zu waits\n",
              static_cast<unsigned long long>(kernel.steps), kernel.events.size(), kernel.waits);

  // Ring stages 6 -> 4: the producer's tail waits out 4 stages, not 6 (2 steps fewer
  // in each of 4 CTAs), and stages 4 and 5 are never filled.
  const SimFigures stages4 = simulate_with<Kernel::with_stages<4>>();
  ASSERT_TRUE(stages4.ok);
  EXPECT_EQ(stages4.steps, kernel.steps - 4 * (6 - 4));
  EXPECT_TRUE(mentions(kernel, "into stage 5"));
  EXPECT_FALSE(mentions(stages4, "into stage 4"));
  EXPECT_FALSE(mentions(stages4, "into stage 5"));
  EXPECT_NE(stages4.events, kernel.events);

  // CLC responses in flight 2 -> 1: the same work (steps and outputs), but the
  // scheduler waits for every reader before each try_cancel: more waits, only
  // response buffer 0.
  const SimFigures clc1 = simulate_with<Kernel::with_clc_stages<1>>();
  ASSERT_TRUE(clc1.ok);
  EXPECT_EQ(clc1.steps, kernel.steps);
  EXPECT_EQ(clc1.outputs, kernel.outputs);
  EXPECT_GT(clc1.waits, kernel.waits);
  EXPECT_TRUE(mentions(kernel, "try_cancel into response 1"));
  EXPECT_FALSE(mentions(clc1, "try_cancel into response 1"));
  EXPECT_NE(clc1.events, kernel.events);

  // TMEM accumulator slots 2 -> 1: only slot 0 is drained.
  const SimFigures accum1 = simulate_with<Kernel::with_accum_slots<1>>();
  ASSERT_TRUE(accum1.ok);
  EXPECT_TRUE(mentions(kernel, "drain slot 1"));
  EXPECT_FALSE(mentions(accum1, "drain slot 1"));
  EXPECT_NE(accum1.events, kernel.events);

  // Group rows 4 -> 1: the same blocks of C, stored in another tile order.
  const SimFigures group1 = simulate_with<Kernel::with_group_rows_m<1>>();
  ASSERT_TRUE(group1.ok);
  EXPECT_NE(group1.outputs, kernel.outputs);
  EXPECT_EQ(std::set<std::string>(group1.outputs.begin(), group1.outputs.end()),
            std::set<std::string>(kernel.outputs.begin(), kernel.outputs.end()));
  std::printf("stages 4: %llu steps; CLC 1: %zu waits; slots 1: %zu waits; group 1: first tile change at output %zu\n",
              static_cast<unsigned long long>(stages4.steps), clc1.waits, accum1.waits,
              static_cast<size_t>(std::mismatch(group1.outputs.begin(), group1.outputs.end(), kernel.outputs.begin()).first -
                                  group1.outputs.begin()));
}

// ---- Mutations: each must be caught -------------------------------------------------------
struct Mutation {
  const char* name;
  void (*apply)(Sm100Mutations&);
  std::set<Violation> accepted;  // the check(s) that may catch it first
};

const Mutation kMutations[] = {
    {"producer wrong initial phase", [](Sm100Mutations& m) { m.producer_wrong_initial_phase = true; },
     {Violation::deadlock}},
    {"mma wrong initial phase", [](Sm100Mutations& m) { m.mma_wrong_initial_phase = true; },
     {Violation::read_before_written, Violation::wrong_data}},
    {"epilogue wrong initial phase", [](Sm100Mutations& m) { m.epilogue_wrong_initial_phase = true; },
     {Violation::read_before_written}},
    {"missing tmem_empty arrive", [](Sm100Mutations& m) { m.epilogue_missing_tmem_empty_arrive = true; },
     {Violation::deadlock, Violation::unfinished_barrier}},
    {"producer stage off by one", [](Sm100Mutations& m) { m.producer_stage_off_by_one = true; },
     {Violation::read_before_written, Violation::wrong_data, Violation::overwrite_before_drained}},
    {"commit over-arrives on empty", [](Sm100Mutations& m) { m.commit_over_arrives = true; },
     {Violation::barrier_misuse}},
    // Skipping cluster id i+1 hands out i+2, which the hardware's queue hands out again
    // next: one tile computed twice is seen before the skipped one is missed.
    {"scheduler skips a tile", [](Sm100Mutations& m) { m.scheduler_skips_tile = true; },
     {Violation::duplicate_output, Violation::missing_output}},
    {"scheduler repeats a tile", [](Sm100Mutations& m) { m.scheduler_repeats_tile = true; },
     {Violation::duplicate_output}},
};

// Random schedules: a 3-tile grid (so the first response cancels a cluster and the
// one after it exists), 2 k-blocks, one resident cluster; 20 seeds per mutation, each
// must be caught by an accepted check.
TEST(SimSm100, EveryMutationIsCaughtByRandomSchedules) {
  for (const Mutation& m : kMutations) {
    for (uint64_t seed = 0; seed < 20; ++seed) {
      Sm100SimConfig config = config_of(1, 3, 2, 1, seed % 2 == 0);
      m.apply(config.mutations);
      Sm100ScheduleSim<> sim(config);
      const SimResult r = run_random(sim, seed);
      EXPECT_TRUE(m.accepted.count(r.violation))
          << m.name << ", seed " << seed << ": " << to_string(r.violation) << " " << r.message;
    }
  }
}

// Depth-first search finds each one too, within a small budget of states (2-stage
// ring, 1 x 3 tiles, 1 k-block).
TEST(SimSm100, EveryMutationIsCaughtByDepthFirstSearch) {
  for (const Mutation& m : kMutations) {
    Sm100SimConfig config = config_of(1, 3, 1, 1, true);
    m.apply(config.mutations);
    const ExploreResult r = explore(Sm100ScheduleSim<2>(config), 5'000);
    EXPECT_FALSE(r.ok()) << m.name << " not caught in " << r.states << " states";
    EXPECT_TRUE(m.accepted.count(r.violation)) << m.name << ": " << to_string(r.violation) << " " << r.message;
  }
}

// ---- Tile coverage ------------------------------------------------------------------------
// 100 cases: the grouped order (cluster_tile_of) is a bijection from cluster ids onto
// the tiles of a random grid: checked against a set, not against a second formula.
RC_GTEST_PROP(SimSm100, GroupedOrderVisitsEveryTileOnce, ()) {
  const sm100::TileGrid grid{*rc::gen::inRange<uint32_t>(1, 40), *rc::gen::inRange<uint32_t>(1, 40)};
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t id = 0; id < grid.tiles(); ++id) {
    const sm100::ClusterTile t = sm100::cluster_tile_of(id, grid);
    RC_ASSERT(t.m < grid.tiles_m);
    RC_ASSERT(t.n < grid.tiles_n);
    RC_ASSERT(seen.insert({t.m, t.n}).second);
  }
  RC_ASSERT(seen.size() == grid.tiles());
}

// 100 cases: with several resident clusters racing for cluster-launch-control
// responses (dynamic scheduling), every tile of a random grid is computed once.
RC_GTEST_PROP(SimSm100, ClcWalkCoversRandomGridsUnderRandomRaces, ()) {
  const auto config = config_of(*rc::gen::inRange<uint32_t>(1, 6), *rc::gen::inRange<uint32_t>(1, 6), 1,
                                *rc::gen::inRange<uint32_t>(1, 5), true);
  Sm100ScheduleSim<> sim(config);
  const SimResult r = run_random(sim, *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(r.ok());
  RC_ASSERT(sim.outputs_in_order().size() == size_t{16} * config.tiles_m * config.tiles_n);
}

TEST(SimSm100, BadConfigIsRefused) {
  EXPECT_THROW(Sm100ScheduleSim<>(config_of(0, 1, 1, 1, true)), model::ModelError);
  EXPECT_THROW(Sm100ScheduleSim<>(config_of(1, 1, 0, 1, true)), model::ModelError);
  EXPECT_THROW(Sm100ScheduleSim<>(config_of(1, 1, 1, 9, true)), model::ModelError);
}

}  // namespace

#else
TEST(SimSm100, SkippedWithoutKernels) { GTEST_SKIP() << "built without the kernels' headers (GEMMSCOPE_BUILD_KERNELS=OFF)"; }
#endif
