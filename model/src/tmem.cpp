#include "gemmscope/model/tmem.hpp"

#include <algorithm>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

uint32_t tmem_address(uint32_t lane, uint32_t column) {
  require(lane < kTmemLanes, "lane", lane, "must be below 128 (TMEM lanes per CTA)");
  require(column < kTmemColumns, "column", column, "must be below 512 (TMEM columns per CTA)");
  return lane << 16 | column;
}
uint32_t tmem_lane(uint32_t address) { return address >> 16; }
uint32_t tmem_column(uint32_t address) { return address & 0xFFFF; }

uint32_t tmem_first_lane_of_warp(uint32_t warp_id) { return kTmemLanesPerWarp * (warp_id % 4); }

bool warp_may_access_lane(uint32_t warp_id, uint32_t lane) {
  const uint32_t first = tmem_first_lane_of_warp(warp_id);
  return lane >= first && lane < first + kTmemLanesPerWarp;
}

void require_warp_lane_access(uint32_t warp_id, uint32_t lane) {
  const uint32_t first = tmem_first_lane_of_warp(warp_id);
  if (!(warp_may_access_lane(warp_id, lane)))
    require(false, "lane", lane,
            "is outside the quadrant of warp " + std::to_string(warp_id) +
                " (warp % 4 = " + std::to_string(warp_id % 4) + " may access lanes " + std::to_string(first) + ".." +
                std::to_string(first + kTmemLanesPerWarp - 1) + ")");
}

// ---- allocator -------------------------------------------------------------

void TmemAllocator::check_cta_group(int cta_group) {
  require(cta_group == 1 || cta_group == 2, "cta_group", cta_group, "must be 1 or 2");
  if (!(cta_group_ == 0 || cta_group_ == cta_group))
    require(false, "cta_group", cta_group,
            "must match the cta_group of the kernel's earlier tcgen05 ops (" + std::to_string(cta_group_) + ")");
}

uint32_t TmemAllocator::allocate(uint32_t columns, int cta_group) {
  check_cta_group(cta_group);
  require(!relinquished_, "allocate columns", columns, "refused: relinquish_alloc_permit was already called");
  require(columns >= 32 && columns <= kTmemColumns && (columns & (columns - 1)) == 0, "columns", columns,
          "must be a power of two in 32..512");
  for (uint32_t c = 0; c + columns <= kTmemColumns; c += columns) {
    const bool overlaps = std::any_of(live_.begin(), live_.end(), [&](const Allocation& a) {
      return c < a.column + a.columns && a.column < c + columns;
    });
    if (overlaps) continue;
    cta_group_ = cta_group;
    live_.push_back({c, columns});
    freed_.erase(
        std::remove_if(freed_.begin(), freed_.end(),
                       [&](const Allocation& a) { return c < a.column + a.columns && a.column < c + columns; }),
        freed_.end());
    return tmem_address(0, c);
  }
  require(false, "columns", columns,
          "do not fit: " + std::to_string(columns_in_use()) +
              " of 512 columns in use (no aligned free range; tcgen05.alloc would block forever)");
  return 0;
}

void TmemAllocator::free(uint32_t address, uint32_t columns, int cta_group) {
  check_cta_group(cta_group);
  const uint32_t column = tmem_column(address);
  require(tmem_lane(address) == 0, "dealloc lane", tmem_lane(address), "must be 0 (an allocation address)");
  const auto it = std::find_if(live_.begin(), live_.end(), [&](const Allocation& a) { return a.column == column; });
  if (it == live_.end()) {
    const bool was_freed =
        std::any_of(freed_.begin(), freed_.end(), [&](const Allocation& a) { return a.column == column; });
    require(false, "dealloc column", column,
            was_freed ? "was already freed (double free)" : "is not the start of a live allocation");
  }
  if (!(it->columns == columns))
    require(false, "dealloc columns", columns,
            "must equal the allocation's " + std::to_string(it->columns) + " columns");
  cta_group_ = cta_group;
  freed_.push_back(*it);
  live_.erase(it);
}

void TmemAllocator::relinquish_alloc_permit(int cta_group) {
  check_cta_group(cta_group);
  cta_group_ = cta_group;
  relinquished_ = true;
}

void TmemAllocator::check_all_freed() const {
  if (live_.empty()) return;
  require(false, "live allocations", static_cast<long long>(live_.size()),
          "must be 0 at kernel exit (first: column " + std::to_string(live_.front().column) + ", " +
              std::to_string(live_.front().columns) + " columns)");
}

uint32_t TmemAllocator::columns_in_use() const {
  uint32_t total = 0;
  for (const auto& a : live_) total += a.columns;
  return total;
}

// ---- tcgen05.ld / st thread maps ---------------------------------------------

std::string_view to_string(TmemLdShape shape) {
  switch (shape) {
    case TmemLdShape::S32x32b:
      return "32x32b";
    case TmemLdShape::S16x64b:
      return "16x64b";
    case TmemLdShape::S16x128b:
      return "16x128b";
    case TmemLdShape::S16x256b:
      return "16x256b";
    case TmemLdShape::S16x32bx2:
      return "16x32bx2";
  }
  return "?";
}

TmemLdShape parse_tmem_ld_shape(std::string_view text) {
  for (TmemLdShape s : {TmemLdShape::S32x32b, TmemLdShape::S16x64b, TmemLdShape::S16x128b, TmemLdShape::S16x256b,
                        TmemLdShape::S16x32bx2})
    if (to_string(s) == text) return s;
  throw ModelError("shape '" + std::string(text) + "' is not one of 32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2");
}

