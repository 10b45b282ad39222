// The GPC-grouped order of k10's static schedule (kernels/tune/gpc_order.hpp):
// a permutation within each round that deals a round's units, in their own order, to
// its workers sorted by GPC.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tune/gpc_order.hpp"

namespace gemmscope::tune {
namespace {

// Worked by hand: workers 0..3 on GPCs 1, 0, 1, 0. Round 0 (units 0-3) goes to the
// workers in the order 1, 3 (GPC 0), 0, 2 (GPC 1); round 1 (units 4-5) to workers 0
// and 1 only, the GPC-0 one (1) first.
TEST(GpcOrder, HandWorkedTwoRounds) {
  EXPECT_EQ(gpc_grouped_order({1, 0, 1, 0}, 6), (std::vector<uint32_t>{2, 0, 3, 1, 5, 4}));
}

// One GPC: the static schedule's own order.
TEST(GpcOrder, OneGpcIsTheIdentity) {
  std::vector<uint32_t> identity(70);
  std::iota(identity.begin(), identity.end(), 0u);
  EXPECT_EQ(gpc_grouped_order(std::vector<int>(16, 3), 70), identity);
}

// The H200's placement of 64 clusters of 2 at 512x4096x4096 in 1x2 (128 x 128 tiles,
// 4 x 16 cluster units along M: units 4j .. 4j+3 read the same B tiles), from
// bench/results/2026-12-01-h200-cluster-2x2/run-2/placement.csv: clusters 0-3 on the
// odd SMs 124-131 (GPCs of their own), 4-35 on GPCs 0-7 in turn, 36-63 on GPCs 1-7 in
// turn. In the along-M order no two readers of a B tile share a GPC; grouped, 15 of
// the 16 groups of four lie within one GPC (the 16th is the four odd clusters).
TEST(GpcOrder, H200PlacementPutsTheReadersOfEachBTileOnOneGpc) {
  std::vector<int> gpc;
  for (int c = 0; c < 4; ++c) gpc.push_back(10 + c);
  for (int c = 4; c < 36; ++c) gpc.push_back((c - 4) % 8);
  for (int c = 36; c < 64; ++c) gpc.push_back(1 + (c - 36) % 7);
  const std::vector<uint32_t> order = gpc_grouped_order(gpc, 64);
  auto groups_on_one_gpc = [&](auto unit_of_worker) {
    int whole = 0;
    for (uint32_t j = 0; j < 16; ++j) {
      std::vector<int> where;
      for (int w = 0; w < 64; ++w)
        if (unit_of_worker(w) / 4 == j) where.push_back(gpc[w]);
      EXPECT_EQ(where.size(), 4u);
      whole += std::all_of(where.begin(), where.end(), [&](int g) { return g == where[0]; }) ? 1 : 0;
    }
    return whole;
  };
  EXPECT_EQ(groups_on_one_gpc([](int w) { return static_cast<uint32_t>(w); }), 0);
  EXPECT_EQ(groups_on_one_gpc([&](int w) { return order[w]; }), 15);
}

RC_GTEST_PROP(GpcOrder, PermutesWithinEachRoundInGpcOrder, ()) {
  const int workers = *rc::gen::inRange(1, 140);
  const int gpcs = *rc::gen::inRange(1, 12);
  const auto gpc = *rc::gen::container<std::vector<int>>(workers, rc::gen::inRange(0, gpcs));
  const int64_t units = *rc::gen::inRange<int64_t>(0, 5 * workers + 3);
  const std::vector<uint32_t> order = gpc_grouped_order(gpc, units);
  RC_ASSERT(order.size() == static_cast<size_t>(units));
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t u = 0; u < units; ++u) {
    RC_ASSERT(sorted[u] == static_cast<uint32_t>(u));     // every unit once
    RC_ASSERT(order[u] / workers == u / workers);         // in the round it was in
  }
  // Within a round, a worker earlier by (GPC, worker) runs the earlier unit.
  for (int64_t a = 0; a < units; ++a)
    for (int64_t b = a + 1; b < units && b / workers == a / workers; ++b) {
      const int wa = static_cast<int>(a % workers), wb = static_cast<int>(b % workers);
      const bool a_first = gpc[wa] < gpc[wb] || (gpc[wa] == gpc[wb] && wa < wb);
      RC_ASSERT((order[a] < order[b]) == a_first);
    }
}

TEST(GpcOrder, RefusesNoWorkersAndBadCounts) {
  EXPECT_THROW(gpc_grouped_order({}, 4), std::invalid_argument);
  EXPECT_THROW(gpc_grouped_order({0, 1}, -1), std::invalid_argument);
  EXPECT_THROW(gpc_grouped_order({0, 1}, int64_t{1} << 33), std::invalid_argument);
  EXPECT_TRUE(gpc_grouped_order({0, 1}, 0).empty());
}

}  // namespace
}  // namespace gemmscope::tune
