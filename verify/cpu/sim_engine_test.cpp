// The pipeline-simulation engine (model/pipeline_sim.hpp) on its own: the shadow
// buffers and barrier wrappers against hand-worked sequences, the schedulers'
// reproducibility, and the synthetic ring kernel: correct under every random and
// every exhaustive interleaving; each mutation caught by the check meant for it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "gemmscope/model/pipeline.hpp"

namespace {
using namespace gemmscope::model::sim;

// A binding with no roles, to drive the engine's buffer and barrier checks by hand.
struct Bare : PipelineSim {
  uint32_t role_count() const override { return 0; }
  std::string role_name(uint32_t) const override { return ""; }
  bool role_done(uint32_t) const override { return true; }
  bool step_role(uint32_t) override { return false; }
  std::string role_state_key() const override { return ""; }
};

Violation violation_of(auto&& f) {
  try {
    f();
  } catch (const SimViolation& v) {
    return v.kind();
  }
  return Violation::none;
}

TEST(SimEngine, BufferLifecycleHandWorked) {
  Bare sim;
  const uint32_t b = sim.add_buffer("stage 0", 2);
  // free -> read: nothing written.
  EXPECT_EQ(violation_of([&] { sim.read(b, "x"); }), Violation::read_before_written);
  sim.begin_write(b, "x");
  EXPECT_EQ(violation_of([&] { sim.read(b, "x"); }), Violation::read_before_written);  // still being written
  EXPECT_EQ(violation_of([&] { sim.begin_write(b, "y"); }), Violation::overwrite_before_drained);
  sim.finish_write(b);
  EXPECT_EQ(violation_of([&] { sim.read(b, "y"); }), Violation::wrong_data);
  sim.read(b, "x");
  sim.release_read(b);
  // One of two readers released: still full.
  EXPECT_EQ(violation_of([&] { sim.begin_write(b, "y"); }), Violation::overwrite_before_drained);
  sim.read(b, "x");
  EXPECT_EQ(violation_of([&] { sim.read(b, "x"); }), Violation::wrong_data);  // a third reader
  sim.release_read(b);
  sim.begin_write(b, "y");  // both released: free
  sim.accumulate(b, " k0");
  sim.finish_write(b);
  EXPECT_EQ(violation_of([&] { sim.accumulate(b, " k1"); }), Violation::overwrite_before_drained);
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::unread_at_exit);
  sim.read(b, "y k0");
  sim.release_read(b);
  sim.read(b, "y k0");
  sim.release_read(b);
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::none);
}

TEST(SimEngine, BarrierMisuseAndUnfinishedPhaseHandWorked) {
  Bare sim;
  const uint32_t full = sim.add_barrier("full[0]", 1);
  // A fresh barrier: the phase before phase 0 counts as complete (parity 1 passes).
  EXPECT_TRUE(sim.try_wait(full, 1));
  EXPECT_FALSE(sim.try_wait(full, 0));
  sim.arrive_expect_tx(full, 100);  // pending 0, tx 100: not complete
  EXPECT_FALSE(sim.try_wait(full, 0));
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::unfinished_barrier);
  sim.complete_tx(full, 100);
  EXPECT_TRUE(sim.try_wait(full, 0));
  EXPECT_EQ(violation_of([&] { sim.arrive(full, 2); }), Violation::barrier_misuse);  // 2 > pending 1
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::none);
}

