// The Hopper ladder's k06-k09 schedules run by the pipeline simulator
// (gemmscope/testing/sm90_binding.hpp) on the kernels' own pipeline state, schedulers,
// tile orders and multicast masks: random interleavings of random configurations,
// exhaustive search of small ones, every injected mutation caught, and tile
// coverage of the static, dynamic and grouped zig-zag schedules.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if __has_include("common/sm90_scheduler.hpp")
#include "gemmscope/testing/sm90_binding.hpp"

namespace {
using namespace gemmscope;
using model::sim::ExploreResult;
using model::sim::SimResult;
using model::sim::Violation;
using gemmscope::testing::sim::Sm90Exit;
using gemmscope::testing::sim::Sm90Kernel;
using gemmscope::testing::sim::Sm90Mutations;
using gemmscope::testing::sim::Sm90ScheduleSim;
using gemmscope::testing::sim::Sm90SimConfig;

const Sm90Kernel kKernels[] = {Sm90Kernel::k06,        Sm90Kernel::k07,        Sm90Kernel::k08_static,
                               Sm90Kernel::k08_dynamic, Sm90Kernel::k09_static, Sm90Kernel::k09_dynamic};

bool persistent(Sm90Kernel k) { return k != Sm90Kernel::k06 && k != Sm90Kernel::k07; }

// Runs one random schedule with the ring depth the kernel compiles with.
SimResult run_kernel(const Sm90SimConfig& config, uint64_t seed, size_t* outputs = nullptr) {
  auto go = [&](auto sim) {
    const SimResult r = run_random(sim, seed);
    if (outputs) *outputs = sim.outputs_in_order().size();
    return r;
  };
  return config.kernel == Sm90Kernel::k06 ? go(Sm90ScheduleSim<3>(config)) : go(Sm90ScheduleSim<4>(config));
}

// 100 cases: a random kernel of k06-k09 (the persistent ones with cooperative or
// k10's ping-pong consumers), grid, K, cluster and worker count, one random
// interleaving. Every 64 x 64 box of C is stored exactly once, and every stage read
// holds the k-block its reader computes.
RC_GTEST_PROP(SimSm90, RandomSchedulesOfRandomConfigsPass, ()) {
  Sm90SimConfig c;
  c.kernel = *rc::gen::element(Sm90Kernel::k06, Sm90Kernel::k07, Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic,
                               Sm90Kernel::k09_static, Sm90Kernel::k09_dynamic);
  c.units_m = *rc::gen::inRange<uint32_t>(1, 4);
  c.units_n = *rc::gen::inRange<uint32_t>(1, 4);
  c.k_blocks = *rc::gen::inRange<uint32_t>(1, 7);
  c.cluster_m = persistent(c.kernel) ? *rc::gen::inRange<uint32_t>(1, 3) : 2;
  c.workers = *rc::gen::inRange<uint32_t>(1, 5);
  c.group = *rc::gen::inRange<uint32_t>(1, 4);
  c.pingpong = persistent(c.kernel) && *rc::gen::arbitrary<bool>();
  RC_TAG(c.pingpong ? "ping-pong" : "cooperative");
  size_t outputs = 0;
  const SimResult r = run_kernel(c, *rc::gen::arbitrary<uint64_t>(), &outputs);
  RC_ASSERT(r.ok());
  RC_ASSERT(outputs == size_t{8} * c.units_m * c.cluster_m * c.units_n);
}

// Exhaustive: every interleaving of a 2-stage ring, one persistent 1 x 1 cluster,
// two work tiles, one k-block (about 16,000 states each).
TEST(SimSm90, ExhaustiveSmallConfigsPass) {
  for (Sm90Kernel kernel :
       {Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic, Sm90Kernel::k09_static, Sm90Kernel::k09_dynamic}) {
    Sm90SimConfig c;
    c.kernel = kernel;
    c.units_m = 1;
    c.units_n = 2;
    c.k_blocks = 1;
    c.cluster_m = 1;
    c.workers = 1;
    const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 100'000);
    EXPECT_TRUE(r.ok()) << to_string(kernel) << ": " << r.message;
    EXPECT_TRUE(r.complete) << to_string(kernel) << ": " << r.states << " states";
    EXPECT_EQ(r.terminal_states, 1u) << to_string(kernel);
    std::printf("exhaustive %s (2 stages, 2 work tiles, 1 k-block, cluster 1x1): %llu states\n", to_string(kernel),
                static_cast<unsigned long long>(r.states));
  }
}

// k06/k07 run 2 x 1 clusters (6 roles, 16 TMA stores that finish in per-consumer
// order): over 400,000 states even for one k-block, so the search is bounded.
TEST(SimSm90, BoundedExhaustiveSearchOfTwoCtaClustersFindsNoViolation) {
  for (Sm90Kernel kernel : {Sm90Kernel::k06, Sm90Kernel::k07}) {
    Sm90SimConfig c;
    c.kernel = kernel;
    c.units_m = 1;
    c.units_n = 1;
    c.k_blocks = 2;
    c.cluster_m = 2;
    const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 15'000);
    EXPECT_TRUE(r.ok()) << to_string(kernel) << ": " << r.message;
    std::printf("bounded exhaustive %s (2 stages, 1 work tile, 2 k-blocks, cluster 2x1): %llu states, complete=%d\n",
                to_string(kernel), static_cast<unsigned long long>(r.states), r.complete ? 1 : 0);
  }
}

struct Mutation {
  const char* name;
  void (*apply)(Sm90Mutations&);
  std::set<Violation> accepted;
  bool persistent_only;
};
const Mutation kMutations[] = {
    {"producer wrong initial phase", [](Sm90Mutations& m) { m.producer_wrong_initial_phase = true; },
     {Violation::deadlock}, false},
    {"consumer wrong initial phase", [](Sm90Mutations& m) { m.consumer_wrong_initial_phase = true; },
     {Violation::read_before_written}, false},
    {"consumer misses a release", [](Sm90Mutations& m) { m.consumer_missing_release = true; },
     {Violation::deadlock, Violation::unfinished_barrier}, false},
    {"producer stage off by one", [](Sm90Mutations& m) { m.producer_stage_off_by_one = true; },
     {Violation::read_before_written, Violation::wrong_data, Violation::overwrite_before_drained}, false},
    {"scheduler skips a tile", [](Sm90Mutations& m) { m.scheduler_skips_tile = true; },
     {Violation::missing_output, Violation::duplicate_output, Violation::wrong_data}, true},
    {"scheduler repeats a tile", [](Sm90Mutations& m) { m.scheduler_repeats_tile = true; },
     {Violation::duplicate_output}, true},
};

// Random schedules: 20 seeds per mutation and kernel, cooperative consumers and (the
// persistent kernels) k10's ping-pong ones; 1 x 4 work tiles, 3 k-blocks, 2 workers
// (persistent kernels), cluster 2 x 1.
TEST(SimSm90, EveryMutationIsCaughtByRandomSchedules) {
  for (Sm90Kernel kernel : kKernels)
    for (const bool pingpong : {false, true})
      for (const Mutation& m : kMutations) {
        if ((m.persistent_only || pingpong) && !persistent(kernel)) continue;
        for (uint64_t seed = 0; seed < 20; ++seed) {
          Sm90SimConfig c;
          c.kernel = kernel;
          c.pingpong = pingpong;
          c.units_m = 1;
          c.units_n = 4;
          c.k_blocks = 3;
          c.workers = 2;
          m.apply(c.mutations);
          const SimResult r = run_kernel(c, seed);
          EXPECT_TRUE(m.accepted.count(r.violation))
              << to_string(kernel) << (pingpong ? " ping-pong" : "") << ", " << m.name << ", seed " << seed << ": "
              << to_string(r.violation) << " " << r.message;
        }
      }
}

// The staging double buffer (k07+): waiting for two pending stores instead of one
// lets stmatrix overwrite a buffer a store still reads. Depth-first search finds it.
TEST(SimSm90, StagingWaitOffByOneIsCaught) {
  for (Sm90Kernel kernel : {Sm90Kernel::k07, Sm90Kernel::k08_static, Sm90Kernel::k09_dynamic}) {
    Sm90SimConfig c;
    c.kernel = kernel;
    c.units_m = 1;
    c.units_n = 1;
    c.k_blocks = 1;
    c.cluster_m = 2;
    c.mutations.staging_wait_off_by_one = true;
    const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
    EXPECT_EQ(r.violation, Violation::overwrite_before_drained) << to_string(kernel) << ": " << r.message;
  }
}

TEST(SimSm90, EveryMutationIsCaughtByDepthFirstSearch) {
  for (const Mutation& m : kMutations) {
    Sm90SimConfig c;
    c.kernel = Sm90Kernel::k08_dynamic;
    c.units_m = 1;
    c.units_n = 3;
    c.k_blocks = 1;
    c.cluster_m = 1;
    c.workers = 1;
    m.apply(c.mutations);
    const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
    EXPECT_TRUE(m.accepted.count(r.violation)) << m.name << ": " << to_string(r.violation) << " " << r.message;
  }
}

// ---- How CTAs leave: the cluster barrier and the producer tail --------------------------------

// One persistent cluster of cluster_m x 1 CTAs over 1 x units_n work tiles.
Sm90SimConfig one_worker(Sm90Kernel kernel, uint32_t units_n, uint32_t k_blocks, uint32_t cluster_m) {
  Sm90SimConfig c;
  c.kernel = kernel;
  c.units_m = 1;
  c.units_n = units_n;
  c.k_blocks = k_blocks;
  c.cluster_m = cluster_m;
  c.workers = 1;
  return c;
}

// A 2 x 1 cluster (B multicast, each consumer releasing onto both CTAs' empty
// barriers) leaving by `exit`.
Sm90SimConfig two_cta_cluster(Sm90Kernel kernel, Sm90Exit exit, uint32_t units_n, uint32_t k_blocks) {
  Sm90SimConfig c = one_worker(kernel, units_n, k_blocks, 2);
  c.exit = exit;
  return c;
}

// 100 cases: the static schedules (k08, k09; cooperative or ping-pong consumers) with
// no exit barrier, the producer waiting for its ring's last releases instead: no
// operation lands on a CTA that has left, under random grids, clusters and
// interleavings.
RC_GTEST_PROP(SimSm90Exit, ProducerTailPassesRandomStaticSchedules, ()) {
  Sm90SimConfig c;
  c.kernel = *rc::gen::element(Sm90Kernel::k08_static, Sm90Kernel::k09_static);
  c.units_m = *rc::gen::inRange<uint32_t>(1, 4);
  c.units_n = *rc::gen::inRange<uint32_t>(1, 4);
  c.k_blocks = *rc::gen::inRange<uint32_t>(1, 7);
  c.cluster_m = *rc::gen::inRange<uint32_t>(1, 3);
  c.workers = *rc::gen::inRange<uint32_t>(1, 5);
  c.group = *rc::gen::inRange<uint32_t>(1, 4);
  c.pingpong = *rc::gen::arbitrary<bool>();
  c.exit = Sm90Exit::producer_tail;
  const SimResult r = run_kernel(c, *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(r.ok());
}

// Every interleaving (bounded) of a 2 x 1 cluster with the producer tail, one work
// tile, fewer k-blocks than stages and more: no violation.
TEST(SimSm90Exit, ProducerTailSearchOfTwoCtaClustersFindsNoViolation) {
  for (const bool pingpong : {false, true})
    for (const uint32_t k_blocks : {1u, 3u}) {
      Sm90SimConfig c = two_cta_cluster(Sm90Kernel::k08_static, Sm90Exit::producer_tail, 1, k_blocks);
      c.pingpong = pingpong;
      const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 30'000);
      EXPECT_TRUE(r.ok()) << (pingpong ? "ping-pong" : "cooperative") << ", " << k_blocks << " k-blocks: " << r.message;
      std::printf("producer tail, k08 %s, 2 stages, %u k-blocks, cluster 2x1: %llu states, complete=%d\n",
                  pingpong ? "ping-pong" : "cooperative", k_blocks, static_cast<unsigned long long>(r.states),
                  r.complete ? 1 : 0);
    }
}

// With neither the barrier nor the tail, a CTA can leave while its peer's consumer
// still has a release to land on its empty barrier: the search finds it.
TEST(SimSm90Exit, NoExitWaitIsCaught) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k09_static}) {
    const ExploreResult r = explore(Sm90ScheduleSim<2>(two_cta_cluster(kernel, Sm90Exit::none, 1, 1)), 400'000);
    EXPECT_EQ(r.violation, Violation::access_after_exit) << to_string(kernel) << ": " << r.message;
  }
}

