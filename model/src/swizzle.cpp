#include "gemmscope/model/swizzle.hpp"

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

std::string_view to_string(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None: return "none";
    case SwizzleMode::B32: return "32B";
    case SwizzleMode::B64: return "64B";
    case SwizzleMode::B128: return "128B";
    case SwizzleMode::B128Atom32: return "128B-atom32B";
  }
  return "?";
}

SwizzleMode parse_swizzle_mode(std::string_view text) {
  for (SwizzleMode m : kAllSwizzleModes)
    if (to_string(m) == text) return m;
  throw ModelError("swizzle mode = '" + std::string(text) +
                   "' must be one of none, 32B, 64B, 128B, 128B-atom32B");
}

Swizzle make_swizzle(int bits, int base, int shift) {
  require(bits >= 0, "swizzle bits B", bits, "must be >= 0");
  require(base >= 0, "swizzle base M", base, "must be >= 0");
  require(shift >= bits, "swizzle shift S", shift,
          "must be >= the bit count B = " + std::to_string(bits) + " (the XORed fields must not overlap)");
  require(bits + base + shift <= 63, "swizzle B+M+S", bits + base + shift, "must be at most 63");
  return Swizzle{bits, base, shift};
}

Swizzle swizzle_of(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None: return {0, 4, 3};
    case SwizzleMode::B32: return {1, 4, 3};
    case SwizzleMode::B64: return {2, 4, 3};
    case SwizzleMode::B128: return {3, 4, 3};
    case SwizzleMode::B128Atom32: return {2, 5, 2};
  }
  return {};
}

uint32_t swizzle_span_bytes(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None: return 0;
    case SwizzleMode::B32: return 32;
    case SwizzleMode::B64: return 64;
    case SwizzleMode::B128:
    case SwizzleMode::B128Atom32: return 128;
  }
  return 0;
}

uint32_t swizzle_alignment_bytes(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::None: return 16;
    case SwizzleMode::B32: return 256;
    case SwizzleMode::B64: return 512;
    case SwizzleMode::B128:
    case SwizzleMode::B128Atom32: return 1024;
  }
  return 16;
}

uint64_t swizzle_address(SwizzleMode mode, uint64_t address) { return swizzle_of(mode)(address); }

}  // namespace gemmscope::model
