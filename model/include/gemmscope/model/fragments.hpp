#pragma once
// Register fragments of Hopper warp-level instructions.
// PTX ISA: "wgmma .m64nNk16 register fragment: Matrix D" and "ldmatrix" / "stmatrix".
#include <cstdint>

namespace gemmscope::model {

struct FragmentCell {
  uint32_t row = 0;
  uint32_t col = 0;
  bool operator==(const FragmentCell&) const = default;
};

// wgmma m64nNk16 with an fp32 accumulator: thread t of the warpgroup (0..127),
// register i (0..N/2-1) -> D(row, col). With w = t/32, l = t%32:
//   row = 16w + l/4 + 8((i>>1)&1),  col = 2(l%4) + (i&1) + 8(i>>2).
// Throws ModelError for N outside 8..256 step 8, t >= 128 or i >= N/2.
FragmentCell wgmma_accumulator_cell(uint32_t n, uint32_t thread, uint32_t reg);
inline constexpr uint32_t kWgmmaM = 64;

// ldmatrix / stmatrix .m8n8 .b16, .x1/.x2/.x4 (count = 1, 2, 4), optional .trans.
// Fragment: thread t, register i holds two b16 elements of matrix i: element e (0, 1)
// sits at row t/4, column 2(t%4)+e; with .trans row and column swap.
struct LdmatrixElement {
  uint32_t matrix = 0;
  uint32_t row = 0;
  uint32_t col = 0;
  bool operator==(const LdmatrixElement&) const = default;
};
LdmatrixElement ldmatrix_element(uint32_t count, bool trans, uint32_t thread, uint32_t reg, uint32_t half);
// Address providers: threads 8i..8i+7 give the 16-byte row addresses of matrix i
// (row = t%8). Returns the thread that supplies (matrix, row).
uint32_t ldmatrix_row_address_thread(uint32_t count, uint32_t matrix, uint32_t row);

}  // namespace gemmscope::model
