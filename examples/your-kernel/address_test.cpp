// The example kernel's address code (tile_address.hpp) under gemmscope's ready
// properties: its swizzle is the model's 128B swizzle and a bijection on every
// 1024-byte atom, its tile is what a 64 x 64 TMA box with the 128B swizzle would
// write, and the broken variant is caught, naming row 13.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/testing/address_properties.hpp"
#include "gemmscope/testing/generators.hpp"
#include "tile_address.hpp"

namespace gm = gemmscope::model;
namespace gt = gemmscope::testing;
using namespace your_kernel;

namespace {

// The kernel's layout as a map of byte addresses: byte b of chunk c of row r of a tile
// at `base` (1024-aligned) -> where tile_offset puts it.
gt::AddressMap as_address_map(uint64_t base, uint32_t (*offset)(uint32_t, uint32_t)) {
  return [=](uint64_t a) {
    const uint64_t linear = a - base;
    const auto row = static_cast<uint32_t>(linear / kRowBytes), chunk = static_cast<uint32_t>(linear % kRowBytes / 16);
    return base + offset(row, chunk) + linear % 16;
  };
}

}  // namespace

// Any 1024-aligned tile base in the 227 KiB a CTA may use, any 1024-byte atom of the tile.
RC_GTEST_PROP(YourKernelAddress, TileOffsetIsTheModels128BSwizzle, ()) {
  const uint64_t base = *gt::gen::tile_base(gm::SwizzleMode::B128, 227 * 1024 - kTileBytes);
  const uint64_t atom = base + 1024 * *rc::gen::inRange<uint64_t>(0, kTileBytes / 1024);
  const gt::AddressMap map = as_address_map(base, tile_offset);
  GEMMSCOPE_RC_HOLDS(gt::swizzle_is_bijection_on_atom(map, 1024, atom));
  GEMMSCOPE_RC_HOLDS(gt::swizzle_matches_model(map, gm::SwizzleMode::B128, atom, 1024));
}

// What a TMA load of the tile (box 64 rows x 64 bf16, 128B swizzle) would write is where
// the kernel's loads look: the kernel could take its tiles from TMA unchanged.
TEST(YourKernelAddress, TileIsWhatATmaBoxWrites) {
  const gm::TmaBox box{kTileM, kTileK, 2, gm::SwizzleMode::B128, 4096};
  const gt::Violation why = gt::tile_matches_tma_box(
      [](uint32_t row, uint32_t col) { return 4096 + tile_offset(row, col / 8) + (col % 8) * 2; }, box);
  EXPECT_FALSE(why) << *why;
}

// Every thread's staging chunks cover each tile chunk once.
TEST(YourKernelAddress, StagingCoversTheTileOnce) {
  std::vector<int> seen(kTileM * kChunksPerRow, 0);
  for (uint32_t step = 0; step < kStagingSteps; ++step)
    for (uint32_t t = 0; t < kThreads; ++t) {
      const StagingChunk s = staging_chunk(step, t);
      ASSERT_LT(s.row, kTileM);
      ++seen[s.row * kChunksPerRow + s.chunk];
    }
  for (int v : seen) EXPECT_EQ(v, 1);
}

// The deliberately broken variant fails the same properties, and the words name row 13
// (byte 1664 = row 13, chunk 0: the model sends it to chunk 0 ^ 5 = 5, byte 1744).
TEST(YourKernelAddress, BrokenVariantIsCaught) {
  const gt::Violation why = gt::swizzle_matches_model(as_address_map(0, broken_tile_offset), gm::SwizzleMode::B128,
                                                      1024, 1024);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "byte 1664 (0x680) goes to 1664; the model's 128B swizzle puts it at 1744");
}
