// Shared-memory matrix descriptors (sm90 wgmma, sm100 tcgen05). Expected values come
// from hand-packed examples (docs/hardware.md#wgmma-desc-sm90, #sm100-smem-desc; PTX ISA "Matrix
// Descriptor") and from a bit-by-bit reference packer written here, never from
// encode()/decode() themselves.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <string>

#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/error.hpp"

using namespace gemmscope::model;

namespace {

// rapidcheck's default is 100 cases; run 300 unless RC_PARAMS already says otherwise.
const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

// Sets `width` bits of `value` one at a time starting at bit `lsb`.
void put_bits(uint64_t& word, int lsb, int width, uint64_t value) {
  for (int i = 0; i < width; ++i)
    if ((value >> i) & 1) word |= uint64_t{1} << (lsb + i);
}

// Swizzle codes as the PTX ISA tables list them.
uint64_t sm90_code_table(SwizzleMode m) {
  if (m == SwizzleMode::None) return 0;
  if (m == SwizzleMode::B128) return 1;
  if (m == SwizzleMode::B64) return 2;
  return 3;  // 32B
}
uint64_t sm100_code_table(SwizzleMode m) {
  if (m == SwizzleMode::None) return 0;
  if (m == SwizzleMode::B128Atom32) return 1;
  if (m == SwizzleMode::B128) return 2;
  if (m == SwizzleMode::B64) return 4;
  return 6;  // 32B
}

uint64_t reference_pack_sm90(const SmemDescriptorSm90& d) {
  uint64_t w = 0;
  put_bits(w, 0, 14, d.start_address_bytes / 16);
  put_bits(w, 16, 14, d.lbo_bytes / 16);
  put_bits(w, 32, 14, d.sbo_bytes / 16);
  put_bits(w, 49, 3, d.base_offset);
  put_bits(w, 62, 2, sm90_code_table(d.swizzle));
  return w;
}

uint64_t reference_pack_sm100(const SmemDescriptorSm100& d) {
  uint64_t w = 0;
  put_bits(w, 0, 14, d.start_address_bytes / 16);
  put_bits(w, 16, 14, d.lbo_bytes / 16);
  put_bits(w, 32, 14, d.sbo_bytes / 16);
  put_bits(w, 46, 3, 1);
  put_bits(w, 49, 3, d.base_offset);
  put_bits(w, 52, 1, d.lbo_mode == LboMode::Absolute ? 1 : 0);
  put_bits(w, 61, 3, sm100_code_table(d.swizzle));
  return w;
}

rc::Gen<uint32_t> gen_field_bytes() {
  return rc::gen::map(rc::gen::inRange<uint32_t>(0, 1u << 14), [](uint32_t v) { return v * 16; });
}

template <class Desc>
Desc gen_valid_common(std::initializer_list<SwizzleMode> modes) {
  Desc d;
  d.start_address_bytes = *gen_field_bytes();
  d.lbo_bytes = *gen_field_bytes();
  d.sbo_bytes = *gen_field_bytes();
  d.swizzle = *rc::gen::elementOf(std::vector<SwizzleMode>(modes));
  d.base_offset = d.swizzle == SwizzleMode::None ? 0 : *rc::gen::inRange<uint32_t>(0, 8);
  return d;
}

// Expects a ModelError whose message names `field` and `value`.
template <class F>
void expect_model_error(F&& f, const std::string& field, const std::string& value) {
  try {
    f();
    ADD_FAILURE() << "expected ModelError naming " << field;
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(field), std::string::npos) << what;
    EXPECT_NE(what.find(value), std::string::npos) << what;
  }
}

}  // namespace

// ---- hand-worked examples ------------------------------------------------------

TEST(SmemDescriptorSm90, HandPackedExample128B) {
  // start 1024 -> 64 (0x40); LBO 16 -> 1 at bit 16; SBO 1024 -> 64 at bit 32; code 1 at bit 62.
  SmemDescriptorSm90 d{1024, 16, 1024, 0, SwizzleMode::B128};
  EXPECT_EQ(d.encode(), 0x4000004000010040ull);
  EXPECT_EQ(SmemDescriptorSm90::decode(0x4000004000010040ull), d);
}

