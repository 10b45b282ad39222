#pragma once
// Generators of the warp-level shared-memory accesses GEMM kernels make, over a tile
// laid out the way TMA writes it (swizzle applied to absolute addresses), for the
// bank model (banks.hpp). Facts: docs/hardware.md#ldmatrix-lanes (ldmatrix
// lane roles), #swizzle-absolute-address, and #wgmma-accumulator, the accumulator fragment map
// (PTX ISA: "Matrix fragments for wgmma.mma_async m64nNk16").
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"

namespace gemmscope::model {

// A tile of `rows` rows x `row_bytes` bytes in shared memory starting at `base`.
// Unswizzled: row r starts at base + r * pitch (pitch = row_pitch_bytes, or row_bytes
// when 0; a larger pitch is padding). Swizzled: the tile is one or more column slabs
// of min(row_bytes, span) bytes, each slab all rows densely (what several TMA boxes
// side by side along the inner dimension write, and CuTe's K-major swizzle atoms
// tiled down the rows first), then the swizzle is applied to the absolute address.
struct SmemTile {
  uint32_t rows = 0;
  uint32_t row_bytes = 0;
  uint32_t row_pitch_bytes = 0;  // unswizzled only; 0 means row_bytes
  SwizzleMode swizzle = SwizzleMode::None;
  uint64_t base = 0;

  // The layout one TMA box writes (TmaBox::address agrees with address()).
  static SmemTile from_box(const TmaBox& box);
  // Throws ModelError naming the value: rows 1..4096, row_bytes a positive multiple
  // of 16; pitch a multiple of 4 and >= row_bytes, only when unswizzled; swizzled:
  // row_bytes at most the span or a multiple of it; base a multiple of 128 bytes when
  // swizzled (TMA's destination rule: a base inside the swizzle pattern is legal, the
  // XOR is on absolute addresses), 16 bytes unswizzled.
  void validate() const;
  uint32_t pitch_bytes() const { return row_pitch_bytes ? row_pitch_bytes : row_bytes; }
  // Bytes of one column slab (row_bytes when unswizzled).
  uint32_t slab_bytes() const;
  // Shared-memory byte address of logical byte `byte_in_row` of row `row`.
  uint64_t address(uint32_t row, uint32_t byte_in_row) const;
};

// --- Plain vector loads/stores (ld.shared / st.shared of 4, 8 or 16 bytes) ---------
// Lane t accesses the width-byte piece at logical row-major byte start_byte + t*width
// (row = byte / row_bytes, byte_in_row = byte % row_bytes): a warp copying a span.
WarpAccess vector_access_row_major(const SmemTile& tile, int width_bytes, AccessKind kind, uint64_t start_byte);
// Lane t accesses row first_row + t, bytes [byte_in_row, byte_in_row + width): each lane
// walking its own row (rows past the tile's end leave the lane inactive).
WarpAccess vector_access_column(const SmemTile& tile, int width_bytes, AccessKind kind, uint32_t first_row,
                                uint32_t byte_in_row);
// The whole tile, row-major order, 32*width bytes per instruction.
std::vector<WarpAccess> vector_tile_row_major(const SmemTile& tile, int width_bytes, AccessKind kind);
// The whole tile, each lane walking one row: 32-row groups x width-byte columns.
std::vector<WarpAccess> vector_tile_columns(const SmemTile& tile, int width_bytes, AccessKind kind);

// --- ldmatrix / stmatrix (PTX ISA: "ldmatrix", "stmatrix") -------------------------
enum class MatrixOp { Ldmatrix, Stmatrix };
std::string_view to_string(MatrixOp op);

// A core matrix: 8 rows x 16 bytes (8x8 of 16-bit elements) at (row, byte_in_row).
struct CoreMatrixOrigin {
  uint32_t row = 0;
  uint32_t byte_in_row = 0;
};
// One .x1/.x2/.x4 instruction: lanes 8j..8j+7 give the row addresses of matrix j
// (row origin.row + lane%8, 16 bytes at origin.byte_in_row). Only lanes 0..8*count-1
// supply addresses: they are the active lanes. .trans changes which register gets
// which element, not the addresses, so the bank cost is the same; it is recorded in
// the label. Throws ModelError: count not 1/2/4, origins.size() != count, a matrix
// outside the tile.
WarpAccess matrix_access(const SmemTile& tile, MatrixOp op, int count, bool trans,
                         const std::vector<CoreMatrixOrigin>& origins);
// Every core matrix of the tile, once, in .xN instructions, row blocks outer:
//  x4: 16-row x 32-byte blocks, matrices (r, c), (r+8, c), (r, c+16), (r+8, c+16): the
//      A operand of mma.m16n8k16 read from a K-major tile (rows = M, 16 bf16 of K);
//  x2: 8-row x 32-byte blocks, matrices (r, c), (r, c+16): the B operand (rows = N);
//  x1: one core matrix per instruction.
// Needs rows a multiple of 16 (x4) or 8, and row_bytes a multiple of 32 (x2, x4) or 16.
std::vector<WarpAccess> matrix_tile_walk(const SmemTile& tile, MatrixOp op, int count, bool trans);

// --- Epilogue: wgmma accumulator -> bf16 -> shared memory ---------------------------
// wgmma m64nNk16 with fp32 accumulators, thread t of the warpgroup (w = t/32, l = t%32),
// register i: row = 16w + l/4 + 8((i>>1)&1), col = 2(l%4) + (i&1) + 8(i>>2). Registers
// 2p and 2p+1 are adjacent columns, converted to two bf16 and written with one 4-byte
// st.shared.b32: one warp instruction per register pair p = 0..N/4-1. The tile is the
// row-major bf16 C tile: 64 rows x 2N bytes. The map is fragments.hpp's
// wgmma_accumulator_cell (one place for the fact). Throws ModelError: n not in 8..256 step 8,
// warp not 0..3, the tile smaller than 64 x 2N bytes.
std::vector<WarpAccess> epilogue_accumulator_stores(const SmemTile& tile, int n, int warp);
// (The fragment map itself lives in fragments.hpp: wgmma_accumulator_cell.)

// --- Named patterns (what `gemmscope banks --pattern NAME` analyses) ----------------
struct NamedPattern {
  std::string name;
  std::string description;
  // Builds the instructions over a tile with this swizzle at this base address.
  std::function<std::vector<WarpAccess>(SwizzleMode swizzle, uint64_t base)> make;
};
const std::vector<NamedPattern>& builtin_patterns();
// Throws ModelError naming the unknown name.
const NamedPattern& find_pattern(std::string_view name);

// --- The deep-dive's Kernel 3 claim ---------------------------------------------------
// A 64x64 bf16 K-major tile (128-byte rows) read as 8x8 core matrices with ldmatrix.x4
// (pattern "ldmatrix-x4-k-major-64x64"), unswizzled vs TMA 128B-swizzled.
struct Kernel3BankComparison {
  std::string pattern;
  SequenceCost unswizzled;
  SequenceCost swizzled_128b;
};
Kernel3BankComparison kernel3_bank_comparison();
// A few lines for tools/demo: wavefronts, ideal and conflicts of both layouts.
std::string format_kernel3_bank_comparison(const Kernel3BankComparison& comparison);

}  // namespace gemmscope::model
