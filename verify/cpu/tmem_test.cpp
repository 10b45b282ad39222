// Tensor Memory: addresses, the warp-to-lane rule, the allocator, the tcgen05.ld/st
// thread maps and accumulator placement. Expected values come from docs/hardware.md (#tmem-address to #tmem-accumulator-layout)
// written as hand-worked examples, from an occupancy array kept here, and from
// counting cells (bijection / exactly-once properties).
#include "gemmscope/model/tmem.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

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

const TmemLdShape kShapes[] = {TmemLdShape::S32x32b, TmemLdShape::S16x64b, TmemLdShape::S16x128b, TmemLdShape::S16x256b,
                               TmemLdShape::S16x32bx2};

// Valid .num values per shape: powers of two up to 128 registers per thread.
std::vector<uint32_t> nums_of(TmemLdShape s) {
  const uint32_t per = s == TmemLdShape::S16x256b ? 4 : s == TmemLdShape::S16x128b ? 2 : 1;
  std::vector<uint32_t> out;
  for (uint32_t n = 1; n * per <= 128; n *= 2) out.push_back(n);
  return out;
}

}  // namespace

// ---- addresses and the lane rule ------------------------------------------------------

TEST(Tmem, AddressPacking) {
  EXPECT_EQ(tmem_address(0, 0), 0u);
  EXPECT_EQ(tmem_address(5, 3), 0x00050003u);
  EXPECT_EQ(tmem_address(127, 511), 0x007F01FFu);
  EXPECT_EQ(tmem_lane(0x00400020u), 64u);
  EXPECT_EQ(tmem_column(0x00400020u), 32u);
  EXPECT_THROW(tmem_address(128, 0), ModelError);
  EXPECT_THROW(tmem_address(0, 512), ModelError);
}

TEST(Tmem, WarpMayTouchOnlyItsQuadrant) {
  for (uint32_t warp = 0; warp < 16; ++warp)
    for (uint32_t lane = 0; lane < 128; ++lane) {
      const bool allowed = lane / 32 == warp % 4;
      EXPECT_EQ(warp_may_access_lane(warp, lane), allowed) << warp << " " << lane;
      if (allowed)
        EXPECT_NO_THROW(require_warp_lane_access(warp, lane));
      else
        EXPECT_THROW(require_warp_lane_access(warp, lane), ModelError);
    }
  try {
    require_warp_lane_access(5, 10);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("lanes 32..63"), std::string::npos) << e.what();
  }
}

// ---- allocator -----------------------------------------------------------------------

TEST(TmemAllocator, PlacesAlignedAndReportsMisuse) {
  TmemAllocator a;
  EXPECT_EQ(a.allocate(32), tmem_address(0, 0));
  EXPECT_EQ(a.allocate(64), tmem_address(0, 64));  // model choice: aligned to its size
  EXPECT_EQ(a.allocate(32), tmem_address(0, 32));
  EXPECT_EQ(a.allocate(128), tmem_address(0, 128));
  EXPECT_EQ(a.allocate(256), tmem_address(0, 256));
  EXPECT_EQ(a.columns_in_use(), 512u);
  EXPECT_THROW(a.allocate(32), ModelError);                      // exhausted
  EXPECT_THROW(a.free(tmem_address(0, 16), 32), ModelError);     // not the start of an allocation
  EXPECT_THROW(a.free(tmem_address(0, 64), 32), ModelError);     // wrong size
  EXPECT_THROW(a.free(tmem_address(3, 64), 64), ModelError);     // not an allocation address
  EXPECT_THROW(a.free(tmem_address(0, 64), 64, 2), ModelError);  // other cta_group
  EXPECT_THROW(a.check_all_freed(), ModelError);
  a.free(tmem_address(0, 64), 64);
  try {
    a.free(tmem_address(0, 64), 64);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("double free"), std::string::npos) << e.what();
  }
  for (uint32_t c : {0u, 32u, 128u, 256u}) a.free(tmem_address(0, c), c == 0 || c == 32 ? 32 : c);
  EXPECT_NO_THROW(a.check_all_freed());
  a.relinquish_alloc_permit();
  EXPECT_THROW(a.allocate(32), ModelError);
}

