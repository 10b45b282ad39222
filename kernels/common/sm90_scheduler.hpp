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
//   StreamK:         the k-blocks of the last `tiles` work tiles, laid end to end
//                    (tile-major), cut into `workers` equal contiguous ranges; a
//                    worker walks its range as segments, one per tile it touches.
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

// Stream-K (Osama et al., PPoPP 2023) over the work tiles [first_tile, first_tile +
// tiles): iteration i is k-block i % k_blocks of tile i / k_blocks; worker w (of
// `workers`, every one with at least one iteration: workers <= tiles * k_blocks)
// owns iterations [begin(w), begin(w + 1)), begin(w) = floor(w * I / workers).
// A tile touched by more than one worker is a split tile: each of its `count`
// segments (index 0 = the lowest k-blocks, owned by worker first + index) writes
// fp32 partials to a workspace slot, and whichever segment arrives last adds them
// up in index order. A worker has at most two split segments (the tile its range
// starts in, slot 2w, and the one it ends in, slot 2w + 1), so 2 x workers slots
// serve every launch.
struct StreamKSegment {
  uint32_t tile = 0;             // work tile, relative to first_tile
  uint32_t kb_begin = 0, kb_end = 0;
  uint32_t index = 0, count = 1; // this segment's place among the tile's segments
  uint32_t first_worker = 0;     // owner of segment 0
  uint32_t slot = 0;             // this segment's workspace slot (count > 1)
};

struct StreamK {
  uint32_t first_tile = 0, tiles = 0, k_blocks = 0, workers = 0;

  GEMMSCOPE_HD constexpr uint64_t iterations() const { return uint64_t{tiles} * k_blocks; }
  GEMMSCOPE_HD constexpr uint64_t begin(uint32_t w) const { return uint64_t{w} * iterations() / workers; }
  // The worker whose range holds iteration i: the largest w with begin(w) <= i.
  GEMMSCOPE_HD constexpr uint32_t owner(uint64_t i) const {
    return static_cast<uint32_t>(((i + 1) * workers - 1) / iterations());
  }
  // Workspace slot of worker w's segment of tile t (relative).
  GEMMSCOPE_HD constexpr uint32_t slot(uint32_t w, uint32_t t) const {
    return 2 * w + (begin(w) / k_blocks == t ? 0u : 1u);
  }

  // A worker's walk over its range; next() yields its segments in order.
  struct Cursor {
    uint64_t at = 0, end = 0;
    uint32_t worker = 0;
  };
  GEMMSCOPE_HD constexpr Cursor start(uint32_t w) const {
    return w < workers ? Cursor{begin(w), begin(w + 1), w} : Cursor{0, 0, w};
  }
  GEMMSCOPE_HD constexpr bool next(Cursor& c, StreamKSegment& s) const {
    if (c.at >= c.end) return false;
    const uint64_t tile = c.at / k_blocks;
    const uint64_t tile_begin = tile * k_blocks;
    const uint64_t stop = c.end < tile_begin + k_blocks ? c.end : tile_begin + k_blocks;
    s.tile = static_cast<uint32_t>(tile);
    s.kb_begin = static_cast<uint32_t>(c.at - tile_begin);
    s.kb_end = static_cast<uint32_t>(stop - tile_begin);
    s.first_worker = owner(tile_begin);
    s.count = owner(tile_begin + k_blocks - 1) - s.first_worker + 1;
    s.index = c.worker - s.first_worker;
    s.slot = slot(c.worker, s.tile);
    c.at = stop;
    return true;
  }
};

}  // namespace gemmscope::sm90