// The dynamic schedule needs its exit barrier: with the tail alone, rank 0 can leave
// while a peer still releases a schedule slot in rank 0 (or rank 0's last index is
// still on its way to the peer). This is why the patch keeps the barrier there.
TEST(SimSm90Exit, ProducerTailAloneIsNotEnoughForTheDynamicSchedule) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_dynamic, Sm90Kernel::k09_dynamic}) {
    const ExploreResult r =
        explore(Sm90ScheduleSim<2>(two_cta_cluster(kernel, Sm90Exit::producer_tail, 1, 1)), 400'000);
    EXPECT_EQ(r.violation, Violation::access_after_exit) << to_string(kernel) << ": " << r.message;
  }
}

// ---- k10's ping-pong consumers on the k08/k09 schedules ---------------------------------------

// One persistent 1 x 1 cluster with ping-pong consumers: 1 x units_n work tiles.
Sm90SimConfig small_pingpong(Sm90Kernel kernel, uint32_t units_n, uint32_t k_blocks) {
  Sm90SimConfig c = one_worker(kernel, units_n, k_blocks, 1);
  c.pingpong = true;
  return c;
}

// Exhaustive: every interleaving of a 2-stage ring, one 1 x 1 cluster, three work
// tiles (so consumer 0 steps over a unit and runs another after it), one k-block.
TEST(SimSm90PingPong, ExhaustiveSmallConfigsPass) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k09_dynamic}) {
    const Sm90SimConfig c = small_pingpong(kernel, 3, 1);
    const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
    EXPECT_TRUE(r.ok()) << to_string(kernel) << ": " << r.message;
    EXPECT_TRUE(r.complete) << to_string(kernel) << ": " << r.states << " states";
    std::printf("exhaustive ping-pong %s (2 stages, 3 work tiles, 1 k-block, cluster 1x1): %llu states\n",
                to_string(kernel), static_cast<unsigned long long>(r.states));
  }
}