TEST(TmemAllocator, RefusesBadColumnCounts) {
  TmemAllocator a;
  for (uint32_t c : {0u, 16u, 48u, 96u, 1024u}) EXPECT_THROW(a.allocate(c), ModelError) << c;
  EXPECT_THROW(a.allocate(32, 3), ModelError);
  EXPECT_NO_THROW(a.allocate(512, 2));
  EXPECT_THROW(a.allocate(32, 1), ModelError);  // one cta_group per kernel
}

// Random alloc/free sequences against a 512-entry occupancy array.
RC_GTEST_PROP(TmemAllocator, MatchesOccupancyReference, ()) {
  TmemAllocator a;
  std::vector<bool> used(512, false);
  std::map<uint32_t, uint32_t> live;  // column -> columns
  const int steps = *rc::gen::inRange(1, 40);
  for (int i = 0; i < steps; ++i) {
    if (live.empty() || *rc::gen::arbitrary<bool>()) {
      const uint32_t cols = 32u << *rc::gen::inRange(0, 5);
      int expected = -1;  // the lowest free range aligned to its size (the model's placement)
      for (uint32_t c = 0; c + cols <= 512 && expected < 0; c += cols) {
        bool free = true;
        for (uint32_t x = c; x < c + cols; ++x) free = free && !used[x];
        if (free) expected = static_cast<int>(c);
      }
      if (expected < 0) {
        RC_ASSERT_THROWS_AS(a.allocate(cols), ModelError);
      } else {
        RC_ASSERT(a.allocate(cols) == static_cast<uint32_t>(expected));
        for (uint32_t x = expected; x < expected + cols; ++x) used[x] = true;
        live[expected] = cols;
      }
    } else {
      auto it = live.begin();
      std::advance(it, *rc::gen::inRange<size_t>(0, live.size()));
      a.free(tmem_address(0, it->first), it->second);
      for (uint32_t x = it->first; x < it->first + it->second; ++x) used[x] = false;
      live.erase(it);
    }
    uint32_t in_use = 0;
    for (bool u : used) in_use += u;
    RC_ASSERT(a.columns_in_use() == in_use);
  }
  if (live.empty())
    a.check_all_freed();
  else
    RC_ASSERT_THROWS_AS(a.check_all_freed(), ModelError);
}

// ---- tcgen05.ld / st thread maps ---------------------------------------------------------

TEST(TmemLd, HandWorkedConfirmedMaps) {
  // .32x32b: thread t, register j -> lane t, column j.
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S32x32b, 8, 5, 3), (TmemCell{5, 3}));
  // .16x256b thread 5 (t/4 = 1, t%4 = 1): r0/r1 lane 1 columns 2, 3; r2/r3 lane 9.
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x256b, 1, 5, 0), (TmemCell{1, 2}));
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x256b, 1, 5, 1), (TmemCell{1, 3}));
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x256b, 1, 5, 2), (TmemCell{9, 2}));
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x256b, 1, 5, 3), (TmemCell{9, 3}));
  // .16x128b thread 6: r0 lane 1 column 2; r1 lane 9 column 2.
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x128b, 1, 6, 0), (TmemCell{1, 2}));
  EXPECT_EQ(tmem_ld_cell(TmemLdShape::S16x128b, 1, 6, 1), (TmemCell{9, 2}));
  EXPECT_TRUE(tmem_map_confirmed(TmemLdShape::S32x32b, 64));
  EXPECT_TRUE(tmem_map_confirmed(TmemLdShape::S16x256b, 1));
  EXPECT_FALSE(tmem_map_confirmed(TmemLdShape::S16x256b, 2));  // .xN repeat order
  EXPECT_FALSE(tmem_map_confirmed(TmemLdShape::S16x64b, 1));
  EXPECT_FALSE(tmem_map_confirmed(TmemLdShape::S16x32bx2, 1));
}

