// The descriptor interpreter against tiles built the way the kernels build them.
//
// Expected addresses come from the TMA box model (tma_box.hpp: where TMA writes each
// element) and descriptors are assembled here field by field from the PTX ISA rules
// (docs/hardware.md#wgmma-canonical-layouts), never from the interpreter. The property: for
// every element (row, k) of a K=16 bf16 MMA step, the byte the tensor core reads
// (interpreter) is the byte TMA wrote that element to.
#include "gemmscope/model/desc_interpreter.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <type_traits>

#include "gemmscope/model/error.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/testing/address_properties.hpp"

using namespace gemmscope::model;

namespace {

const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

constexpr uint32_t kElemBytes = 2;  // bf16
constexpr uint32_t kMmaK = 16;      // K of one bf16 wgmma / tcgen05.mma step

// A tile of `rows` (M or N) x `tile_k` bf16 elements in shared memory, written by TMA.
//  K-major, swizzled:  one box, rows x (span / 2) elements, the swizzle span wide.
//  K-major, none:      "interleaved": one box of rows x 8 elements (16 bytes) per
//                      8-element K chunk, boxes placed one after another.
//  MN-major, swizzled: one box of tile_k (K rows) x (span / 2) MN elements per
//                      span-wide MN slice, placed one after another.
//  MN-major, none:     one box of tile_k x 8 MN elements per 8-element MN chunk.
struct KernelTile {
  SwizzleMode mode = SwizzleMode::None;
  OperandMajor major = OperandMajor::K;
  uint32_t rows = 0;
  uint32_t tile_k = 0;
  uint64_t base = 0;

  uint32_t span() const { return swizzle_span_bytes(mode); }
  uint32_t atom_elems() const { return span() / kElemBytes; }  // MN elements per swizzle atom

  TmaBox box_of(uint32_t row, uint32_t k) const {
    if (major == OperandMajor::K) {
      if (mode != SwizzleMode::None) return TmaBox{rows, atom_elems(), kElemBytes, mode, base};
      return TmaBox{rows, 8, kElemBytes, mode, base + uint64_t{k / 8} * rows * 16};
    }
    if (mode != SwizzleMode::None)
      return TmaBox{tile_k, atom_elems(), kElemBytes, mode, base + uint64_t{row / atom_elems()} * tile_k * span()};
    return TmaBox{tile_k, 8, kElemBytes, mode, base + uint64_t{row / 8} * tile_k * 16};
  }
  // Where TMA put element (row, k) of the tile.
  uint64_t address(uint32_t row, uint32_t k) const {
    const TmaBox box = box_of(row, k);
    if (major == OperandMajor::K) return box.address(row, mode == SwizzleMode::None ? k % 8 : k);
    return box.address(k, mode == SwizzleMode::None ? row % 8 : row % atom_elems());
  }
  void validate_boxes(bool blackwell) const {
    for (uint32_t r = 0; r < rows; r += 8)
      for (uint32_t k = 0; k < tile_k; k += 8) box_of(r, k).validate(blackwell);
  }