// Ping-pong's own mutations, each found by depth-first search and by random schedules:
// - a consumer that does not step its ring state over the other's unit reads a stage
//   before (or after) it holds its own tile's k-block (the ring depth, 2, is no
//   divisor of the skipped unit's 3 k-blocks: the slot is wrong as well as the parity);
// - without the turn hand-off a consumer waits on a full barrier whose phase count is
//   laps behind its own, and the parity wait passes before the stage is filled.
struct PingPongMutation {
  const char* name;
  uint32_t units_n, k_blocks;
  void (*apply)(Sm90Mutations&);
  bool every_seed;  // every random schedule fails, not just some
};
const PingPongMutation kPingPongMutations[] = {
    {"missing step-over", 2, 3, [](Sm90Mutations& m) { m.pingpong_no_step_over = true; }, true},
    {"missing turn", 3, 2, [](Sm90Mutations& m) { m.pingpong_no_turn = true; }, false},
};

TEST(SimSm90PingPong, MutationsAreCaught) {
  const std::set<Violation> accepted{Violation::read_before_written, Violation::wrong_data,
                                     Violation::overwrite_before_drained, Violation::deadlock};
  for (const PingPongMutation& m : kPingPongMutations)
    for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic, Sm90Kernel::k09_dynamic}) {
      Sm90SimConfig c = small_pingpong(kernel, m.units_n, m.k_blocks);
      m.apply(c.mutations);
      const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
      EXPECT_TRUE(accepted.count(r.violation))
          << m.name << ", " << to_string(kernel) << ": " << to_string(r.violation) << " " << r.message;
      int caught = 0;
      for (uint64_t seed = 0; seed < 20; ++seed) caught += run_kernel(c, seed).ok() ? 0 : 1;
      if (m.every_seed) EXPECT_EQ(caught, 20) << m.name << ", " << to_string(kernel);
      else EXPECT_GT(caught, 0) << m.name << ", " << to_string(kernel);
    }
}