TEST(TmemLd, RegisterCountsAndLimits) {
  EXPECT_EQ(tmem_registers_per_thread(TmemLdShape::S32x32b, 128), 128u);
  EXPECT_EQ(tmem_registers_per_thread(TmemLdShape::S16x256b, 32), 128u);
  EXPECT_EQ(tmem_registers_per_thread(TmemLdShape::S16x128b, 4), 8u);
  EXPECT_THROW(tmem_registers_per_thread(TmemLdShape::S16x256b, 64), ModelError);
  EXPECT_THROW(tmem_registers_per_thread(TmemLdShape::S32x32b, 3), ModelError);
  EXPECT_THROW(tmem_ld_cell(TmemLdShape::S32x32b, 1, 32, 0), ModelError);
  EXPECT_THROW(tmem_ld_cell(TmemLdShape::S16x256b, 1, 0, 4), ModelError);
  EXPECT_THROW(parse_tmem_ld_shape("16x512b"), ModelError);
  EXPECT_EQ(parse_tmem_ld_shape("16x32bx2"), TmemLdShape::S16x32bx2);
}

// Every shape and .num: the 32 threads x registers land on distinct cells that fill
// the shape's rectangle (lanes x columns) exactly.
TEST(TmemLd, EachMapIsABijectionOntoItsRectangle) {
  for (TmemLdShape s : kShapes)
    for (uint32_t num : nums_of(s)) {
      const uint32_t regs = tmem_registers_per_thread(s, num);
      const uint32_t lanes = tmem_shape_lanes(s);
      const uint32_t cols = s == TmemLdShape::S16x32bx2 ? 2 * num : tmem_shape_columns_per_repeat(s) * num;
      std::set<std::pair<uint32_t, uint32_t>> cells;
      for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < regs; ++j) {
          const TmemCell c = tmem_ld_cell(s, num, t, j);
          ASSERT_LT(c.lane, lanes) << to_string(s) << ".x" << num;
          ASSERT_LT(c.column, cols) << to_string(s) << ".x" << num;
          cells.insert({c.lane, c.column});
        }
      EXPECT_EQ(cells.size(), size_t{32} * regs) << to_string(s) << ".x" << num;
      EXPECT_EQ(cells.size(), size_t{lanes} * cols) << to_string(s) << ".x" << num;
    }
}

RC_GTEST_PROP(TmemLd, HalfSplitOffsetMovesTheUpperHalfWarp, ()) {
  const uint32_t num = 1u << *rc::gen::inRange(0, 8);
  const uint32_t split = *rc::gen::inRange<uint32_t>(num, 512);
  std::set<std::pair<uint32_t, uint32_t>> cells;
  for (uint32_t t = 0; t < 32; ++t)
    for (uint32_t j = 0; j < num; ++j) {
      const TmemCell c = tmem_ld_cell(TmemLdShape::S16x32bx2, num, t, j, split);
      RC_ASSERT(c.lane == t % 16);
      RC_ASSERT(c.column == (t < 16 ? j : split + j));
      cells.insert({c.lane, c.column});
    }
  RC_ASSERT(cells.size() == size_t{32} * num);
}

// An epilogue of 4 warps reads a 128-lane x N-column accumulator with .32x32b.xNUM:
// warp w at lane base 32(w%4), column chunks of NUM. Every cell exactly once, every
// access inside the warp's quadrant.
RC_GTEST_PROP(TmemLd, EpilogueWith32x32bTouchesEveryCellOnce, ()) {
  const uint32_t n = 8 * *rc::gen::inRange<uint32_t>(1, 33);
  const uint32_t num =
      *rc::gen::suchThat(rc::gen::element(1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u), [n](uint32_t v) { return n % v == 0; });
  const uint32_t first_warp = 4 * *rc::gen::inRange<uint32_t>(0, 4);  // any warpgroup
  std::vector<int> hits(128 * n, 0);
  for (uint32_t warp = first_warp; warp < first_warp + 4; ++warp)
    for (uint32_t c0 = 0; c0 < n; c0 += num)
      for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < num; ++j) {
          const TmemCell c = tmem_ld_cell(TmemLdShape::S32x32b, num, t, j);
          const uint32_t lane = tmem_first_lane_of_warp(warp) + c.lane, column = c0 + c.column;
          require_warp_lane_access(warp, lane);
          RC_ASSERT(column < n);
          ++hits[lane * n + column];
        }
  for (int h : hits) RC_ASSERT(h == 1);
}

