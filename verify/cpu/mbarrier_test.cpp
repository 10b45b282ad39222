// The mbarrier state machine against a plainly written reference that counts
// arrivals up (instead of pending arrivals down) and keeps the phase number, over
// random operation sequences; plus hand-worked producer/consumer scenarios.
#include "gemmscope/model/mbarrier.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "gemmscope/model/error.hpp"

using namespace gemmscope::model;

namespace {

const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

constexpr int64_t kLimit = 1048575;  // 2^20 - 1, PTX ISA mbarrier ranges

// The reference: arrivals counted up; an operation the PTX ISA leaves undefined
// returns nullopt and changes nothing.
struct ReferenceBarrier {
  int64_t expected;
  int64_t arrived = 0;
  int64_t tx = 0;
  int64_t phase = 0;  // number of completed phases

  void maybe_complete() {
    if (arrived == expected && tx == 0) {
      phase += 1;
      arrived = 0;
    }
  }
  bool arrive(int64_t n) {
    if (n < 1 || n > kLimit || arrived + n > expected) return false;
    arrived += n;
    maybe_complete();
    return true;
  }
  bool expect_tx(int64_t bytes) {
    if (bytes < 0 || bytes > kLimit || tx + bytes > kLimit) return false;
    tx += bytes;
    maybe_complete();
    return true;
  }
  bool arrive_expect_tx(int64_t bytes) {
    if (bytes < 0 || bytes > kLimit || tx + bytes > kLimit || arrived + 1 > expected) return false;
    tx += bytes;
    arrived += 1;
    maybe_complete();
    return true;
  }
  bool complete_tx(int64_t bytes) {
    if (bytes < 0 || bytes > kLimit || tx - bytes < -kLimit) return false;
    tx -= bytes;
    maybe_complete();
    return true;
  }
  // Of the current and the preceding phase, pick the one with parity p; it has
  // completed iff it is the preceding one.
  bool wait_parity(int p) const {
    for (int64_t k : {phase, phase - 1})
      if (((k % 2) + 2) % 2 == p) return k != phase;
    return false;
  }
  std::optional<bool> wait_phase(int64_t k) const {
    if (k == phase) return false;
    if (k == phase - 1) return true;
    return std::nullopt;
  }
};

void expect_same(const Mbarrier& m, const ReferenceBarrier& r) {
  RC_ASSERT(m.completed_phases() == r.phase);
  RC_ASSERT(m.phase_parity() == static_cast<uint32_t>(r.phase % 2));
  RC_ASSERT(int64_t{m.pending_arrivals()} == r.expected - r.arrived);
  RC_ASSERT(int64_t{m.tx_count()} == r.tx);
}

// Runs f on the model: returns true if it succeeded, false if it threw ModelError
// (and then checks that the model did not change).
template <class F>
bool run(Mbarrier& m, F&& f) {
  const Mbarrier before = m;
  try {
    f();
    return true;
  } catch (const ModelError&) {
    RC_ASSERT(m == before);
    return false;
  }
}

}  // namespace

TEST(Mbarrier, TmaProducerConsumerScenario) {
  Mbarrier full(1);
  // A producer's first wait on an "empty" barrier uses parity 1: the phase before
  // init counts as completed.
  EXPECT_TRUE(full.try_wait_parity(1));
  EXPECT_FALSE(full.try_wait_parity(0));
  EXPECT_TRUE(full.try_wait_phase(-1));
  full.arrive_expect_tx(32768);
  EXPECT_EQ(full.pending_arrivals(), 0u);
  EXPECT_EQ(full.tx_count(), 32768);
  EXPECT_FALSE(full.try_wait_parity(0));  // bytes outstanding
  full.complete_tx(16384);
  EXPECT_FALSE(full.try_wait_parity(0));
  full.complete_tx(16384);
  EXPECT_TRUE(full.try_wait_parity(0));  // phase 0 complete
  EXPECT_EQ(full.phase_parity(), 1u);
  EXPECT_EQ(full.pending_arrivals(), 1u);  // reloaded
  EXPECT_EQ(full.completed_phases(), 1);
}

TEST(Mbarrier, BytesMayLandBeforeTheyAreExpected) {
  Mbarrier b(2);
  b.complete_tx(100);  // TMA finished before arrive.expect_tx: tx-count goes negative
  EXPECT_EQ(b.tx_count(), -100);
  b.arrive();
  EXPECT_EQ(b.completed_phases(), 0);
  b.arrive_expect_tx(100);
  EXPECT_EQ(b.completed_phases(), 1);
  EXPECT_EQ(b.tx_count(), 0);
  EXPECT_EQ(b.pending_arrivals(), 2u);
}

