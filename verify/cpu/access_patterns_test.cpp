// Access-pattern generators (access_patterns.hpp) and the bank costs of the GEMM
// patterns. The expected numbers are worked out by hand in the comments from the
// facts (bank = (byte / 4) mod 32, 128B swizzle = chunk ^ (row mod 8), ldmatrix lane
// roles, the wgmma accumulator map), never read back from the analyzer.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gemmscope/model/access_patterns.hpp"
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

SmemTile tile64x64(SwizzleMode mode, uint64_t base = 0) {
  SmemTile t;
  t.rows = 64;
  t.row_bytes = 128;
  t.swizzle = mode;
  t.base = base;
  return t;
}

int max_phase_wavefronts(const SequenceCost& s) {
  int m = 0;
  for (const AccessCost& a : s.instructions)
    for (const PhaseCost& p : a.phases) m = std::max(m, p.wavefronts);
  return m;
}

int min_phase_wavefronts(const SequenceCost& s) {
  int m = 1 << 30;
  for (const AccessCost& a : s.instructions)
    for (const PhaseCost& p : a.phases) m = std::min(m, p.wavefronts);
  return m;
}

}  // namespace

// --------------------------------------------------------------- the Kernel 3 claim
//
// Hand argument. The tile is 64 rows (M) x 64 bf16 (K) = 128 bytes per row, K-major.
// ldmatrix.x4 reads four 8x8 core matrices; lanes 8j..8j+7 give the 8 row addresses
// of matrix j, 16 bytes each, so under the 128-bytes-per-phase rule each matrix is
// one phase of 8 lanes x 16 bytes.
//
// Unswizzled: row r starts at 128r bytes = word 32r, a whole turn of the 32 banks, so
// the 16-byte chunk c of EVERY row sits in banks 4c..4c+3. A core matrix is 8 rows of
// the same chunk c: 8 lanes x 4 words, 32 distinct words all in banks 4c..4c+3, i.e.
// 8 distinct words per bank -> 8 wavefronts for the phase. Ideal: 32 distinct words
// / 32 banks = 1. Per instruction: 4 phases -> 32 wavefronts, ideal 4, 28 conflicts.
//
// 128B swizzle: physical chunk = c ^ (r mod 8). The 8 rows of a core matrix start at a
// multiple of 8, so r mod 8 runs over 0..7 and the 8 rows land in 8 different chunks
// -> 8 disjoint groups of 4 banks covering all 32 once -> 1 wavefront per phase.
//
// The whole tile has (64/8) x (128/16) = 64 core matrices = 16 ldmatrix.x4: unswizzled
// 16 x 32 = 512 wavefronts (ideal 64, 448 conflicts); swizzled 64 (ideal 64, 0).
namespace {
constexpr int kRowsPerCoreMatrix = 8;
constexpr int kInstructions = (64 / 8) * (128 / 16) / 4;
constexpr int kPhasesPerInstruction = 4;
constexpr int kUnswizzledWavefrontsPerPhase = kRowsPerCoreMatrix;  // 8 rows, same 4 banks
constexpr int kIdealPerPhase = 1;                                   // 32 words, 32 banks
}  // namespace

TEST(Kernel3Claim, FirstInstructionAddressesAreTheCoreMatrixRows) {
  // Instruction 0 reads matrices (rows 0-7, bytes 0-15), (rows 8-15, bytes 0-15),
  // (rows 0-7, bytes 16-31), (rows 8-15, bytes 16-31).
  const auto unswizzled = find_pattern("ldmatrix-x4-k-major-64x64").make(SwizzleMode::None, 0);
  const auto swizzled = find_pattern("ldmatrix-x4-k-major-64x64").make(SwizzleMode::B128, 0);
  ASSERT_EQ(unswizzled.size(), static_cast<size_t>(kInstructions));
  for (int t = 0; t < 32; ++t) {
    const int j = t / 8, r = t % 8;
    const uint64_t row = r + 8 * (j % 2), chunk = j / 2;
    EXPECT_EQ(unswizzled[0].address[t], row * 128 + chunk * 16) << "lane " << t;
    EXPECT_EQ(swizzled[0].address[t], row * 128 + (chunk ^ (row % 8)) * 16) << "lane " << t;
  }
  EXPECT_EQ(unswizzled[0].width_bytes, 16);
  EXPECT_EQ(unswizzled[0].active_mask, 0xFFFFFFFFu);
}