// The same with .16x256b.xNUM: two instructions per warp (lane bases 32w and 32w+16).
RC_GTEST_PROP(TmemLd, EpilogueWith16x256bTouchesEveryCellOnce, ()) {
  const uint32_t num = *rc::gen::element(1u, 2u, 4u, 8u, 16u, 32u);
  const uint32_t n = 8 * num * *rc::gen::inRange<uint32_t>(1, 256 / (8 * num) + 1);
  std::vector<int> hits(128 * n, 0);
  for (uint32_t warp = 0; warp < 4; ++warp)
    for (uint32_t half = 0; half < 2; ++half)
      for (uint32_t c0 = 0; c0 < n; c0 += 8 * num)
        for (uint32_t t = 0; t < 32; ++t)
          for (uint32_t j = 0; j < 4 * num; ++j) {
            const TmemCell c = tmem_ld_cell(TmemLdShape::S16x256b, num, t, j);
            const uint32_t lane = 32 * warp + 16 * half + c.lane, column = c0 + c.column;
            require_warp_lane_access(warp, lane);
            RC_ASSERT(column < n);
            ++hits[lane * n + column];
          }
  for (int h : hits) RC_ASSERT(h == 1);
}

// ---- accumulator placement -------------------------------------------------------------

TEST(TmemAccumulator, HandWorkedPlacements) {
  EXPECT_EQ(accumulator_cell(128, 64, 1, 77, 5), (AccumulatorCell{0, 77, 5}));      // layout D
  EXPECT_EQ(accumulator_cell(256, 64, 2, 200, 9), (AccumulatorCell{1, 72, 9}));     // layout A: odd CTA
  EXPECT_EQ(accumulator_cell(256, 64, 2, 3, 9), (AccumulatorCell{0, 3, 9}));        // even CTA rows 0-127
  EXPECT_EQ(accumulator_cell(64, 32, 1, 17, 4), (AccumulatorCell{0, 33, 4}));       // layout F (unconfirmed)
  EXPECT_EQ(accumulator_cell(128, 128, 2, 70, 100), (AccumulatorCell{1, 70, 36}));  // layout B (unconfirmed)
  EXPECT_TRUE(accumulator_layout_confirmed(128, 1));
  EXPECT_TRUE(accumulator_layout_confirmed(256, 2));
  EXPECT_FALSE(accumulator_layout_confirmed(64, 1));
  EXPECT_FALSE(accumulator_layout_confirmed(128, 2));
  EXPECT_THROW(accumulator_cell(256, 64, 1, 0, 0), ModelError);
  EXPECT_THROW(accumulator_cell(128, 8, 2, 0, 0), ModelError);
  EXPECT_THROW(accumulator_cell(128, 64, 1, 128, 0), ModelError);
}

// Each shape puts every D element in its own cell, inside TMEM and inside n columns.
RC_GTEST_PROP(TmemAccumulator, PlacementIsInjectiveAndInRange, ()) {
  const auto [m, cg] = *rc::gen::element(std::pair<uint32_t, int>{64, 1}, std::pair<uint32_t, int>{128, 1},
                                         std::pair<uint32_t, int>{128, 2}, std::pair<uint32_t, int>{256, 2});
  const uint32_t step = cg == 1 ? 8 : 16;
  const uint32_t n = step * *rc::gen::inRange<uint32_t>(1, 256 / step + 1);
  std::vector<char> taken(2 * 128 * 256, 0);
  size_t distinct = 0;
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < n; ++c) {
      const AccumulatorCell a = accumulator_cell(m, n, cg, r, c);
      RC_ASSERT(a.cta < static_cast<uint32_t>(cg));
      RC_ASSERT(a.lane < 128u);
      RC_ASSERT(a.column < n);
      char& cell = taken[(a.cta * 128 + a.lane) * 256 + a.column];
      distinct += cell == 0;
      cell = 1;
    }
  RC_ASSERT(distinct == size_t{m} * n);
}