  // The descriptor fields a kernel writes for the MMA step at K offset k0 covering
  // operand rows row0 .. row0 + op_rows - 1 (PTX ISA canonical layouts):
  struct Fields {
    uint32_t start, lbo, sbo;
  };
  Fields fields(uint32_t row0, uint32_t k0) const {
    if (major == OperandMajor::K) {
      if (mode != SwizzleMode::None)
        // LBO unused (1 written); SBO = 8 rows of one span; K advances the start address
        // by the unswizzled byte offset; rows advance by whole 8-row groups.
        return {static_cast<uint32_t>(base + uint64_t{row0} * span() + k0 * kElemBytes), 16, 8 * span()};
      // LBO = between K-adjacent core matrices = one box; SBO = between 8-row groups.
      return {static_cast<uint32_t>(base + uint64_t{k0 / 8} * rows * 16 + uint64_t{row0} * 16), rows * 16, 128};
    }
    if (mode != SwizzleMode::None)
      // LBO = between atoms along MN (one box); SBO = between 8-row K groups.
      return {static_cast<uint32_t>(base + uint64_t{k0} * span() + uint64_t{row0 / atom_elems()} * tile_k * span()),
              tile_k * span(), 8 * span()};
    // LBO = between 8-row K groups (8 x 16 bytes); SBO = between MN-adjacent core matrices (one box).
    return {static_cast<uint32_t>(base + uint64_t{k0} * 16 + uint64_t{row0 / 8} * tile_k * 16), 128, tile_k * 16};
  }
};

// A random tile: operand A (rows = BM, a multiple of 64 up to 256) or B (rows = N, a
// multiple of 8 up to 256; for a swizzled MN-major tile a whole number of atoms).
KernelTile gen_tile(const std::vector<SwizzleMode>& modes) {
  KernelTile t;
  t.mode = *rc::gen::elementOf(modes);
  t.major = *rc::gen::element(OperandMajor::K, OperandMajor::MN);
  const bool operand_a = *rc::gen::arbitrary<bool>();
  const uint32_t row_step =
      operand_a ? 64 : (t.major == OperandMajor::MN && t.mode != SwizzleMode::None ? t.atom_elems() : 8);
  t.rows = row_step * *rc::gen::inRange<uint32_t>(1, 256 / row_step + 1);
  if (t.major == OperandMajor::K && t.mode != SwizzleMode::None)
    t.tile_k = t.atom_elems();  // the box is one swizzle span wide
  else
    t.tile_k = kMmaK * *rc::gen::inRange<uint32_t>(1, 5);  // 16..64
  // TMA destinations need 128 bytes even unswizzled (H200 probe, traces/hw/tma_swizzle.json).
  const uint64_t align = std::max<uint64_t>(128, swizzle_alignment_bytes(t.mode));
  const uint64_t tile_bytes = uint64_t{t.rows} * t.tile_k * kElemBytes;
  t.base = align * *rc::gen::inRange<uint64_t>(0, ((1u << 18) - tile_bytes) / align + 1);
  return t;
}

// Rows of one MMA operand inside the tile: all of them, or (operand A of a tall tile)
// one 64-row wgmma block at a row offset.
std::pair<uint32_t, uint32_t> gen_operand_rows(const KernelTile& t) {
  if (t.rows > 64 && t.rows % 64 == 0 && *rc::gen::arbitrary<bool>())
    return {64 * *rc::gen::inRange<uint32_t>(0, t.rows / 64), 64};
  return {0, t.rows};
}

template <class Desc>
void check_tile(const KernelTile& t, bool blackwell) {
  t.validate_boxes(blackwell);
  const auto [row0, op_rows] = gen_operand_rows(t);
  const OperandExtent op{op_rows, kMmaK, t.major, kElemBytes};
  for (uint32_t k0 = 0; k0 + kMmaK <= t.tile_k; k0 += kMmaK) {
    const auto f = t.fields(row0, k0);
    Desc desc;
    desc.start_address_bytes = f.start;
    desc.lbo_bytes = f.lbo;
    desc.sbo_bytes = f.sbo;
    desc.swizzle = t.mode;
    // Through the bits, as the hardware sees it (the testing kit's property decodes the word).
    const auto where = "mode " + std::string(to_string(t.mode)) + " major " + std::string(to_string(t.major)) +
                       " rows " + std::to_string(t.rows) + " tile_k " + std::to_string(t.tile_k) + " base " +
                       std::to_string(t.base) + " row0 " + std::to_string(row0) + " k0 " + std::to_string(k0) + ": ";
    const auto written_at = [&](uint32_t r, uint32_t k) { return t.address(row0 + r, k0 + k); };
    const gemmscope::testing::Violation why =
        std::is_same_v<Desc, SmemDescriptorSm90>
            ? gemmscope::testing::descriptor_reads_what_tma_wrote(desc.encode(), op, written_at)
            : gemmscope::testing::descriptor_reads_what_tma_wrote_sm100(desc.encode(), op, written_at);
    if (why) RC_FAIL(where + *why);
  }
}

}  // namespace

// ---- the consistency property ------------------------------------------------------

