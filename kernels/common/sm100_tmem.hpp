#pragma once
// Tensor Memory addresses of the Blackwell kernel: the accumulator ring and the
// epilogue's TMEM-to-register map. __host__ __device__ and independent of model/:
// verify/cpu/sm100_tmem_test.cpp holds them against the facts of PTX ISA "Tensor
// Memory" and "tcgen05.ld" (docs/hardware.md#tmem-address, #tmem-ld-maps).
#include <cstdint>

#include "common/hd.hpp"
#include "common/sm100_config.hpp"

namespace gemmscope::sm100 {

// PTX ISA "Tensor Memory addressing": lane in bits 16-31, column in bits 0-15.
GEMMSCOPE_HD constexpr uint32_t tmem_address(uint32_t lane, uint32_t column) { return (lane << 16) | column; }
GEMMSCOPE_HD constexpr uint32_t tmem_lane(uint32_t address) { return address >> 16; }
GEMMSCOPE_HD constexpr uint32_t tmem_column(uint32_t address) { return address & 0xFFFFu; }

// The accumulator of slot `slot` (D of the 2-SM MMA) starts at column slot * 256,
// lane 0 of the allocation `tmem_base` returned by tcgen05.alloc.
GEMMSCOPE_HD constexpr uint32_t accumulator_address(uint32_t tmem_base, uint32_t slot) {
  return tmem_base + slot * kAccumColumns;
}

// The epilogue warp `warp` (any warp id; its position in the warpgroup is warp % 4)
// may touch TMEM lanes 32 (warp % 4) .. +31 only (PTX ISA "tcgen05 data movement:
// access restrictions").
GEMMSCOPE_HD constexpr uint32_t epilogue_lane_quarter(uint32_t warp) { return warp % 4u; }

// Address a warp passes to tcgen05.ld.32x32b.x32 for load `load` (32 columns) of
// slot `slot`: its lane quarter, columns slot*256 + 32*load.
GEMMSCOPE_HD constexpr uint32_t epilogue_load_address(uint32_t tmem_base, uint32_t slot, uint32_t warp,
                                                      uint32_t load) {
  return accumulator_address(tmem_base, slot) + tmem_address(32u * epilogue_lane_quarter(warp), 0) +
         load * kEpilogueColumnsPerLoad;
}

// Which accumulator element thread `lane` of epilogue warp `warp` holds in register
// `reg` after load `load`: .32x32b gives thread t lane (base + t) and register j
// column (base + j). Returned as (row, column) of the pair's 256 x 256 tile, for the
// CTA with `cta_in_pair` (0: even, rows 0-127; 1: odd, rows 128-255).
struct PairTileElement {
  uint32_t row;
  uint32_t col;
};
GEMMSCOPE_HD constexpr PairTileElement epilogue_element(uint32_t cta_in_pair, uint32_t warp, uint32_t lane,
                                                        uint32_t load, uint32_t reg) {
  return PairTileElement{cta_in_pair * kCtaRowsA + 32u * epilogue_lane_quarter(warp) + lane,
                         load * kEpilogueColumnsPerLoad + reg};
}

}  // namespace gemmscope::sm100
