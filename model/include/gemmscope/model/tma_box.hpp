#pragma once
// Where a 2-D TMA box lands in shared memory. cuda.h: cuTensorMapEncodeTiled;
// PTX ISA: cp.async.bulk.tensor and "Tensor Map / Swizzling modes".
#include <cstdint>
#include <string>

#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::model {

// A box of `rows` x `inner_elems` elements, written row after row starting at
// `smem_base`, then the swizzle applied to the absolute shared-memory byte address.
// Row pitch: inner_bytes without swizzle; with a swizzle, one whole swizzle span
// (32/64/128 bytes) even when the box row is narrower: the rows are padded
// (CONFIRMED on the H200, golden trace traces/hw/tma_swizzle.json, cases
// swz*_in16B/in32B/in64B; the padding bytes are left untouched).
struct TmaBox {
  uint32_t rows = 0;         // boxDim[1], 1..256
  uint32_t inner_elems = 0;  // boxDim[0], 1..256
  uint32_t elem_bytes = 2;   // 1, 2, 4 or 8
  SwizzleMode swizzle = SwizzleMode::None;
  uint64_t smem_base = 0;    // shared-memory byte address of the box's first byte

  uint32_t inner_bytes() const { return inner_elems * elem_bytes; }
  // Bytes from one box row to the next in shared memory (see above).
  uint32_t row_pitch_bytes() const {
    return swizzle == SwizzleMode::None ? inner_bytes() : swizzle_span_bytes(swizzle);
  }
  // Shared memory the box occupies, padding included.
  uint32_t bytes() const { return rows * row_pitch_bytes(); }
  // Throws ModelError naming the field, the value and the limit: box dims 1..256,
  // inner bytes a multiple of 16 and at most the swizzle span, base 128-byte aligned
  // (also when swizzled: the pattern follows absolute addresses), 128B-atom32B
  // refused (Blackwell only unless allow_blackwell_modes).
  void validate(bool allow_blackwell_modes = false) const;
  // Shared-memory byte address of element (row, col) of the box.
  uint64_t address(uint32_t row, uint32_t col) const;
};

}  // namespace gemmscope::model