uint32_t tmem_shape_lanes(TmemLdShape shape) { return shape == TmemLdShape::S32x32b ? 32 : 16; }

uint32_t tmem_shape_columns_per_repeat(TmemLdShape shape) {
  switch (shape) {
    case TmemLdShape::S32x32b:
      return 1;
    case TmemLdShape::S16x64b:
      return 2;
    case TmemLdShape::S16x128b:
      return 4;
    case TmemLdShape::S16x256b:
      return 8;
    case TmemLdShape::S16x32bx2:
      return 1;  // per half; the two halves sit half_split_offset apart
  }
  return 0;
}

namespace {
uint32_t registers_per_repeat(TmemLdShape shape) {
  // Cells per repeat / 32 threads: 32x32b 32x1, 16x64b 16x2, 16x128b 16x4, 16x256b 16x8, 16x32bx2 2x16x1.
  switch (shape) {
    case TmemLdShape::S16x128b:
      return 2;
    case TmemLdShape::S16x256b:
      return 4;
    default:
      return 1;
  }
}
}  // namespace

uint32_t tmem_registers_per_thread(TmemLdShape shape, uint32_t num) {
  const uint32_t max_num = 128 / registers_per_repeat(shape);
  if (!(num >= 1 && num <= max_num && (num & (num - 1)) == 0))
    require(false, "num", num,
            "must be a power of two in 1.." + std::to_string(max_num) + " for ." + std::string(to_string(shape)) +
                " (at most 128 registers per thread)");
  return num * registers_per_repeat(shape);
}

bool tmem_map_confirmed(TmemLdShape shape, uint32_t num) {
  switch (shape) {
    case TmemLdShape::S32x32b:
      return true;
    case TmemLdShape::S16x128b:
    case TmemLdShape::S16x256b:
      return num == 1;
    default:
      return false;
  }
}

TmemCell tmem_ld_cell(TmemLdShape shape, uint32_t num, uint32_t thread, uint32_t reg, uint32_t half_split_offset) {
  const uint32_t regs = tmem_registers_per_thread(shape, num);
  require(thread < 32, "thread", thread, "must be below 32 (tcgen05.ld is warp-wide)");
  if (!(reg < regs))
    require(false, "register", reg,
            "must be below " + std::to_string(regs) + " for ." + std::string(to_string(shape)) + ".x" +
                std::to_string(num));
  const uint32_t t = thread, j = reg;
  switch (shape) {
    case TmemLdShape::S32x32b:  // PTX ISA figure: thread t owns lane t; register j is column j.
      return {t, j};
    case TmemLdShape::S16x64b:  // UNCONFIRMED: CUTLASS/TVM reading.
      return {t / 4 + 8 * (t % 2), (t / 2) % 2 + 2 * j};
    case TmemLdShape::S16x128b:  // x1 per PTX figure; repeat r = registers 2r, 2r+1 at +4r columns (UNCONFIRMED).
      return {t / 4 + 8 * (j % 2), t % 4 + 4 * (j / 2)};
    case TmemLdShape::S16x256b:  // x1 per PTX figure; repeat r = registers 4r..4r+3 at +8r columns (UNCONFIRMED).
      return {t / 4 + 8 * ((j / 2) % 2), j % 2 + 2 * (t % 4) + 8 * (j / 4)};
    case TmemLdShape::S16x32bx2: {  // UNCONFIRMED: lanes t%16; the upper half-warp at +immHalfSplitoff.
      const uint32_t split = half_split_offset == 0 ? num : half_split_offset;
      if (!(split >= num))
        require(false, "half_split_offset", split,
                "must be at least num = " + std::to_string(num) + " so that the two halves do not overlap");
      return {t % 16, j + (t / 16) * split};
    }
  }
  return {};
}

// ---- accumulator placement ---------------------------------------------------

bool accumulator_layout_confirmed(uint32_t m, int cta_group) {
  return (cta_group == 1 && m == 128) || (cta_group == 2 && m == 256);
}

AccumulatorCell accumulator_cell(uint32_t m, uint32_t n, int cta_group, uint32_t row, uint32_t col) {
  require(cta_group == 1 || cta_group == 2, "cta_group", cta_group, "must be 1 or 2");
  if (cta_group == 1)
    require(m == 64 || m == 128, "m", m, "must be 64 or 128 for cta_group::1");
  else
    require(m == 128 || m == 256, "m", m, "must be 128 or 256 for cta_group::2");
  const uint32_t n_step = cta_group == 1 ? 8 : 16;
  if (!(n >= n_step && n <= 256 && n % n_step == 0))
    require(false, "n", n, "must be " + std::to_string(n_step) + "..256 in steps of " + std::to_string(n_step));
  if (!(row < m)) require(false, "row", row, "must be below m = " + std::to_string(m));
  if (!(col < n)) require(false, "col", col, "must be below n = " + std::to_string(n));
  if (cta_group == 1 && m == 128) return {0, row, col};                        // layout D
  if (cta_group == 2 && m == 256) return {row / 128, row % 128, col};          // layout A
  if (cta_group == 1 && m == 64) return {0, 32 * (row / 16) + row % 16, col};  // layout F (UNCONFIRMED)
  const uint32_t half = n / 2;                                                 // layout B (UNCONFIRMED)
  return {row / 64, row % 64 + 64 * (col / half), col % half};
}

}  // namespace gemmscope::model
