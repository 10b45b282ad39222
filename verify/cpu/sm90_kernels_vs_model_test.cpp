// The Hopper ladder's own address code (kernels/common/sm90_address.hpp) held
// against the model, for every configuration the kernels instantiate:
// descriptors (decoded and interpreted by the model) read exactly what TMA wrote
// (the model's box map), the epilogue's swizzled staging addresses equal the TMA
// store box map, and the stmatrix epilogue puts each accumulator where the wgmma
// fragment map says it belongs.
#include <functional>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#if __has_include("common/sm90_address.hpp")
#include "common/sm90_address.hpp"
#include "common/sm90_cluster.hpp"
#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/fragments.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/testing/address_properties.hpp"

namespace gm = gemmscope::model;
namespace ks = gemmscope::sm90;
namespace gt = gemmscope::testing;

namespace {

// Ladder tiles: k02..k04 use 128-row A and B tiles, BK = 64, wgmma M = 64, K = 16.
constexpr uint32_t kTileRows = 128, kBK = 64, kWgmmaM = 64, kWgmmaK = 16;

// k02: one unswizzled TMA box of 8 elements x tile_rows per K chunk, chunks stacked.
uint64_t k02_tma_address(uint32_t tile_base, uint32_t tile_rows, uint32_t row, uint32_t k) {
  const gm::TmaBox box{tile_rows, 8, 2, gm::SwizzleMode::None, tile_base + (k / 8) * tile_rows * 16};
  return box.address(row, k % 8);
}
// k03/k04: one 128B-swizzled box of 64 elements x tile_rows.
uint64_t k03_tma_address(uint32_t tile_base, uint32_t tile_rows, uint32_t row, uint32_t k) {
  const gm::TmaBox box{tile_rows, kBK, 2, gm::SwizzleMode::B128, tile_base};
  return box.address(row, k);
}

// For every MMA step of one K block: the model's reading of the kernel's
// descriptor equals where TMA put each element.
template <class MakeDesc, class TmaAddress>
void check_operand(uint32_t tile_base, uint32_t operand_rows, uint32_t row0, MakeDesc make_desc, TmaAddress tma) {
  for (uint32_t kk = 0; kk < kBK; kk += kWgmmaK) {
    const gm::OperandExtent operand{operand_rows, kWgmmaK, gm::OperandMajor::K, 2};
    GEMMSCOPE_RC_HOLDS(gt::descriptor_reads_what_tma_wrote(
        make_desc(tile_base, row0, kk), operand,
        [&](uint32_t r, uint32_t k) { return tma(tile_base, kTileRows, row0 + r, kk + k); }));
  }
}

}  // namespace

// k02: A as two m64 halves, B as one 128-row operand (wgmma N = 128).
RC_GTEST_PROP(Sm90KernelsVsModel, K02InterleavedDescriptorsReadWhatTmaWrote, ()) {
  const uint32_t base = *rc::gen::inRange<uint32_t>(0, (200u * 1024) / 128) * 128;  // alignas(128)
  const auto make = [](uint32_t b, uint32_t row0, uint32_t kk) { return ks::desc_kmajor_interleaved(b, kTileRows, row0, kk); };
  for (uint32_t mi = 0; mi < kTileRows / kWgmmaM; ++mi) check_operand(base, kWgmmaM, mi * kWgmmaM, make, k02_tma_address);
  check_operand(base, kTileRows, 0, make, k02_tma_address);
}

// k03/k04: the same with the 128B swizzle on 1024-byte aligned tiles.
RC_GTEST_PROP(Sm90KernelsVsModel, K03SwizzledDescriptorsReadWhatTmaWrote, ()) {
  const uint32_t base = *rc::gen::inRange<uint32_t>(0, 200) * 1024;
  const auto make = [](uint32_t b, uint32_t row0, uint32_t kk) { return ks::desc_kmajor_sw128(b, row0, kk); };
  for (uint32_t mi = 0; mi < kTileRows / kWgmmaM; ++mi) check_operand(base, kWgmmaM, mi * kWgmmaM, make, k03_tma_address);
  check_operand(base, kTileRows, 0, make, k03_tma_address);
}

