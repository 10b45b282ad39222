#include "gemmscope/model/desc_sm90.hpp"

#include <cstdio>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

namespace detail {

std::string hex64(uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

void validate_smem_desc_common(uint32_t start_address_bytes, uint32_t lbo_bytes, uint32_t sbo_bytes,
                               uint32_t base_offset, SwizzleMode swizzle) {
  // Each address-like field drops its 4 low bits and keeps 14 (PTX ISA, matrix descriptor).
  const auto check_field = [](uint32_t value, const char* field) {
    require(value % kDescFieldGranuleBytes == 0, field, value,
            "must be a multiple of 16 bytes (the field drops 4 bits)");
    require(value < kDescAddressLimitBytes, field, value, "must be below 262144 (14 bits after >> 4)");
  };
  check_field(start_address_bytes, "start_address_bytes");
  check_field(lbo_bytes, "lbo_bytes");
  check_field(sbo_bytes, "sbo_bytes");
  require(base_offset < kDescBaseOffsetLimit, "base_offset", base_offset, "must be in 0..7 (3-bit field)");
  // The base offset locates a swizzle pattern's start; without a swizzle there is no pattern.
  require(swizzle != SwizzleMode::None || base_offset == 0, "base_offset", base_offset,
          "must be 0 when swizzle is none (no pattern to offset)");
}

}  // namespace detail

uint32_t sm90_swizzle_code(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None:
      return 0;
    case SwizzleMode::B128:
      return 1;
    case SwizzleMode::B64:
      return 2;
    case SwizzleMode::B32:
      return 3;
    case SwizzleMode::B128Atom32:
      break;
  }
  throw ModelError(
      "swizzle = 128B-atom32B has no sm90 descriptor code (Blackwell-only; sm90 allows none, 32B, 64B, 128B)");
}

SwizzleMode sm90_swizzle_from_code(uint32_t code) {
  switch (code) {
    case 0:
      return SwizzleMode::None;
    case 1:
      return SwizzleMode::B128;
    case 2:
      return SwizzleMode::B64;
    case 3:
      return SwizzleMode::B32;
    default:
      break;
  }
  require(false, "swizzle code", code, "must be in 0..3 (2-bit field)");
  return SwizzleMode::None;
}

void SmemDescriptorSm90::validate() const {
  if (swizzle == SwizzleMode::B128Atom32) sm90_swizzle_code(swizzle);  // throws with the reason
  detail::validate_smem_desc_common(start_address_bytes, lbo_bytes, sbo_bytes, base_offset, swizzle);
}

uint64_t SmemDescriptorSm90::encode() const {
  validate();
  uint64_t bits = 0;
  bits |= uint64_t{(start_address_bytes & 0x3FFFFu) >> 4} << 0;
  bits |= uint64_t{(lbo_bytes & 0x3FFFFu) >> 4} << 16;
  bits |= uint64_t{(sbo_bytes & 0x3FFFFu) >> 4} << 32;
  bits |= uint64_t{base_offset & 0x7u} << 49;
  bits |= uint64_t{sm90_swizzle_code(swizzle)} << 62;
  return bits;
}

SmemDescriptorSm90 SmemDescriptorSm90::decode(uint64_t bits) {
  // Fields: 0-13, 16-29, 32-45, 49-51, 62-63. Everything else is reserved.
  constexpr uint64_t kFieldMask = (uint64_t{0x3FFF} << 0) | (uint64_t{0x3FFF} << 16) | (uint64_t{0x3FFF} << 32) |
                                  (uint64_t{0x7} << 49) | (uint64_t{0x3} << 62);
  if (bits & ~kFieldMask)
    throw ModelError("descriptor = " + detail::hex64(bits) + " has reserved bits set (" +
                     detail::hex64(bits & ~kFieldMask) + "); sm90 uses bits 0-13, 16-29, 32-45, 49-51, 62-63 only");
  SmemDescriptorSm90 d;
  d.start_address_bytes = static_cast<uint32_t>((bits >> 0) & 0x3FFF) << 4;
  d.lbo_bytes = static_cast<uint32_t>((bits >> 16) & 0x3FFF) << 4;
  d.sbo_bytes = static_cast<uint32_t>((bits >> 32) & 0x3FFF) << 4;
  d.base_offset = static_cast<uint32_t>((bits >> 49) & 0x7);
  d.swizzle = sm90_swizzle_from_code(static_cast<uint32_t>(bits >> 62));
  return d;
}

std::string SmemDescriptorSm90::to_string() const {
  std::string s = "SmemDescriptorSm90{start_address=" + std::to_string(start_address_bytes) +
                  " B, lbo=" + std::to_string(lbo_bytes) + " B, sbo=" + std::to_string(sbo_bytes) +
                  " B, base_offset=" + std::to_string(base_offset) +
                  ", swizzle=" + std::string(gemmscope::model::to_string(swizzle)) + "}";
  try {
    s += " = " + detail::hex64(encode());
  } catch (const ModelError& e) {
    s += " (invalid: " + std::string(e.what()) + ")";
  }
  return s;
}

}  // namespace gemmscope::model
