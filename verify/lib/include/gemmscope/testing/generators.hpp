#pragma once
// rapidcheck generators for address code and GEMM shapes. Header-only (rapidcheck).
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::testing::gen {

// A swizzle mode TMA and wgmma accept on Hopper; with `blackwell`, also 128B-atom32B.
inline rc::Gen<model::SwizzleMode> swizzle_mode(bool blackwell = false) {
  std::vector<model::SwizzleMode> modes(std::begin(model::kAllSwizzleModes), std::end(model::kAllSwizzleModes));
  if (!blackwell) std::erase(modes, model::SwizzleMode::B128Atom32);
  return rc::gen::elementOf(modes);
}

// A shared-memory address in [0, limit_bytes) aligned as a tile of `mode` must be
// (model::swizzle_alignment_bytes: its pattern starts at its first byte), and to at
// least `min_align` bytes (TMA destinations: 128).
inline rc::Gen<uint64_t> tile_base(model::SwizzleMode mode, uint64_t limit_bytes = 227 * 1024, uint64_t min_align = 128) {
  const uint64_t align = std::max<uint64_t>(min_align, model::swizzle_alignment_bytes(mode));
  return rc::gen::map(rc::gen::inRange<uint64_t>(0, std::max<uint64_t>(1, limit_bytes / align)),
                      [align](uint64_t i) { return i * align; });
}

// A GEMM dimension in [1, max): uniform, growing with rapidcheck's size, shrinking
// towards 1, so that a failure shrinks to the smallest dimension that still fails.
inline rc::Gen<int64_t> dimension(int64_t max = 1200) { return rc::gen::inRange<int64_t>(1, max); }

// A multiple of `step` in [step, max]: for kernels that need, say, K % 8 == 0.
inline rc::Gen<int64_t> multiple_of(int64_t step, int64_t max = 1200) {
  return rc::gen::map(rc::gen::inRange<int64_t>(1, max / step + 1), [step](int64_t x) { return step * x; });
}

// Mostly small and ragged, some around tile edges (63..65, 127..129, ...), some large:
// finds more bugs per case than dimension(), shrinks less precisely (an edge value
// shrinks to a smaller edge value, not below it).
inline rc::Gen<int64_t> edgy_dimension() {
  return rc::gen::weightedOneOf<int64_t>({
      {5, rc::gen::inRange<int64_t>(1, 300)},
      {2, rc::gen::inRange<int64_t>(300, 1200)},
      {2, rc::gen::element<int64_t>(1, 2, 7, 8, 63, 64, 65, 127, 128, 129, 191, 255, 256, 257, 384)},
  });
}
// edgy_dimension() times 8 for the small ones: K or N of kernels that need 16-byte rows.
inline rc::Gen<int64_t> edgy_multiple_of_8() {
  return rc::gen::map(rc::gen::weightedOneOf<int64_t>({{4, rc::gen::inRange<int64_t>(1, 40)},
                                                       {2, rc::gen::inRange<int64_t>(40, 160)},
                                                       {1, rc::gen::element<int64_t>(8, 16, 24, 32, 33)}}),
                      [](int64_t x) { return 8 * x; });
}

}  // namespace gemmscope::testing::gen