// k10 forms one descriptor per operand before its main loop and reaches stage s,
// K step kk with desc_advance(base, s * stage_bytes + stage_k_offset(rows, kk)); its
// producer puts the TMA box of K elements [64 j, 64 j + 64) at
// stage_k_offset(rows, 64 j) into the stage. For every tile height, stage depth BK
// (one or two boxes) and ring depth it instantiates: the boxes are 1024-byte aligned
// (the 128B swizzle's atom), lie inside the stage and do not overlap, and each K
// step's descriptor reads what TMA wrote there: A as the consumer's 64-row slice, B
// whole (wgmma N = BN).
RC_GTEST_PROP(Sm90KernelsVsModel, K10AdvancedDescriptorsReadWhatTmaWrote, ()) {
  const uint32_t tile_rows = *rc::gen::element<uint32_t>(64, 96, 128, 160, 176, 192, 224, 256);
  const uint32_t bk = *rc::gen::element<uint32_t>(64, 128);
  const uint32_t stages = *rc::gen::inRange<uint32_t>(1, 13);
  const uint32_t stage_bytes = tile_rows * bk * 2;
  const uint32_t window = 1024u * *rc::gen::inRange<uint32_t>(0, 16);
  const uint32_t stage = *rc::gen::inRange<uint32_t>(0, stages);
  const bool operand_a = *rc::gen::arbitrary<bool>();
  const uint32_t rows = operand_a ? kWgmmaM : tile_rows;
  const uint32_t row0 = operand_a ? kWgmmaM * *rc::gen::inRange<uint32_t>(0, tile_rows / kWgmmaM) : 0;
  const uint32_t tile = window + stage * stage_bytes;
  RC_PRE(tile + stage_bytes <= 232448u);  // inside the 227 KiB a block may use
  const uint32_t box_bytes = tile_rows * kBK * 2;
  for (uint32_t j = 0; j < bk / kBK; ++j) {
    const uint32_t at = ks::stage_k_offset(tile_rows, j * kBK);
    RC_ASSERT(at % 1024u == 0u);
    RC_ASSERT(at + box_bytes <= stage_bytes);
    for (uint32_t i = 0; i < j; ++i) {
      const uint32_t other = ks::stage_k_offset(tile_rows, i * kBK);
      RC_ASSERT(at >= other + box_bytes || other >= at + box_bytes);
    }
  }
  const uint64_t base = ks::desc_kmajor_sw128(window, row0, 0);
  const gm::OperandExtent operand{rows, kWgmmaK, gm::OperandMajor::K, 2};
  for (uint32_t kk = 0; kk < bk; kk += kWgmmaK) {
    const uint32_t box_k0 = kk / kBK * kBK;
    const gm::TmaBox box{tile_rows, kBK, 2, gm::SwizzleMode::B128, tile + ks::stage_k_offset(tile_rows, box_k0)};
    const uint64_t advanced = ks::desc_advance(base, stage * stage_bytes + ks::stage_k_offset(tile_rows, kk));
    RC_ASSERT(advanced == ks::desc_kmajor_sw128(static_cast<uint32_t>(box.smem_base), row0, kk - box_k0));
    GEMMSCOPE_RC_HOLDS(gt::descriptor_reads_tma_box(advanced, operand, box, row0, kk - box_k0));
  }
}

