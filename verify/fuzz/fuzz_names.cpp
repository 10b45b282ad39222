// libFuzzer target: the names a user types for enumerated options: swizzle modes
// (model::parse_swizzle_mode, used by desc, swizzle and banks), LBO modes, operand
// majors, MMA types, TMEM load shapes.
//
// Findings: a sanitizer report, an exception other than ModelError, or a broken law:
// a name that parses prints back as the same text up to ASCII case (the parsers accept
// the canonical spelling, and operand majors also in lower case: "k", "mn"), so no
// text is read as a mode whose name it does not spell.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/idesc_sm100.hpp"
#include "gemmscope/model/operand_major.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tmem.hpp"

namespace model = gemmscope::model;

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

template <typename Parse>
void check_name(const char* what, std::string_view text, Parse parse) {
  try {
    const auto value = parse(text);
    if (lower(model::to_string(value)) != lower(text)) {
      std::fprintf(stderr, "fuzz_names: %s '%.*s' parses but prints as '%.*s'\n", what, int(text.size()), text.data(),
                   int(model::to_string(value).size()), model::to_string(value).data());
      std::abort();
    }
  } catch (const model::ModelError& e) {
    // The message quotes the text; it must at least say what was refused.
    if (std::string_view(e.what()).empty()) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_name("swizzle mode", text, model::parse_swizzle_mode);
  check_name("lbo mode", text, model::parse_lbo_mode);
  check_name("operand major", text, model::parse_operand_major);
  check_name("mma input type", text, model::parse_mma_input_type);
  check_name("mma accumulator type", text, model::parse_mma_accum_type);
  check_name("tmem shape", text, model::parse_tmem_ld_shape);
  return 0;
}