// ---- k10's deferred epilogue and the running staging count -----------------------------------

const Sm90Kernel kPersistentKernels[] = {Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic, Sm90Kernel::k09_static,
                                         Sm90Kernel::k09_dynamic};

// One persistent cluster of cluster_m x 1 CTAs over units_m x units_n work tiles,
// cooperative consumers storing `boxes` boxes per 64-row half, the epilogue deferred
// or not. A 1 x units_n grid for k08, units_n x 1 for k09 (so that its zig-zag order
// is not k08's).
Sm90SimConfig deferred(Sm90Kernel kernel, uint32_t units, uint32_t k_blocks, uint32_t cluster_m, uint32_t boxes,
                       bool defer = true) {
  const bool zigzag = kernel == Sm90Kernel::k09_static || kernel == Sm90Kernel::k09_dynamic;
  Sm90SimConfig c = one_worker(kernel, zigzag ? 1 : units, k_blocks, cluster_m);
  c.units_m = zigzag ? units : 1;
  c.group = 2;
  c.store_boxes = boxes;
  c.deferred_epilogue = defer;
  return c;
}
size_t expected_boxes(const Sm90SimConfig& c) {
  return size_t{2} * c.store_boxes * c.units_m * c.cluster_m * c.units_n;
}
std::string describe(const Sm90SimConfig& c) {
  return std::string(to_string(c.kernel)) + (c.deferred_epilogue ? " deferred" : " immediate") + ", " +
         std::to_string(c.units_m) + "x" + std::to_string(c.units_n) + " tiles, " + std::to_string(c.workers) +
         " workers, " + std::to_string(c.k_blocks) + " k-blocks, cluster " + std::to_string(c.cluster_m) + "x1, " +
         std::to_string(c.store_boxes) + " boxes";
}

