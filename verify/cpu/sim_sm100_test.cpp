// The Blackwell kernel's own schedule code run by the pipeline simulator
// (gemmscope/testing/sm100_binding.hpp): random interleavings of random configurations,
// exhaustive search of small ones (the kernel's PipelineState instantiated with two
// stages), every injected mutation caught, and tile coverage of the grouped order
// and of the cluster-launch-control walk.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>
#include <utility>

#if __has_include("common/sm100_schedule.hpp")
#include "gemmscope/testing/sm100_binding.hpp"

namespace {
using namespace gemmscope;
using model::sim::ExploreResult;
using model::sim::SimResult;
using model::sim::Violation;
using gemmscope::testing::sim::Sm100Mutations;
using gemmscope::testing::sim::Sm100ScheduleSim;
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