TEST(Kernel3Claim, UnswizzledIsEightWayAndSwizzledIsConflictFree) {
  const Kernel3BankComparison c = kernel3_bank_comparison();
  EXPECT_EQ(c.pattern, "ldmatrix-x4-k-major-64x64");
  ASSERT_EQ(c.unswizzled.instructions.size(), static_cast<size_t>(kInstructions));
  for (const AccessCost& a : c.unswizzled.instructions) {
    ASSERT_EQ(a.phases.size(), static_cast<size_t>(kPhasesPerInstruction));
    for (const PhaseCost& p : a.phases) {
      EXPECT_EQ(p.wavefronts, kUnswizzledWavefrontsPerPhase);
      EXPECT_EQ(p.ideal, kIdealPerPhase);
      EXPECT_EQ(p.collisions.size(), 4u);  // the 4 banks of the shared chunk
      for (const BankCollision& b : p.collisions) EXPECT_EQ(b.lanes.size(), 8u);
    }
  }
  EXPECT_EQ(c.unswizzled.wavefronts, kInstructions * kPhasesPerInstruction * kUnswizzledWavefrontsPerPhase);  // 512
  EXPECT_EQ(c.unswizzled.ideal, kInstructions * kPhasesPerInstruction * kIdealPerPhase);                     // 64
  EXPECT_EQ(c.unswizzled.conflicts(), 448);
  for (const AccessCost& a : c.swizzled_128b.instructions)
    for (const PhaseCost& p : a.phases) {
      EXPECT_EQ(p.wavefronts, 1);
      EXPECT_TRUE(p.collisions.empty());
    }
  EXPECT_EQ(c.swizzled_128b.wavefronts, 64);
  EXPECT_EQ(c.swizzled_128b.ideal, 64);
  EXPECT_EQ(c.swizzled_128b.conflicts(), 0);
  const std::string text = format_kernel3_bank_comparison(c);
  EXPECT_NE(text.find("512"), std::string::npos) << text;
  EXPECT_NE(text.find("448"), std::string::npos) << text;
}

// ---------------------------------------------------------------------- SmemTile

// Any box TMA accepts (a 128-byte aligned destination, mostly inside the swizzle
// pattern rather than on its boundary) gives a tile the model accepts, with the box's
// own address for every element.
RC_GTEST_PROP(SmemTileLayout, FromBoxAgreesWithTmaBoxAddress, ()) {
  TmaBox box;
  box.swizzle = *rc::gen::elementOf(std::vector<SwizzleMode>{SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                                                             SwizzleMode::B128, SwizzleMode::B128Atom32});
  box.elem_bytes = 2;
  const uint32_t max_inner = box.swizzle == SwizzleMode::None ? 512 : swizzle_span_bytes(box.swizzle);
  box.inner_elems = 8 * *rc::gen::inRange<uint32_t>(1, max_inner / 16 + 1);
  box.rows = *rc::gen::inRange<uint32_t>(1, 257);
  box.smem_base = 128 * *rc::gen::inRange<uint64_t>(0, 1600);
  box.validate(/*allow_blackwell_modes=*/true);
  const SmemTile tile = SmemTile::from_box(box);
  try {
    tile.validate();
  } catch (const ModelError& e) {
    RC_FAIL(std::string("TmaBox accepts the box but SmemTile refuses it: ") + e.what());
  }
  for (uint32_t row = 0; row < box.rows; ++row)
    for (uint32_t col = 0; col < box.inner_elems; ++col)
      RC_ASSERT(tile.address(row, 2 * col) == box.address(row, col));
}

