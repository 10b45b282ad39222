// The testing kit (gemmscope::testing) on known-good and known-bad address code: each
// ready property holds for code that matches the model and names the first value for
// code that does not; the reference and the error bound on hand-worked cases.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/testing/address_properties.hpp"
#include "gemmscope/testing/generators.hpp"
#include "gemmscope/testing/reference.hpp"

namespace gm = gemmscope::model;
namespace gt = gemmscope::testing;

namespace {

// The 128B swizzle written as chunk arithmetic: 16-byte chunk c of 128-byte row r goes
// to chunk c ^ (r % 8) (PTX ISA, "Tensor Map / Swizzling modes"), not the model's code.
uint64_t chunk_xor_128b(uint64_t a) { return (a & ~uint64_t{0x70}) | ((((a >> 4) ^ (a >> 7)) & 7u) << 4); }

}  // namespace

RC_GTEST_PROP(TestingKit, ChunkXorSwizzleHoldsOnEveryAtom, ()) {
  const uint64_t base = *gt::gen::tile_base(gm::SwizzleMode::B128);
  GEMMSCOPE_RC_HOLDS(gt::swizzle_is_bijection_on_atom(chunk_xor_128b, 1024, base));
  GEMMSCOPE_RC_HOLDS(gt::swizzle_matches_model(chunk_xor_128b, gm::SwizzleMode::B128, base, 1024));
}

TEST(TestingKit, SwizzlePropertiesNameTheBadByte) {
  // XOR with (r % 4) only: still a bijection, but not the 128B swizzle from row 4 on.
  const auto quarter = [](uint64_t a) { return (a & ~uint64_t{0x70}) | ((((a >> 4) ^ (a >> 7)) & 3u | ((a >> 4) & 4u)) << 4); };
  EXPECT_FALSE(gt::swizzle_is_bijection_on_atom(quarter, 1024, 0));
  const gt::Violation why = gt::swizzle_matches_model(quarter, gm::SwizzleMode::B128, 0, 1024);
  ASSERT_TRUE(why);
  // Byte 512 is row 4, chunk 0: the model sends it to chunk 4 (576); quarter leaves it.
  EXPECT_EQ(*why, "byte 512 (0x200) goes to 512; the model's 128B swizzle puts it at 576");
  // Two bytes onto one, and a byte out of its atom.
  const auto clamp = [](uint64_t a) { return a < 1000 ? a : 999; };
  EXPECT_EQ(*gt::swizzle_is_bijection_on_atom(clamp, 1024, 0), "bytes 999 and 1000 both go to 999: not a bijection on the atom at 0");
  EXPECT_EQ(*gt::swizzle_is_bijection_on_atom([](uint64_t a) { return a + 1; }, 1024, 0),
            "byte 1023 goes to 1024, outside its atom [0, 1024)");
  EXPECT_TRUE(gt::swizzle_is_bijection_on_atom(chunk_xor_128b, 1024, 100)->starts_with("base = 100 must be a multiple"));
}

TEST(TestingKit, TileAgainstTheTmaBox) {
  const gm::TmaBox box{64, 64, 2, gm::SwizzleMode::B128, 2048};
  const auto good = [](uint32_t r, uint32_t c) { return 2048 + chunk_xor_128b(uint64_t{r} * 128 + c * 2); };
  EXPECT_FALSE(gt::tile_matches_tma_box(good, box));
  const auto plain = [](uint32_t r, uint32_t c) { return 2048 + uint64_t{r} * 128 + c * 2; };
  const gt::Violation why = gt::tile_matches_tma_box(plain, box);
  ASSERT_TRUE(why);
  // Row 1, column 0 is byte 128 of the tile; the swizzle moves it to chunk 1 (144).
  EXPECT_EQ(*why, "element (1,0) is at 2176; the TMA box (64 x 64, 128B, base 2048) puts it at 2192");
}

TEST(TestingKit, DescriptorAgainstTheTmaBox) {
  // A 64 x 64 bf16 K-major tile, 128B swizzle, at 1024: start 1024, LBO 16 (unused
  // for swizzled K-major), SBO 1024 (8 rows of 128 bytes), swizzle code 1 in bits 62-63.
  gm::SmemDescriptorSm90 d;
  d.start_address_bytes = 1024;
  d.lbo_bytes = 16;
  d.sbo_bytes = 1024;
  d.swizzle = gm::SwizzleMode::B128;
  const gm::TmaBox box{64, 64, 2, gm::SwizzleMode::B128, 1024};
  const gm::OperandExtent op{64, 16, gm::OperandMajor::K, 2};
  EXPECT_FALSE(gt::descriptor_reads_tma_box(d.encode(), op, box, 0, 0));
  d.sbo_bytes = 512;  // a wrong stride between 8-row groups
  const gt::Violation why = gt::descriptor_reads_tma_box(d.encode(), op, box, 0, 0);
  ASSERT_TRUE(why);
  // Rows 0-7 are right; row 8 (the second 8-row group, 1024 bytes on in the box) is not.
  EXPECT_TRUE(why->starts_with("element (8,0) is read at ")) << *why;
  EXPECT_NE(why->find("but TMA wrote it at 2048"), std::string::npos) << *why;
  EXPECT_TRUE(gt::descriptor_reads_tma_box(d.encode(), op, box, 60, 0)->find("must lie inside the box") !=
              std::string::npos);
}

