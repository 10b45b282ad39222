#pragma once
// The Hopper kernels' own address code: wgmma shared-memory descriptors and the
// swizzled epilogue addresses. __host__ __device__, with no dependency on the
// model: verify/cpu/kernels_vs_model_test.cpp holds it against model/.
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm90 {

// wgmma descriptor swizzle codes (bits 62-63).
enum : uint32_t { kDescSwizzleNone = 0, kDescSwizzle128B = 1, kDescSwizzle64B = 2, kDescSwizzle32B = 3 };

// Field packing of the wgmma shared-memory descriptor: 14-bit fields of byte
// values >> 4 at bits 0, 16, 32; swizzle at 62. Base offset stays 0 because every
// swizzled tile here starts on a 1024-byte boundary.
GEMMSCOPE_HD constexpr uint64_t smem_desc(uint32_t start_bytes, uint32_t lbo_bytes, uint32_t sbo_bytes,
                                          uint32_t swizzle_code) {
  return (uint64_t{(start_bytes & 0x3FFFFu) >> 4}) | (uint64_t{(lbo_bytes & 0x3FFFFu) >> 4} << 16) |
         (uint64_t{(sbo_bytes & 0x3FFFFu) >> 4} << 32) | (uint64_t{swizzle_code & 3u} << 62);
}

// Kernel 2's "interleaved" K-major tile: one TMA box of 8 elements (16 bytes) x
// tile_rows rows per 8-element K chunk, chunks stacked, so core matrix (row group
// g, chunk c) sits at c * tile_rows * 16 + g * 128.
GEMMSCOPE_HD constexpr uint32_t interleaved_chunk_bytes(uint32_t tile_rows) { return tile_rows * 16u; }
GEMMSCOPE_HD constexpr uint64_t desc_kmajor_interleaved(uint32_t tile_base, uint32_t tile_rows, uint32_t row0,
                                                        uint32_t k0_elems) {
  // bf16: one K chunk = 8 elements.
  const uint32_t start = tile_base + (k0_elems / 8u) * interleaved_chunk_bytes(tile_rows) + row0 * 16u;
  return smem_desc(start, /*lbo: next core matrix in K*/ interleaved_chunk_bytes(tile_rows),
                   /*sbo: next 8-row group*/ 128u, kDescSwizzleNone);
}

// Kernels 3+: K-major bf16 tile of 64 elements (128 bytes) per row, 128B swizzle,
// 1024-byte aligned base. An 8-row group is 1024 bytes (SBO); LBO is unused (1).
// Advancing K inside the swizzle row adds the unswizzled byte offset.
GEMMSCOPE_HD constexpr uint64_t desc_kmajor_sw128(uint32_t tile_base, uint32_t row0, uint32_t k0_elems) {
  return smem_desc(tile_base + row0 * 128u + k0_elems * 2u, 16u, 1024u, kDescSwizzle128B);
}

// The same descriptor `bytes` further on in shared memory: only the start-address
// field (bits 0-13, bytes >> 4) moves. Exact while the address stays below the
// 256 KiB the 14-bit field spans, which every shared-memory address does (at most
// 228 KiB per SM). k10 forms one descriptor per operand before its main loop and
// reaches stage s, K offset kk (elements) with desc_advance(base, s * stage_bytes + kk * 2).
GEMMSCOPE_HD constexpr uint64_t desc_advance(uint64_t desc, uint32_t bytes) { return desc + (bytes >> 4); }

// A stage deeper than one swizzle row (k10 with BK = 128): its `rows` x BK operand
// is BK / 64 TMA boxes of rows x 64 elements, each box a 1024-byte aligned
// 128B-swizzled tile, stacked in K order. Byte offset, from the stage's start, of
// K element k's box, advanced by k's unswizzled offset within the swizzle row: what
// desc_advance adds to reach K offset k, and (k a multiple of 64) where the
// producer's box for k lands. With BK = 64 it is k * 2.
GEMMSCOPE_HD constexpr uint32_t stage_k_offset(uint32_t rows, uint32_t k_elems) {
  return (k_elems / 64u) * rows * 128u + (k_elems % 64u) * 2u;
}

// Epilogue staging tile: rows of 64 bf16 (128 bytes), 128B swizzle on a
// 1024-byte aligned base: 16-byte chunk index XOR (row % 8).
GEMMSCOPE_HD constexpr uint32_t sw128_offset(uint32_t row, uint32_t col_elems) {
  const uint32_t chunk = (col_elems * 2u) / 16u;
  const uint32_t within = (col_elems * 2u) % 16u;
  return row * 128u + ((chunk ^ (row % 8u)) * 16u) + within;
}

// Epilogue staging tile of 32-column (64-byte) rows, for tile widths that are not a
// multiple of 64 (k10's BN = 96): 64B swizzle on a 512-byte aligned base: 16-byte
// chunk index XOR ((row / 2) % 4), address bits [4:5] ^= bits [7:8].
GEMMSCOPE_HD constexpr uint32_t sw64_offset(uint32_t row, uint32_t col_elems) {
  const uint32_t chunk = (col_elems * 2u) / 16u;
  const uint32_t within = (col_elems * 2u) % 16u;
  return row * 64u + ((chunk ^ ((row / 2u) % 4u)) * 16u) + within;
}

// Epilogue staging tile of 16-column (32-byte) rows, for tile widths that are not a
// multiple of 32 (k10's BN = 176): 32B swizzle on a 256-byte aligned base: 16-byte
// chunk index XOR ((row / 4) % 2), address bit 4 ^= bit 7.
GEMMSCOPE_HD constexpr uint32_t sw32_offset(uint32_t row, uint32_t col_elems) {
  const uint32_t chunk = (col_elems * 2u) / 16u;
  const uint32_t within = (col_elems * 2u) % 16u;
  return row * 32u + ((chunk ^ ((row / 4u) % 2u)) * 16u) + within;
}

// k10's TMA store box width for a tile of bn columns: the widest of 64 columns
// (128-byte rows, sw128_offset), 32 (64-byte rows, sw64_offset) and 16 (32-byte
// rows, sw32_offset) that divides bn; for a bn that is not a multiple of 16 (168),
// the widest of 56, 40, 24 and 8 that divides it: unswizzled rows of an odd number
// of 16-byte chunks (plain_offset).
GEMMSCOPE_HD constexpr int store_box_cols(int bn) {
  if (bn % 64 == 0) return 64;
  if (bn % 32 == 0) return 32;
  if (bn % 16 == 0) return 16;
  for (int cols = 56; cols > 8; cols -= 16)
    if (bn % cols == 0) return cols;
  return 8;
}

// First accumulator register of 8-column block `block` (0..box_cols / 8 - 1) of
// store box `box`, boxes of box_cols columns: block j of the tile is the wgmma
// accumulator registers 4j..4j+3 (rows r and r + 8, two columns each).
GEMMSCOPE_HD constexpr int box_block_register(int box, int box_cols, int block) {
  return 4 * (box * (box_cols / 8) + block);
}

// Epilogue staging tile of box_cols-column rows without a swizzle (store_box_cols
// of a bn that is not a multiple of 16: 56 for k10's BN = 168), rows packed. A row
// is box_cols / 8 16-byte chunks, an odd number, so the 8 consecutive rows of one
// stmatrix matrix start in 8 different 16-byte quarters of the 128-byte bank line:
// conflict-free without a swizzle.
GEMMSCOPE_HD constexpr uint32_t plain_offset(uint32_t row, uint32_t col_elems, uint32_t box_cols) {
  return row * box_cols * 2u + col_elems * 2u;
}

// k10's consumer warpgroups for a BM-row tile: one per 64 rows up to two; BM = 256
// has two warpgroups of 128 rows, each two m64 wgmma halves (k10_halves; a ping-pong
// warpgroup holds two halves too, of a whole 128-row tile).
GEMMSCOPE_HD constexpr int k10_consumers(int bm) { return bm >= 128 ? 2 : 1; }
GEMMSCOPE_HD constexpr int k10_halves(int bm) { return bm / 64 / k10_consumers(bm); }

// Bytes of k10's dynamic shared memory with `buffers` staging buffers per consumer
// warpgroup: its SharedStorage (1024-byte aligned members, so the size rounds up to
// 1 KiB) plus the launch's 1 KiB of alignment slack. The layout: the ring (stages x
// (bm + bn) x bk bf16), the staging boxes, a full and an empty mbarrier per stage, two
// schedule slots (two mbarriers and a word each) and a split-K flag per consumer.
GEMMSCOPE_HD constexpr long long k10_shared_bytes(int bm, int bn, int bk, int stages, int buffers) {
  const long long consumers = k10_consumers(bm);
  const long long ring = static_cast<long long>(stages) * (bm + bn) * bk * 2;
  const long long staging = consumers * buffers * 64 * store_box_cols(bn) * 2;
  const long long words = 16LL * stages + 2 * 16 + 2 * 4 + 4 * consumers;
  return (ring + staging + words + 1023) / 1024 * 1024 + 1024;
}

// k10's epilogue staging buffers per consumer warpgroup, shared by the kernel's
// shared-memory layout and the tuner's shared_memory_bytes. A tile whose store boxes
// all fit next to the ring, a buffer per box and consumer warpgroup, gets them, and
// its epilogue stages each warpgroup's 64 rows whole and stores them after one fence
// and one barrier (k10_batched_epilogue; a 128-row warpgroup, ping-pong or of
// BM = 256, holds two such halves, so it alternates). Other tiles alternate two
// buffers, each box behind a wait, a fence and two barriers of its own. (More buffers alone, each box still
// behind its own barriers, did not help: H200, 2026-11-30; docs/experiments.md.)
GEMMSCOPE_HD constexpr int k10_staging_buffers(int bm, int bn, int bk, int stages) {
  const int boxes = bn / store_box_cols(bn);
  return k10_halves(bm) == 1 && boxes > 2 && k10_shared_bytes(bm, bn, bk, stages, boxes) <= 232448 ? boxes : 2;
}
GEMMSCOPE_HD constexpr bool k10_batched_epilogue(int bm, int bn, int bk, int stages, bool pingpong) {
  return !pingpong && k10_halves(bm) == 1 && bn / store_box_cols(bn) <= k10_staging_buffers(bm, bn, bk, stages);
}
// k10's deferred epilogue: a cooperative tile whose boxes alternate two buffers is
// held in registers (bn / 4 words of bf16x2 per thread) when a next unit follows, and
// stored one box per k-block during that unit. Not the batched tiles (deferring their
// one-barrier epilogue lost 0.2-1.2%, H200, 2026-12-02; docs/experiments.md),
// and not 64 x 256, which spills with a tile held (ptxas: 76-108 bytes), nor the
// two-half warpgroups of BM = 256 (the held tile is one half).
GEMMSCOPE_HD constexpr bool k10_deferred_epilogue(int bm, int bn, int bk, int stages, bool pingpong) {
  return !pingpong && k10_halves(bm) == 1 && !k10_batched_epilogue(bm, bn, bk, stages, pingpong) &&
         !(bm == 64 && bn == 256);
}

// wgmma m64nNk16 fp32 accumulator: thread t (0..127) of the warpgroup, register i.
GEMMSCOPE_HD constexpr uint32_t accumulator_row(uint32_t thread, uint32_t reg) {
  return 16u * (thread / 32u) + (thread % 32u) / 4u + 8u * ((reg >> 1) & 1u);
}
GEMMSCOPE_HD constexpr uint32_t accumulator_col(uint32_t thread, uint32_t reg) {
  return 2u * (thread % 4u) + (reg & 1u) + 8u * (reg >> 2);
}

// stmatrix.x4 of accumulator column block j (8 columns) pair {j, j+1}: lane l
// supplies the row address of matrix q = l/8: rows (q&1)*8 + l%8 of the warp's
// 16-row slab, columns 8*(j + q/2). Returns (row within the 64-row warpgroup tile,
// first column) of the row lane l addresses, for warp w.
struct StmatrixRow {
  uint32_t row;
  uint32_t col;
};
GEMMSCOPE_HD constexpr StmatrixRow stmatrix_x4_row(uint32_t warp, uint32_t lane, uint32_t col_block_pair) {
  const uint32_t q = lane / 8u;
  return StmatrixRow{16u * warp + (q & 1u) * 8u + lane % 8u, 8u * (2u * col_block_pair + q / 2u)};
}
// stmatrix.x4.trans of 8-column blocks 2p and 2p + 1 into a transposed staging box
// (the tile's columns as its rows, 64 of the tile's rows as each row's 128 bytes):
// .trans stores matrix q's fragment row r, column c at row c, column r, so lane l
// gives the address of row l % 8 of matrix q = l / 8, which holds tile column
// 8 (2p + q / 2) + l % 8 from tile row 16 warp + 8 (q % 2) on.
GEMMSCOPE_HD constexpr StmatrixRow stmatrix_x4_trans_row(uint32_t warp, uint32_t lane, uint32_t col_block_pair) {
  const uint32_t q = lane / 8u;
  return StmatrixRow{8u * (2u * col_block_pair + q / 2u) + lane % 8u, 16u * warp + (q & 1u) * 8u};
}
// stmatrix.x2.trans of 8-column block `block` alone (the last, odd block of a
// transposed box): matrices 0 and 1 hold tile rows 16 warp.. and 16 warp + 8..;
// lanes 0-15 give the addresses, lane l row l % 8 of matrix l / 8.
GEMMSCOPE_HD constexpr StmatrixRow stmatrix_x2_trans_row(uint32_t warp, uint32_t lane, uint32_t block) {
  return StmatrixRow{8u * block + lane % 8u, 16u * warp + ((lane / 8u) & 1u) * 8u};
}
// stmatrix.x2 of one 8-column block (the last, odd block of a plain_offset box):
// matrices 0 and 1 are rows 0-7 and 8-15 of the warp's 16, from the block's
// accumulator registers 0-1 and 2-3; lanes 0-15 give the row addresses (lanes
// 16-31's are ignored by the instruction). Column 0 of the block.
GEMMSCOPE_HD constexpr StmatrixRow stmatrix_x2_row(uint32_t warp, uint32_t lane) {
  return StmatrixRow{16u * warp + ((lane / 8u) & 1u) * 8u + lane % 8u, 0u};
}

}  // namespace gemmscope::sm90
