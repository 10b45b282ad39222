#include "gemmscope/model/tma_box.hpp"

#include <algorithm>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

void TmaBox::validate(bool allow_blackwell_modes) const {
  require(rows >= 1 && rows <= 256, "box rows", rows, "must be in 1..256 (cuTensorMapEncodeTiled boxDim)");
  require(inner_elems >= 1 && inner_elems <= 256, "box inner_elems", inner_elems,
          "must be in 1..256 (cuTensorMapEncodeTiled boxDim)");
  require(elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8, "elem_bytes", elem_bytes,
          "must be 1, 2, 4 or 8");
  require(inner_bytes() % 16 == 0, "box inner bytes", inner_bytes(), "must be a multiple of 16");
  if (swizzle == SwizzleMode::B128Atom32 && !allow_blackwell_modes)
    throw ModelError("swizzle mode 128B-atom32B is Blackwell-only (sm_100); the H200 driver refuses it");
  if (swizzle != SwizzleMode::None)
    require(inner_bytes() <= swizzle_span_bytes(swizzle), "box inner bytes", inner_bytes(),
            "must be at most the swizzle span of " + std::string(to_string(swizzle)) + " (" +
                std::to_string(swizzle_span_bytes(swizzle)) + " bytes)");
  // A TMA destination needs 128 bytes, swizzled or not (CONFIRMED on the H200:
  // traces/hw/tma_swizzle.json, swznone_*_off16/off48 fault with a misaligned
  // address, off128/off256 land; swizzled boxes at 128, 256 and 512 bytes past their
  // pattern's boundary, swz32B/64B/128B_*_off128..off512, land where address() puts
  // them, the XOR taken on absolute address bits). A base inside the swizzle pattern
  // is legal: k10's 84-row B slices start 512 bytes into a 1024-byte 128B atom.
  constexpr uint32_t align = 128;
  require(smem_base % align == 0, "smem_base", static_cast<long long>(smem_base),
          "must be a multiple of " + std::to_string(align) + " bytes (a TMA destination), swizzle " +
              std::string(to_string(swizzle)));
}

uint64_t TmaBox::address(uint32_t row, uint32_t col) const {
  const uint64_t linear = smem_base + uint64_t{row} * row_pitch_bytes() + uint64_t{col} * elem_bytes;
  return swizzle_address(swizzle, linear);
}

}  // namespace gemmscope::model
