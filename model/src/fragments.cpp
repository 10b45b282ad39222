#include "gemmscope/model/fragments.hpp"

#include <string>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

FragmentCell wgmma_accumulator_cell(uint32_t n, uint32_t thread, uint32_t reg) {
  require(n >= 8 && n <= 256 && n % 8 == 0, "n", n, "must be 8..256 in steps of 8 (wgmma m64nNk16)");
  require(thread < 128, "thread", thread, "must be below 128 (one warpgroup)");
  if (!(reg < n / 2)) require(false, "register", reg, "must be below N/2 = " + std::to_string(n / 2));
  const uint32_t w = thread / 32, l = thread % 32;
  return {16 * w + l / 4 + 8 * ((reg >> 1) & 1), 2 * (l % 4) + (reg & 1) + 8 * (reg >> 2)};
}

namespace {
void check_count(uint32_t count) {
  require(count == 1 || count == 2 || count == 4, "count", count, "must be 1, 2 or 4 (.x1, .x2, .x4)");
}
}  // namespace

LdmatrixElement ldmatrix_element(uint32_t count, bool trans, uint32_t thread, uint32_t reg, uint32_t half) {
  check_count(count);
  require(thread < 32, "thread", thread, "must be below 32");
  if (!(reg < count)) require(false, "register", reg, "must be below count = " + std::to_string(count));
  require(half < 2, "half", half, "must be 0 or 1 (two b16 elements per register)");
  const uint32_t r = thread / 4, c = 2 * (thread % 4) + half;
  return trans ? LdmatrixElement{reg, c, r} : LdmatrixElement{reg, r, c};
}

uint32_t ldmatrix_row_address_thread(uint32_t count, uint32_t matrix, uint32_t row) {
  check_count(count);
  if (!(matrix < count)) require(false, "matrix", matrix, "must be below count = " + std::to_string(count));
  require(row < 8, "row", row, "must be below 8");
  return 8 * matrix + row;
}

}  // namespace gemmscope::model