RC_GTEST_PROP(DescInterpreterSm90, EveryMmaStepReadsWhatTmaWrote, ()) {
  const KernelTile t = gen_tile({SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  check_tile<SmemDescriptorSm90>(t, false);
}

RC_GTEST_PROP(DescInterpreterSm100, EveryMmaStepReadsWhatTmaWrote, ()) {
  const KernelTile t =
      gen_tile({SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128, SwizzleMode::B128Atom32});
  check_tile<SmemDescriptorSm100>(t, true);
}

// Every (mode, major) pair is reached on every run, whatever the random draw.
TEST(DescInterpreterSm90, EachModeAndMajorOnAFixedTile) {
  for (SwizzleMode mode : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128})
    for (OperandMajor major : {OperandMajor::K, OperandMajor::MN}) {
      KernelTile t{mode, major, 128, 64, 4096};
      if (major == OperandMajor::K && mode != SwizzleMode::None) t.tile_k = t.atom_elems();
      const OperandExtent op{t.rows, kMmaK, major, kElemBytes};
      std::set<uint64_t> seen;
      for (uint32_t k0 = 0; k0 + kMmaK <= t.tile_k; k0 += kMmaK) {
        const auto f = t.fields(0, k0);
        const SmemDescriptorSm90 d{f.start, f.lbo, f.sbo, 0, mode};
        for (uint32_t r = 0; r < t.rows; ++r)
          for (uint32_t k = 0; k < kMmaK; ++k) {
            const uint64_t a = descriptor_element_address(d, op, r, k);
            ASSERT_EQ(a, t.address(r, k0 + k)) << to_string(mode) << " " << to_string(major);
            seen.insert(a);
          }
      }
      // The steps together read each element of the tile once: distinct addresses.
      EXPECT_EQ(seen.size(), size_t{t.rows} * t.tile_k);
    }
}

// ---- hand-worked examples ------------------------------------------------------------

TEST(DescInterpreter, HandWorked128BKMajor) {
  const SmemDescriptorSm90 d{0, 16, 1024, 0, SwizzleMode::B128};
  const OperandExtent op{16, 64, OperandMajor::K, 2};
  // Row 1, k 0: linear 128; row phase 1 moves chunk 0 to chunk 1 -> 144.
  EXPECT_EQ(descriptor_element_address(d, op, 1, 0), 144u);
  // Row 1, k 8: linear 144 (chunk 1) -> chunk 0 -> 128.
  EXPECT_EQ(descriptor_element_address(d, op, 1, 8), 128u);
  // Row 3, k 17: linear 384 + 34, chunk 2 ^ 3 = 1 -> 384 + 16 + 2 = 402.
  EXPECT_EQ(descriptor_element_address(d, op, 3, 17), 402u);
  // Row 9, k 0: second 8-row group at SBO 1024, row 1 of it: 1152, phase 1 -> 1168.
  EXPECT_EQ(descriptor_element_address(d, op, 9, 0), 1168u);
}

TEST(DescInterpreter, HandWorkedKAdvanceByStartAddress) {
  // K step 1 (k0 = 16 bf16) of a 1024-aligned 128B tile: start + 32 bytes.
  const SmemDescriptorSm90 d{32, 16, 1024, 0, SwizzleMode::B128};
  const OperandExtent op{8, 16, OperandMajor::K, 2};
  // Row 1, k 0 is tile element (1, 16): linear 160, chunk 2 ^ 1 = 3 -> 176.
  EXPECT_EQ(descriptor_element_address(d, op, 1, 0), 176u);
  // Row 7, k 15 is tile element (7, 31): linear 896 + 62, chunk 3 ^ 7 = 4 -> 896 + 64 + 14 = 974.
  EXPECT_EQ(descriptor_element_address(d, op, 7, 15), 974u);
}

TEST(DescInterpreter, HandWorkedNoSwizzleAndMnMajor) {
  // K-major interleaved: LBO 2048 between K core matrices, SBO 128 between 8-row groups.
  // Row 9, k 8: 16 (row 1) + 128 (group 1) + 2048 (K chunk 1) = 2192.
  EXPECT_EQ(descriptor_element_address(SmemDescriptorSm90{0, 2048, 128, 0, SwizzleMode::None},
                                       OperandExtent{16, 16, OperandMajor::K, 2}, 9, 8),
            2192u);
  // MN-major, none: LBO 128 between K groups, SBO 1024 between MN core matrices.
  // Row 9, k 3: 2 (row 9 % 8 = 1) + 1024 + 3 * 16 = 1074.
  EXPECT_EQ(descriptor_element_address(SmemDescriptorSm90{0, 128, 1024, 0, SwizzleMode::None},
                                       OperandExtent{16, 16, OperandMajor::MN, 2}, 9, 3),
            1074u);
  // MN-major 128B: LBO 8192 between MN atoms, SBO 1024 between K groups.
  // Row 65, k 9: 2 + 8192 + 128 + 1024 = 9346; phase (9346 >> 7) & 7 = 1, chunk 0 -> 1: 9362.
  EXPECT_EQ(descriptor_element_address(SmemDescriptorSm90{0, 8192, 1024, 0, SwizzleMode::B128},
                                       OperandExtent{128, 16, OperandMajor::MN, 2}, 65, 9),
            9362u);
}

// ---- domain -----------------------------------------------------------------------

TEST(DescInterpreter, OutOfDomainRequestsAreReported) {
  const SmemDescriptorSm90 d128{0, 16, 1024, 0, SwizzleMode::B128};
  // K extent beyond one swizzle row: 128 bf16 = 256 bytes > 128.
  EXPECT_THROW(descriptor_address_map(d128, {8, 128, OperandMajor::K, 2}), ModelError);
  EXPECT_THROW(descriptor_address_map(SmemDescriptorSm90{0, 16, 512, 0, SwizzleMode::B64}, {8, 64, OperandMajor::K, 2}),
               ModelError);
  EXPECT_NO_THROW(descriptor_address_map(d128, {8, 64, OperandMajor::K, 2}));
  EXPECT_THROW(descriptor_address_map(d128, {12, 16, OperandMajor::K, 2}), ModelError);            // rows not x8
  EXPECT_THROW(descriptor_address_map(d128, {8, 12, OperandMajor::K, 2}), ModelError);             // K not x8 (bf16)
  EXPECT_THROW(descriptor_address_map(d128, {4, 16, OperandMajor::MN, 2}), ModelError);            // MN rows not x8
  EXPECT_THROW(descriptor_address_map(d128, {8, 16, OperandMajor::K, 3}), ModelError);             // elem bytes
  EXPECT_THROW(descriptor_element_address(d128, {8, 16, OperandMajor::K, 2}, 8, 0), ModelError);   // row
  EXPECT_THROW(descriptor_element_address(d128, {8, 16, OperandMajor::K, 2}, 0, 16), ModelError);  // k
  SmemDescriptorSm100 absolute;
  absolute.lbo_mode = LboMode::Absolute;
  EXPECT_THROW(descriptor_address_map(absolute, {8, 16, OperandMajor::K, 2}), ModelError);
  // An invalid descriptor is refused before any address is computed.
  EXPECT_THROW(
      descriptor_address_map(SmemDescriptorSm90{8, 16, 1024, 0, SwizzleMode::B128}, {8, 16, OperandMajor::K, 2}),
      ModelError);
  try {
    descriptor_address_map(d128, {8, 128, OperandMajor::K, 2});
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("k bytes = 256"), std::string::npos) << e.what();
  }
}

// ---- base offset (UNCONFIRMED on hardware; this checks the model's reading) --------

// A tile whose swizzle pattern starts at P = 1024 q + 128 b (not on its boundary) and
// is swizzled relative to P: element at linear offset x sits at P + swizzle(x). A
// descriptor with start P and base offset b must read those addresses.
RC_GTEST_PROP(DescInterpreter, BaseOffsetReadsAPatternStartingOffBoundary, ()) {
  const SwizzleMode mode = *rc::gen::element(SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128);
  const uint32_t b = *rc::gen::inRange<uint32_t>(1, 8);
  const uint32_t pattern_start = 1024 * *rc::gen::inRange<uint32_t>(0, 200) + 128 * b;
  const uint32_t span = swizzle_span_bytes(mode);
  const uint32_t rows = 8 * *rc::gen::inRange<uint32_t>(1, 9);
  const SmemDescriptorSm90 d{pattern_start, 16, 8 * span, b, mode};
  const OperandExtent op{rows, span / 2, OperandMajor::K, 2};
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < span / 2; ++k) {
      const uint64_t x = uint64_t{r} * span + k * 2;
      RC_ASSERT(descriptor_element_address(d, op, r, k) == pattern_start + swizzle_address(mode, x));
    }
}
