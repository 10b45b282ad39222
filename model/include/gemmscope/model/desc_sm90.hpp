#pragma once
// Hopper wgmma shared-memory matrix descriptor (64 bit).
// PTX ISA: "Asynchronous Warpgroup Level Matrix Shared Memory Layout: Matrix Descriptor".
//
//   bits  0-13  start address, (addr & 0x3FFFF) >> 4
//   bits 16-29  leading-dimension byte offset (LBO) >> 4
//   bits 32-45  stride-dimension byte offset (SBO) >> 4
//   bits 49-51  matrix base offset
//   bits 62-63  swizzle: 0 none (interleave), 1 128B, 2 64B, 3 32B
// All other bits are reserved (zero).
#include <cstdint>
#include <string>

#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::model {

// Limits shared by the sm90 and sm100 descriptors.
inline constexpr uint32_t kDescAddressLimitBytes = 1u << 18;  // 14 bits after >> 4
inline constexpr uint32_t kDescFieldGranuleBytes = 16;        // the 4 dropped low bits
inline constexpr uint32_t kDescBaseOffsetLimit = 8;           // 3-bit field

struct SmemDescriptorSm90 {
  uint32_t start_address_bytes = 0;         // shared-memory byte address of the operand's first core matrix
  uint32_t lbo_bytes = 0;                   // leading-dimension byte offset
  uint32_t sbo_bytes = 0;                   // stride-dimension byte offset
  uint32_t base_offset = 0;                 // 0 when the swizzle pattern starts on its 1024/512/256 B boundary
  SwizzleMode swizzle = SwizzleMode::None;  // none, 32B, 64B, 128B (128B-atom32B is Blackwell-only)

  // Throws ModelError naming the field, the value and the limit.
  void validate() const;
  // Validates, then packs the fields. Never truncates silently.
  uint64_t encode() const;
  // Unpacks; throws ModelError when a reserved bit is set.
  static SmemDescriptorSm90 decode(uint64_t bits);
  // One line: fields in bytes plus the encoded value.
  std::string to_string() const;

  bool operator==(const SmemDescriptorSm90&) const = default;
};

// The 2-bit swizzle code of the sm90 descriptor (throws for 128B-atom32B).
uint32_t sm90_swizzle_code(SwizzleMode mode);
SwizzleMode sm90_swizzle_from_code(uint32_t code);

namespace detail {
// Field checks shared by the sm90 and sm100 descriptors.
void validate_smem_desc_common(uint32_t start_address_bytes, uint32_t lbo_bytes, uint32_t sbo_bytes,
                               uint32_t base_offset, SwizzleMode swizzle);
std::string hex64(uint64_t value);
}  // namespace detail

}  // namespace gemmscope::model
