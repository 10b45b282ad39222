#pragma once
// The descriptor interpreter: which shared-memory byte the tensor core reads for
// each element (row, k) of an MMA operand described by a matrix descriptor. This is
// the model's spec of the canonical layouts; the kernels' own descriptor code is
// tested against it.
//
// PTX ISA: wgmma "Shared Memory Matrix Layout" / "Strides" (canonical layouts) and the
// same section for tcgen05. In units of T = 16 / elem_bytes elements, with core
// matrices of 8 rows x 16 bytes and S = swizzle span (32/64/128 bytes):
//   K-major,  none:     ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
//   K-major,  swizzled: ((8,m),(T,2k)) : ((S/16*T,SBO),(1,T))   LBO unused
//   MN-major, none:     ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
//   MN-major, swizzled: ((T,S/16,m),(8,k)) : ((1,T,LBO),(S/16*T,SBO))
// The swizzle is then applied to the absolute shared-memory address (seen on the
// H200 for wgmma; docs/hardware.md#swizzle-absolute-address). Advancing K inside a swizzled K-major
// tile is done by adding the unswizzled byte offset to the start address.
//
// Base offset (UNCONFIRMED on hardware, PTX ISA wording only): base offset b says the
// swizzle pattern starts at an address P with (P >> 7) & 7 == b, so the row phase
// used by the XOR is ((addr >> 7) - b), not (addr >> 7). With b = 0 this is the
// plain absolute-address swizzle the kernels use.
//
// Out of the model's domain (reported with ModelError, never silently mapped):
//   - a swizzled K-major operand whose K extent spans more than one swizzle row
//     (k_elems * elem_bytes > span): the canonical formula is not a bijection there;
//   - rows not a multiple of the core-matrix height/width, K not whole core matrices;
//   - LBO mode absolute (sm_103a's 48-byte K tiles).
#include <cstdint>
#include <string>
#include <vector>

#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/operand_major.hpp"
#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::model {

// The operand a descriptor describes: `rows` along M (operand A) or N (operand B),
// `k_elems` along K.
struct OperandExtent {
  uint32_t rows = 0;
  uint32_t k_elems = 0;
  OperandMajor major = OperandMajor::K;
  uint32_t elem_bytes = 2;  // 1, 2 or 4
};

// The fields the layout depends on, common to sm90 and sm100.
struct CanonicalSmemLayout {
  uint32_t start_address_bytes = 0;
  uint32_t lbo_bytes = 0;
  uint32_t sbo_bytes = 0;
  uint32_t base_offset = 0;
  SwizzleMode swizzle = SwizzleMode::None;

  static CanonicalSmemLayout from(const SmemDescriptorSm90& desc);   // validates desc
  static CanonicalSmemLayout from(const SmemDescriptorSm100& desc);  // validates desc; refuses absolute LBO mode

  // Throws ModelError when the operand is outside the model's domain (see above).
  void check_operand(const OperandExtent& operand) const;
  // The byte address before the swizzle (start + canonical offset).
  uint64_t linear_address(const OperandExtent& operand, uint32_t row, uint32_t k) const;
  // The byte address the tensor core reads for element (row, k).
  uint64_t address(const OperandExtent& operand, uint32_t row, uint32_t k) const;
};

// The swizzle as the MMA unit applies it to an absolute byte address, with the
// descriptor's base offset (b = 0: the plain TMA/MMA swizzle of swizzle.hpp).
uint64_t mma_swizzle_address(SwizzleMode mode, uint32_t base_offset, uint64_t address);

struct ElementAddress {
  uint32_t row = 0;
  uint32_t k = 0;
  uint64_t address = 0;
};

uint64_t descriptor_element_address(const SmemDescriptorSm90& desc, const OperandExtent& operand, uint32_t row,
                                    uint32_t k);
uint64_t descriptor_element_address(const SmemDescriptorSm100& desc, const OperandExtent& operand, uint32_t row,
                                    uint32_t k);
// Every element of the operand, row-major over (row, k).
std::vector<ElementAddress> descriptor_address_map(const SmemDescriptorSm90& desc, const OperandExtent& operand);
std::vector<ElementAddress> descriptor_address_map(const SmemDescriptorSm100& desc, const OperandExtent& operand);

}  // namespace gemmscope::model