// k10's ping-pong warpgroups compute whole 128-row tiles: A's descriptor is formed
// at row 0 and the second m64 half is 64 rows of 128 bytes further,
// desc_advance(base, s * stage_bytes + half * 64 * 128 + kk * 2). Each half reads
// its 64 rows of what TMA wrote into the stage.
RC_GTEST_PROP(Sm90KernelsVsModel, K10PingPongHalvesReadWhatTmaWrote, ()) {
  const uint32_t stages = *rc::gen::inRange<uint32_t>(1, 9);
  const uint32_t stage_bytes = kTileRows * kBK * 2;
  const uint32_t window = 1024u * *rc::gen::inRange<uint32_t>(0, 16);
  const uint32_t stage = *rc::gen::inRange<uint32_t>(0, stages);
  const uint32_t half = *rc::gen::inRange<uint32_t>(0, 2);
  const uint32_t tile = window + stage * stage_bytes;
  RC_PRE(tile + stage_bytes <= 232448u);
  const uint64_t base = ks::desc_kmajor_sw128(window, 0, 0);
  const gm::TmaBox box{kTileRows, kBK, 2, gm::SwizzleMode::B128, tile};
  const gm::OperandExtent operand{kWgmmaM, kWgmmaK, gm::OperandMajor::K, 2};
  for (uint32_t kk = 0; kk < kBK; kk += kWgmmaK) {
    GEMMSCOPE_RC_HOLDS(gt::descriptor_reads_tma_box(
        ks::desc_advance(base, stage * stage_bytes + half * kWgmmaM * 128 + kk * 2), operand, box, half * kWgmmaM, kk));
  }
}

// Field packing: the kernel's bit packing decodes to the fields it meant.
RC_GTEST_PROP(Sm90KernelsVsModel, DescriptorFieldsDecode, ()) {
  const uint32_t start = *rc::gen::inRange<uint32_t>(0, 1u << 14) * 16;
  const uint32_t lbo = *rc::gen::inRange<uint32_t>(0, 1u << 14) * 16;
  const uint32_t sbo = *rc::gen::inRange<uint32_t>(0, 1u << 14) * 16;
  const uint32_t code = *rc::gen::element<uint32_t>(ks::kDescSwizzleNone, ks::kDescSwizzle128B, ks::kDescSwizzle64B,
                                                    ks::kDescSwizzle32B);
  const auto d = gm::SmemDescriptorSm90::decode(ks::smem_desc(start, lbo, sbo, code));
  RC_ASSERT(d.start_address_bytes == start);
  RC_ASSERT(d.lbo_bytes == lbo);
  RC_ASSERT(d.sbo_bytes == sbo);
  RC_ASSERT(d.base_offset == 0u);
  const gm::SwizzleMode expected[] = {gm::SwizzleMode::None, gm::SwizzleMode::B128, gm::SwizzleMode::B64,
                                      gm::SwizzleMode::B32};
  RC_ASSERT(d.swizzle == expected[code]);
}

// k04's staging tile: the kernel's sw128_offset is the TMA store box's map.
TEST(Sm90KernelsVsModel, EpilogueStagingMatchesTmaStoreBox) {
  const gm::TmaBox box{kTileRows, 64, 2, gm::SwizzleMode::B128, 0};
  const gt::Violation why = gt::tile_matches_tma_box(ks::sw128_offset, box);
  EXPECT_FALSE(why) << *why;
}

// k10's 32-column staging box (BN = 96): sw64_offset is the 64B-swizzled store box's map.
TEST(Sm90KernelsVsModel, EpilogueStaging32ColumnsMatchesTmaStoreBox) {
  const gm::TmaBox box{kTileRows, 32, 2, gm::SwizzleMode::B64, 0};
  const gt::Violation why = gt::tile_matches_tma_box(ks::sw64_offset, box);
  EXPECT_FALSE(why) << *why;
}

// k10's 16-column staging box (BN = 176): sw32_offset is the 32B-swizzled store box's map.
TEST(Sm90KernelsVsModel, EpilogueStaging16ColumnsMatchesTmaStoreBox) {
  const gm::TmaBox box{kTileRows, 16, 2, gm::SwizzleMode::B32, 0};
  const gt::Violation why = gt::tile_matches_tma_box(ks::sw32_offset, box);
  EXPECT_FALSE(why) << *why;
}

