#pragma once
// The Blackwell kernel's own descriptor builders: the tcgen05 shared-memory matrix
// descriptor and the kind::f16 instruction descriptor. __host__ __device__ and
// independent of model/: verify/cpu/sm100_descriptors_test.cpp holds them against
// model::SmemDescriptorSm100 and model::InstrDescriptorSm100.
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm100 {

// PTX ISA "tcgen05 Shared memory descriptor": swizzle code at bits 61-63.
enum : uint32_t {
  kDescSwizzleNone = 0,
  kDescSwizzle128BAtom32B = 1,
  kDescSwizzle128B = 2,
  kDescSwizzle64B = 4,
  kDescSwizzle32B = 6,
};

// Start address, LBO and SBO: 14-bit fields of (byte value & 0x3FFFF) >> 4 at bits
// 0, 16, 32; the fixed version 0b001 at bits 46-48; swizzle at 61-63. Base offset
// (49-51) and LBO mode (52) stay 0: every swizzled tile here starts on a 1024-byte
// boundary and LBO is relative.
GEMMSCOPE_HD constexpr uint64_t smem_descriptor(uint32_t start_bytes, uint32_t lbo_bytes, uint32_t sbo_bytes,
                                                uint32_t swizzle_code) {
  return uint64_t{(start_bytes & 0x3FFFFu) >> 4} | (uint64_t{(lbo_bytes & 0x3FFFFu) >> 4} << 16) |
         (uint64_t{(sbo_bytes & 0x3FFFFu) >> 4} << 32) | (uint64_t{1} << 46) | (uint64_t{swizzle_code & 7u} << 61);
}

// A K-major bf16 tile of rows x 64 elements (128 bytes per row), 128B swizzle, on a
// 1024-byte aligned base: an 8-row group is 1024 bytes (SBO); LBO is unused by
// swizzled K-major layouts (16 bytes, encoded 1). Stepping K inside the 128-byte
// row adds the unswizzled byte offset (32 bytes per K = 16): the hardware applies
// the XOR to the absolute address it forms.
GEMMSCOPE_HD constexpr uint64_t desc_kmajor_sw128(uint32_t tile_base_bytes, uint32_t k0_elems) {
  return smem_descriptor(tile_base_bytes + k0_elems * 2u, 16u, 1024u, kDescSwizzle128B);
}

// The descriptor of the next K step inside the same tile: start address field + 2
// (32 bytes >> 4). Adding to the packed value is safe while the field does not
// overflow its 14 bits, which a 256 KiB shared-memory window guarantees.
GEMMSCOPE_HD constexpr uint64_t desc_advance_bytes(uint64_t desc, uint32_t bytes) { return desc + (bytes >> 4); }

// PTX ISA "tcgen05 Instruction descriptor", kind::f16: D = f32 (bits 4-5 = 1),
// A = B = bf16 (bits 7-9 and 10-12 = 1), both K-major (bits 15, 16 = 0), no
// negation, dense; N >> 3 at bits 17-22, M >> 4 at bits 24-28.
GEMMSCOPE_HD constexpr uint32_t instr_desc_bf16_f32(uint32_t m, uint32_t n) {
  return (1u << 4) | (1u << 7) | (1u << 10) | ((n >> 3) << 17) | ((m >> 4) << 24);
}

}  // namespace gemmscope::sm100
