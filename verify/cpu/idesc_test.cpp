// Blackwell instruction descriptor (kind::f16). Expected values: hand-packed words
// from the bit table of docs/hardware.md#sm100-instr-desc, a bit-by-bit reference packer, and the shape
// rules written as explicit lists.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "gemmscope/model/error.hpp"
#include "gemmscope/model/idesc_sm100.hpp"

using namespace gemmscope::model;

namespace {

const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

void put_bits(uint32_t& word, int lsb, int width, uint32_t value) {
  for (int i = 0; i < width; ++i)
    if ((value >> i) & 1) word |= 1u << (lsb + i);
}

uint32_t reference_pack(const InstrDescriptorSm100& d) {
  uint32_t w = 0;
  put_bits(w, 0, 2, d.sparsity_selector);
  put_bits(w, 2, 1, d.sparse);
  put_bits(w, 3, 1, d.saturate);
  put_bits(w, 4, 2, d.d_type == MmaAccumType::F32 ? 1 : 0);
  put_bits(w, 7, 3, d.a_type == MmaInputType::BF16 ? 1 : 0);
  put_bits(w, 10, 3, d.b_type == MmaInputType::BF16 ? 1 : 0);
  put_bits(w, 13, 1, d.negate_a);
  put_bits(w, 14, 1, d.negate_b);
  put_bits(w, 15, 1, d.a_major == OperandMajor::MN);
  put_bits(w, 16, 1, d.b_major == OperandMajor::MN);
  put_bits(w, 17, 6, d.n / 8);
  put_bits(w, 24, 5, d.m / 16);
  put_bits(w, 30, 2, d.max_shift);
  return w;
}

// Dense kind::f16 shapes, as the PTX ISA "Matrix shape" table lists them.
bool shape_is_valid(uint32_t m, uint32_t n, int cta_group) {
  std::set<uint32_t> ms, ns;
  if (cta_group == 1) {
    ms = {64, 128};
    for (uint32_t v = 8; v <= 256; v += 8) ns.insert(v);
  } else {
    ms = {128, 256};
    for (uint32_t v = 16; v <= 256; v += 16) ns.insert(v);
  }
  return ms.count(m) && ns.count(n);
}

InstrDescriptorSm100 bf16_desc(uint32_t m, uint32_t n) {
  InstrDescriptorSm100 d;
  d.m = m;
  d.n = n;
  return d;
}

}  // namespace

TEST(InstrDescriptorSm100, HandPackedBf16M128N256) {
  // d f32 (1<<4) | a bf16 (1<<7) | b bf16 (1<<10) | N>>3 = 32 at bit 17 | M>>4 = 8 at bit 24.
  const auto d = bf16_desc(128, 256);
  EXPECT_EQ(d.encode(), 0x08400490u);
  EXPECT_EQ(InstrDescriptorSm100::decode(0x08400490u), d);
  EXPECT_NO_THROW(d.validate(1));
}

TEST(InstrDescriptorSm100, HandPackedF16M64N8MnMajorNegateA) {
  InstrDescriptorSm100 d;
  d.m = 64;
  d.n = 8;
  d.d_type = MmaAccumType::F16;
  d.a_type = d.b_type = MmaInputType::F16;
  d.a_major = d.b_major = OperandMajor::MN;
  d.negate_a = true;
  // negate A 1<<13 | A MN 1<<15 | B MN 1<<16 | N>>3 = 1 at bit 17 | M>>4 = 4 at bit 24.
  EXPECT_EQ(d.encode(), 0x0403A000u);
  EXPECT_EQ(InstrDescriptorSm100::decode(0x0403A000u), d);
  EXPECT_NO_THROW(d.validate(1));
}

TEST(InstrDescriptorSm100, ShapeRulesForBothCtaGroups) {
  for (int cg : {1, 2})
    for (uint32_t m = 0; m < 512; m += 16)
      for (uint32_t n = 0; n < 512; n += 8) {
        const auto d = bf16_desc(m, n);
        if (shape_is_valid(m, n, cg))
          EXPECT_NO_THROW(d.validate(cg)) << m << "x" << n << " cg" << cg;
        else
          EXPECT_THROW(d.validate(cg), ModelError) << m << "x" << n << " cg" << cg;
      }
}

TEST(InstrDescriptorSm100, ErrorsNameFieldValueAndLimit) {
  try {
    bf16_desc(128, 8).validate(2);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("n = 8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cta_group::2"), std::string::npos) << e.what();
  }
  try {
    bf16_desc(96, 64).validate(1);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("m = 96"), std::string::npos) << e.what();
  }
  EXPECT_THROW(bf16_desc(128, 12).encode(), ModelError);  // N not a multiple of 8
  EXPECT_THROW(bf16_desc(520, 64).encode(), ModelError);  // M beyond 5 bits
  EXPECT_THROW(bf16_desc(128, 64).validate(3), ModelError);
  auto mixed = bf16_desc(128, 64);
  mixed.b_type = MmaInputType::F16;
  EXPECT_THROW(mixed.validate(), ModelError);
  auto bf16_f16 = bf16_desc(128, 64);
  bf16_f16.d_type = MmaAccumType::F16;
  EXPECT_THROW(bf16_f16.validate(), ModelError);
  auto sparse = bf16_desc(128, 64);
  sparse.sparse = true;
  EXPECT_THROW(sparse.validate(), ModelError);
}

TEST(InstrDescriptorSm100, DecodeRefusesReservedBitsAndUnknownTypes) {
  for (int bit : {6, 23, 29}) EXPECT_THROW(InstrDescriptorSm100::decode(0x08400490u | (1u << bit)), ModelError);
  EXPECT_THROW(InstrDescriptorSm100::decode(0x08400490u | (2u << 4)), ModelError);   // D code 2 (s32)
  EXPECT_THROW(InstrDescriptorSm100::decode(0x08400490u | (2u << 7)), ModelError);   // A code 3
  EXPECT_THROW(InstrDescriptorSm100::decode(0x08400490u | (4u << 10)), ModelError);  // B code 5
}

RC_GTEST_PROP(InstrDescriptorSm100, EncodeMatchesBitByBitPackerAndRoundTrips, ()) {
  InstrDescriptorSm100 d;
  d.sparsity_selector = *rc::gen::inRange<uint32_t>(0, 4);
  d.sparse = *rc::gen::arbitrary<bool>();
  d.saturate = *rc::gen::arbitrary<bool>();
  d.d_type = *rc::gen::element(MmaAccumType::F16, MmaAccumType::F32);
  d.a_type = *rc::gen::element(MmaInputType::F16, MmaInputType::BF16);
  d.b_type = *rc::gen::element(MmaInputType::F16, MmaInputType::BF16);
  d.negate_a = *rc::gen::arbitrary<bool>();
  d.negate_b = *rc::gen::arbitrary<bool>();
  d.a_major = *rc::gen::element(OperandMajor::K, OperandMajor::MN);
  d.b_major = *rc::gen::element(OperandMajor::K, OperandMajor::MN);
  d.n = 8 * *rc::gen::inRange<uint32_t>(0, 64);
  d.m = 16 * *rc::gen::inRange<uint32_t>(0, 32);
  d.max_shift = *rc::gen::inRange<uint32_t>(0, 4);
  RC_ASSERT(d.encode() == reference_pack(d));
  RC_ASSERT(InstrDescriptorSm100::decode(d.encode()) == d);
}