TEST(SmemTileLayout, HandWorkedSlabAndPaddedExamples) {
  // 32B swizzle, 64 rows x 128 bytes: 4 slabs of 64 rows x 32 bytes. Row 4, byte 40:
  // slab 1 (starts at 64*32 = 2048), row 4 -> +128, byte 8 of the slab -> 2184.
  // 2184 is in 128-byte line 17 (odd): the 16-byte half flips, 2184 -> 2200.
  EXPECT_EQ(tile64x64(SwizzleMode::B32).address(4, 40), 2200u);
  // Padded unswizzled rows of 132 bytes: row 5, byte 8 -> 660 + 8.
  SmemTile padded = tile64x64(SwizzleMode::None, 4096);
  padded.row_pitch_bytes = 132;
  EXPECT_EQ(padded.address(5, 8), 4096u + 668);
}

TEST(SmemTileLayout, ValidateRefusesNamingTheValue) {
  auto expect_refusal = [](const SmemTile& t, const std::string& needle) {
    try {
      t.validate();
      ADD_FAILURE() << "accepted; expected '" << needle << "'";
    } catch (const ModelError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  SmemTile t = tile64x64(SwizzleMode::B128, 64);
  expect_refusal(t, "tile base = 64 must be a multiple of 128 bytes");
  t = tile64x64(SwizzleMode::B128);
  t.row_bytes = 192;
  expect_refusal(t, "tile row_bytes = 192");
  t = tile64x64(SwizzleMode::B64);
  t.row_pitch_bytes = 144;
  expect_refusal(t, "tile row_pitch_bytes = 144");
  t = tile64x64(SwizzleMode::None);
  t.row_bytes = 40;
  expect_refusal(t, "tile row_bytes = 40");
}

// TMA's destination rule (traces/hw/tma_swizzle.json: swizzled boxes land 128, 256
// and 512 bytes past a 256/512/1024-byte pattern boundary; 16-byte unswizzled
// destinations fault): 128 bytes when swizzled, whatever the pattern's period; 16
// unswizzled.
TEST(SmemTileLayout, SwizzledBaseIsAnyMultipleOf128Bytes) {
  auto refusal = [](const SmemTile& t) -> std::string {
    try {
      t.validate();
    } catch (const ModelError& e) {
      return e.what();
    }
    return "";
  };
  // The XOR pattern periods, 2^(B+M+S) of <1,4,3>, <2,4,3>, <3,4,3>, <2,5,2>.
  const std::pair<SwizzleMode, uint64_t> periods[] = {
      {SwizzleMode::B32, 256}, {SwizzleMode::B64, 512}, {SwizzleMode::B128, 1024}, {SwizzleMode::B128Atom32, 512}};
  for (const auto& [mode, period] : periods) {
    SCOPED_TRACE(std::string(to_string(mode)));
    for (uint64_t base = 128; base < period; base += 128) {  // every base inside the pattern
      EXPECT_EQ(refusal(tile64x64(mode, base)), "") << "base " << base;
      EXPECT_EQ(refusal(tile64x64(mode, 4 * period + base)), "") << "base " << 4 * period + base;
    }
    for (uint64_t base : {16, 64, 80, 192 + 1024}) {
      const std::string why = refusal(tile64x64(mode, base));
      EXPECT_NE(why.find("tile base = " + std::to_string(base) + " must be a multiple of 128 bytes"),
                std::string::npos)
          << why;
    }
  }
  EXPECT_EQ(refusal(tile64x64(SwizzleMode::None, 16)), "");
  EXPECT_EQ(refusal(tile64x64(SwizzleMode::None, 4096 + 48)), "");
  const std::string why = refusal(tile64x64(SwizzleMode::None, 8));
  EXPECT_NE(why.find("tile base = 8 must be a multiple of 16 bytes"), std::string::npos) << why;
}

// ----------------------------------------------------------- ldmatrix / stmatrix walks

TEST(MatrixWalk, EveryCoreMatrixRowIsReadOnceAndActiveLanesMatchTheCount) {
  for (SwizzleMode mode : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128}) {
    for (int count : {1, 2, 4}) {
      const auto walk = matrix_tile_walk(tile64x64(mode), MatrixOp::Ldmatrix, count, false);
      EXPECT_EQ(walk.size(), static_cast<size_t>((64 / 8) * (128 / 16) / count));  // 64 core matrices
      std::multiset<uint64_t> read;
      for (const WarpAccess& a : walk) {
        EXPECT_EQ(a.active_mask, count == 4 ? 0xFFFFFFFFu : count == 2 ? 0xFFFFu : 0xFFu);
        for (int t = 0; t < 8 * count; ++t) read.insert(a.address[t]);
      }
      // Expected: every 16-byte chunk of the 8 KiB tile exactly once (the swizzle
      // permutes chunks within the tile, it never merges them).
      std::multiset<uint64_t> chunks;
      for (uint64_t a = 0; a < 8192; a += 16) chunks.insert(a);
      EXPECT_EQ(read, chunks) << to_string(mode) << " x" << count;
    }
  }
}

TEST(MatrixWalk, TransAndStmatrixUseTheSameAddresses) {
  const auto ld = matrix_tile_walk(tile64x64(SwizzleMode::B128), MatrixOp::Ldmatrix, 4, false);
  const auto ldt = matrix_tile_walk(tile64x64(SwizzleMode::B128), MatrixOp::Ldmatrix, 4, true);
  const auto st = matrix_tile_walk(tile64x64(SwizzleMode::B128), MatrixOp::Stmatrix, 4, false);
  ASSERT_EQ(ld.size(), ldt.size());
  for (size_t i = 0; i < ld.size(); ++i) {
    EXPECT_EQ(ld[i].address, ldt[i].address);
    EXPECT_EQ(ld[i].address, st[i].address);
    EXPECT_EQ(st[i].kind, AccessKind::Store);
  }
}

TEST(MatrixWalk, RefusesBadCountsAndOutOfTileMatrices) {
  EXPECT_THROW(matrix_tile_walk(tile64x64(SwizzleMode::None), MatrixOp::Ldmatrix, 3, false), ModelError);
  EXPECT_THROW(matrix_access(tile64x64(SwizzleMode::None), MatrixOp::Ldmatrix, 1, false, {{60, 0}}), ModelError);
  EXPECT_THROW(matrix_access(tile64x64(SwizzleMode::None), MatrixOp::Ldmatrix, 1, false, {{0, 8}}), ModelError);
  EXPECT_THROW(matrix_access(tile64x64(SwizzleMode::None), MatrixOp::Ldmatrix, 2, false, {{0, 0}}), ModelError);
}

// -------------------------------------------------------------------- epilogue

TEST(Epilogue, UnswizzledIsEightWaySwizzledIsConflictFree) {
  // Warp w, register pair p, lane l writes 4 bytes at row 16w + l/4 + 8(p&1), byte
  // 4(l%4) + 16(p>>1). Unswizzled 128-byte rows keep the bank = l%4 + 4(p>>1): 4 banks,
  // 8 lanes (8 different rows) each -> 8 wavefronts, ideal 1 (32 words).
  // 128B: the row's base is a multiple of 8, so r mod 8 = l/4 and the chunk becomes
  // (p>>1) ^ (l/4): 8 different chunks -> 32 different banks -> 1 wavefront.
  // 4 warps x 16 pairs = 64 instructions.
  const SequenceCost plain = analyze(find_pattern("epilogue-st32-m64n64-bf16").make(SwizzleMode::None, 0));
  const SequenceCost swz = analyze(find_pattern("epilogue-st32-m64n64-bf16").make(SwizzleMode::B128, 0));
  ASSERT_EQ(plain.instructions.size(), 64u);
  EXPECT_EQ(plain.wavefronts, 64 * 8);
  EXPECT_EQ(plain.ideal, 64);
  EXPECT_EQ(max_phase_wavefronts(plain), 8);
  EXPECT_EQ(min_phase_wavefronts(plain), 8);
  EXPECT_EQ(swz.wavefronts, 64);
  EXPECT_EQ(swz.conflicts(), 0);
  // Lane 5 of warp 1 (thread 37), pair 3 (registers 6, 7): row = 16 + 5/4 + 8*((6>>1)&1)
  // = 25, col = 2*(5%4) + 8*(6>>2) = 10 -> byte 20 of row 25.
  const auto w1 = epilogue_accumulator_stores(tile64x64(SwizzleMode::None), 64, 1);
  ASSERT_EQ(w1.size(), 16u);
  EXPECT_EQ(w1[3].address[5], 25u * 128 + 20);
  // Swizzled: row 25 (25 mod 8 = 1), chunk 1 -> chunk 0, byte 4 of it.
  const auto s1 = epilogue_accumulator_stores(tile64x64(SwizzleMode::B128), 64, 1);
  EXPECT_EQ(s1[3].address[5], 25u * 128 + 4);
  // Every lane of every instruction together cover each 4-byte pair of the tile once.
  std::multiset<uint64_t> written;
  for (int w = 0; w < 4; ++w)
    for (const WarpAccess& a : epilogue_accumulator_stores(tile64x64(SwizzleMode::B128), 64, w))
      for (int t = 0; t < 32; ++t) written.insert(a.address[t]);
  std::multiset<uint64_t> pairs;
  for (uint64_t b = 0; b < 8192; b += 4) pairs.insert(b);
  EXPECT_EQ(written, pairs);
  EXPECT_THROW(epilogue_accumulator_stores(tile64x64(SwizzleMode::None), 96, 0), ModelError);  // 2N > 128 bytes
  EXPECT_THROW(epilogue_accumulator_stores(tile64x64(SwizzleMode::None), 64, 4), ModelError);
}

// --------------------------------------------------------------- vector patterns

TEST(VectorPatterns, ColumnWalksAndPadding) {
  // Lane t reads row t at a fixed column: unswizzled, every row at a multiple of 32
  // words -> one bank, 32 distinct words -> 32 wavefronts. 2 row groups x 32 columns.
  const SequenceCost plain = analyze(find_pattern("vector-load-4B-column-64x64").make(SwizzleMode::None, 0));
  EXPECT_EQ(plain.instructions.size(), 64u);
  EXPECT_EQ(plain.wavefronts, 64 * 32);
  // 132-byte pitch = 33 words: bank (33t + c) mod 32 = (t + c) mod 32, all distinct.
  const SequenceCost padded = analyze(find_pattern("vector-load-4B-column-64x64-pad4").make(SwizzleMode::None, 0));
  EXPECT_EQ(padded.wavefronts, 64);
  // 128B: row t's chunk moves to chunk ^ (t mod 8): 8 bank groups, rows t, t+8, t+16,
  // t+24 share one -> 4 wavefronts.
  const SequenceCost swz = analyze(find_pattern("vector-load-4B-column-64x64").make(SwizzleMode::B128, 0));
  EXPECT_EQ(swz.wavefronts, 64 * 4);
  // Row-major 16 B: each phase (8 lanes) is one whole 128-byte row; a swizzle only
  // permutes the chunks of that row -> 1 wavefront per phase either way.
  for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B128}) {
    const SequenceCost rm = analyze(find_pattern("vector-load-16B-row-major-64x64").make(m, 0));
    EXPECT_EQ(rm.wavefronts, rm.ideal);
    EXPECT_EQ(rm.ideal, 8192 / 128);
  }
}

