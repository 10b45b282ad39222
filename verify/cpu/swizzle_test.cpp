// Swizzles and the TMA box map. Every expected value here comes from a second,
// differently written formula (bit-by-bit XOR, chunk-index arithmetic) or from a
// hand-worked example, never from the code under test.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gemmscope/model/error.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/testing/address_properties.hpp"

using namespace gemmscope::model;

namespace {

// rapidcheck's default is 100 cases; run 300 unless RC_PARAMS already says otherwise.
const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

// Swizzle<B,M,S> written bit by bit: for j in 0..B-1, bit M+j ^= bit M+S+j.
uint64_t swizzle_bitwise(int b, int m, int s, uint64_t x) {
  uint64_t y = x;
  for (int j = 0; j < b; ++j) {
    const uint64_t source_bit = (x >> (m + s + j)) & 1u;
    y ^= source_bit << (m + j);
  }
  return y;
}

// The TMA/MMA modes written as chunk arithmetic on 128-byte lines of shared memory:
// inside each 128-byte line, the unit index (16-byte chunk; 32-byte atom for
// 128B-atom32B) modulo n is XORed with (line index mod n).
uint64_t swizzle_by_chunks(SwizzleMode mode, uint64_t address) {
  uint64_t unit = 16, n = 1;
  switch (mode) {
    case SwizzleMode::None: return address;
    case SwizzleMode::B32: n = 2; break;
    case SwizzleMode::B64: n = 4; break;
    case SwizzleMode::B128: n = 8; break;
    case SwizzleMode::B128Atom32: unit = 32; n = 4; break;
  }
  const uint64_t line = address / 128;
  const uint64_t unit_index = (address / unit) % n;
  return address - unit_index * unit + ((unit_index ^ (line % n)) * unit);
}

SwizzleMode any_mode() { return *rc::gen::elementOf(std::vector<SwizzleMode>(std::begin(kAllSwizzleModes), std::end(kAllSwizzleModes))); }

}  // namespace

// ------------------------------------------------------------------ generic Swizzle

RC_GTEST_PROP(SwizzleGeneric, MatchesBitByBitDefinition, ()) {
  const int b = *rc::gen::inRange(0, 6);
  const int m = *rc::gen::inRange(0, 12);
  const int s = *rc::gen::inRange(b, 14);
  const uint64_t x = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 40);
  RC_ASSERT(make_swizzle(b, m, s)(x) == swizzle_bitwise(b, m, s, x));
}

RC_GTEST_PROP(SwizzleGeneric, IsItsOwnInverse, ()) {
  const int b = *rc::gen::inRange(0, 8);
  const int m = *rc::gen::inRange(0, 16);
  const int s = *rc::gen::inRange(b, 20);
  const uint64_t x = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 50);
  const Swizzle sw = make_swizzle(b, m, s);
  RC_ASSERT(sw(sw(x)) == x);
}

RC_GTEST_PROP(SwizzleGeneric, IsABijectionOnEachAlignedBlockOfItsPeriod, ()) {
  const int b = *rc::gen::inRange(0, 5);
  const int m = *rc::gen::inRange(0, 6);
  const int s = *rc::gen::inRange(b, 7);
  const Swizzle sw = make_swizzle(b, m, s);
  const uint64_t period = uint64_t{1} << (b + m + s);  // written out, not sw.period()
  RC_ASSERT(sw.period() == period);
  const uint64_t block = *rc::gen::inRange<uint64_t>(0, 1u << 20);
  GEMMSCOPE_RC_HOLDS(gemmscope::testing::swizzle_is_bijection_on_atom(sw, period, block * period));
}

TEST(SwizzleGeneric, RefusesOverlappingFieldsNamingTheValue) {
  try {
    make_swizzle(3, 4, 2);
    FAIL() << "S < B accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("swizzle shift S = 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_swizzle(-1, 4, 3), ModelError);
  EXPECT_THROW(make_swizzle(3, -4, 3), ModelError);
  EXPECT_THROW(make_swizzle(20, 20, 30), ModelError);
}

// ------------------------------------------------------------------- named modes

