#pragma once
// Blackwell tcgen05 shared-memory matrix descriptor (64 bit).
// PTX ISA: "Tensor Memory / Shared memory descriptor" (tcgen05-shared-memory-desc-layout).
//
//   bits  0-13  start address >> 4          bits 46-48  version, fixed 0b001
//   bits 16-29  LBO >> 4 (or, in absolute   bits 49-51  matrix base offset
//               mode, an address >> 4)      bit  52     LBO mode: 0 relative, 1 absolute (sm_103a)
//   bits 32-45  SBO >> 4                    bits 61-63  swizzle: 0 none, 1 128B-atom32B, 2 128B,
//                                                       4 64B, 6 32B; 3, 5, 7 invalid
// All other bits are reserved (zero).
#include <cstdint>
#include <string>
#include <string_view>

#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::model {

enum class LboMode { Relative, Absolute };
std::string_view to_string(LboMode mode);       // "relative" / "absolute"
LboMode parse_lbo_mode(std::string_view text);  // throws ModelError

inline constexpr uint32_t kSm100DescVersion = 1;

struct SmemDescriptorSm100 {
  uint32_t start_address_bytes = 0;
  uint32_t lbo_bytes = 0;
  uint32_t sbo_bytes = 0;
  uint32_t version = kSm100DescVersion;  // must be 1
  uint32_t base_offset = 0;
  LboMode lbo_mode = LboMode::Relative;  // Absolute is valid only on sm_103a
  SwizzleMode swizzle = SwizzleMode::None;

  void validate() const;
  uint64_t encode() const;
  // Throws ModelError for a reserved bit or an invalid swizzle code (3, 5, 7).
  // The version field is decoded as is; validate() checks it.
  static SmemDescriptorSm100 decode(uint64_t bits);
  std::string to_string() const;

  bool operator==(const SmemDescriptorSm100&) const = default;
};

// The 3-bit swizzle code of the sm100 descriptor.
uint32_t sm100_swizzle_code(SwizzleMode mode);
SwizzleMode sm100_swizzle_from_code(uint32_t code);  // throws for 3, 5, 7

}  // namespace gemmscope::model