// ---------------------------------------------------------------- named patterns

TEST(NamedPatterns, ListIsUniqueAndEveryPatternBuildsForTheH200Modes) {
  std::set<std::string> names;
  for (const NamedPattern& p : builtin_patterns()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_FALSE(p.description.empty()) << p.name;
    for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128}) {
      if (p.name.find("pad4") != std::string::npos && m != SwizzleMode::None) {
        EXPECT_THROW(p.make(m, 0), ModelError);
        continue;
      }
      const auto accesses = p.make(m, 0);
      EXPECT_FALSE(accesses.empty()) << p.name;
      EXPECT_NO_THROW(analyze(accesses)) << p.name;
    }
  }
  for (const char* expected : {"ldmatrix-x1-k-major-64x64", "ldmatrix-x2-k-major-64x64", "ldmatrix-x4-k-major-64x64",
                               "ldmatrix-x4-trans-mn-major-64x64", "stmatrix-x4-row-major-64x64",
                               "stmatrix-x4-trans-col-major-64x64", "epilogue-st32-m64n64-bf16",
                               "vector-store-16B-row-major-64x64"})
    EXPECT_TRUE(names.count(expected)) << expected;
}

TEST(NamedPatterns, UnknownNameAndMisalignedBaseAreRefused) {
  try {
    find_pattern("ldmatrix-x8");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("'ldmatrix-x8'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(find_pattern("ldmatrix-x4-k-major-64x64").make(SwizzleMode::B128, 64), ModelError);
  EXPECT_NO_THROW(find_pattern("ldmatrix-x4-k-major-64x64").make(SwizzleMode::B128, 512));
  EXPECT_NO_THROW(find_pattern("ldmatrix-x4-k-major-64x64").make(SwizzleMode::B128, 2048));
}

// The Kernel 3 walk at a base inside the 128B pattern. Hand argument: with base = 128q
// (any q), row r's 128-byte line is base/128 + r, so the XOR of its chunk is
// (q + r) mod 8 instead of r mod 8. A core matrix's 8 rows start at a multiple of 8,
// so (q + r) mod 8 still runs over 0..7: 8 different chunks of lines that each start
// in bank 0 (128-byte lines), 32 different banks, 1 wavefront per phase. The pattern
// is rotated among the rows, not broken: 64 wavefronts, 0 conflicts, as at base 0.
// Unswizzled, the same walk stays 8-way at any base that is a multiple of 128.
TEST(NamedPatterns, Ldmatrix128BIsConflictFreeAtMidPatternBases) {
  const NamedPattern& p = find_pattern("ldmatrix-x4-k-major-64x64");
  for (uint64_t base : {128, 256, 384, 512, 640, 768, 896, 2048 + 512}) {
    SCOPED_TRACE("base " + std::to_string(base));
    const auto walk = p.make(SwizzleMode::B128, base);
    ASSERT_EQ(walk.size(), static_cast<size_t>(kInstructions));
    // Instruction 0: matrices (rows 0-7 | 8-15) x (chunk 0 | 1), lane t -> matrix t/8.
    for (int t = 0; t < 32; ++t) {
      const int j = t / 8, r = t % 8;
      const uint64_t row = r + 8 * (j % 2), chunk = j / 2;
      EXPECT_EQ(walk[0].address[t], base + row * 128 + (chunk ^ ((base / 128 + row) % 8)) * 16) << "lane " << t;
    }
    const SequenceCost swz = analyze(walk);
    EXPECT_EQ(swz.wavefronts, 64);
    EXPECT_EQ(swz.conflicts(), 0);
    EXPECT_EQ(max_phase_wavefronts(swz), 1);
    const SequenceCost plain = analyze(p.make(SwizzleMode::None, base));
    EXPECT_EQ(plain.wavefronts, 512);
    EXPECT_EQ(plain.conflicts(), 448);
  }
}