TEST(SmemDescriptorSm90, HandPackedExampleInterleaveAndOtherModes) {
  // No swizzle, K-major interleaved tile of 128 rows: LBO = 128*16 = 2048 -> 128, SBO = 128 -> 8.
  SmemDescriptorSm90 d{0x1230, 2048, 128, 0, SwizzleMode::None};
  EXPECT_EQ(d.encode(), 0x0000000800800123ull);
  EXPECT_EQ((SmemDescriptorSm90{0, 0, 0, 0, SwizzleMode::B64}.encode()), 0x8000000000000000ull);
  EXPECT_EQ((SmemDescriptorSm90{0, 0, 0, 0, SwizzleMode::B32}.encode()), 0xC000000000000000ull);
  // Base offset 5 in bits 49-51.
  EXPECT_EQ((SmemDescriptorSm90{0, 0, 0, 5, SwizzleMode::B128}.encode()), 0x400A000000000000ull);
  // Largest encodable start address: 2^18 - 16 -> 0x3FFF.
  EXPECT_EQ((SmemDescriptorSm90{262128, 0, 0, 0, SwizzleMode::None}.encode()), 0x3FFFull);
}

TEST(SmemDescriptorSm100, HandPackedExample128B) {
  // Same fields as the sm90 example plus version 1 at bit 46 and code 2 at bits 61-63.
  SmemDescriptorSm100 d;
  d.start_address_bytes = 1024;
  d.lbo_bytes = 16;
  d.sbo_bytes = 1024;
  d.swizzle = SwizzleMode::B128;
  EXPECT_EQ(d.encode(), 0x4000404000010040ull);
  EXPECT_EQ(SmemDescriptorSm100::decode(0x4000404000010040ull), d);
}

TEST(SmemDescriptorSm100, SwizzleCodesAndLboMode) {
  auto with = [](SwizzleMode m) {
    SmemDescriptorSm100 d;
    d.swizzle = m;
    return d.encode();
  };
  EXPECT_EQ(with(SwizzleMode::None), 0x0000400000000000ull);
  EXPECT_EQ(with(SwizzleMode::B128Atom32), 0x2000400000000000ull);
  EXPECT_EQ(with(SwizzleMode::B128), 0x4000400000000000ull);
  EXPECT_EQ(with(SwizzleMode::B64), 0x8000400000000000ull);
  EXPECT_EQ(with(SwizzleMode::B32), 0xC000400000000000ull);
  SmemDescriptorSm100 d;
  d.lbo_mode = LboMode::Absolute;
  EXPECT_EQ(d.encode(), 0x0010400000000000ull);
}

// ---- validation ------------------------------------------------------------------

TEST(SmemDescriptorSm90, ValidateNamesFieldValueAndLimit) {
  expect_model_error([] { SmemDescriptorSm90{17, 0, 0, 0, SwizzleMode::None}.encode(); }, "start_address_bytes", "17");
  expect_model_error(
      [] {
        SmemDescriptorSm90{262144, 0, 0, 0, SwizzleMode::None}.encode();
      },
      "start_address_bytes", "262144");
  expect_model_error([] { SmemDescriptorSm90{0, 8, 0, 0, SwizzleMode::None}.encode(); }, "lbo_bytes", "8");
  expect_model_error([] { SmemDescriptorSm90{0, 0, 1u << 18, 0, SwizzleMode::B128}.encode(); }, "sbo_bytes", "262144");
  expect_model_error([] { SmemDescriptorSm90{0, 0, 24, 0, SwizzleMode::B128}.encode(); }, "sbo_bytes", "24");
  expect_model_error([] { SmemDescriptorSm90{0, 0, 0, 8, SwizzleMode::B128}.encode(); }, "base_offset", "8");
  expect_model_error([] { SmemDescriptorSm90{0, 0, 0, 1, SwizzleMode::None}.encode(); }, "base_offset", "1");
  expect_model_error(
      [] {
        SmemDescriptorSm90{0, 0, 0, 0, SwizzleMode::B128Atom32}.encode();
      },
      "swizzle", "128B-atom32B");
}

TEST(SmemDescriptorSm90, DecodeRefusesReservedBits) {
  for (int bit : {14, 15, 30, 31, 46, 47, 48, 52, 55, 61}) {
    const uint64_t bits = uint64_t{1} << bit;
    EXPECT_THROW(SmemDescriptorSm90::decode(bits), ModelError) << "bit " << bit;
  }
}

TEST(SmemDescriptorSm100, ValidateAndDecodeErrors) {
  SmemDescriptorSm100 d;
  d.version = 0;
  expect_model_error([&] { d.encode(); }, "version", "0");
  for (uint64_t code : {3u, 5u, 7u}) {
    const uint64_t bits = (uint64_t{1} << 46) | (code << 61);
    expect_model_error([&] { SmemDescriptorSm100::decode(bits); }, "swizzle code", std::to_string(code));
  }
  for (int bit : {14, 15, 30, 31, 53, 60}) EXPECT_THROW(SmemDescriptorSm100::decode(uint64_t{1} << bit), ModelError);
  SmemDescriptorSm100 e;
  e.start_address_bytes = 40;
  expect_model_error([&] { e.encode(); }, "start_address_bytes", "40");
}

