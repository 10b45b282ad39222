#include "gemmscope/model/desc_sm100.hpp"

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

std::string_view to_string(LboMode mode) { return mode == LboMode::Relative ? "relative" : "absolute"; }

LboMode parse_lbo_mode(std::string_view text) {
  if (text == "relative") return LboMode::Relative;
  if (text == "absolute") return LboMode::Absolute;
  throw ModelError("lbo_mode '" + std::string(text) + "' is not one of relative, absolute");
}

// PTX ISA, tcgen05 shared memory descriptor, bits 61-63.
uint32_t sm100_swizzle_code(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None:
      return 0;
    case SwizzleMode::B128Atom32:
      return 1;
    case SwizzleMode::B128:
      return 2;
    case SwizzleMode::B64:
      return 4;
    case SwizzleMode::B32:
      return 6;
  }
  return 0;
}

SwizzleMode sm100_swizzle_from_code(uint32_t code) {
  switch (code) {
    case 0:
      return SwizzleMode::None;
    case 1:
      return SwizzleMode::B128Atom32;
    case 2:
      return SwizzleMode::B128;
    case 4:
      return SwizzleMode::B64;
    case 6:
      return SwizzleMode::B32;
    default:
      break;
  }
  require(false, "swizzle code", code, "is invalid; sm100 codes are 0 none, 1 128B-atom32B, 2 128B, 4 64B, 6 32B");
  return SwizzleMode::None;
}

void SmemDescriptorSm100::validate() const {
  require(version == kSm100DescVersion, "version", version, "must be 1 (bits 46-48 = 0b001)");
  detail::validate_smem_desc_common(start_address_bytes, lbo_bytes, sbo_bytes, base_offset, swizzle);
}

uint64_t SmemDescriptorSm100::encode() const {
  validate();
  uint64_t bits = 0;
  bits |= uint64_t{(start_address_bytes & 0x3FFFFu) >> 4} << 0;
  bits |= uint64_t{(lbo_bytes & 0x3FFFFu) >> 4} << 16;
  bits |= uint64_t{(sbo_bytes & 0x3FFFFu) >> 4} << 32;
  bits |= uint64_t{version & 0x7u} << 46;
  bits |= uint64_t{base_offset & 0x7u} << 49;
  bits |= uint64_t{lbo_mode == LboMode::Absolute ? 1u : 0u} << 52;
  bits |= uint64_t{sm100_swizzle_code(swizzle)} << 61;
  return bits;
}

SmemDescriptorSm100 SmemDescriptorSm100::decode(uint64_t bits) {
  constexpr uint64_t kFieldMask = (uint64_t{0x3FFF} << 0) | (uint64_t{0x3FFF} << 16) | (uint64_t{0x3FFF} << 32) |
                                  (uint64_t{0x7} << 46) | (uint64_t{0x7} << 49) | (uint64_t{0x1} << 52) |
                                  (uint64_t{0x7} << 61);
  if (bits & ~kFieldMask)
    throw ModelError("descriptor = " + detail::hex64(bits) + " has reserved bits set (" +
                     detail::hex64(bits & ~kFieldMask) +
                     "); sm100 uses bits 0-13, 16-29, 32-45, 46-48, 49-51, 52, 61-63 only");
  SmemDescriptorSm100 d;
  d.start_address_bytes = static_cast<uint32_t>((bits >> 0) & 0x3FFF) << 4;
  d.lbo_bytes = static_cast<uint32_t>((bits >> 16) & 0x3FFF) << 4;
  d.sbo_bytes = static_cast<uint32_t>((bits >> 32) & 0x3FFF) << 4;
  d.version = static_cast<uint32_t>((bits >> 46) & 0x7);
  d.base_offset = static_cast<uint32_t>((bits >> 49) & 0x7);
  d.lbo_mode = ((bits >> 52) & 1) ? LboMode::Absolute : LboMode::Relative;
  d.swizzle = sm100_swizzle_from_code(static_cast<uint32_t>(bits >> 61));
  return d;
}

std::string SmemDescriptorSm100::to_string() const {
  std::string s = "SmemDescriptorSm100{start_address=" + std::to_string(start_address_bytes) +
                  " B, lbo=" + std::to_string(lbo_bytes) + " B, sbo=" + std::to_string(sbo_bytes) +
                  " B, version=" + std::to_string(version) + ", base_offset=" + std::to_string(base_offset) +
                  ", lbo_mode=" + std::string(gemmscope::model::to_string(lbo_mode)) +
                  ", swizzle=" + std::string(gemmscope::model::to_string(swizzle)) + "}";
  try {
    s += " = " + detail::hex64(encode());
  } catch (const ModelError& e) {
    s += " (invalid: " + std::string(e.what()) + ")";
  }
  return s;
}

}  // namespace gemmscope::model
