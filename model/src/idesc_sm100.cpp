#include "gemmscope/model/idesc_sm100.hpp"

#include <cstdio>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

std::string_view to_string(MmaInputType type) { return type == MmaInputType::F16 ? "f16" : "bf16"; }
std::string_view to_string(MmaAccumType type) { return type == MmaAccumType::F16 ? "f16" : "f32"; }

MmaInputType parse_mma_input_type(std::string_view text) {
  if (text == "f16") return MmaInputType::F16;
  if (text == "bf16") return MmaInputType::BF16;
  throw ModelError("input type '" + std::string(text) + "' is not one of f16, bf16 (kind::f16)");
}
MmaAccumType parse_mma_accum_type(std::string_view text) {
  if (text == "f16") return MmaAccumType::F16;
  if (text == "f32") return MmaAccumType::F32;
  throw ModelError("accumulator type '" + std::string(text) + "' is not one of f16, f32 (kind::f16)");
}

void InstrDescriptorSm100::validate(int cta_group) const {
  require(cta_group == 1 || cta_group == 2, "cta_group", cta_group, "must be 1 or 2");
  require(!sparse, "sparse", sparse, "must be 0: the model covers dense kind::f16 only");
  require(sparsity_selector == 0, "sparsity_selector", sparsity_selector, "must be 0 for dense MMA");
  require(!saturate, "saturate", saturate, "must be 0: saturation applies to kind::i8 only");
  require(max_shift == 0, "max_shift", max_shift, "must be 0: max shift is for tcgen05.mma.ws only");
  // PTX ISA, kind::f16 type table: f16 x f16 -> f16 or f32; bf16 x bf16 -> f32.
  require(a_type == b_type, "b_type", static_cast<int>(b_type),
          "must equal a_type (" + std::string(gemmscope::model::to_string(a_type)) + ") for kind::f16");
  require(a_type == MmaInputType::F16 || d_type == MmaAccumType::F32, "d_type", static_cast<int>(d_type),
          "must be f32 (1) when A/B are bf16");
  // PTX ISA, tcgen05.mma "Matrix shape", dense kind::f16.
  if (cta_group == 1) {
    require(m == 64 || m == 128, "m", m, "must be 64 or 128 for cta_group::1");
    require(n >= 8 && n <= 256 && n % 8 == 0, "n", n, "must be 8..256 in steps of 8 for cta_group::1");
  } else {
    require(m == 128 || m == 256, "m", m, "must be 128 or 256 for cta_group::2");
    require(n >= 16 && n <= 256 && n % 16 == 0, "n", n, "must be 16..256 in steps of 16 for cta_group::2");
  }
}

uint32_t InstrDescriptorSm100::encode() const {
  require(sparsity_selector < 4, "sparsity_selector", sparsity_selector, "must be in 0..3 (2-bit field)");
  require(max_shift < 4, "max_shift", max_shift, "must be in 0..3 (2-bit field)");
  require(m % 16 == 0 && m < (32u << 4), "m", m, "must be a multiple of 16 below 512 (bits 24-28 hold M >> 4)");
  require(n % 8 == 0 && n < (64u << 3), "n", n, "must be a multiple of 8 below 512 (bits 17-22 hold N >> 3)");
  uint32_t bits = 0;
  bits |= sparsity_selector << 0;
  bits |= uint32_t{sparse} << 2;
  bits |= uint32_t{saturate} << 3;
  bits |= static_cast<uint32_t>(d_type) << 4;
  bits |= static_cast<uint32_t>(a_type) << 7;
  bits |= static_cast<uint32_t>(b_type) << 10;
  bits |= uint32_t{negate_a} << 13;
  bits |= uint32_t{negate_b} << 14;
  bits |= static_cast<uint32_t>(a_major) << 15;
  bits |= static_cast<uint32_t>(b_major) << 16;
  bits |= (n >> 3) << 17;
  bits |= (m >> 4) << 24;
  bits |= max_shift << 30;
  return bits;
}

InstrDescriptorSm100 InstrDescriptorSm100::decode(uint32_t bits) {
  constexpr uint32_t kReserved = (1u << 6) | (1u << 23) | (1u << 29);
  if (bits & kReserved) {
    char text[128];
    std::snprintf(text, sizeof text, "instruction descriptor = 0x%08x has reserved bits set (0x%08x; bits 6, 23, 29)",
                  bits, bits & kReserved);
    throw ModelError(text);
  }
  const uint32_t d_code = (bits >> 4) & 0x3, a_code = (bits >> 7) & 0x7, b_code = (bits >> 10) & 0x7;
  require(d_code <= 1, "d_type code", d_code, "must be 0 (f16) or 1 (f32) for kind::f16");
  require(a_code <= 1, "a_type code", a_code, "must be 0 (f16) or 1 (bf16) for kind::f16");
  require(b_code <= 1, "b_type code", b_code, "must be 0 (f16) or 1 (bf16) for kind::f16");
  InstrDescriptorSm100 d;
  d.sparsity_selector = bits & 0x3;
  d.sparse = (bits >> 2) & 1;
  d.saturate = (bits >> 3) & 1;
  d.d_type = static_cast<MmaAccumType>(d_code);
  d.a_type = static_cast<MmaInputType>(a_code);
  d.b_type = static_cast<MmaInputType>(b_code);
  d.negate_a = (bits >> 13) & 1;
  d.negate_b = (bits >> 14) & 1;
  d.a_major = static_cast<OperandMajor>((bits >> 15) & 1);
  d.b_major = static_cast<OperandMajor>((bits >> 16) & 1);
  d.n = ((bits >> 17) & 0x3F) << 3;
  d.m = ((bits >> 24) & 0x1F) << 4;
  d.max_shift = (bits >> 30) & 0x3;
  return d;
}

std::string InstrDescriptorSm100::to_string() const {
  std::string s = "InstrDescriptorSm100{kind::f16, m=" + std::to_string(m) + ", n=" + std::to_string(n) +
                  ", d=" + std::string(gemmscope::model::to_string(d_type)) +
                  ", a=" + std::string(gemmscope::model::to_string(a_type)) +
                  ", b=" + std::string(gemmscope::model::to_string(b_type)) +
                  ", a_major=" + std::string(gemmscope::model::to_string(a_major)) +
                  ", b_major=" + std::string(gemmscope::model::to_string(b_major)) +
                  ", negate_a=" + std::to_string(negate_a) + ", negate_b=" + std::to_string(negate_b) +
                  ", sparse=" + std::to_string(sparse) + ", sparsity_selector=" + std::to_string(sparsity_selector) +
                  ", saturate=" + std::to_string(saturate) + ", max_shift=" + std::to_string(max_shift) + "}";
  try {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", encode());
    s += " = " + std::string(text);
  } catch (const ModelError& e) {
    s += " (invalid: " + std::string(e.what()) + ")";
  }
  return s;
}

}  // namespace gemmscope::model
