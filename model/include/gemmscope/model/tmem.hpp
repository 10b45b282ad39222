#pragma once
// Tensor Memory (TMEM) of Blackwell: addresses, the allocator, the warp-to-lane
// rule, the tcgen05.ld/st thread maps and where an MMA puts its accumulator.
// PTX ISA: "Tensor Memory" (tensor-memory-addressing, tcgen05-memory-alloc),
// "tcgen05.ld / tcgen05.st", "tcgen05 Matrix fragments" and "Data path layout
// organization" (tcgen05-data-path-layout).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::model {

inline constexpr uint32_t kTmemLanes = 128;
inline constexpr uint32_t kTmemColumns = 512;
inline constexpr uint32_t kTmemLanesPerWarp = 32;

// Address = lane << 16 | column (PTX ISA, Tensor Memory addressing). Throws for lane
// >= 128 or column >= 512.
uint32_t tmem_address(uint32_t lane, uint32_t column);
uint32_t tmem_lane(uint32_t address);
uint32_t tmem_column(uint32_t address);

// Warp w of a warpgroup (w = warp_id % 4) may access lanes 32w .. 32w+31 only.
uint32_t tmem_first_lane_of_warp(uint32_t warp_id);
bool warp_may_access_lane(uint32_t warp_id, uint32_t lane);
// Throws ModelError naming warp, lane and the allowed range.
void require_warp_lane_access(uint32_t warp_id, uint32_t lane);

// The allocator of one CTA. tcgen05.alloc / dealloc / relinquish_alloc_permit.
// Facts: columns a power of two in 32..512; every allocation freed before the kernel
// exits; all tcgen05 ops of a kernel use one cta_group; no alloc after relinquish.
// Model choices (UNCONFIRMED, the PTX ISA does not specify placement): an allocation
// of C columns is placed at the lowest free column that is a multiple of C; the
// hardware would block when no room is left, which for one CTA is a deadlock, so the
// model reports exhaustion as an error.
class TmemAllocator {
 public:
  struct Allocation {
    uint32_t column = 0;
    uint32_t columns = 0;
  };
  // Returns the TMEM address (lane 0, first column) of the new allocation.
  uint32_t allocate(uint32_t columns, int cta_group = 1);
  // Frees an allocation: address and columns must match one made by allocate().
  void free(uint32_t address, uint32_t columns, int cta_group = 1);
  // After this, allocate() is an error (tcgen05.relinquish_alloc_permit).
  void relinquish_alloc_permit(int cta_group = 1);
  // Throws ModelError when an allocation is still live (the kernel must free all).
  void check_all_freed() const;

  uint32_t columns_in_use() const;
  const std::vector<Allocation>& live() const { return live_; }

 private:
  void check_cta_group(int cta_group);
  std::vector<Allocation> live_;
  std::vector<Allocation> freed_;  // freed and not reused since: tells a double free apart
  bool relinquished_ = false;
  int cta_group_ = 0;  // 0 until the first tcgen05 op fixes it
};

// tcgen05.ld / tcgen05.st shapes.
enum class TmemLdShape { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };
std::string_view to_string(TmemLdShape shape);           // "32x32b", "16x64b", ...
TmemLdShape parse_tmem_ld_shape(std::string_view text);  // throws ModelError

// Lanes one instruction covers (32 or 16) and columns per repeat.
uint32_t tmem_shape_lanes(TmemLdShape shape);
uint32_t tmem_shape_columns_per_repeat(TmemLdShape shape);
// Registers per thread for .num = xN; throws when N is not a power of two or is above
// the shape's limit (128 registers per thread).
uint32_t tmem_registers_per_thread(TmemLdShape shape, uint32_t num);
// True for the maps the PTX ISA figures state (docs/hardware.md#tmem-ld-maps: 32x32b;
// .x1 of 16x128b and 16x256b). 16x64b, 16x32bx2 and the .xN repeat order of the
// 16-lane shapes are UNCONFIRMED: they follow the reading of two libraries (CUTLASS
// Copy_Traits for SM100_TMEM_LOAD_*, TVM's tcgen05 ld/st table), not a probe.
bool tmem_map_confirmed(TmemLdShape shape, uint32_t num);

struct TmemCell {
  uint32_t lane = 0;    // relative to the instruction's base lane
  uint32_t column = 0;  // relative to the instruction's base column
  bool operator==(const TmemCell&) const = default;
};

// Thread t (0..31), register j -> the cell it loads/stores, relative to the address
// given to the instruction. For 16x32bx2, threads 16..31 use columns offset by
// half_split_offset (the instruction's immHalfSplitoff); 0 means "= num" (adjacent).
TmemCell tmem_ld_cell(TmemLdShape shape, uint32_t num, uint32_t thread, uint32_t reg, uint32_t half_split_offset = 0);

// Where tcgen05.mma (kind::f16, dense, non-.ws) puts D(row, col) of an M x N tile.
// cta_group::1 M=128 (layout D) and cta_group::2 M=256 (layout A): lane = row (mod 128),
// column = col, CTA = row / 128. UNCONFIRMED (PTX ISA figures, CUTLASS/TVM reading):
// cta_group::1 M=64 (layout F): rows 16 per warp quadrant, lane = 32(row/16) + row%16;
// cta_group::2 M=128 (layout B): each CTA holds 64 rows, the N columns folded in halves
// over lanes 0-63 and 64-127: lane = row%64 + 64(col / (N/2)), column = col % (N/2).
struct AccumulatorCell {
  uint32_t cta = 0;  // CTA of the pair (0 = even CTA) for cta_group::2, else 0
  uint32_t lane = 0;
  uint32_t column = 0;  // relative to the accumulator's base column
  bool operator==(const AccumulatorCell&) const = default;
};
AccumulatorCell accumulator_cell(uint32_t m, uint32_t n, int cta_group, uint32_t row, uint32_t col);
bool accumulator_layout_confirmed(uint32_t m, int cta_group);

}  // namespace gemmscope::model