TEST(TestingKit, MatrixRowsAndStmatrixEpilogue) {
  // stmatrix.x4 of one 16 x 16 block per warp: lanes 8j..8j+7 give rows of matrix j,
  // matrices 0..3 at (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15).
  const auto row_start = [](uint32_t warp, uint32_t lane, uint32_t p) {
    const uint32_t q = lane / 8;
    return gm::FragmentCell{16 * warp + (q & 1) * 8 + lane % 8, 8 * (2 * p + q / 2)};
  };
  EXPECT_FALSE(gt::stmatrix_x4_places_accumulators(64, 4, row_start));
  const auto lane_address = [&](uint32_t lane) {
    const auto at = row_start(0, lane, 0);
    return uint64_t{at.row} * 32 + at.col * 2;  // a 16 x 16 bf16 tile, 32-byte rows
  };
  const auto row_address = [](uint32_t j, uint32_t r) { return uint64_t{(j & 1) * 8 + r} * 32 + (j / 2) * 16; };
  EXPECT_FALSE(gt::matrix_rows_land(4, lane_address, row_address));
  // Matrices 1 and 2 swapped: lane 8 supplies row 0 of matrix 1 but points at matrix 2's.
  const auto swapped = [](uint32_t warp, uint32_t lane, uint32_t p) {
    const uint32_t q = lane / 8;
    return gm::FragmentCell{16 * warp + (q / 2) * 8 + lane % 8, 8 * (2 * p + (q & 1))};
  };
  const gt::Violation why = gt::stmatrix_x4_places_accumulators(64, 4, swapped);
  ASSERT_TRUE(why);
  EXPECT_TRUE(why->find("the wgmma fragment map puts it at") != std::string::npos) << *why;
  // Every lane pointing at byte 0: lane 0 is right (row 0 of matrix 0), lane 1 is not.
  EXPECT_EQ(*gt::matrix_rows_land(4, [](uint32_t) { return uint64_t{0}; }, row_address),
            "lane 1 supplies row 1 of matrix 0 (.x4) and gives 0; that row lies at 32");
}

TEST(TestingKit, Bf16Bits) {
  EXPECT_EQ(gt::float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(gt::float_to_bf16_bits(-2.0f), 0xC000);
  // 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7: to even (1). 1 + 3 * 2^-8: up.
  EXPECT_EQ(gt::float_to_bf16_bits(1.0f + 0.00390625f), 0x3F80);
  EXPECT_EQ(gt::float_to_bf16_bits(1.0f + 3 * 0.00390625f), 0x3F82);
  EXPECT_TRUE(std::isnan(gt::bf16_bits_to_float(gt::float_to_bf16_bits(NAN))));
  EXPECT_EQ(gt::bf16_bits_to_float(0x4040), 3.0f);
  EXPECT_TRUE(std::isnan(gt::bf16_bits_to_float(0xFFFF)));  // the poison
}

TEST(TestingKit, ReferenceAndBound) {
  // A = [1 2; 3 4] (2 x 2), B = [1 0; 1 1] (N = 2 rows of K = 2): C = A B^T = [1 3; 3 7].
  const gt::Shape s{2, 2, 2};
  const auto bits = [](std::vector<float> v) {
    std::vector<uint16_t> b;
    for (float x : v) b.push_back(gt::float_to_bf16_bits(x));
    return b;
  };
  const auto a = bits({1, 2, 3, 4}), b = bits({1, 0, 1, 1});
  const gt::Reference ref = gt::reference_gemm(s, a.data(), b.data());
  EXPECT_EQ(ref.c, (std::vector<double>{1, 3, 3, 7}));
  EXPECT_EQ(ref.abs_dot, (std::vector<double>{1, 3, 3, 7}));
  EXPECT_TRUE(gt::compare(s, ref, bits({1, 3, 3, 7}).data()).ok);
  // 7 in bf16 has an ulp of 2^-5; the bound at 7 is 7 * 2^-8 + 2 * 2^-23 * 7 ~ 0.0273:
  // 7.03125 (one ulp up) fails, and the first bad element is named.
  const gt::Comparison off = gt::compare(s, ref, bits({1, 3, 3, 7.03125f}).data());
  EXPECT_FALSE(off.ok);
  EXPECT_EQ(off.bad_elements, 1);
  EXPECT_EQ(off.first_bad_row, 1);
  EXPECT_EQ(off.first_bad_col, 1);
  // An element never written stays the NaN poison and fails.
  std::vector<uint16_t> c = bits({1, 3, 3, 7});
  c[2] = 0xFFFF;
  const gt::Comparison nan = gt::compare(s, ref, c.data());
  EXPECT_FALSE(nan.ok);
  EXPECT_EQ(nan.nan_elements, 1);
  EXPECT_EQ(nan.summary().substr(0, 4), "FAIL");
  // Fresh inputs are a function of (shape, seed).
  EXPECT_EQ(gt::HostProblem::random({3, 4, 5}, 7).a, gt::HostProblem::random({3, 4, 5}, 7).a);
  EXPECT_NE(gt::HostProblem::random({3, 4, 5}, 7).a, gt::HostProblem::random({3, 4, 5}, 8).a);
}
