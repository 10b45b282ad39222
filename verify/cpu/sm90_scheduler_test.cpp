// The tile schedulers of kernels/common/sm90_scheduler.hpp: for random work grids
// and persistent grid sizes, every work tile is visited exactly once by the static
// schedule, by the dynamic one under random claim interleavings, and under every
// tile order; plus hand-worked orders. Stream-K's walk against a brute-force split
// of the iteration space: every k-block once, balanced ranges, each split tile's
// segments numbered in k order with distinct workspace slots the reducer can find.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "common/sm90_scheduler.hpp"

namespace gemmscope::sm90 {
namespace {

rc::Gen<WorkGrid> work_grid() {
  return rc::gen::build<WorkGrid>(rc::gen::set(&WorkGrid::units_m, rc::gen::inRange(1u, 70u)),
                                  rc::gen::set(&WorkGrid::units_n, rc::gen::inRange(1u, 70u)));
}

// Counts visits per (m, n) of a list of linear indices under an order.
std::vector<int> visits(WorkGrid g, const std::vector<uint32_t>& linear, TileOrder order, uint32_t group) {
  std::vector<int> count(g.total(), 0);
  for (uint32_t l : linear) {
    const WorkCoord c = work_coord(g, l, order, group);
    RC_ASSERT(c.m < g.units_m);
    RC_ASSERT(c.n < g.units_n);
    ++count[c.m * g.units_n + c.n];
  }
  return count;
}

TEST(Sm90Scheduler, HandWorkedOrders) {
  const WorkGrid g{5, 3};
  // Along M: 0..4 down column 0, then column 1.
  EXPECT_EQ(order_along_m(g, 6).m, 1u);
  EXPECT_EQ(order_along_m(g, 6).n, 1u);
  // Grouped zig-zag, group 2: band 0 = rows 0-1 left to right, (0,0) (1,0) (0,1) (1,1) (0,2) (1,2);
  // band 1 = rows 2-3 right to left starting at (2,2); band 2 = row 4 alone, left to right.
  const uint32_t want[15][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}, {3, 2},
                                {2, 1}, {3, 1}, {2, 0}, {3, 0}, {4, 0}, {4, 1}, {4, 2}};
  for (uint32_t l = 0; l < 15; ++l) {
    const WorkCoord c = order_grouped_zigzag(g, l, 2);
    EXPECT_EQ(c.m, want[l][0]) << l;
    EXPECT_EQ(c.n, want[l][1]) << l;
  }
}

RC_GTEST_PROP(Sm90Scheduler, StaticVisitsEveryTileOnce, ()) {
  const WorkGrid g = *work_grid();
  const uint32_t workers = *rc::gen::inRange(1u, 140u);
  const auto order = *rc::gen::element(TileOrder::AlongM, TileOrder::GroupedZigzag);
  const uint32_t group = *rc::gen::inRange(1u, 20u);
  std::vector<uint32_t> linear;
  for (uint32_t w = 0; w < workers; ++w)
    for (StaticSchedule s = StaticSchedule::first(w, workers); s.valid(g); s = s.next()) linear.push_back(s.linear);
  for (int v : visits(g, linear, order, group)) RC_ASSERT(v == 1);
}

// Workers claim from a shared counter in a random order; each stops at its first
// index past the end, as the kernels do.
RC_GTEST_PROP(Sm90Scheduler, DynamicVisitsEveryTileOnce, ()) {
  const WorkGrid g = *work_grid();
  const uint32_t workers = *rc::gen::inRange(1u, 140u);
  const auto order = *rc::gen::element(TileOrder::AlongM, TileOrder::GroupedZigzag);
  const uint32_t group = *rc::gen::inRange(1u, 20u);
  const DynamicSchedule sched{workers};
  std::vector<uint32_t> linear;
  std::vector<uint32_t> live;
  for (uint32_t w = 0; w < workers; ++w)
    if (sched.first(w) < g.total()) linear.push_back(sched.first(w)), live.push_back(w);
  uint32_t counter = 0;
  while (!live.empty()) {
    const size_t pick = *rc::gen::inRange<size_t>(0, live.size());
    const uint32_t tile = sched.after_claim(counter++);  // atomicAdd(counter, 1)
    if (tile < g.total()) linear.push_back(tile);
    else live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  for (int v : visits(g, linear, order, group)) RC_ASSERT(v == 1);
}

// Grouped zig-zag is a bijection written differently: enumerate bands by loops.
RC_GTEST_PROP(Sm90Scheduler, ZigzagMatchesBandLoops, ()) {
  const WorkGrid g = *work_grid();
  const uint32_t group = *rc::gen::inRange(1u, 20u);
  uint32_t l = 0;
  for (uint32_t band = 0, first = 0; first < g.units_m; ++band, first += group) {
    const uint32_t last = std::min(first + group, g.units_m);
    for (uint32_t step = 0; step < g.units_n; ++step) {
      const uint32_t n = band % 2 == 0 ? step : g.units_n - 1 - step;
      for (uint32_t m = first; m < last; ++m, ++l) {
        const WorkCoord c = order_grouped_zigzag(g, l, group);
        RC_ASSERT(c.m == m);
        RC_ASSERT(c.n == n);
      }
    }
  }
  RC_ASSERT(l == g.total());
}

// 3 tiles of 4 k-blocks over 5 workers: I = 12, ranges [0,2) [2,4) [4,7) [7,9) [9,12).
TEST(Sm90Scheduler, StreamKHandWorked) {
  const StreamK sk{10, 3, 4, 5};
  struct Want {
    uint32_t worker, tile, kb_begin, kb_end, index, count, slot;
  };
  const Want want[] = {{0, 0, 0, 2, 0, 2, 0}, {1, 0, 2, 4, 1, 2, 2}, {2, 1, 0, 3, 0, 2, 4},
                       {3, 1, 3, 4, 1, 2, 6}, {3, 2, 0, 1, 0, 2, 7}, {4, 2, 1, 4, 1, 2, 8}};
  size_t i = 0;
  for (uint32_t w = 0; w < 5; ++w) {
    StreamK::Cursor c = sk.start(w);
    StreamKSegment s;
    while (sk.next(c, s)) {
      ASSERT_LT(i, std::size(want));
      const Want& e = want[i++];
      EXPECT_EQ(w, e.worker) << i;
      EXPECT_EQ(s.tile, e.tile) << i;
      EXPECT_EQ(s.kb_begin, e.kb_begin) << i;
      EXPECT_EQ(s.kb_end, e.kb_end) << i;
      EXPECT_EQ(s.index, e.index) << i;
      EXPECT_EQ(s.count, e.count) << i;
      EXPECT_EQ(s.slot, e.slot) << i;
    }
  }
  EXPECT_EQ(i, std::size(want));
  StreamK::Cursor past = sk.start(5);
  StreamKSegment s;
  EXPECT_FALSE(sk.next(past, s));
}

RC_GTEST_PROP(Sm90Scheduler, StreamKCoversEveryKBlockOnce, ()) {
  StreamK sk;
  sk.tiles = *rc::gen::inRange(1u, 300u);
  sk.k_blocks = *rc::gen::inRange(1u, 500u);
  const uint64_t iterations = uint64_t{sk.tiles} * sk.k_blocks;
  sk.workers = static_cast<uint32_t>(*rc::gen::inRange<uint64_t>(1, std::min<uint64_t>(iterations, 264) + 1));
  // The plain rule: worker w owns [w * I / P, (w + 1) * I / P).
  std::vector<uint32_t> owner_of(iterations);
  for (uint32_t w = 0; w < sk.workers; ++w)
    for (uint64_t i = w * iterations / sk.workers; i < (w + 1) * iterations / sk.workers; ++i) owner_of[i] = w;

  struct Seen {
    uint32_t worker, index, count, first, slot, kb_begin, kb_end;
  };
  std::map<uint32_t, std::vector<Seen>> by_tile;
  std::vector<int> covered(iterations, 0);
  for (uint32_t w = 0; w < sk.workers; ++w) {
    StreamK::Cursor c = sk.start(w);
    StreamKSegment s;
    uint64_t mine = 0, expected_next = w * iterations / sk.workers;
    while (sk.next(c, s)) {
      RC_ASSERT(s.tile < sk.tiles);
      RC_ASSERT(s.kb_begin < s.kb_end);
      RC_ASSERT(s.kb_end <= sk.k_blocks);
      RC_ASSERT(uint64_t{s.tile} * sk.k_blocks + s.kb_begin == expected_next);  // contiguous, in order
      for (uint32_t kb = s.kb_begin; kb < s.kb_end; ++kb) {
        const uint64_t i = uint64_t{s.tile} * sk.k_blocks + kb;
        RC_ASSERT(owner_of[i] == w);
        ++covered[i];
      }
      expected_next += s.kb_end - s.kb_begin;
      mine += s.kb_end - s.kb_begin;
      by_tile[s.tile].push_back({w, s.index, s.count, s.first_worker, s.slot, s.kb_begin, s.kb_end});
    }
    // Balanced: every worker gets floor(I / P) or ceil(I / P) k-blocks, at least one.
    RC_ASSERT(mine >= iterations / sk.workers);
    RC_ASSERT(mine <= (iterations + sk.workers - 1) / sk.workers);
    RC_ASSERT(mine >= 1u);
  }
  for (int v : covered) RC_ASSERT(v == 1);

  std::set<uint32_t> slots;
  std::map<uint32_t, int> split_segments_per_worker;
  for (auto& [tile, segs] : by_tile) {
    std::sort(segs.begin(), segs.end(), [](const Seen& a, const Seen& b) { return a.kb_begin < b.kb_begin; });
    RC_ASSERT(segs.front().kb_begin == 0u);
    for (size_t j = 0; j < segs.size(); ++j) {
      const Seen& s = segs[j];
      RC_ASSERT(s.index == j);
      RC_ASSERT(s.count == segs.size());
      RC_ASSERT(s.first == segs.front().worker);
      RC_ASSERT(s.worker == s.first + s.index);
      if (s.count > 1) {
        RC_ASSERT(s.slot < 2 * sk.workers);
        RC_ASSERT(slots.insert(s.slot).second);  // no two partials share a slot
        RC_ASSERT(sk.slot(s.first + s.index, tile) == s.slot);  // the reducer finds it
        ++split_segments_per_worker[s.worker];
      }
    }
  }
  for (const auto& [w, n] : split_segments_per_worker) RC_ASSERT(n <= 2);
}

}  // namespace
}  // namespace gemmscope::sm90
