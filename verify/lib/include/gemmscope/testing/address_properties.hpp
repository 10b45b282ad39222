#pragma once
// Ready properties for a kernel's own shared-memory address code, held against the
// model (gemmscope::model). Plain C++: each returns nothing when the property holds,
// else one line naming the first value that breaks it and the rule. Call them from a
// rapidcheck property (GEMMSCOPE_RC_HOLDS below, with the generators of
// generators.hpp drawing the parameters), from a GoogleTest test, or from anything else.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/fragments.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"

namespace gemmscope::testing {

// Nothing: the property holds. Otherwise what broke it, naming the value and the rule.
using Violation = std::optional<std::string>;

// A byte address -> the byte address your code uses (a swizzle).
using AddressMap = std::function<uint64_t(uint64_t address)>;
// Element (row, col) of a tile -> the shared byte address your code uses for it.
using TileAddress = std::function<uint64_t(uint32_t row, uint32_t col)>;

// The swizzle is a bijection on its atom: it maps [base, base + atom_bytes) onto itself,
// no two bytes to one. base must be a multiple of atom_bytes.
Violation swizzle_is_bijection_on_atom(const AddressMap& swizzle, uint64_t atom_bytes, uint64_t base = 0);

// The swizzle equals the model's `mode` (model::swizzle_address) on every byte of
// [base, base + bytes).
Violation swizzle_matches_model(const AddressMap& swizzle, model::SwizzleMode mode, uint64_t base, uint64_t bytes);

// Your tile's addresses are the TMA box's map: for every (row, col) of `box`,
// address(row, col) == box.address(row, col) (model::TmaBox: the box's swizzle, its
// row pitch and its base). Also what a TMA store of that box reads.
Violation tile_matches_tma_box(const TileAddress& address, const model::TmaBox& box);

// A descriptor over a tile reads exactly the bytes TMA wrote: for every element
// (r, k) of `operand`, the model's reading of the descriptor
// (model::descriptor_element_address) equals written_at(r, k), the address the TMA
// box map put that element at. The descriptor word is decoded as the hardware sees it.
Violation descriptor_reads_what_tma_wrote(uint64_t descriptor_sm90, const model::OperandExtent& operand,
                                          const TileAddress& written_at);
Violation descriptor_reads_what_tma_wrote_sm100(uint64_t descriptor_sm100, const model::OperandExtent& operand,
                                                const TileAddress& written_at);
// The common case: one TMA box holds the tile, and the operand is its rows row0.. and
// its columns k0.. (in elements).
Violation descriptor_reads_tma_box(uint64_t descriptor_sm90, const model::OperandExtent& operand,
                                   const model::TmaBox& box, uint32_t row0, uint32_t k0);

// ldmatrix / stmatrix .x1/.x2/.x4 (count 1, 2, 4): the row address each lane gives
// is where that lane's matrix row lies. The model names the lane that supplies row r
// of matrix j (model::ldmatrix_row_address_thread); lane_address(lane) is your
// code's address for that lane, row_address(j, r) where row r of matrix j lies.
Violation matrix_rows_land(uint32_t count, const std::function<uint64_t(uint32_t lane)>& lane_address,
                           const std::function<uint64_t(uint32_t matrix, uint32_t row)>& row_address);

// An epilogue that stores a wgmma accumulator (m64nNk16, fp32) with stmatrix.x4,
// `warps` warps of a warpgroup, call p storing accumulator registers 8p..8p+7: where
// your code sends each register is where the wgmma fragment map says it belongs, and
// every cell of the 16*warps x n tile is written once. row_start(warp, lane, p) is the
// (row, first column) of C that lane's stmatrix row address points at.
Violation stmatrix_x4_places_accumulators(
    uint32_t n, uint32_t warps,
    const std::function<model::FragmentCell(uint32_t warp, uint32_t lane, uint32_t call)>& row_start);

}  // namespace gemmscope::testing

// Inside a rapidcheck property: fail the case with the violation's words.
#define GEMMSCOPE_RC_HOLDS(expr)                                       \
  do {                                                                 \
    if (const ::gemmscope::testing::Violation why_ = (expr)) RC_FAIL(*why_); \
  } while (0)
