#pragma once
// Blackwell tcgen05.mma instruction descriptor, kind::f16 (32 bit).
// PTX ISA: "tcgen05 Instruction descriptor" (tcgen05-instruction-desc), table for
// .kind::f16 / .kind::tf32.
//
//   bits 0-1 sparsity selector   bit 2 sparse      bit 3 saturate
//   bits 4-5 D type (0 f16, 1 f32)                 bit 6 reserved
//   bits 7-9 A type (0 f16, 1 bf16)   bits 10-12 B type (0 f16, 1 bf16)
//   bit 13 negate A   bit 14 negate B   bit 15 A major   bit 16 B major (0 K, 1 MN)
//   bits 17-22 N >> 3   bit 23 reserved   bits 24-28 M >> 4   bit 29 reserved
//   bits 30-31 max shift (.ws only)
#include <cstdint>
#include <string>
#include <string_view>

#include "gemmscope/model/operand_major.hpp"

namespace gemmscope::model {

enum class MmaInputType { F16 = 0, BF16 = 1 };
enum class MmaAccumType { F16 = 0, F32 = 1 };

std::string_view to_string(MmaInputType type);             // "f16" / "bf16"
std::string_view to_string(MmaAccumType type);             // "f16" / "f32"
MmaInputType parse_mma_input_type(std::string_view text);  // throws ModelError
MmaAccumType parse_mma_accum_type(std::string_view text);

struct InstrDescriptorSm100 {
  uint32_t sparsity_selector = 0;  // 2 bits
  bool sparse = false;
  bool saturate = false;
  MmaAccumType d_type = MmaAccumType::F32;
  MmaInputType a_type = MmaInputType::BF16;
  MmaInputType b_type = MmaInputType::BF16;
  bool negate_a = false;
  bool negate_b = false;
  OperandMajor a_major = OperandMajor::K;
  OperandMajor b_major = OperandMajor::K;
  uint32_t n = 0;          // N, stored as N >> 3
  uint32_t m = 0;          // M, stored as M >> 4
  uint32_t max_shift = 0;  // .ws only, 2 bits

  // Throws ModelError naming the field, value and limit. Checks the dense kind::f16
  // shape for the given cta_group (1: M in {64,128}, N 8..256 step 8; 2: M in
  // {128,256}, N 16..256 step 16), A and B of one type, bf16 only with f32 D, and the
  // features this model does not cover (sparse, saturate, max shift) left at 0.
  void validate(int cta_group = 1) const;
  // Checks only that every field fits its bits (M multiple of 16 and below 512, N
  // multiple of 8 and below 512), then packs. Call validate() for the shape rules.
  uint32_t encode() const;
  // Throws ModelError for a reserved bit set or a type code with no kind::f16 meaning.
  static InstrDescriptorSm100 decode(uint32_t bits);
  std::string to_string() const;

  bool operator==(const InstrDescriptorSm100&) const = default;
};

}  // namespace gemmscope::model