// k10's stmatrix.x4 into each staging box width, through the model's bank rules.
// Hand argument: stmatrix.x4 stores four 8x8 matrices; lanes 8j..8j+7 give the row
// addresses of matrix j, 16 bytes each: one 128-byte phase per matrix, ideal 1
// wavefront (32 words on 32 banks). A matrix's 8 rows start at a multiple of 8.
// - Unswizzled rows of B bytes put chunk c of row r at word (B r / 4 + 4c) mod 32,
//   so rows whose B r differ by a multiple of 128 bytes collide: 128-byte rows
//   8-way, 64-byte rows 4-way (r, r+2, r+4, r+6), 32-byte rows 2-way (r, r+4).
// - The swizzles move chunk c of row r to c ^ (r mod 8) (128B), c ^ ((r / 2) mod 4)
//   (64B) and c ^ ((r / 4) mod 2) (32B): the colliding rows get different chunks, so
//   the 8 rows cover the 32 banks once: 1 wavefront per phase.
TEST(Sm90KernelsVsModel, EpilogueStmatrixIsConflictFreeInEveryBoxWidth) {
  struct Box {
    uint32_t cols;
    uint32_t (*swizzled)(uint32_t, uint32_t);
    int unswizzled_ways;
  };
  const Box boxes[] = {{64, ks::sw128_offset, 8}, {32, ks::sw64_offset, 4}, {16, ks::sw32_offset, 2}};
  for (const Box& box : boxes) {
    std::vector<gm::WarpAccess> swizzled, plain;
    for (uint32_t warp = 0; warp < 4; ++warp)
      for (uint32_t pair = 0; pair < box.cols / 16; ++pair) {
        gm::WarpAccess s{}, u{};
        s.width_bytes = u.width_bytes = 16;
        s.kind = u.kind = gm::AccessKind::Store;
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const ks::StmatrixRow at = ks::stmatrix_x4_row(warp, lane, pair);
          s.address[lane] = box.swizzled(at.row, at.col);
          u.address[lane] = at.row * box.cols * 2 + at.col * 2;
        }
        swizzled.push_back(s);
        plain.push_back(u);
      }
    const gm::SequenceCost sw = gm::analyze(swizzled), pl = gm::analyze(plain);
    const int phases = static_cast<int>(swizzled.size()) * 4;
    EXPECT_EQ(sw.ideal, phases) << box.cols;
    EXPECT_EQ(sw.conflicts(), 0) << box.cols;
    EXPECT_EQ(pl.wavefronts, phases * box.unswizzled_ways) << box.cols;
  }
}

// The box width the kernel and the launcher share: whole boxes for every BN an
// instance may have (a multiple of 8 up to 256), and the widest box that fits:
// 64, 32 or 16 columns (swizzled), else the widest of 56, 40, 24 and 8 (unswizzled
// rows of an odd number of 16-byte chunks).
TEST(Sm90KernelsVsModel, StoreBoxColumnsTileEveryWidth) {
  for (int bn = 8; bn <= 256; bn += 8) {
    const int cols = ks::store_box_cols(bn);
    EXPECT_EQ(bn % cols, 0) << bn;
    EXPECT_EQ(cols == 64, bn % 64 == 0) << bn;
    EXPECT_EQ(cols == 32, bn % 64 != 0 && bn % 32 == 0) << bn;
    EXPECT_EQ(cols == 16, bn % 32 != 0 && bn % 16 == 0) << bn;
    if (bn % 16 != 0) {
      EXPECT_EQ(cols / 8 % 2, 1) << bn;
      for (int wider = cols + 16; wider <= 56; wider += 16) EXPECT_NE(bn % wider, 0) << bn << " fits " << wider;
    }
  }
  EXPECT_EQ(ks::store_box_cols(168), 56);
}

// k10's unswizzled staging boxes (BN = 168: 56 columns): plain_offset is the
// unswizzled store box's map.
TEST(Sm90KernelsVsModel, EpilogueStagingPlainColumnsMatchesTmaStoreBox) {
  for (const uint32_t cols : {8u, 24u, 40u, 56u}) {
    const gm::TmaBox box{kTileRows, cols, 2, gm::SwizzleMode::None, 0};
    box.validate();
    for (uint32_t r = 0; r < kTileRows; ++r)
      for (uint32_t c = 0; c < cols; ++c)
        ASSERT_EQ(ks::plain_offset(r, c, cols), box.address(r, c)) << cols << ": " << r << "," << c;
  }
}