// The consumer's steps in order, as the timeline names them.
std::vector<std::string> actions_of(const Sm90ScheduleSim<4>& sim, uint32_t role) {
  std::vector<std::string> out;
  for (const auto& e : sim.events())
    if (e.lane == role && e.kind == model::sim::SimEvent::Kind::action) out.push_back(e.label);
  return out;
}
size_t position(const std::vector<std::string>& labels, const std::string& prefix) {
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i].rfind(prefix, 0) == 0) return i;
  return labels.size();
}

// The flow itself, on one fixed interleaving of one 1 x 1 cluster with two work
// tiles and 3 boxes: the first tile is held; its boxes go one per k-block of the
// second, each right after that k-block's wgmma (5 k-blocks), or the first after the
// second's only k-block and the rest after its final release (1 k-block). The second,
// the last of the static walk, is stored at once; the dynamic schedule holds it too
// (it cannot tell it is the last) and stores it once the end of the work is known.
TEST(SimSm90Deferred, HeldTileIsStoredDuringTheNextUnit) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic})
    for (const uint32_t k_blocks : {1u, 5u}) {
      const Sm90SimConfig c = deferred(kernel, 2, k_blocks, 1, 3);
      Sm90ScheduleSim<4> sim(c);
      const SimResult r = run_in_order(sim);
      const std::string what = describe(c);
      ASSERT_TRUE(r.ok()) << what << ": " << r.message;
      EXPECT_EQ(sim.outputs_in_order().size(), expected_boxes(c)) << what;
      const std::vector<std::string> a = actions_of(sim, 1);  // cta0 consumer 0
      std::vector<size_t> releases;  // the final release of each unit
      for (size_t i = 0; i < a.size(); ++i)
        if (a[i].rfind("release stage", 0) == 0) releases.push_back(i);
      ASSERT_EQ(releases.size(), 2u) << what;
      EXPECT_NE(a[releases[0]].find("hold work 0"), std::string::npos) << what << ": " << a[releases[0]];
      const size_t start = position(a, "start work 1");
      size_t at = start;
      for (uint32_t box = 0; box < 3; ++box) {
        const size_t held = position(a, "store held work 0 box " + std::to_string(box));
        ASSERT_LT(held, a.size()) << what << ", box " << box;
        EXPECT_GT(held, at) << what << ", box " << box;
        at = held;
        if (box < k_blocks)  // right after k-block `box` of work 1
          EXPECT_EQ(a[held - 1].rfind("wgmma k-block " + std::to_string(box), 0), 0u) << what << ": " << a[held - 1];
        else  // the rest after its final release
          EXPECT_GT(held, releases[1]) << what << ", box " << box;
      }
      if (kernel == Sm90Kernel::k08_static) {
        EXPECT_EQ(position(a, "store held work 1"), a.size()) << what;
        EXPECT_GT(position(a, "epilogue box 0"), at) << what;
      } else {
        EXPECT_GT(position(a, "store held work 1 box 0"), position(a, "no more work")) << what;
        EXPECT_EQ(position(a, "epilogue box"), a.size()) << what;
      }
    }
}

// (a) Every interleaving of one 1 x 1 cluster with two work tiles, 3 or 4 boxes, 1 or 2
// k-blocks (fewer than boxes: the held tile's last boxes go after the main loop):
// no violation, every box stored once (the search's exit checks).
TEST(SimSm90Deferred, ExhaustiveSmallConfigsPass) {
  for (Sm90Kernel kernel : kPersistentKernels)
    for (const uint32_t boxes : {3u, 4u})
      for (const uint32_t k_blocks : {1u, 2u}) {
        const Sm90SimConfig c = deferred(kernel, 2, k_blocks, 1, boxes);
        const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
        EXPECT_TRUE(r.ok()) << describe(c) << ": " << r.message;
        EXPECT_TRUE(r.complete) << describe(c) << ": " << r.states << " states";
        std::printf("exhaustive %s: %llu states\n", describe(c).c_str(),
                    static_cast<unsigned long long>(r.states));
      }
}

