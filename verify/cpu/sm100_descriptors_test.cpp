// The Blackwell kernel's descriptor builders (kernels/common/sm100_descriptors.hpp)
// against the model (model::SmemDescriptorSm100, model::InstrDescriptorSm100) and
// against hand-worked bit patterns from the PTX ISA tables (docs/hardware.md#sm100-smem-desc, #sm100-instr-desc).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#if __has_include("common/sm100_descriptors.hpp")
#include "common/sm100_config.hpp"
#include "common/sm100_descriptors.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/idesc_sm100.hpp"

namespace {
using namespace gemmscope;
using model::SwizzleMode;

// ---- Shared-memory descriptor ---------------------------------------------------

// Worked by hand from the table: tile at 0x400, LBO 16 (field 1), SBO 1024 (field
// 64 at bit 32), version 1 at bit 46, swizzle code 2 (128B) at bit 61.
//   0x0000000000000040 | 0x0000000000010000 | 0x0000004000000000 | 0x0000400000000000
//   | 0x4000000000000000 = 0x4000404000010040
TEST(Sm100SmemDescriptor, HandWorkedKMajor128B) {
  EXPECT_EQ(sm100::desc_kmajor_sw128(0x400, 0), 0x4000404000010040ull);
  // K = 16 further in: +32 bytes, start field 0x42.
  EXPECT_EQ(sm100::desc_kmajor_sw128(0x400, 16), 0x4000404000010042ull);
  // The last byte of a 256 KiB window wraps: the field holds (addr & 0x3FFFF) >> 4.
  EXPECT_EQ(sm100::smem_descriptor(0x40000 + 0x400, 16, 1024, 2) & 0x3FFF, 0x40u);
}

TEST(Sm100SmemDescriptor, SwizzleCodesMatchModel) {
  EXPECT_EQ(sm100::kDescSwizzleNone, model::sm100_swizzle_code(SwizzleMode::None));
  EXPECT_EQ(sm100::kDescSwizzle128BAtom32B, model::sm100_swizzle_code(SwizzleMode::B128Atom32));
  EXPECT_EQ(sm100::kDescSwizzle128B, model::sm100_swizzle_code(SwizzleMode::B128));
  EXPECT_EQ(sm100::kDescSwizzle64B, model::sm100_swizzle_code(SwizzleMode::B64));
  EXPECT_EQ(sm100::kDescSwizzle32B, model::sm100_swizzle_code(SwizzleMode::B32));
}

// Every descriptor the MMA warp forms (stage tile base, K step) decodes in the
// model to the intended fields, and equals the model's own encoding.
RC_GTEST_PROP(Sm100SmemDescriptor, KernelDescriptorsDecodeInModel, ()) {
  const uint32_t stage = *rc::gen::inRange<uint32_t>(0, sm100::kStages);
  const bool operand_b = *rc::gen::arbitrary<bool>();
  const uint32_t kk = *rc::gen::inRange<uint32_t>(0, sm100::kMmasPerBlockK);
  // The dynamic shared-memory window starts at some 1024-aligned address.
  const uint32_t window = 1024u * *rc::gen::inRange<uint32_t>(0, 32);
  const uint32_t tile = window + (operand_b ? sm100::smem_b_stage(stage) : sm100::smem_a_stage(stage));
  const uint32_t step_bytes = kk * sm100::kMmaK * sm100::kElemBytes;
  const uint64_t desc = sm100::desc_advance_bytes(sm100::desc_kmajor_sw128(tile, 0), step_bytes);

  const model::SmemDescriptorSm100 d = model::SmemDescriptorSm100::decode(desc);
  RC_ASSERT(d.start_address_bytes == ((tile + 32u * kk) & 0x3FFFFu));
  RC_ASSERT(d.lbo_bytes == 16u);
  RC_ASSERT(d.sbo_bytes == 1024u);  // 8 rows x 128 bytes
  RC_ASSERT(d.version == 1u);
  RC_ASSERT(d.base_offset == 0u);
  RC_ASSERT(d.lbo_mode == model::LboMode::Relative);
  RC_ASSERT(d.swizzle == SwizzleMode::B128);
  d.validate();

  model::SmemDescriptorSm100 expected;
  expected.start_address_bytes = (tile + 32u * kk) & 0x3FFFFu;
  expected.lbo_bytes = 16;
  expected.sbo_bytes = 1024;
  expected.swizzle = SwizzleMode::B128;
  RC_ASSERT(expected.encode() == desc);
  // Advancing the packed value equals building at the K offset.
  RC_ASSERT(desc == sm100::desc_kmajor_sw128(tile, kk * sm100::kMmaK));
}

// The generic builder places each field where the model decodes it, for any
// 16-byte multiples and any valid swizzle code.
RC_GTEST_PROP(Sm100SmemDescriptor, FieldsRoundTripThroughModel, ()) {
  const uint32_t start = 16u * *rc::gen::inRange<uint32_t>(0, 1u << 14);
  const uint32_t lbo = 16u * *rc::gen::inRange<uint32_t>(0, 1u << 14);
  const uint32_t sbo = 16u * *rc::gen::inRange<uint32_t>(0, 1u << 14);
  const uint32_t code = *rc::gen::element<uint32_t>(0u, 1u, 2u, 4u, 6u);
  const model::SmemDescriptorSm100 d =
      model::SmemDescriptorSm100::decode(sm100::smem_descriptor(start, lbo, sbo, code));
  RC_ASSERT(d.start_address_bytes == start);
  RC_ASSERT(d.lbo_bytes == lbo);
  RC_ASSERT(d.sbo_bytes == sbo);
  RC_ASSERT(d.version == 1u);
  RC_ASSERT(model::sm100_swizzle_code(d.swizzle) == code);
}

// ---- Instruction descriptor -------------------------------------------------------

// By hand: D f32 (1 << 4) = 0x10, A bf16 (1 << 7) = 0x80, B bf16 (1 << 10) = 0x400,
// N 256 >> 3 = 32 at bit 17 = 0x400000, M 256 >> 4 = 16 at bit 24 = 0x10000000.
TEST(Sm100InstrDescriptor, HandWorked256x256) {
  EXPECT_EQ(sm100::instr_desc_bf16_f32(256, 256), 0x10400490u);
  // M = 128, N = 16: 8 << 24 = 0x08000000, 2 << 17 = 0x40000.
  EXPECT_EQ(sm100::instr_desc_bf16_f32(128, 16), 0x08040490u);
}

TEST(Sm100InstrDescriptor, KernelShapeIsValidForCtaGroup2) {
  const uint32_t bits = sm100::instr_desc_bf16_f32(sm100::kMmaM, sm100::kMmaN);
  const model::InstrDescriptorSm100 d = model::InstrDescriptorSm100::decode(bits);
  EXPECT_EQ(d.m, 256u);
  EXPECT_EQ(d.n, 256u);
  EXPECT_EQ(d.a_type, model::MmaInputType::BF16);
  EXPECT_EQ(d.b_type, model::MmaInputType::BF16);
  EXPECT_EQ(d.d_type, model::MmaAccumType::F32);
  EXPECT_EQ(d.a_major, model::OperandMajor::K);
  EXPECT_EQ(d.b_major, model::OperandMajor::K);
  EXPECT_FALSE(d.negate_a || d.negate_b || d.sparse || d.saturate);
  EXPECT_NO_THROW(d.validate(2));
  // And not a cta_group::1 shape: M = 256 needs the pair.
  EXPECT_THROW(d.validate(1), model::ModelError);
}

// Every dense cta_group::2 shape: the kernel's packing equals the model's.
RC_GTEST_PROP(Sm100InstrDescriptor, MatchesModelForEveryCtaGroup2Shape, ()) {
  const uint32_t m = *rc::gen::element<uint32_t>(128u, 256u);
  const uint32_t n = 16u * *rc::gen::inRange<uint32_t>(1, 17);
  model::InstrDescriptorSm100 expected;
  expected.m = m;
  expected.n = n;
  expected.validate(2);
  RC_ASSERT(sm100::instr_desc_bf16_f32(m, n) == expected.encode());
}

}  // namespace

#else
TEST(Sm100Descriptors, NeedsKernelHeaders) {
  GTEST_SKIP() << "kernels/common is not on the include path (GEMMSCOPE_BUILD_KERNELS=OFF)";
}
#endif
