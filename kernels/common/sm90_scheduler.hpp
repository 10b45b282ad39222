#pragma once
// Tile schedulers of the Hopper ladder's persistent kernels (k08+), the very code
// the kernels and the host pipeline simulator run. Value types and pure functions,
// no hidden state.
//
// A "work tile" is what one cluster computes at once: cluster.m x cluster.n output
// tiles. The work grid is units_m x units_n work tiles. Each scheduler hands a
// worker (a cluster) a sequence of linear work indices in [0, total); a tile order
// then maps a linear index to (m, n) in the work grid.
//   StaticSchedule:  worker w takes w, w + workers, w + 2 workers, ...
//   DynamicSchedule: worker w takes w first, then workers + c for each value c it
//                    claims from a global atomic counter (reset to 0 before each
//                    launch): the Hopper stand-in for Blackwell's cluster launch
//                    control. Whoever finishes early takes more.
//   Tile orders:     along M (m fastest: consecutive work shares a B tile) or
//                    grouped zig-zag (bands of `group` rows of the work grid, n
//                    slow inside a band, every other band walked right to left so
//                    the band boundary reuses the B tiles just read).
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm90 {

struct WorkGrid {
  uint32_t units_m = 0, units_n = 0;
  GEMMSCOPE_HD constexpr uint32_t total() const { return units_m * units_n; }
};

struct WorkCoord {
  uint32_t m = 0, n = 0;  // in work tiles
};

struct StaticSchedule {
  uint32_t linear = 0;   // current work index
  uint32_t workers = 1;  // clusters in the persistent grid
  GEMMSCOPE_HD static constexpr StaticSchedule first(uint32_t worker, uint32_t workers) {
    return StaticSchedule{worker, workers};
  }
  GEMMSCOPE_HD constexpr bool valid(WorkGrid g) const { return linear < g.total(); }
  GEMMSCOPE_HD constexpr StaticSchedule next() const { return StaticSchedule{linear + workers, workers}; }
};

struct DynamicSchedule {
  uint32_t workers = 1;
  // The first tile needs no claim: the launch itself hands tile w to worker w.
  GEMMSCOPE_HD constexpr uint32_t first(uint32_t worker) const { return worker; }
  // The tile after a claim that returned `claimed` (the counter's old value).
  GEMMSCOPE_HD constexpr uint32_t after_claim(uint32_t claimed) const { return workers + claimed; }
};

enum class TileOrder : uint32_t { AlongM = 0, GroupedZigzag = 1 };

// m fastest: the units_m work tiles of one column n share B.
GEMMSCOPE_HD constexpr WorkCoord order_along_m(WorkGrid g, uint32_t linear) {
  return WorkCoord{linear % g.units_m, linear / g.units_m};
}

// Bands of `group` rows (the last band may be shorter); inside a band m is fastest,
// so `group` rows x a few columns are in flight together: the A rows of the band
// and the B columns stay in L2. Odd bands walk n from the right.
GEMMSCOPE_HD constexpr WorkCoord order_grouped_zigzag(WorkGrid g, uint32_t linear, uint32_t group) {
  const uint32_t band_span = group * g.units_n;
  const uint32_t band = linear / band_span;
  const uint32_t first_m = band * group;
  const uint32_t rows = (g.units_m - first_m) < group ? (g.units_m - first_m) : group;
  const uint32_t in_band = linear - band * band_span;
  const uint32_t n = in_band / rows;
  return WorkCoord{first_m + in_band % rows, (band & 1u) ? g.units_n - 1u - n : n};
}

GEMMSCOPE_HD constexpr WorkCoord work_coord(WorkGrid g, uint32_t linear, TileOrder order, uint32_t group) {
  return order == TileOrder::GroupedZigzag ? order_grouped_zigzag(g, linear, group) : order_along_m(g, linear);
}

}  // namespace gemmscope::sm90