TEST(SwizzleModes, HandWorkedExamples) {
  // 128B: row 1 (bytes 128..255), chunk 0 -> chunk 0^1 = 1: 128 -> 144.
  EXPECT_EQ(swizzle_address(SwizzleMode::B128, 128), 144u);
  // 128B: row 7, chunk 3, byte 5 of the chunk: chunk 3^7 = 4 -> 896 + 64 + 5.
  EXPECT_EQ(swizzle_address(SwizzleMode::B128, 896 + 48 + 5), 896u + 64 + 5);
  // 128B: row 8 is row 0 of the next 1024-byte period: unchanged.
  EXPECT_EQ(swizzle_address(SwizzleMode::B128, 1024 + 32), 1024u + 32);
  // 64B: bytes 256..383 are line 2: chunk (within 64 B) 1 -> 1^2 = 3: 256+16 -> 256+48.
  EXPECT_EQ(swizzle_address(SwizzleMode::B64, 256 + 16), 256u + 48);
  // 32B: line 1 flips the 16-byte half: 128 -> 144, 144 -> 128; line 2 does not.
  EXPECT_EQ(swizzle_address(SwizzleMode::B32, 128), 144u);
  EXPECT_EQ(swizzle_address(SwizzleMode::B32, 144), 128u);
  EXPECT_EQ(swizzle_address(SwizzleMode::B32, 256), 256u);
  // 128B with 32B atoms: line 3, atom 0 -> atom 3: 384 -> 384 + 96.
  EXPECT_EQ(swizzle_address(SwizzleMode::B128Atom32, 384), 384u + 96);
  EXPECT_EQ(swizzle_address(SwizzleMode::None, 12345), 12345u);
}

RC_GTEST_PROP(SwizzleModes, AgreeWithChunkArithmetic, ()) {
  const SwizzleMode mode = any_mode();
  const uint64_t a = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 32);
  RC_ASSERT(swizzle_address(mode, a) == swizzle_by_chunks(mode, a));
}

RC_GTEST_PROP(SwizzleModes, AreTheirOwnInverse, ()) {
  const SwizzleMode mode = any_mode();
  const uint64_t a = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 48);
  RC_ASSERT(swizzle_address(mode, swizzle_address(mode, a)) == a);
}

RC_GTEST_PROP(SwizzleModes, AreBijectionsOnEachAlignedBlockOfTheirPeriod, ()) {
  const SwizzleMode mode = any_mode();
  const uint64_t period = swizzle_of(mode).period();
  const uint64_t block = *rc::gen::inRange<uint64_t>(0, 1u << 24);
  GEMMSCOPE_RC_HOLDS(gemmscope::testing::swizzle_is_bijection_on_atom(
      [mode](uint64_t a) { return swizzle_address(mode, a); }, period, block * period));
}

TEST(SwizzleModes, PeriodsSpansAndAlignments) {
  // Periods from the B,M,S of docs/hardware.md#swizzle-modes: 2^(B+M+S).
  EXPECT_EQ(swizzle_of(SwizzleMode::B32).period(), 256u);   // <1,4,3>
  EXPECT_EQ(swizzle_of(SwizzleMode::B64).period(), 512u);   // <2,4,3>
  EXPECT_EQ(swizzle_of(SwizzleMode::B128).period(), 1024u); // <3,4,3>
  EXPECT_EQ(swizzle_of(SwizzleMode::B128Atom32).period(), 512u);  // <2,5,2>
  EXPECT_EQ(swizzle_span_bytes(SwizzleMode::B32), 32u);
  EXPECT_EQ(swizzle_span_bytes(SwizzleMode::B64), 64u);
  EXPECT_EQ(swizzle_span_bytes(SwizzleMode::B128), 128u);
  EXPECT_EQ(swizzle_alignment_bytes(SwizzleMode::B32), 256u);
  EXPECT_EQ(swizzle_alignment_bytes(SwizzleMode::B64), 512u);
  EXPECT_EQ(swizzle_alignment_bytes(SwizzleMode::B128), 1024u);
}

TEST(SwizzleModes, NamesRoundTripAndUnknownNamesAreRefused) {
  for (SwizzleMode m : kAllSwizzleModes) EXPECT_EQ(parse_swizzle_mode(to_string(m)), m);
  try {
    parse_swizzle_mode("96B");
    FAIL() << "96B accepted";
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'96B'"), std::string::npos) << what;
    EXPECT_NE(what.find("128B-atom32B"), std::string::npos) << what;
  }
}

// ------------------------------------------------------------------------ TMA box