TEST(SmemDescriptor, PrinterShowsFieldsAndSwizzleName) {
  const std::string s = SmemDescriptorSm90{1024, 16, 1024, 0, SwizzleMode::B128}.to_string();
  EXPECT_NE(s.find("start_address=1024"), std::string::npos) << s;
  EXPECT_NE(s.find("swizzle=128B"), std::string::npos) << s;
  EXPECT_NE(s.find("0x4000004000010040"), std::string::npos) << s;
  SmemDescriptorSm100 d;
  d.swizzle = SwizzleMode::B128Atom32;
  EXPECT_NE(d.to_string().find("swizzle=128B-atom32B"), std::string::npos);
  // An invalid descriptor still prints, and says why it is invalid.
  EXPECT_NE((SmemDescriptorSm90{3, 0, 0, 0, SwizzleMode::None}.to_string().find("invalid")), std::string::npos);
}

// ---- properties --------------------------------------------------------------------

RC_GTEST_PROP(SmemDescriptorSm90, EncodeMatchesBitByBitPacker, ()) {
  const auto d =
      gen_valid_common<SmemDescriptorSm90>({SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128});
  RC_ASSERT(d.encode() == reference_pack_sm90(d));
  RC_ASSERT(SmemDescriptorSm90::decode(d.encode()) == d);
}

RC_GTEST_PROP(SmemDescriptorSm100, EncodeMatchesBitByBitPacker, ()) {
  auto d = gen_valid_common<SmemDescriptorSm100>(
      {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128, SwizzleMode::B128Atom32});
  d.lbo_mode = *rc::gen::element(LboMode::Relative, LboMode::Absolute);
  RC_ASSERT(d.encode() == reference_pack_sm100(d));
  RC_ASSERT(SmemDescriptorSm100::decode(d.encode()) == d);
}

RC_GTEST_PROP(SmemDescriptorSm90, DecodeOfAnyWordIsRefusedOrReencodesExactly, (uint64_t bits)) {
  // Reserved bits are cleared with probability 1/2 so that both branches are exercised.
  if (*rc::gen::arbitrary<bool>()) bits &= 0xC00E3FFF3FFF3FFFull;
  SmemDescriptorSm90 d;
  try {
    d = SmemDescriptorSm90::decode(bits);
  } catch (const ModelError&) {
    RC_ASSERT((bits & ~0xC00E3FFF3FFF3FFFull) != 0);  // only reserved bits make sm90 decode fail
    return;
  }
  try {
    RC_ASSERT(d.encode() == bits);
  } catch (const ModelError&) {
    RC_ASSERT(d.swizzle == SwizzleMode::None && d.base_offset != 0);  // the one validate-level rule
  }
}

RC_GTEST_PROP(SmemDescriptorSm100, DecodeOfAnyWordIsRefusedOrReencodesExactly, (uint64_t bits)) {
  constexpr uint64_t kFields = 0xE01FFFFF3FFF3FFFull;
  if (*rc::gen::arbitrary<bool>()) bits &= kFields;
  const uint64_t code = bits >> 61;
  const bool bad_code = code == 3 || code == 5 || code == 7;
  SmemDescriptorSm100 d;
  try {
    d = SmemDescriptorSm100::decode(bits);
  } catch (const ModelError&) {
    RC_ASSERT((bits & ~kFields) != 0 || bad_code);
    return;
  }
  RC_ASSERT(!bad_code);
  try {
    RC_ASSERT(d.encode() == bits);
  } catch (const ModelError&) {
    RC_ASSERT(d.version != 1 || (d.swizzle == SwizzleMode::None && d.base_offset != 0));
  }
}

RC_GTEST_PROP(SmemDescriptorSm90, UnalignedOrOversizedFieldsAreRefused, ()) {
  SmemDescriptorSm90 d{0, 0, 0, 0, SwizzleMode::B128};
  const int which = *rc::gen::inRange(0, 3);
  const bool unaligned = *rc::gen::arbitrary<bool>();
  const uint32_t bad =
      unaligned ? *rc::gen::suchThat(rc::gen::inRange<uint32_t>(1, 1u << 18), [](uint32_t v) { return v % 16 != 0; })
                : *rc::gen::inRange<uint32_t>(1u << 18, 1u << 31);
  (which == 0 ? d.start_address_bytes : which == 1 ? d.lbo_bytes : d.sbo_bytes) = bad;
  RC_ASSERT_THROWS_AS(d.encode(), ModelError);
}