TEST(Mbarrier, UndefinedUsesAreErrors) {
  EXPECT_THROW(Mbarrier(0), ModelError);
  EXPECT_THROW(Mbarrier(1u << 20), ModelError);
  EXPECT_NO_THROW(Mbarrier((1u << 20) - 1));
  Mbarrier b(2);
  EXPECT_THROW(b.arrive(3), ModelError);  // underflow
  EXPECT_THROW(b.arrive(0), ModelError);
  EXPECT_THROW(b.expect_tx(1u << 20), ModelError);
  b.expect_tx(1048575);
  EXPECT_THROW(b.expect_tx(1), ModelError);  // tx-count above 2^20-1
  b.complete_tx(1048575);
  b.complete_tx(1048575);
  EXPECT_THROW(b.complete_tx(1), ModelError);  // tx-count below -(2^20-1)
  EXPECT_THROW(b.try_wait_parity(2), ModelError);
  Mbarrier one(1);
  one.arrive();
  one.arrive();                                     // two phases completed; current phase 2
  EXPECT_THROW(one.try_wait_phase(0), ModelError);  // two behind
  EXPECT_THROW(one.try_wait_phase(3), ModelError);  // ahead
  EXPECT_TRUE(one.try_wait_phase(1));
  EXPECT_FALSE(one.try_wait_phase(2));
  try {
    Mbarrier(1).arrive(2);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("arrive count = 2"), std::string::npos) << e.what();
  }
}

RC_GTEST_PROP(Mbarrier, MatchesReferenceOverRandomSequences, ()) {
  // Small counts most of the time so that phases complete; sometimes the extremes.
  const uint32_t expected = *rc::gen::weightedOneOf<uint32_t>(
      {{8, rc::gen::inRange<uint32_t>(1, 5)}, {1, rc::gen::inRange<uint32_t>(1, 1u << 21)}});
  const bool valid_init = expected >= 1 && expected <= kLimit;
  if (!valid_init) {
    RC_ASSERT_THROWS_AS(Mbarrier{expected}, ModelError);
    return;
  }
  Mbarrier m(expected);
  ReferenceBarrier r{expected};
  const auto gen_bytes = rc::gen::weightedOneOf<uint32_t>({{6, rc::gen::element(0u, 16u, 32u, 64u, 4096u)},
                                                           {1, rc::gen::inRange<uint32_t>(0, 1u << 21)},
                                                           {1, rc::gen::just(uint32_t{1048575})}});
  const int steps = *rc::gen::inRange(1, 60);
  for (int i = 0; i < steps; ++i) {
    const int op = *rc::gen::inRange(0, 6);
    if (op == 0) {
      const uint32_t n = *rc::gen::weightedOneOf<uint32_t>(
          {{8, rc::gen::inRange<uint32_t>(1, 4)}, {1, rc::gen::inRange<uint32_t>(0, 1u << 21)}});
      RC_ASSERT(run(m, [&] { m.arrive(n); }) == r.arrive(n));
    } else if (op == 1) {
      const uint32_t b = *gen_bytes;
      RC_ASSERT(run(m, [&] { m.expect_tx(b); }) == r.expect_tx(b));
    } else if (op == 2) {
      const uint32_t b = *gen_bytes;
      RC_ASSERT(run(m, [&] { m.arrive_expect_tx(b); }) == r.arrive_expect_tx(b));
    } else if (op == 3) {
      const uint32_t b = *gen_bytes;
      RC_ASSERT(run(m, [&] { m.complete_tx(b); }) == r.complete_tx(b));
    } else if (op == 4) {
      const int p = *rc::gen::inRange(0, 2);
      RC_ASSERT(m.try_wait_parity(p) == r.wait_parity(p));
    } else {
      const int64_t k = r.phase + *rc::gen::inRange<int64_t>(-3, 3);
      const auto want = r.wait_phase(k);
      bool got = false;
      const bool ok = run(m, [&] { got = m.try_wait_phase(k); });
      RC_ASSERT(ok == want.has_value());
      if (ok) RC_ASSERT(got == *want);
    }
    expect_same(m, r);
  }
}