namespace {

struct BoxCase {
  TmaBox box;
  uint32_t row = 0, col = 0;
};

// A random valid box: inner bytes a multiple of 16, at most the span when swizzled,
// base a random multiple of the swizzle alignment.
BoxCase any_valid_box(bool with_blackwell) {
  std::vector<SwizzleMode> modes{SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128};
  if (with_blackwell) modes.push_back(SwizzleMode::B128Atom32);
  BoxCase c;
  c.box.swizzle = *rc::gen::elementOf(modes);
  c.box.elem_bytes = *rc::gen::elementOf(std::vector<uint32_t>{1, 2, 4, 8});
  const uint32_t max_inner_bytes =
      c.box.swizzle == SwizzleMode::None ? 256 * c.box.elem_bytes : swizzle_span_bytes(c.box.swizzle);
  const uint32_t inner_bytes = 16 * *rc::gen::inRange<uint32_t>(1, max_inner_bytes / 16 + 1);
  c.box.inner_elems = inner_bytes / c.box.elem_bytes;
  RC_PRE(c.box.inner_elems <= 256u);
  c.box.rows = *rc::gen::inRange<uint32_t>(1, 257);
  const uint32_t align = c.box.swizzle == SwizzleMode::None ? 128  // TMA destinations: 128 B (H200 probe)
                         : c.box.swizzle == SwizzleMode::B32 ? 256
                         : c.box.swizzle == SwizzleMode::B64 ? 512
                                                             : 1024;
  c.box.smem_base = uint64_t{align} * *rc::gen::inRange<uint64_t>(0, 228);
  c.row = *rc::gen::inRange<uint32_t>(0, c.box.rows);
  c.col = *rc::gen::inRange<uint32_t>(0, c.box.inner_elems);
  return c;
}

}  // namespace

// Rows at the inner-bytes pitch without swizzle, and padded to the whole swizzle
// span with one (as the H200 showed: traces/hw/tma_swizzle.json), then the XOR.
RC_GTEST_PROP(TmaBoxMap, AgreesWithLinearThenChunkXor, ()) {
  const BoxCase c = any_valid_box(true);
  c.box.validate(true);
  const uint64_t pitch = c.box.swizzle == SwizzleMode::None ? uint64_t{c.box.inner_elems} * c.box.elem_bytes
                         : c.box.swizzle == SwizzleMode::B32 ? 32
                         : c.box.swizzle == SwizzleMode::B64 ? 64
                                                             : 128;
  const uint64_t linear = c.box.smem_base + uint64_t{c.row} * pitch + uint64_t{c.col} * c.box.elem_bytes;
  RC_ASSERT(c.box.address(c.row, c.col) == swizzle_by_chunks(c.box.swizzle, linear));
}