// (a) Bounded search of the larger ones: 2 x 1 clusters, three work tiles on one
// worker, 1, 2 or 5 k-blocks.
TEST(SimSm90Deferred, BoundedSearchOfTwoCtaClustersFindsNoViolation) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k09_dynamic})
    for (const uint32_t boxes : {3u, 4u})
      for (const uint32_t k_blocks : {1u, 2u, 5u}) {
        const Sm90SimConfig c = deferred(kernel, 3, k_blocks, 2, boxes);
        const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 10'000);
        EXPECT_TRUE(r.ok()) << describe(c) << ": " << r.message;
        std::printf("bounded %s: %llu states, complete=%d\n", describe(c).c_str(),
                    static_cast<unsigned long long>(r.states), r.complete ? 1 : 0);
      }
}

// (a) Random schedules: every persistent kernel, 3 or 4 boxes, 1, 2 or 5 k-blocks,
// cluster 1 x 1 or 2 x 1, one worker on 2 or 3 work tiles and two workers on 5 (2 and
// 3 each), 10 seeds each: no violation, every box stored once.
TEST(SimSm90Deferred, RandomSchedulesPass) {
  for (Sm90Kernel kernel : kPersistentKernels)
    for (const uint32_t boxes : {3u, 4u})
      for (const uint32_t k_blocks : {1u, 2u, 5u})
        for (const uint32_t cluster_m : {1u, 2u})
          for (const auto& [units, workers] : {std::pair{2u, 1u}, std::pair{3u, 1u}, std::pair{5u, 2u}})
            for (uint64_t seed = 0; seed < 10; ++seed) {
              Sm90SimConfig c = deferred(kernel, units, k_blocks, cluster_m, boxes);
              c.workers = workers;
              size_t outputs = 0;
              const SimResult r = run_kernel(c, seed, &outputs);
              EXPECT_TRUE(r.ok()) << describe(c) << ", seed " << seed << ": " << r.message;
              EXPECT_EQ(outputs, expected_boxes(c)) << describe(c) << ", seed " << seed;
            }
}

// Inside a rapidcheck property: a persistent kernel (k08/k09, static or dynamic) on a
// random grid of up to max_units x max_units work tiles, 1 or 2 CTAs per cluster, up to
// max_workers workers and bands of up to max_group rows.
Sm90SimConfig random_persistent_config(uint32_t max_units, uint32_t max_workers, uint32_t max_group) {
  Sm90SimConfig c;
  c.kernel = *rc::gen::element(Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic, Sm90Kernel::k09_static,
                               Sm90Kernel::k09_dynamic);
  c.units_m = *rc::gen::inRange<uint32_t>(1, max_units + 1);
  c.units_n = *rc::gen::inRange<uint32_t>(1, max_units + 1);
  c.cluster_m = *rc::gen::inRange<uint32_t>(1, 3);
  c.workers = *rc::gen::inRange<uint32_t>(1, max_workers + 1);
  c.group = *rc::gen::inRange<uint32_t>(1, max_group + 1);
  return c;
}

// 100 cases: random grids, clusters, worker counts, K and box counts (1..8), the
// static schedules leaving by the cluster barrier or the producer tail.
RC_GTEST_PROP(SimSm90Deferred, RandomConfigsPass, ()) {
  Sm90SimConfig c = random_persistent_config(3, 4, 3);
  c.k_blocks = *rc::gen::inRange<uint32_t>(1, 7);
  c.store_boxes = *rc::gen::inRange<uint32_t>(1, 9);
  c.deferred_epilogue = true;
  const bool statik = c.kernel == Sm90Kernel::k08_static || c.kernel == Sm90Kernel::k09_static;
  if (statik && *rc::gen::arbitrary<bool>()) c.exit = Sm90Exit::producer_tail;
  size_t outputs = 0;
  const SimResult r = run_kernel(c, *rc::gen::arbitrary<uint64_t>(), &outputs);
  RC_ASSERT(r.ok());
  RC_ASSERT(outputs == expected_boxes(c));
}