// The stores of k10's unswizzled epilogue through the model's bank rules: per box,
// stmatrix.x4 for each pair of 8-column blocks, stmatrix.x2 for the last (odd)
// block. Rows of an odd number n of 16-byte chunks put row r's chunk at 16-byte
// bank quarter (n r + c) mod 8, a different one for each of 8 consecutive rows: one
// wavefront per 8-row matrix. A row of an even number (64 columns, 8 chunks) is the
// control: 8-way.
TEST(Sm90KernelsVsModel, EpilogueStmatrixIsConflictFreeInPlainBoxes) {
  auto stores = [](uint32_t cols) {
    std::vector<gm::WarpAccess> out;
    const uint32_t blocks = cols / 8;
    for (uint32_t warp = 0; warp < 4; ++warp) {
      for (uint32_t pair = 0; pair < blocks / 2; ++pair) {
        gm::WarpAccess a{};
        a.width_bytes = 16;
        a.kind = gm::AccessKind::Store;
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const ks::StmatrixRow at = ks::stmatrix_x4_row(warp, lane, pair);
          a.address[lane] = ks::plain_offset(at.row, at.col, cols);
        }
        out.push_back(a);
      }
      if (blocks % 2 == 1) {
        gm::WarpAccess a{};
        a.width_bytes = 16;
        a.kind = gm::AccessKind::Store;
        a.active_mask = 0x0000FFFFu;  // stmatrix.x2: lanes 0-15 give the row addresses
        for (uint32_t lane = 0; lane < 16; ++lane) {
          const ks::StmatrixRow at = ks::stmatrix_x2_row(warp, lane);
          a.address[lane] = ks::plain_offset(at.row, at.col + 8 * (blocks - 1), cols);
        }
        out.push_back(a);
      }
    }
    return out;
  };
  for (const uint32_t cols : {8u, 24u, 40u, 56u}) {
    const gm::SequenceCost cost = gm::analyze(stores(cols));
    const int matrices = 4 * static_cast<int>(cols / 8) * 2;  // per warp: 2 per 8-column block
    EXPECT_EQ(cost.ideal, matrices) << cols;
    EXPECT_EQ(cost.wavefronts, matrices) << cols;
    EXPECT_EQ(cost.conflicts(), 0) << cols;
  }
  const gm::SequenceCost control = gm::analyze(stores(64));
  EXPECT_EQ(control.wavefronts, 8 * control.ideal);
}

// One stmatrix (count = 4 or 2 matrices, .trans or not) of k10's epilogue of a
// warpgroup's 64 x n tile, from box `box` of `cols` columns, blocks first_block on: for
// each element it stores, visit(element in its matrix (model fragment map), the row
// address its provider thread gives (row_of), the register, and where the wgmma
// fragment map says that register's accumulator belongs).
template <class Visit>
void for_each_stored_accumulator(uint32_t n, uint32_t count, bool trans, uint32_t warp, uint32_t lane, uint32_t box,
                                 uint32_t cols, uint32_t first_block,
                                 const std::function<ks::StmatrixRow(uint32_t)>& row_of, Visit&& visit) {
  for (uint32_t q = 0; q < count; ++q)
    for (uint32_t h = 0; h < 2; ++h) {
      const auto e = gm::ldmatrix_element(count, trans, lane, q, h);
      const ks::StmatrixRow at = row_of(gm::ldmatrix_row_address_thread(count, e.matrix, e.row));
      const int reg = ks::box_block_register(static_cast<int>(box), static_cast<int>(cols),
                                             static_cast<int>(first_block)) + static_cast<int>(2 * q + h);
      visit(e, at, reg, gm::wgmma_accumulator_cell(n, warp * 32 + lane, static_cast<uint32_t>(reg)));
    }
}

