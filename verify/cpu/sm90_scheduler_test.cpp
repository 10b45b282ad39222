// The tile schedulers of kernels/common/sm90_scheduler.hpp: for random work grids
// and persistent grid sizes, every work tile is visited exactly once by the static
// schedule, by the dynamic one under random claim interleavings, and under every
// tile order; plus hand-worked orders.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace gemmscope::sm90