// (b) The staging buffer by the running count: with a count that restarts per tile,
// a tile of 3 boxes puts its box 0 into the buffer its predecessor's box 2 may still
// be stored from (wait_group.read<1> leaves exactly that store in flight). Found
// with the immediate epilogue and the deferred one; with 4 boxes per tile the
// restart lands on the right buffer anyway, and the search is clean.
TEST(SimSm90Deferred, StagingRestartsPerTileIsCaughtWithAnOddBoxCount) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k09_dynamic})
    for (const bool defer : {false, true})
      for (const uint32_t boxes : {3u, 4u}) {
        Sm90SimConfig c = deferred(kernel, 2, 1, 1, boxes, defer);
        c.mutations.staging_restarts_per_tile = true;
        const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
        if (boxes % 2 == 1) {
          EXPECT_EQ(r.violation, Violation::overwrite_before_drained) << describe(c) << ": " << r.message;
          EXPECT_NE(r.message.find("staging"), std::string::npos) << describe(c) << ": " << r.message;
          std::printf("staging restarts per tile, %s: %s\n", describe(c).c_str(), r.message.c_str());
        } else {
          EXPECT_TRUE(r.ok()) << describe(c) << ": " << r.message;
          EXPECT_TRUE(r.complete) << describe(c) << ": " << r.states << " states";
        }
      }
}

// (c) The staging wait one too loose is still caught with the deferred epilogue,
// its held boxes and its flush after a short main loop.
TEST(SimSm90Deferred, StagingWaitOffByOneIsCaught) {
  for (Sm90Kernel kernel : {Sm90Kernel::k08_static, Sm90Kernel::k08_dynamic, Sm90Kernel::k09_dynamic})
    for (const uint32_t boxes : {3u, 4u})
      for (const uint32_t k_blocks : {1u, 5u}) {
        Sm90SimConfig c = deferred(kernel, 2, k_blocks, 1, boxes);
        c.mutations.staging_wait_off_by_one = true;
        const ExploreResult r = explore(Sm90ScheduleSim<2>(c), 400'000);
        EXPECT_EQ(r.violation, Violation::overwrite_before_drained) << describe(c) << ": " << r.message;
      }
}

// The ladder's mutations (kMutations) are still caught with the deferred epilogue:
// random schedules as in EveryMutationIsCaughtByRandomSchedules, 3 boxes per half.
TEST(SimSm90Deferred, EveryMutationIsCaughtByRandomSchedules) {
  for (Sm90Kernel kernel : kPersistentKernels)
    for (const Mutation& m : kMutations)
      for (uint64_t seed = 0; seed < 20; ++seed) {
        Sm90SimConfig c = deferred(kernel, 4, 3, 2, 3);
        c.workers = 2;
        m.apply(c.mutations);
        const SimResult r = run_kernel(c, seed);
        EXPECT_TRUE(m.accepted.count(r.violation)) << describe(c) << ", " << m.name << ", seed " << seed << ": "
                                                   << to_string(r.violation) << " " << r.message;
      }
}

// (d) Box counts outside 1..8, and the deferred epilogue with ping-pong consumers or a
// kernel that is not persistent.
TEST(SimSm90Deferred, BadConfigIsRefused) {
  for (const uint32_t boxes : {0u, 9u}) {
    Sm90SimConfig c;
    c.store_boxes = boxes;
    try {
      Sm90ScheduleSim<4>{c};
      ADD_FAILURE() << boxes << " boxes accepted";
    } catch (const model::ModelError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("store_boxes = " + std::to_string(boxes)), std::string::npos) << what;
      EXPECT_NE(what.find("1..8"), std::string::npos) << what;
    }
  }
  Sm90SimConfig c;
  c.deferred_epilogue = true;
  c.pingpong = true;
  EXPECT_THROW(Sm90ScheduleSim<4>{c}, model::ModelError);
  for (Sm90Kernel kernel : {Sm90Kernel::k06, Sm90Kernel::k07}) {
    c = {};
    c.kernel = kernel;
    c.deferred_epilogue = true;
    EXPECT_THROW(Sm90ScheduleSim<4>{c}, model::ModelError) << to_string(kernel);
  }
  for (const uint32_t boxes : {1u, 8u}) {
    c = {};
    c.store_boxes = boxes;
    c.deferred_epilogue = true;
    EXPECT_NO_THROW(Sm90ScheduleSim<4>{c}) << boxes << " boxes";
  }
}

// ---- Tile coverage of the schedulers (item: static, dynamic, block-swizzled) ------------------