// k10's unswizzled epilogue for BN = 168 (three 56-column boxes): the x4 of blocks
// 2p, 2p+1 of box b carries registers box_block_register(b, 56, 2p) + 2q + h, the
// x2 of block 6 box_block_register(b, 56, 6) + 2q + h. Where stmatrix puts them
// (model: fragment map and address-provider threads) must be where the wgmma
// fragment map says they belong: every accumulator of a 64 x 168 tile once.
TEST(Sm90KernelsVsModel, PlainBoxEpiloguePlacesEveryAccumulator) {
  constexpr uint32_t kN = 168;
  const uint32_t cols = static_cast<uint32_t>(ks::store_box_cols(kN)), blocks = cols / 8;
  std::vector<int> written(kWgmmaM * kN, 0);
  auto place = [&](uint32_t warp, uint32_t lane, uint32_t box, uint32_t count, uint32_t first_block,
                   const std::function<ks::StmatrixRow(uint32_t)>& row_of) {
    for_each_stored_accumulator(kN, count, false, warp, lane, box, cols, first_block, row_of,
                                [&](const auto& e, const ks::StmatrixRow& at, int reg, const auto& want) {
                                  ASSERT_EQ(at.row, want.row) << "warp " << warp << " lane " << lane << " box " << box
                                                              << " reg " << reg;
                                  ASSERT_EQ(box * cols + at.col + e.col, want.col)
                                      << "warp " << warp << " lane " << lane << " reg " << reg;
                                  ++written[want.row * kN + want.col];
                                });
  };
  for (uint32_t warp = 0; warp < 4; ++warp)
    for (uint32_t box = 0; box < kN / cols; ++box)
      for (uint32_t lane = 0; lane < 32; ++lane) {
        for (uint32_t pair = 0; pair < blocks / 2; ++pair)
          place(warp, lane, box, 4, 2 * pair, [&](uint32_t l) { return ks::stmatrix_x4_row(warp, l, pair); });
        place(warp, lane, box, 2, blocks - 1, [&](uint32_t l) {
          ks::StmatrixRow at = ks::stmatrix_x2_row(warp, l);
          at.col += 8 * (blocks - 1);
          return at;
        });
      }
  for (int w : written) ASSERT_EQ(w, 1);
}

// k10 with swapped operands (C^T = B A^T) stores each box transposed: box b of a
// warpgroup's 64 x N tile is C's tile columns b*cols.. as rows, its 64 tile rows as
// each row's 64 columns, 128B-swizzled for C's TMA store. stmatrix.x4.trans of blocks
// 2p, 2p+1 carries registers box_block_register(b, cols, 2p) + 2q + h, and where a
// box has an odd number of 8-column blocks (BN = 72: 24-row boxes; 136: 8-row ones)
// stmatrix.x2.trans of the last block j carries box_block_register(b, cols, j) + 2q + h.
// Where .trans puts them (model: fragment map with .trans, address-provider threads)
// at the addresses the kernel gives (stmatrix_x4_trans_row, stmatrix_x2_trans_row,
// sw128_offset) must be where the wgmma fragment map and the TMA box map
// (model::TmaBox) put that accumulator: every accumulator once, for each swapped
// tile width.
TEST(Sm90KernelsVsModel, TransposedBoxEpiloguePlacesEveryAccumulator) {
  for (const uint32_t n : {64u, 72u, 80u, 128u, 136u, 160u, 208u}) {
    const uint32_t cols = static_cast<uint32_t>(ks::store_box_cols(static_cast<int>(n))), blocks = cols / 8;
    const gm::TmaBox box_map{cols, 64, 2, gm::SwizzleMode::B128, 0};
    std::vector<int> written(kWgmmaM * n, 0);
    auto place = [&](uint32_t warp, uint32_t lane, uint32_t box, uint32_t count, uint32_t first_block,
                     const std::function<ks::StmatrixRow(uint32_t)>& row_of) {
      for_each_stored_accumulator(n, count, true, warp, lane, box, cols, first_block, row_of,
                                  [&](const auto& e, const ks::StmatrixRow& at, int reg, const auto& want) {
                                    ASSERT_EQ(want.col / cols, box) << n << " warp " << warp << " lane " << lane
                                                                    << " reg " << reg;
                                    ASSERT_EQ(ks::sw128_offset(at.row, at.col) + 2 * e.col,
                                              box_map.address(want.col % cols, want.row))
                                        << n << " warp " << warp << " lane " << lane << " reg " << reg;
                                    ++written[want.row * n + want.col];
                                  });
    };
    for (uint32_t warp = 0; warp < 4; ++warp)
      for (uint32_t box = 0; box < n / cols; ++box)
        for (uint32_t lane = 0; lane < 32; ++lane) {
          for (uint32_t pair = 0; pair < blocks / 2; ++pair)
            place(warp, lane, box, 4, 2 * pair, [&](uint32_t l) { return ks::stmatrix_x4_trans_row(warp, l, pair); });
          if (blocks % 2 == 1)
            place(warp, lane, box, 2, blocks - 1,
                  [&](uint32_t l) { return ks::stmatrix_x2_trans_row(warp, l, blocks - 1); });
        }
    for (int w : written) ASSERT_EQ(w, 1) << n;
  }
}