// When a box row is exactly one swizzle span wide, the pattern row is the box row
// (scaled by how many box rows share one 128-byte line): 128B: chunk ^ (row % 8);
// 64B: two rows per line, chunk ^ ((row / 2) % 4); 32B: four rows per line,
// chunk ^ ((row / 4) % 2).
RC_GTEST_PROP(TmaBoxMap, FullSpanRowsAgreeWithRowInPatternFormula, ()) {
  const SwizzleMode mode = *rc::gen::elementOf(std::vector<SwizzleMode>{SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  TmaBox box;
  box.swizzle = mode;
  box.elem_bytes = 2;
  const uint32_t span = mode == SwizzleMode::B32 ? 32 : mode == SwizzleMode::B64 ? 64 : 128;
  box.inner_elems = span / 2;
  box.rows = *rc::gen::inRange<uint32_t>(1, 257);
  box.smem_base = 1024 * *rc::gen::inRange<uint64_t>(0, 200);
  box.validate();
  const uint32_t row = *rc::gen::inRange<uint32_t>(0, box.rows);
  const uint32_t col = *rc::gen::inRange<uint32_t>(0, box.inner_elems);
  const uint32_t byte_in_row = 2 * col;
  const uint32_t chunk = byte_in_row / 16;
  uint32_t key = 0;
  if (mode == SwizzleMode::B128) key = row % 8;
  if (mode == SwizzleMode::B64) key = (row / 2) % 4;
  if (mode == SwizzleMode::B32) key = (row / 4) % 2;
  const uint64_t expected = box.smem_base + uint64_t{row} * span + (chunk ^ key) * 16 + byte_in_row % 16;
  RC_ASSERT(box.address(row, col) == expected);
}

TEST(TmaBoxMap, HandWorked128BExample) {
  // 64x64 bf16 box, 128B swizzle, base 2048: element (3, 10) is byte 20 of row 3,
  // chunk 1 -> physical chunk 1^3 = 2, byte 4 of it: 2048 + 3*128 + 32 + 4.
  TmaBox box{64, 64, 2, SwizzleMode::B128, 2048};
  box.validate();
  EXPECT_EQ(box.address(3, 10), 2048u + 384 + 36);
}

// --- validate() refuses bad boxes, naming the value ------------------------------

namespace {
void expect_refusal_naming(const TmaBox& box, const std::string& field_and_value, const std::string& limit,
                           bool allow_blackwell = false) {
  try {
    box.validate(allow_blackwell);
    RC_FAIL("accepted a bad box; expected a refusal naming '" + field_and_value + "'");
  } catch (const ModelError& e) {
    const std::string what = e.what();
    RC_ASSERT(what.find(field_and_value) != std::string::npos);
    RC_ASSERT(what.find(limit) != std::string::npos);
  }
}
}  // namespace

RC_GTEST_PROP(TmaBoxValidate, RefusesRowsOutside1To256, ()) {
  TmaBox box{0, 64, 2, SwizzleMode::None, 0};
  box.rows = *rc::gen::oneOf(rc::gen::just<uint32_t>(0), rc::gen::inRange<uint32_t>(257, 1u << 20));
  expect_refusal_naming(box, "box rows = " + std::to_string(box.rows), "1..256");
}

RC_GTEST_PROP(TmaBoxValidate, RefusesInnerElemsOutside1To256, ()) {
  TmaBox box{64, 0, 1, SwizzleMode::None, 0};
  box.inner_elems = *rc::gen::oneOf(rc::gen::just<uint32_t>(0), rc::gen::inRange<uint32_t>(257, 1u << 20));
  expect_refusal_naming(box, "box inner_elems = " + std::to_string(box.inner_elems), "1..256");
}

RC_GTEST_PROP(TmaBoxValidate, RefusesInnerBytesNotAMultipleOf16, ()) {
  TmaBox box{64, 0, 2, SwizzleMode::None, 0};
  box.elem_bytes = *rc::gen::elementOf(std::vector<uint32_t>{1, 2, 4});
  box.inner_elems = *rc::gen::inRange<uint32_t>(1, 257);
  RC_PRE((box.inner_elems * box.elem_bytes) % 16 != 0);
  expect_refusal_naming(box, "box inner bytes = " + std::to_string(box.inner_elems * box.elem_bytes),
                        "multiple of 16");
}

RC_GTEST_PROP(TmaBoxValidate, RefusesInnerBytesWiderThanTheSwizzleSpan, ()) {
  const SwizzleMode mode = *rc::gen::elementOf(std::vector<SwizzleMode>{SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  const uint32_t span = mode == SwizzleMode::B32 ? 32 : mode == SwizzleMode::B64 ? 64 : 128;
  TmaBox box{64, 0, 2, mode, 0};
  box.inner_elems = 8 * *rc::gen::inRange<uint32_t>(span / 16 + 1, 33);  // inner bytes 16k > span
  expect_refusal_naming(box, "box inner bytes = " + std::to_string(2 * box.inner_elems),
                        "(" + std::to_string(span) + " bytes)");
}

// A TMA destination is 128-byte aligned in every mode (the H200 faulted on 16 and 48,
// traces/hw/tma_swizzle.json).
RC_GTEST_PROP(TmaBoxValidate, RefusesABaseOff128Bytes, ()) {
  const SwizzleMode mode = *rc::gen::elementOf(std::vector<SwizzleMode>{SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  TmaBox box{8, 8, 2, mode, 0};
  box.smem_base = uint64_t{128} * *rc::gen::inRange<uint64_t>(0, 1600) + *rc::gen::inRange<uint64_t>(1, 128);
  expect_refusal_naming(box, "smem_base = " + std::to_string(box.smem_base), "multiple of 128");
}

// ... and only that: a swizzled box may start inside its pattern (the H200 landed
// 128B-swizzled boxes 128, 256 and 512 bytes past a 1024-byte boundary where
// address() puts them: traces/hw/tma_swizzle.json, swz128B_in128B_r16_off*).
RC_GTEST_PROP(TmaBoxValidate, AcceptsASwizzledBaseInsideItsPattern, ()) {
  const SwizzleMode mode = *rc::gen::elementOf(std::vector<SwizzleMode>{SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  TmaBox box{8, 8, 2, mode, 0};
  box.smem_base = uint64_t{128} * *rc::gen::inRange<uint64_t>(0, 1600);
  box.validate();
}

TEST(TmaBoxValidate, RefusesBlackwellModeUnlessAllowed) {
  TmaBox box{64, 64, 2, SwizzleMode::B128Atom32, 0};
  try {
    box.validate();
    FAIL() << "128B-atom32B accepted for Hopper";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("128B-atom32B"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(box.validate(true));
}
