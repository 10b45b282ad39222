// The declarative pipeline API (model/pipeline.hpp): a TMA -> MMA -> epilogue
// pipeline written as three script roles passes every random and every exhaustive
// schedule of small sizes; each deliberately broken variant is reported by the check
// meant for it (deadlock, read before write, lost output, duplicated output), and the
// same builder without the break passes, so no verdict is vacuous. Then the rules of
// a script's steps, hand-worked, and a program role.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "gemmscope/model/pipeline.hpp"

namespace {
using namespace gemmscope::model::sim;

struct Breaks {
  bool mma_skips_empty_arrive = false;  // the MMA never releases the first stage it reads
  bool mma_skips_full_wait = false;     // the MMA reads a stage without waiting for its TMA
  bool producer_skips_a_load = false;   // the producer leaves out k-block 1 of tile 0
  bool walk_stops_early = false;        // every role's tile walk ends one tile short
  bool epilogue_stores_twice = false;   // the epilogue stores tile 0 twice
};

struct Size {
  uint32_t stages = 2, tiles = 2, k_blocks = 2;
};

std::string load_tag(uint32_t tile, uint32_t kb) { return "A,B tile " + std::to_string(tile) + " k" + std::to_string(kb); }
std::string tile_key(uint32_t tile) { return "C tile " + std::to_string(tile); }

// The pipeline of docs/model.md: a TMA producer fills a ring of `stages` slots
// (full/empty barriers), an MMA role accumulates each tile's k-blocks into one
// accumulator (accum_full/accum_empty), an epilogue stores each tile.
Pipeline tma_mma_epilogue(Size size, Breaks breaks = {}) {
  const uint32_t S = size.stages, K = size.k_blocks, bytes = 32768;
  const uint32_t walked = breaks.walk_stops_early ? size.tiles - 1 : size.tiles;
  Pipeline p;
  const auto full = p.barriers("full", S, 1), empty = p.barriers("empty", S, 1);
  const auto smem = p.stages("stage", S, 1);
  const uint32_t accum_full = p.barrier("accum_full", 1), accum_empty = p.barrier("accum_empty", 1);
  const uint32_t accum = p.slot("accumulator", 1);
  for (uint32_t t = 0; t < size.tiles; ++t) p.output(tile_key(t));

  p.role("producer", walked * K, [=](Step& s, uint32_t i) {
    if (breaks.producer_skips_a_load && i == 1) return;
    const RingSlot r = ring_slot(breaks.producer_skips_a_load && i > 1 ? i - 1 : i, S);
    s.wait(empty[r.stage], r.phase ^ 1);
    s.arrive_expect_tx(full[r.stage], bytes);
    s.tma_load(smem[r.stage], load_tag(i / K, i % K), full[r.stage], bytes);
  });
  p.role("mma", walked * K, [=](Step& s, uint32_t i) {
    const uint32_t tile = i / K, kb = i % K;
    const RingSlot r = ring_slot(i, S);
    if (kb == 0) {
      s.wait(accum_empty, (tile & 1) ^ 1);
      s.begin_write(accum, tile_key(tile) + ":");
    }
    if (!breaks.mma_skips_full_wait) s.wait(full[r.stage], r.phase);
    s.read(smem[r.stage], load_tag(tile, kb));
    s.accumulate(accum, " k" + std::to_string(kb));
    s.release(smem[r.stage]);
    if (!(breaks.mma_skips_empty_arrive && i == 0)) s.arrive(empty[r.stage]);
    if (kb + 1 == K) {
      s.finish_write(accum);
      s.arrive(accum_full);
    }
  });
  p.role("epilogue", walked, [=](Step& s, uint32_t tile) {
    s.wait(accum_full, tile & 1);
    std::string sum = tile_key(tile) + ":";
    for (uint32_t kb = 0; kb < K; ++kb) sum += " k" + std::to_string(kb);
    s.read(accum, sum);
    s.release(accum);
    s.arrive(accum_empty);
    s.produce(tile_key(tile));
    if (breaks.epilogue_stores_twice && tile == 0) s.produce(tile_key(tile));
  });
  return p;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- The correct pipeline ----------------------------------------------------------------

TEST(SimPipeline, CorrectPipelinePassesEveryScheduleOfSmallSizes) {
  for (uint32_t stages : {1u, 2u, 3u})
    for (uint32_t tiles : {1u, 2u, 3u})
      for (uint32_t k_blocks : {1u, 2u, 3u}) {
        const std::string what = std::to_string(stages) + " stages, " + std::to_string(tiles) + " tiles, " +
                                 std::to_string(k_blocks) + " k-blocks";
        const Pipeline p = tma_mma_epilogue({stages, tiles, k_blocks});
        const ExploreResult r = explore(p);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
        EXPECT_TRUE(r.complete) << what;
        // Every interleaving ends in the one final state: all roles done, every output once.
        EXPECT_EQ(r.terminal_states, 1u) << what;
        // More than one interleaving was searched (3 roles and TMA copies in flight).
        EXPECT_GT(r.states, uint64_t{tiles} * k_blocks * 3) << what;
      }
}

// 100 cases: random sizes under a random schedule: clean, every tile stored once, in order.
RC_GTEST_PROP(SimPipeline, RandomSchedulesOfRandomSizesPass, ()) {
  const Size size{*rc::gen::inRange<uint32_t>(1, 6), *rc::gen::inRange<uint32_t>(1, 6),
                  *rc::gen::inRange<uint32_t>(1, 8)};
  Pipeline p = tma_mma_epilogue(size);
  const SimResult r = run_random(p, *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(r.ok());
  RC_ASSERT(p.outputs_in_order().size() == size.tiles);
  for (uint32_t t = 0; t < size.tiles; ++t) RC_ASSERT(p.outputs_in_order()[t] == tile_key(t));
}

// The step count of one run, from the rules: a script step is a wait and what follows
// it up to the next wait. Producer: 1 step per k-block; MMA: 1 per k-block plus 1 per
// tile (the accumulator wait); epilogue: 1 per tile; each TMA copy lands in 1 step.
TEST(SimPipeline, StepCountFollowsTheScriptRules) {
  const Size size{2, 3, 4};
  Pipeline p = tma_mma_epilogue(size);
  const SimResult r = run_in_order(p);
  ASSERT_TRUE(r.ok()) << r.message;
  const uint64_t loads = 3 * 4;
  EXPECT_EQ(r.steps, loads + (loads + 3) + 3 + loads);
}

TEST(SimPipeline, CheckReportsOkWithItsCounts) {
  const PipelineReport report = check(tma_mma_epilogue({2, 2, 2}), {.random_schedules = 20});
  EXPECT_TRUE(report.ok()) << report.to_string();
  EXPECT_EQ(report.random_schedules, 20u);
  EXPECT_TRUE(report.complete);
  EXPECT_GT(report.states, 0u);
  EXPECT_EQ(report.to_string().rfind("ok: 20 random schedules, exhaustive search of ", 0), 0u) << report.to_string();
}

// ---- Each break, reported by its check -----------------------------------------------------

struct BreakCase {
  const char* name;
  Breaks breaks;
  Violation expected;
  const char* named;  // a part of the message: the object at fault
};

const BreakCase kBreaks[] = {
    // The producer's second lap waits on empty[0], which never completes phase 0.
    {"missing empty arrive", {.mma_skips_empty_arrive = true}, Violation::deadlock, "producer waits empty[0] parity 0"},
    // Some schedule lets the MMA read before the TMA copy has landed.
    {"MMA does not wait full", {.mma_skips_full_wait = true}, Violation::read_before_written, "read of stage "},
    // Every role finishes, and tile 2 was never computed.
    {"walk stops one tile early", {.walk_stops_early = true}, Violation::missing_output, "C tile 2"},
    {"epilogue stores twice", {.epilogue_stores_twice = true}, Violation::duplicate_output, "C tile 0"},
    // A load left out, the later ones one slot early: the MMA finds the next k-block in its stage.
    {"producer skips a load", {.producer_skips_a_load = true}, Violation::wrong_data,
     "expected [A,B tile 0 k1] but it holds [A,B tile 1 k0]"},
};

TEST(SimPipeline, EveryBreakIsReportedByItsCheckUnderExhaustiveSearch) {
  for (const BreakCase& c : kBreaks) {
    const Size size{2, 3, 2};
    const ExploreResult r = explore(tma_mma_epilogue(size, c.breaks));
    EXPECT_EQ(r.violation, c.expected) << c.name << ": " << to_string(r.violation) << " " << r.message;
    EXPECT_TRUE(contains(r.message, c.named)) << c.name << ": " << r.message;
    // The negative control: the same size without the break passes.
    EXPECT_TRUE(explore(tma_mma_epilogue(size)).ok()) << c.name;
  }
}

TEST(SimPipeline, CheckNamesTheViolationAndHowItWasFound) {
  const PipelineReport report = check(tma_mma_epilogue({2, 3, 2}, {.epilogue_stores_twice = true}));
  EXPECT_EQ(report.violation, Violation::duplicate_output);
  EXPECT_EQ(report.found_by, "seed 1");  // every schedule stores tile 0 twice: the first one finds it
  EXPECT_EQ(report.to_string(), "duplicate_output (seed 1): output [C tile 0] computed a second time");
  // A read before the write needs an unlucky schedule: random or exhaustive, it is found.
  const PipelineReport early = check(tma_mma_epilogue({2, 3, 2}, {.mma_skips_full_wait = true}));
  EXPECT_EQ(early.violation, Violation::read_before_written) << early.to_string();
}

// The in-order schedule tries roles before the TMA copies: the producer fills both
// stages, then the MMA reads stage 0 while its copy is still in flight.
TEST(SimPipeline, InOrderScheduleFindsTheMissingWait) {
  Pipeline p = tma_mma_epilogue({2, 3, 2}, {.mma_skips_full_wait = true});
  const SimResult r = run_in_order(p);
  EXPECT_EQ(r.violation, Violation::read_before_written) << r.message;
  EXPECT_TRUE(contains(r.message, "read of stage 0 expecting [A,B tile 0 k0] while [A,B tile 0 k0] is still being written"))
      << r.message;
}

// ---- Rules of a script, hand-worked ----------------------------------------------------------

TEST(SimPipeline, AScriptStepIsAWaitAndWhatFollowsIt) {
  Pipeline p;
  const uint32_t a = p.barrier("a", 1), b = p.barrier("b", 1);
  const uint32_t slot = p.slot("x", 1);
  p.role("writer", 1, [=](Step& s, uint32_t) {
    s.write(slot, "v");  // before any wait: a step of its own
    s.arrive(a);
    s.wait(b, 0);
    s.label("after b");
  });
  p.role("reader", 1, [=](Step& s, uint32_t) {
    s.wait(a, 0);
    s.read(slot, "v");
    s.release(slot);
    s.arrive(b);
  });
  // The writer's first step, then it blocks on b.
  EXPECT_TRUE(p.step_candidate(0));
  EXPECT_FALSE(p.role_done(0));
  EXPECT_FALSE(p.step_candidate(0));
  EXPECT_EQ(p.role_state_key(), "0.1;0.0;");
  EXPECT_TRUE(p.step_candidate(1));  // wait a, read, release, arrive b: one step
  EXPECT_TRUE(p.role_done(1));
  EXPECT_TRUE(p.step_candidate(0));
  EXPECT_TRUE(p.role_done(0));
  EXPECT_TRUE(p.all_done());
  EXPECT_NO_THROW(p.check_exit());
  ASSERT_EQ(p.events().size(), 4u);  // three actions and the writer's wait
  EXPECT_EQ(p.events()[0].label, "write [v] to x, arrive a");
  EXPECT_EQ(p.events()[1].label, "wait a, read [v] from x, release x, arrive b");
  EXPECT_EQ(p.events()[2].kind, SimEvent::Kind::wait);
  EXPECT_EQ(p.events()[2].label, "wait b parity 0");
  EXPECT_EQ(p.events()[3].label, "after b");
}

// A copy of a pipeline runs on its own (exhaustive search copies at every step).
TEST(SimPipeline, ACopyRunsIndependently) {
  Pipeline a = tma_mma_epilogue({2, 2, 2});
  ASSERT_TRUE(a.step_candidate(0));
  Pipeline b = a;
  EXPECT_EQ(a.state_key(), b.state_key());
  ASSERT_TRUE(run_in_order(b).ok());
  EXPECT_NE(a.state_key(), b.state_key());
  EXPECT_TRUE(run_in_order(a).ok());
  EXPECT_EQ(a.outputs_in_order(), b.outputs_in_order());
}

TEST(SimPipeline, TimelineHasALanePerRoleAndTheTmaLane) {
  Pipeline p = tma_mma_epilogue({2, 2, 3});
  ASSERT_TRUE(run_random(p, 3).ok());
  const std::string svg = timeline_svg(p, "tma -> mma -> epilogue");
  for (const char* lane : {">producer</text>", ">mma</text>", ">epilogue</text>", ">async: TMA</text>"})
    EXPECT_TRUE(contains(svg, lane)) << lane;
  EXPECT_TRUE(contains(svg, "url(#wait)"));
}

// A program role: one step per call, its own state, the same operations.
struct PingPong : Pipeline {
  uint32_t ping = 0, pong = 0, round_a = 0, round_b = 0, rounds = 3;
  PingPong() {
    ping = barrier("ping", 1);
    pong = barrier("pong", 1);
    add_program_role("a");
    add_program_role("b");
    for (uint32_t i = 0; i < rounds; ++i) output("round " + std::to_string(i));
  }
  bool step_program(uint32_t role, Step& s) override {
    uint32_t& round = role == 0 ? round_a : round_b;
    if (role == 0) {
      if (!s.wait(pong, (round & 1) ^ 1)) return false;
      s.arrive(ping);
    } else {
      if (!s.wait(ping, round & 1)) return false;
      s.produce("round " + std::to_string(round));
      s.arrive(pong);
    }
    if (++round == rounds) s.exit();
    return true;
  }
  std::string role_state_key() const override {
    return Pipeline::role_state_key() + std::to_string(round_a) + "," + std::to_string(round_b);
  }
};

TEST(SimPipeline, ProgramRolesRunUnderEverySchedule) {
  const ExploreResult r = explore(PingPong{});
  EXPECT_TRUE(r.ok()) << r.message;
  EXPECT_TRUE(r.complete);
  // Strict alternation: one state per step, and the start: 2 x 3 steps + 1.
  EXPECT_EQ(r.states, 7u);
  EXPECT_EQ(check(PingPong{}).to_string(), "ok: 100 random schedules, exhaustive search of 7 states (complete)");
}

TEST(SimPipeline, BadDeclarationsAreRefused) {
  Pipeline p;
  EXPECT_THROW(p.barrier("b", 0), gemmscope::model::ModelError);
  EXPECT_THROW(p.slot("s", 0), gemmscope::model::ModelError);
  EXPECT_THROW(p.role("r", 1, nullptr), gemmscope::model::ModelError);
  EXPECT_THROW(ring_slot(0, 0), gemmscope::model::ModelError);
  const RingSlot r = ring_slot(5, 2);
  EXPECT_EQ(r.stage, 1u);
  EXPECT_EQ(r.phase, 0u);  // pass 5 of a 2-slot ring: lap 2
}

}  // namespace