// 100 cases: the static schedule's workers together take every index of a random
// grid once.
RC_GTEST_PROP(SimSm90Schedulers, StaticScheduleCoversEveryIndexOnce, ()) {
  const sm90::WorkGrid g{*rc::gen::inRange<uint32_t>(1, 30), *rc::gen::inRange<uint32_t>(1, 30)};
  const uint32_t workers = *rc::gen::inRange<uint32_t>(1, 140);
  std::vector<int> seen(g.total(), 0);
  for (uint32_t w = 0; w < workers; ++w)
    for (auto s = sm90::StaticSchedule::first(w, workers); s.valid(g); s = s.next()) ++seen[s.linear];
  RC_ASSERT(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

// 100 cases: the dynamic schedule under a random race for the counter: each step a
// random worker that is not done claims (atomicAdd) and moves on; every index is
// taken exactly once.
RC_GTEST_PROP(SimSm90Schedulers, DynamicScheduleCoversEveryIndexOnceUnderRandomRaces, ()) {
  const sm90::WorkGrid g{*rc::gen::inRange<uint32_t>(1, 30), *rc::gen::inRange<uint32_t>(1, 30)};
  const uint32_t workers = *rc::gen::inRange<uint32_t>(1, 140);
  const sm90::DynamicSchedule dyn{workers};
  std::vector<uint32_t> current(workers);
  std::vector<int> seen(g.total(), 0);
  std::vector<uint32_t> active;
  for (uint32_t w = 0; w < workers; ++w) {
    current[w] = dyn.first(w);
    if (current[w] < g.total()) active.push_back(w);
  }
  uint32_t counter = 0;
  while (!active.empty()) {
    const size_t pick = *rc::gen::inRange<size_t>(0, active.size());
    const uint32_t w = active[pick];
    ++seen[current[w]];
    current[w] = dyn.after_claim(counter++);
    if (current[w] >= g.total()) active.erase(active.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  RC_ASSERT(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

// 100 cases: both tile orders are bijections from [0, total) onto the grid; in the
// zig-zag order consecutive indices stay neighbours (|dm| + |dn| <= group), which is
// the point of the block swizzle.
RC_GTEST_PROP(SimSm90Schedulers, TileOrdersAreBijectionsOntoTheGrid, ()) {
  const sm90::WorkGrid g{*rc::gen::inRange<uint32_t>(1, 40), *rc::gen::inRange<uint32_t>(1, 40)};
  const uint32_t group = *rc::gen::inRange<uint32_t>(1, 12);
  for (auto order : {sm90::TileOrder::AlongM, sm90::TileOrder::GroupedZigzag}) {
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t i = 0; i < g.total(); ++i) {
      const sm90::WorkCoord w = sm90::work_coord(g, i, order, group);
      RC_ASSERT(w.m < g.units_m);
      RC_ASSERT(w.n < g.units_n);
      RC_ASSERT(seen.insert({w.m, w.n}).second);
    }
  }
  for (uint32_t i = 1; i < g.total(); ++i) {
    const auto a = sm90::order_grouped_zigzag(g, i - 1, group), b = sm90::order_grouped_zigzag(g, i, group);
    const uint32_t dm = a.m > b.m ? a.m - b.m : b.m - a.m, dn = a.n > b.n ? a.n - b.n : b.n - a.n;
    RC_ASSERT(dm + dn <= group);
  }
}

// 100 cases: in the simulator, a persistent kernel's workers racing through a random
// grid (dynamic or static, either order) store every box of C once.
RC_GTEST_PROP(SimSm90Schedulers, PersistentKernelsCoverRandomGridsInTheSimulator, ()) {
  Sm90SimConfig c = random_persistent_config(5, 6, 4);
  c.k_blocks = 1;
  size_t outputs = 0;
  RC_ASSERT(run_kernel(c, *rc::gen::arbitrary<uint64_t>(), &outputs).ok());
  RC_ASSERT(outputs == size_t{8} * c.units_m * c.cluster_m * c.units_n);
}

TEST(SimSm90, BadConfigIsRefused) {
  Sm90SimConfig c;
  c.cluster_m = 3;
  EXPECT_THROW(Sm90ScheduleSim<4>{c}, model::ModelError);
  c = {};
  c.kernel = Sm90Kernel::k06;
  c.cluster_m = 1;
  EXPECT_THROW(Sm90ScheduleSim<3>{c}, model::ModelError);
  c = {};
  c.kernel = Sm90Kernel::k07;
  c.pingpong = true;  // ping-pong consumers need a persistent kernel
  EXPECT_THROW(Sm90ScheduleSim<4>{c}, model::ModelError);
}

}  // namespace

#else
TEST(SimSm90, SkippedWithoutKernels) { GTEST_SKIP() << "built without the kernels' headers (GEMMSCOPE_BUILD_KERNELS=OFF)"; }
#endif
