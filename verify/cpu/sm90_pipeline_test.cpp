// PipelineState (kernels/common/sm90_pipeline.hpp) against a ring written the
// other way: an explicit slot index and a phase bit flipped on every wrap, plus a
// tiny mbarrier parity model (a phase with parity p has completed once the
// barrier's completed-phase count exceeds it) checking that the producer's first
// round of waits passes and every later wait needs the consumers' release.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "common/sm90_pipeline.hpp"

namespace gemmscope::sm90 {
namespace {

TEST(Sm90Pipeline, HandWorked) {
  PipelineState<4> s;
  EXPECT_EQ(s.stage(), 0u);
  EXPECT_EQ(s.phase(), 0u);
  EXPECT_EQ(s.empty_parity(), 1u);
  s = s.advance(5);
  EXPECT_EQ(s.stage(), 1u);
  EXPECT_EQ(s.phase(), 1u);
  EXPECT_EQ(s.advance(3).stage(), 0u);
  EXPECT_EQ(s.advance(3).phase(), 0u);
  PipelineState<3> t{5};
  EXPECT_EQ(t.stage(), 2u);
  EXPECT_EQ(t.phase(), 1u);
}

template <uint32_t S>
void ring_matches() {
  const uint32_t steps = *rc::gen::inRange(0u, 1000u);
  PipelineState<S> s;
  uint32_t index = 0, phase = 0;
  for (uint32_t i = 0; i < steps; ++i) {
    RC_ASSERT(s.stage() == index);
    RC_ASSERT(s.phase() == phase);
    s = s.advance();
    if (++index == S) index = 0, phase ^= 1u;
  }
}
RC_GTEST_PROP(Sm90Pipeline, MatchesExplicitRing, ()) {
  ring_matches<1>();
  ring_matches<3>();
  ring_matches<4>();
  ring_matches<7>();
}

// The stepped state equals the state formed from the count: the constructor and
// advance(n) agree with n single steps.
template <uint32_t S>
void steps_match_count() {
  const uint32_t a = *rc::gen::inRange(0u, 5000u), b = *rc::gen::inRange(0u, 5000u);
  PipelineState<S> s{a};
  RC_ASSERT(s.stage() == a % S);
  RC_ASSERT(s.phase() == (a / S) % 2);
  RC_ASSERT(s.advance(b) == PipelineState<S>{a + b});
  for (uint32_t i = 0; i < b % 50; ++i) s = s.advance();
  RC_ASSERT(s == PipelineState<S>{a + b % 50});
}
RC_GTEST_PROP(Sm90Pipeline, StepsMatchCount, ()) {
  steps_match_count<1>();
  steps_match_count<5>();
  steps_match_count<6>();
  steps_match_count<8>();
  steps_match_count<12>();
}

// mbarrier parity semantics (PTX ISA "mbarrier.test_wait.parity"): a wait on parity
// p returns when the phase with parity p most recently ended, i.e. when the number
// of completed phases c satisfies: the current phase's parity (c % 2) differs from p.
bool parity_wait_passes(uint32_t completed_phases, uint32_t parity) { return (completed_phases & 1u) != parity; }

// A producer and a consumer run in a random interleaving over a ring of S slots
// with full/empty barriers. Waits computed from PipelineState must pass exactly
// when the slot is really free (producer) or really filled (consumer).
template <uint32_t S>
void producer_consumer() {
  const uint32_t items = *rc::gen::inRange(1u, 200u);
  std::vector<uint32_t> full_done(S, 0), empty_done(S, 0);  // completed phases per barrier
  std::vector<int> filled(S, 0);                             // ground truth: slot holds an unread item
  PipelineState<S> prod, cons;
  uint32_t produced = 0, consumed = 0;
  while (consumed < items) {
    const bool try_producer = produced < items && *rc::gen::arbitrary<bool>();
    if (try_producer) {
      const uint32_t st = prod.stage();
      const bool passes = parity_wait_passes(empty_done[st], prod.empty_parity());
      RC_ASSERT(passes == (filled[st] == 0));
      if (passes) filled[st] = 1, ++full_done[st], prod = prod.advance(), ++produced;
    } else {
      const uint32_t st = cons.stage();
      const bool passes = parity_wait_passes(full_done[st], cons.phase());
      RC_ASSERT(passes == (filled[st] == 1 && consumed < produced));
      if (passes) filled[st] = 0, ++empty_done[st], cons = cons.advance(), ++consumed;
    }
  }
}
RC_GTEST_PROP(Sm90Pipeline, ParityWaitsMatchOccupancy, ()) {
  producer_consumer<1>();
  producer_consumer<2>();
  producer_consumer<4>();
}

}  // namespace
}  // namespace gemmscope::sm90
