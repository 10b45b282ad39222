// libFuzzer target: descriptor words as a user types them after `gemmscope desc
// decode` / `idesc decode` / `desc map --desc`: any 64-bit sm90 or sm100 shared-memory
// descriptor, any 32-bit tcgen05 instruction descriptor, and an operand extent for
// the element map. Input: 8 bytes descriptor, 4 bytes instruction descriptor, then
// rows, k, major, elem_bytes (one byte each).
//
// Findings: a sanitizer report, an exception other than ModelError (uncaught:
// abort), or a broken law:
//   - a word that decodes and validates re-encodes to itself (no field is lost);
//   - an instruction descriptor that decodes re-encodes to itself;
//   - every element of a map that the model accepts lies inside the shared-memory
//     window the descriptor can address (start + offsets below 2^18 + the span).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/idesc_sm100.hpp"

namespace model = gemmscope::model;

namespace {

[[noreturn]] void broken(const char* law, unsigned long long word) {
  std::fprintf(stderr, "fuzz_desc_words: %s (word 0x%016llx)\n", law, word);
  std::abort();
}

template <typename Descriptor>
void check_smem_descriptor(uint64_t bits, const model::OperandExtent& operand) {
  Descriptor d;
  try {
    d = Descriptor::decode(bits);
  } catch (const model::ModelError&) {
    return;  // refused with a message: fine
  }
  (void)d.to_string();
  bool valid = true;
  try {
    d.validate();
  } catch (const model::ModelError&) {
    valid = false;
  }
  if (!valid) return;
  if (d.encode() != bits) broken("decode then encode changed a valid descriptor", bits);
  std::vector<model::ElementAddress> map;
  try {
    map = model::descriptor_address_map(d, operand);
  } catch (const model::ModelError&) {
    return;
  }
  if (map.size() != size_t(operand.rows) * operand.k_elems) broken("map size is not rows * k", bits);
  for (const auto& e : map)
    // 14-bit fields of 16-byte units: start, LBO and SBO each below 2^18; the
    // largest operand here (255 x 255 elements of 4 bytes) adds far less than 2^24.
    if (e.address >= (uint64_t{1} << 26)) broken("element address beyond any operand the fields describe", bits);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 16) return -1;
  uint64_t word = 0;
  uint32_t instr = 0;
  std::memcpy(&word, data, 8);
  std::memcpy(&instr, data + 8, 4);
  model::OperandExtent operand;
  operand.rows = data[12];
  operand.k_elems = data[13];
  operand.major = (data[14] & 1) ? model::OperandMajor::MN : model::OperandMajor::K;
  static constexpr uint32_t kElemBytes[4] = {1, 2, 4, 3};  // 3: must be refused
  operand.elem_bytes = kElemBytes[data[15] & 3];

  check_smem_descriptor<model::SmemDescriptorSm90>(word, operand);
  check_smem_descriptor<model::SmemDescriptorSm100>(word, operand);

  try {
    const auto d = model::InstrDescriptorSm100::decode(instr);
    (void)d.to_string();
    if (d.encode() != instr) broken("instruction descriptor decode then encode changed it", instr);
    for (int cta_group : {1, 2}) {
      try {
        d.validate(cta_group);
      } catch (const model::ModelError&) {
      }
    }
  } catch (const model::ModelError&) {
  }
  return 0;
}
