// Register fragments: the wgmma m64nNk16 fp32 accumulator map and the
// ldmatrix/stmatrix map. Expected values: hand-worked cells (docs/hardware.md#wgmma-accumulator, #ldmatrix-fragment; PTX ISA
// figures) and bijection counts.
#include "gemmscope/model/fragments.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
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

}  // namespace

TEST(WgmmaAccumulator, HandWorkedCells) {
  // Thread 0: d0 (0,0), d1 (0,1), d2 (8,0), d3 (8,1), d4 (0,8).
  EXPECT_EQ(wgmma_accumulator_cell(64, 0, 0), (FragmentCell{0, 0}));
  EXPECT_EQ(wgmma_accumulator_cell(64, 0, 1), (FragmentCell{0, 1}));
  EXPECT_EQ(wgmma_accumulator_cell(64, 0, 2), (FragmentCell{8, 0}));
  EXPECT_EQ(wgmma_accumulator_cell(64, 0, 3), (FragmentCell{8, 1}));
  EXPECT_EQ(wgmma_accumulator_cell(64, 0, 4), (FragmentCell{0, 8}));
  // Thread 37 = warp 1, lane 5 (lane/4 = 1, lane%4 = 1): d0 at row 17, column 2.
  EXPECT_EQ(wgmma_accumulator_cell(64, 37, 0), (FragmentCell{17, 2}));
  // Thread 127, register 127 of N=256: row 48 + 7 + 8 = 63, column 6 + 1 + 8*31 = 255.
  EXPECT_EQ(wgmma_accumulator_cell(256, 127, 127), (FragmentCell{63, 255}));
  EXPECT_THROW(wgmma_accumulator_cell(64, 128, 0), ModelError);
  EXPECT_THROW(wgmma_accumulator_cell(64, 0, 32), ModelError);
  EXPECT_THROW(wgmma_accumulator_cell(12, 0, 0), ModelError);
  EXPECT_THROW(wgmma_accumulator_cell(264, 0, 0), ModelError);
}

// For every N: 128 threads x N/2 registers cover the 64 x N tile exactly once.
TEST(WgmmaAccumulator, IsABijectionOntoTheTileForEveryN) {
  for (uint32_t n = 8; n <= 256; n += 8) {
    std::vector<int> hits(kWgmmaM * n, 0);
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t i = 0; i < n / 2; ++i) {
        const FragmentCell c = wgmma_accumulator_cell(n, t, i);
        ASSERT_LT(c.row, kWgmmaM);
        ASSERT_LT(c.col, n);
        ++hits[c.row * n + c.col];
      }
    for (int h : hits) ASSERT_EQ(h, 1) << "n = " << n;
  }
}

// Each warp owns its own 16 rows (w = t/32): what lets a warp's epilogue work alone.
RC_GTEST_PROP(WgmmaAccumulator, WarpOwnsSixteenRows, ()) {
  const uint32_t n = 8 * *rc::gen::inRange<uint32_t>(1, 33);
  const uint32_t t = *rc::gen::inRange<uint32_t>(0, 128);
  const uint32_t i = *rc::gen::inRange<uint32_t>(0, n / 2);
  const FragmentCell c = wgmma_accumulator_cell(n, t, i);
  RC_ASSERT(c.row / 16 == t / 32);
  // Registers i and i^1 are horizontal neighbours (a float2 of the row).
  const FragmentCell d = wgmma_accumulator_cell(n, t, i ^ 1);
  RC_ASSERT(d.row == c.row);
  RC_ASSERT(d.col == (c.col ^ 1));
}

TEST(Ldmatrix, HandWorkedElements) {
  // Thread 9, register 1 of .x2: matrix 1, row 2, columns 2 and 3.
  EXPECT_EQ(ldmatrix_element(2, false, 9, 1, 0), (LdmatrixElement{1, 2, 2}));
  EXPECT_EQ(ldmatrix_element(2, false, 9, 1, 1), (LdmatrixElement{1, 2, 3}));
  // .trans swaps: row 2, columns 2/3 become rows 2/3, column 2.
  EXPECT_EQ(ldmatrix_element(2, true, 9, 1, 0), (LdmatrixElement{1, 2, 2}));
  EXPECT_EQ(ldmatrix_element(2, true, 9, 1, 1), (LdmatrixElement{1, 3, 2}));
  EXPECT_EQ(ldmatrix_element(4, true, 31, 3, 1), (LdmatrixElement{3, 7, 7}));
  EXPECT_EQ(ldmatrix_row_address_thread(4, 2, 5), 21u);
  EXPECT_THROW(ldmatrix_element(3, false, 0, 0, 0), ModelError);
  EXPECT_THROW(ldmatrix_element(1, false, 0, 1, 0), ModelError);
  EXPECT_THROW(ldmatrix_element(4, false, 32, 0, 0), ModelError);
  EXPECT_THROW(ldmatrix_row_address_thread(2, 2, 0), ModelError);
}

// For .x1/.x2/.x4, with and without .trans: 32 threads x count registers x 2 halves
// fill count 8x8 matrices exactly once; the address providers are distinct threads.
TEST(Ldmatrix, IsABijectionOntoTheMatrices) {
  for (uint32_t count : {1u, 2u, 4u})
    for (bool trans : {false, true}) {
      std::vector<int> hits(count * 64, 0);
      for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t i = 0; i < count; ++i)
          for (uint32_t h = 0; h < 2; ++h) {
            const LdmatrixElement e = ldmatrix_element(count, trans, t, i, h);
            ASSERT_LT(e.matrix, count);
            ASSERT_LT(e.row, 8u);
            ASSERT_LT(e.col, 8u);
            ++hits[e.matrix * 64 + e.row * 8 + e.col];
          }
      for (int h : hits) ASSERT_EQ(h, 1) << count << " " << trans;
      std::vector<int> providers(32, 0);
      for (uint32_t m = 0; m < count; ++m)
        for (uint32_t r = 0; r < 8; ++r) ++providers[ldmatrix_row_address_thread(count, m, r)];
      for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(providers[t], t < 8 * count ? 1 : 0);
    }
}

// .trans is the transpose of the plain map, element by element.
RC_GTEST_PROP(Ldmatrix, TransIsTheTranspose, ()) {
  const uint32_t count = *rc::gen::element(1u, 2u, 4u);
  const uint32_t t = *rc::gen::inRange<uint32_t>(0, 32);
  const uint32_t i = *rc::gen::inRange<uint32_t>(0, count);
  const uint32_t h = *rc::gen::inRange<uint32_t>(0, 2);
  const LdmatrixElement plain = ldmatrix_element(count, false, t, i, h);
  const LdmatrixElement trans = ldmatrix_element(count, true, t, i, h);
  RC_ASSERT(plain.matrix == trans.matrix);
  RC_ASSERT(plain.row == trans.col);
  RC_ASSERT(plain.col == trans.row);
}