// Owners: once a barrier's or buffer's owner has exited, every operation on it is
// refused; those of other owners, and those with no owner, go on.
TEST(SimEngine, AccessAfterOwnerExitHandWorked) {
  Bare sim;
  const uint32_t mine = sim.add_barrier("cta0 empty[0]", 1, 0), other = sim.add_barrier("cta1 empty[0]", 1, 1);
  const uint32_t loose = sim.add_barrier("unowned", 1);
  const uint32_t buf = sim.add_buffer("cta0 stage 0", 1, 0);
  sim.begin_write(buf, "x");
  sim.finish_write(buf);
  EXPECT_FALSE(sim.owner_exited(0));
  sim.owner_exits(0);
  EXPECT_TRUE(sim.owner_exited(0));
  EXPECT_FALSE(sim.owner_exited(1));
  EXPECT_EQ(violation_of([&] { sim.arrive(mine); }), Violation::access_after_exit);
  EXPECT_EQ(violation_of([&] { sim.complete_tx(mine, 16); }), Violation::access_after_exit);
  EXPECT_EQ(violation_of([&] { (void)sim.try_wait(mine, 0); }), Violation::access_after_exit);
  EXPECT_EQ(violation_of([&] { sim.read(buf, "x"); }), Violation::access_after_exit);
  EXPECT_EQ(violation_of([&] { sim.begin_write(buf, "y"); }), Violation::access_after_exit);
  EXPECT_EQ(violation_of([&] { sim.arrive(other); }), Violation::none);
  EXPECT_EQ(violation_of([&] { sim.arrive(loose); }), Violation::none);
  // The message names the barrier and its owner.
  try {
    sim.arrive(mine);
    ADD_FAILURE() << "no violation";
  } catch (const SimViolation& v) {
    EXPECT_NE(std::string(v.what()).find("cta0 empty[0]"), std::string::npos) << v.what();
    EXPECT_NE(std::string(v.what()).find("owner 0"), std::string::npos) << v.what();
  }
  // An async operation landing on an exited owner's barrier is refused the same way.
  sim.post(AsyncOp{"TMA into cta0", "TMA", -1, -1, {{AsyncEffect::Kind::complete_tx, mine, 16}}});
  EXPECT_EQ(violation_of([&] { sim.step_candidate(0); }), Violation::access_after_exit);
}

TEST(SimEngine, OutputsExactlyOnce) {
  Bare sim;
  sim.expect_output("a");
  sim.expect_output("b");
  sim.record_output("a");
  EXPECT_EQ(violation_of([&] { sim.record_output("a"); }), Violation::duplicate_output);
  EXPECT_EQ(violation_of([&] { sim.record_output("c"); }), Violation::wrong_data);
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::missing_output);
  sim.record_output("b");
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::none);
}

TEST(SimEngine, AsyncOperationsInFlightAtExit) {
  Bare sim;
  const uint32_t bar = sim.add_barrier("b", 1);
  sim.post(AsyncOp{"late arrive", "x", -1, -1, {{AsyncEffect::Kind::arrive, bar, 1}}});
  EXPECT_FALSE(sim.all_done());
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::async_at_exit);
  ASSERT_EQ(sim.candidates().size(), 1u);
  EXPECT_TRUE(sim.step_candidate(sim.candidates()[0]));
  EXPECT_EQ(sim.barrier(bar).completed_phases(), 1);
  EXPECT_EQ(violation_of([&] { sim.check_exit(); }), Violation::none);
}

TEST(SimEngine, OrderedQueueOffersOnlyItsHead) {
  Bare sim;
  const uint32_t bar = sim.add_barrier("b", 3);
  for (int i = 0; i < 2; ++i) sim.post(AsyncOp{"q" + std::to_string(i), "x", 7, -1, {{AsyncEffect::Kind::arrive, bar, 1}}});
  sim.post(AsyncOp{"free", "x", -1, -1, {{AsyncEffect::Kind::arrive, bar, 1}}});
  EXPECT_EQ(sim.candidates().size(), 2u);  // head of queue 7, and the unordered one
}

SyntheticConfig small_config(uint32_t stages, uint32_t consumers, uint32_t tiles, uint32_t k_blocks) {
  SyntheticConfig c;
  c.stages = stages;
  c.consumers = consumers;
  c.tiles = tiles;
  c.k_blocks = k_blocks;
  return c;
}

// 100 cases: a random configuration under a random schedule finishes clean, having
// computed every output once; the same seed gives the same schedule.
RC_GTEST_PROP(SimSynthetic, RandomSchedulesOfRandomConfigsPass, ()) {
  const auto config = small_config(*rc::gen::inRange<uint32_t>(1, 7), *rc::gen::inRange<uint32_t>(1, 4),
                                   *rc::gen::inRange<uint32_t>(1, 6), *rc::gen::inRange<uint32_t>(1, 9));
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  SyntheticRingSim a(config), b(config);
  const SimResult ra = run_random(a, seed);
  RC_ASSERT(ra.ok());
  RC_ASSERT(a.outputs_in_order().size() == size_t{config.tiles} * config.consumers);
  const SimResult rb = run_random(b, seed);
  RC_ASSERT(rb.steps == ra.steps);
  RC_ASSERT(a.outputs_in_order() == b.outputs_in_order());
  RC_ASSERT(a.events().size() == b.events().size());
}