// k10's B slices in 2x1 clusters of 128 x 168 tiles: 84 rows each, the second
// landing 84 x 128 bytes into the tile, inside an 8-row atom. The 128B swizzle XORs
// absolute address bits (a box written 512 bytes past a 1024-byte boundary landed
// as TmaBox::address says: traces/hw/tma_swizzle.json, swz128B_in128B_r16_off512),
// so each slice's box puts its rows where one box of the whole tile would, and the
// wgmma descriptor of the whole tile reads them.
TEST(Sm90KernelsVsModel, MidAtomBSlicesLandAsTheWholeTile) {
  const ks::ClusterShape cluster{2, 1};
  for (const uint32_t bn : {168u, 176u, 128u, 72u}) {
    const uint64_t tile = 7 * 1024;  // a 1024-byte aligned stage
    const gm::TmaBox whole{bn, 64, 2, gm::SwizzleMode::B128, tile};
    std::vector<int> seen(bn * 64, 0);
    for (uint32_t rank = 0; rank < cluster.size(); ++rank) {
      const ks::TileSlice sl = ks::slice_b(cluster, rank, bn);
      ASSERT_EQ(sl.rows, bn / 2);
      const gm::TmaBox slice{sl.rows, 64, 2, gm::SwizzleMode::B128, tile + sl.row0 * 128};
      ASSERT_EQ(slice.smem_base % 128, 0u) << "TMA destinations are 128-byte aligned";
      for (uint32_t r = 0; r < sl.rows; ++r)
        for (uint32_t c = 0; c < 64; ++c) {
          ASSERT_EQ(slice.address(r, c), whole.address(sl.row0 + r, c)) << bn << " rank " << rank << " " << r;
          ++seen[(sl.row0 + r) * 64 + c];
        }
    }
    for (int v : seen) ASSERT_EQ(v, 1);
  }
}

TEST(Sm90KernelsVsModel, AccumulatorMapMatchesModel) {
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t i = 0; i < 64; ++i) {
      const auto cell = gm::wgmma_accumulator_cell(128, t, i);
      ASSERT_EQ(ks::accumulator_row(t, i), cell.row);
      ASSERT_EQ(ks::accumulator_col(t, i), cell.col);
    }
}

// k04's stmatrix epilogue: register q of stmatrix.x4 call p carries accumulator
// registers 8p+2q, 8p+2q+1. Where stmatrix puts them (model: ldmatrix/stmatrix
// fragment map and address-provider threads, kernel: stmatrix_x4_row) must be where
// the wgmma fragment map says those accumulators belong.
TEST(Sm90KernelsVsModel, StmatrixEpiloguePlacesEveryAccumulator) {
  const gt::Violation why = gt::stmatrix_x4_places_accumulators(128, 4, [](uint32_t warp, uint32_t lane, uint32_t p) {
    const auto at = ks::stmatrix_x4_row(warp, lane, p);
    return gm::FragmentCell{at.row, at.col};
  });
  EXPECT_FALSE(why) << *why;
}

#else
TEST(Sm90KernelsVsModel, NeedsKernelSources) { GTEST_SKIP() << "configured with GEMMSCOPE_BUILD_KERNELS=OFF"; }
#endif
