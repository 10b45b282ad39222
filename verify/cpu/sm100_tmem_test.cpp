// The Blackwell kernel's Tensor Memory addresses and the epilogue's TMEM-to-register
// map (kernels/common/sm100_tmem.hpp) against the model (model/tmem.hpp) and the
// PTX ISA facts it encodes (docs/hardware.md#tmem-address, #tmem-ld-maps):
//   address = lane << 16 | column;
//   warp w of a warpgroup may touch lanes 32 (w % 4) .. +31 only;
//   tcgen05.ld.32x32b.xN: thread t, register j <- lane (base + t), column (base + j);
//   M = 256, cta_group::2: D(m, n) sits in CTA m / 128 of the pair, lane m % 128,
//   column n of the accumulator.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#if __has_include("common/sm100_tmem.hpp")
#include "common/sm100_config.hpp"
#include "common/sm100_tmem.hpp"
#include "gemmscope/model/tmem.hpp"

namespace {
using namespace gemmscope;

TEST(Sm100Tmem, AddressPacksLaneAndColumn) {
  EXPECT_EQ(sm100::tmem_address(0, 0), 0x00000000u);
  EXPECT_EQ(sm100::tmem_address(32, 256), 0x00200100u);
  EXPECT_EQ(sm100::tmem_address(127, 511), 0x007F01FFu);
  EXPECT_EQ(sm100::tmem_lane(0x00600120u), 96u);
  EXPECT_EQ(sm100::tmem_column(0x00600120u), 288u);
}

RC_GTEST_PROP(Sm100Tmem, AddressMatchesModel, ()) {
  const uint32_t lane = *rc::gen::inRange<uint32_t>(0, model::kTmemLanes);
  const uint32_t column = *rc::gen::inRange<uint32_t>(0, model::kTmemColumns);
  const uint32_t address = sm100::tmem_address(lane, column);
  RC_ASSERT(address == model::tmem_address(lane, column));
  RC_ASSERT(sm100::tmem_lane(address) == model::tmem_lane(address));
  RC_ASSERT(sm100::tmem_column(address) == model::tmem_column(address));
}

TEST(Sm100Tmem, AccumulatorRingFitsTheAllocation) {
  // Two slots of 256 fp32 columns: 512 columns, a legal allocation (power of two, 32..512).
  EXPECT_EQ(sm100::kTmemColumns, 512u);
  EXPECT_EQ(sm100::accumulator_address(0, 0), 0u);
  EXPECT_EQ(sm100::accumulator_address(0, 1), 256u);
  // The allocation's base column is added, never a lane.
  EXPECT_EQ(sm100::accumulator_address(0x00000000u, 1) >> 16, 0u);
}

TEST(Sm100Tmem, EpilogueWarpsCoverEachLaneQuarterOnce) {
  std::set<uint32_t> quarters;
  for (uint32_t w = sm100::kFirstEpilogueWarp; w < sm100::kFirstEpilogueWarp + sm100::kEpilogueWarps; ++w)
    quarters.insert(sm100::epilogue_lane_quarter(w));
  EXPECT_EQ(quarters, (std::set<uint32_t>{0, 1, 2, 3}));
}

// For each accumulator slot: walking every (CTA of the pair, epilogue warp, thread,
// load, register), the element the kernel says it holds is the element the model
// puts at that TMEM cell (tcgen05.ld.32x32b.x32 thread map, then the cta_group::2
// M = 256 accumulator placement), the cell is in the warp's lane quarter and in the
// slot's columns, and the 256 x 256 pair tile is covered exactly once.
TEST(Sm100Tmem, EpilogueMapMatchesModelAndCoversTile) {
  ASSERT_TRUE(model::tmem_map_confirmed(model::TmemLdShape::S32x32b, 32));
  ASSERT_TRUE(model::accumulator_layout_confirmed(256, 2));
  EXPECT_EQ(model::tmem_registers_per_thread(model::TmemLdShape::S32x32b, 32), sm100::kEpilogueColumnsPerLoad);
  // Where the model puts each D(row, col) of the 2-SM 256 x 256 MMA.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> element_at;  // (cta, lane, col)
  for (uint32_t row = 0; row < sm100::kMmaM; ++row)
    for (uint32_t col = 0; col < sm100::kMmaN; ++col) {
      const model::AccumulatorCell cell = model::accumulator_cell(sm100::kMmaM, sm100::kMmaN, 2, row, col);
      element_at[{cell.cta, cell.lane, cell.column}] = {row, col};
    }
  ASSERT_EQ(element_at.size(), size_t{sm100::kMmaM} * sm100::kMmaN);

  for (uint32_t slot = 0; slot < sm100::kAccumSlots; ++slot) {
    std::vector<int> seen(sm100::kMmaM * sm100::kMmaN, 0);
    for (uint32_t cta = 0; cta < 2; ++cta) {
      for (uint32_t w = sm100::kFirstEpilogueWarp; w < sm100::kWarps; ++w) {
        for (uint32_t load = 0; load < sm100::kEpilogueLoadsPerSlot; ++load) {
          const uint32_t address = sm100::epilogue_load_address(/*tmem_base=*/0, slot, w, load);
          const uint32_t base_lane = model::tmem_lane(address), base_column = model::tmem_column(address);
          for (uint32_t t = 0; t < 32; ++t) {
            for (uint32_t j = 0; j < sm100::kEpilogueColumnsPerLoad; ++j) {
              const model::TmemCell rel = model::tmem_ld_cell(model::TmemLdShape::S32x32b, 32, t, j);
              const uint32_t lane = base_lane + rel.lane, column = base_column + rel.column;
              ASSERT_TRUE(model::warp_may_access_lane(w, lane)) << "warp " << w << " lane " << lane;
              ASSERT_GE(column, slot * 256u);
              ASSERT_LT(column, slot * 256u + 256u);
              const auto expected = element_at.at({cta, lane, column - slot * 256u});
              const sm100::PairTileElement e = sm100::epilogue_element(cta, w, t, load, j);
              ASSERT_EQ(e.row, expected.first) << "cta " << cta << " warp " << w << " t " << t << " load " << load;
              ASSERT_EQ(e.col, expected.second) << "cta " << cta << " warp " << w << " t " << t << " j " << j;
              ++seen[e.row * sm100::kMmaN + e.col];
            }
          }
        }
      }
    }
    for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "element " << i << " of slot " << slot;
  }
}

// The kernel's allocation (cta_group::2, 512 columns) is legal in the model's
// allocator, and both accumulator slots lie inside it.
TEST(Sm100Tmem, AllocationIsLegalAndHoldsBothSlots) {
  model::TmemAllocator allocator;
  const uint32_t base = allocator.allocate(sm100::kTmemColumns, 2);
  allocator.relinquish_alloc_permit(2);
  for (uint32_t slot = 0; slot < sm100::kAccumSlots; ++slot) {
    const uint32_t first = sm100::accumulator_address(base, slot);
    EXPECT_EQ(model::tmem_lane(first), 0u);
    EXPECT_GE(model::tmem_column(first), model::tmem_column(base));
    EXPECT_LE(model::tmem_column(first) + sm100::kAccumColumns, model::tmem_column(base) + sm100::kTmemColumns);
  }
  allocator.free(base, sm100::kTmemColumns, 2);
  EXPECT_NO_THROW(allocator.check_all_freed());
}

// With any allocation base (tcgen05.alloc returns lane 0 and some column), the
// epilogue address is the base plus the slot's offset: lanes are never shifted.
RC_GTEST_PROP(Sm100Tmem, EpilogueAddressOffsetsFromAllocationBase, ()) {
  const uint32_t base_column = 32u * *rc::gen::inRange<uint32_t>(0, 16);
  const uint32_t slot = *rc::gen::inRange<uint32_t>(0, sm100::kAccumSlots);
  const uint32_t warp = *rc::gen::inRange<uint32_t>(sm100::kFirstEpilogueWarp, sm100::kWarps);
  const uint32_t load = *rc::gen::inRange<uint32_t>(0, sm100::kEpilogueLoadsPerSlot);
  const uint32_t with_base = sm100::epilogue_load_address(base_column, slot, warp, load);
  const uint32_t without = sm100::epilogue_load_address(0, slot, warp, load);
  RC_ASSERT((with_base >> 16) == (without >> 16));
  RC_ASSERT((with_base & 0xFFFFu) == (without & 0xFFFFu) + base_column);
  RC_ASSERT((without >> 16) == 32u * (warp % 4));
  RC_ASSERT((without & 0xFFFFu) == 256u * slot + 32u * load);
}

}  // namespace

#else
TEST(Sm100Tmem, NeedsKernelHeaders) {
  GTEST_SKIP() << "kernels/common is not on the include path (GEMMSCOPE_BUILD_KERNELS=OFF)";
}
#endif