TEST(SimSynthetic, DifferentSeedsGiveDifferentInterleavings) {
  const auto config = small_config(2, 2, 3, 4);
  SyntheticRingSim a(config), b(config);
  ASSERT_TRUE(run_random(a, 1).ok());
  ASSERT_TRUE(run_random(b, 2).ok());
  bool differ = a.events().size() != b.events().size();
  for (size_t i = 0; !differ && i < a.events().size(); ++i) differ = a.events()[i].lane != b.events()[i].lane;
  EXPECT_TRUE(differ);
}

TEST(SimSynthetic, ExhaustiveSmallConfigsPass) {
  for (uint32_t stages : {1u, 2u, 3u})
    for (uint32_t consumers : {1u, 2u}) {
      const ExploreResult r = explore(SyntheticRingSim(small_config(stages, consumers, 2, 2)));
      EXPECT_TRUE(r.ok()) << stages << " stages, " << consumers << " consumers: " << r.message;
      EXPECT_TRUE(r.complete);
      // Every interleaving ends in the same final state.
      EXPECT_EQ(r.terminal_states, 1u);
      EXPECT_GT(r.states, 10u);
    }
}

// Each mutation must be caught by exhaustive search, by the check meant for it.
struct MutationCase {
  const char* name;
  void (*apply)(SyntheticConfig&);
  Violation expected;
};

TEST(SimSynthetic, EveryMutationIsCaughtExhaustively) {
  const MutationCase cases[] = {
      {"producer wrong initial phase", [](SyntheticConfig& c) { c.producer_wrong_initial_phase = true; },
       Violation::deadlock},
      {"consumer wrong initial phase", [](SyntheticConfig& c) { c.consumer_wrong_initial_phase = true; },
       Violation::read_before_written},
      {"missing empty arrive", [](SyntheticConfig& c) { c.consumer_skips_empty_arrive = true; },
       Violation::deadlock},  // the producer's tail waits for that arrival
      {"producer stage off by one", [](SyntheticConfig& c) { c.producer_stage_off_by_one = true; },
       Violation::read_before_written},
      {"scheduler repeats a tile", [](SyntheticConfig& c) { c.scheduler_repeats_tile = true; },
       Violation::duplicate_output},
  };
  for (const auto& m : cases) {
    SyntheticConfig config = small_config(2, 2, 2, 3);
    m.apply(config);
    const ExploreResult r = explore(SyntheticRingSim(config));
    EXPECT_EQ(r.violation, m.expected) << m.name << ": " << r.message;
    EXPECT_FALSE(r.message.empty()) << m.name;
  }
}

// Random schedules catch them too (not necessarily by the same check first: a
// consumer that runs ahead may find the stage empty or the wrong tile in it).
RC_GTEST_PROP(SimSynthetic, RandomSchedulesCatchEveryMutation, ()) {
  SyntheticConfig config = small_config(*rc::gen::inRange<uint32_t>(1, 5), *rc::gen::inRange<uint32_t>(1, 4),
                                        *rc::gen::inRange<uint32_t>(2, 5), *rc::gen::inRange<uint32_t>(2, 6));
  const int which = *rc::gen::inRange(0, 4);
  if (which == 0) config.producer_wrong_initial_phase = true;
  if (which == 1) config.consumer_skips_empty_arrive = true;
  if (which == 2) config.producer_stage_off_by_one = true;
  if (which == 3) config.scheduler_repeats_tile = true;
  RC_PRE(!(which == 2 && config.stages == 1));  // with one stage, stage+1 is the same stage
  SyntheticRingSim sim(config);
  RC_ASSERT(!run_random(sim, *rc::gen::arbitrary<uint64_t>()).ok());
}

TEST(SimSynthetic, TimelineSvgHasALanePerRoleAndWaits) {
  SyntheticRingSim sim(small_config(2, 2, 2, 3));
  ASSERT_TRUE(run_random(sim, 7).ok());
  const std::string svg = timeline_svg(sim, "synthetic");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find(">producer</text>"), std::string::npos);
  EXPECT_NE(svg.find(">consumer 1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">async: TMA</text>"), std::string::npos);
  EXPECT_NE(svg.find("url(#wait)"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(SimSynthetic, BadConfigIsRefused) {
  EXPECT_THROW(SyntheticRingSim(small_config(0, 1, 1, 1)), gemmscope::model::ModelError);
  EXPECT_THROW(SyntheticRingSim(small_config(1, 0, 1, 1)), gemmscope::model::ModelError);
}

}  // namespace
