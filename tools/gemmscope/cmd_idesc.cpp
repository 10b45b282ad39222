// gemmscope idesc: encode and decode the Blackwell tcgen05.mma instruction descriptor
// (kind::f16). The facts live in model/idesc_sm100.hpp.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "gemmscope/model/descriptor_json.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/idesc_sm100.hpp"

namespace gemmscope::cli {
namespace {

struct IdescArgs {
  long long m = 0, n = 0;
  std::string a = "bf16", b = "bf16", d = "f32";
  std::string a_major = "K", b_major = "K";
  bool negate_a = false, negate_b = false;
  int cta_group = 1;
  std::string bits_text;
  bool json = false;
};

uint32_t parse_hex32(const std::string& text) {
  std::string digits = text;
  if (digits.rfind("0x", 0) == 0 || digits.rfind("0X", 0) == 0) digits = digits.substr(2);
  if (digits.empty() || digits.size() > 8 || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw std::invalid_argument("instruction descriptor = '" + text +
                                "' must be a hexadecimal value of at most 32 bits");
  return static_cast<uint32_t>(std::stoul(digits, nullptr, 16));
}

void run_encode(const IdescArgs& a) {
  if (a.m < 0 || a.m > 4096) throw std::invalid_argument("--m = " + std::to_string(a.m) + " must be 64, 128 or 256");
  if (a.n < 0 || a.n > 4096) throw std::invalid_argument("--n = " + std::to_string(a.n) + " must be in 8..256");
  model::InstrDescriptorSm100 d;
  d.m = static_cast<uint32_t>(a.m);
  d.n = static_cast<uint32_t>(a.n);
  d.a_type = model::parse_mma_input_type(a.a);
  d.b_type = model::parse_mma_input_type(a.b);
  d.d_type = model::parse_mma_accum_type(a.d);
  d.a_major = model::parse_operand_major(a.a_major);
  d.b_major = model::parse_operand_major(a.b_major);
  d.negate_a = a.negate_a;
  d.negate_b = a.negate_b;
  d.validate(a.cta_group);
  std::printf("0x%08x\n", d.encode());
}

void run_decode(const IdescArgs& a) {
  const auto d = model::InstrDescriptorSm100::decode(parse_hex32(a.bits_text));
  std::printf("%s\n", (a.json ? model::to_json(d) : d.to_string()).c_str());
}

const Registration reg{
    "idesc", [](CLI::App& app) {
      auto args = std::make_shared<IdescArgs>();
      auto* idesc = app.add_subcommand("idesc", "tcgen05.mma instruction descriptor (kind::f16): encode, decode");
      idesc->require_subcommand(1);

      auto* enc = idesc->add_subcommand("encode", "pack the fields; prints 0x + 8 hex digits");
      enc->add_option("--m", args->m, "M: 64/128 (cta_group::1), 128/256 (cta_group::2)")->required();
      enc->add_option("--n", args->n, "N: 8..256 step 8 (cta_group::1), 16..256 step 16 (cta_group::2)")->required();
      enc->add_option("--a", args->a, "A type: f16 or bf16")->capture_default_str();
      enc->add_option("--b", args->b, "B type: f16 or bf16")->capture_default_str();
      enc->add_option("--d", args->d, "D (accumulator) type: f16 or f32")->capture_default_str();
      enc->add_option("--a-major", args->a_major, "K or MN")->capture_default_str();
      enc->add_option("--b-major", args->b_major, "K or MN")->capture_default_str();
      enc->add_flag("--negate-a", args->negate_a, "negate A");
      enc->add_flag("--negate-b", args->negate_b, "negate B");
      enc->add_option("--cta-group", args->cta_group, "1 or 2 (checks the shape; not encoded)")->capture_default_str();
      enc->callback([args] { run_encode(*args); });

      auto* dec = idesc->add_subcommand("decode", "unpack an instruction descriptor");
      dec->add_option("descriptor", args->bits_text, "the 32-bit descriptor in hex")->required();
      dec->add_flag("--json", args->json, "print one JSON object");
      dec->callback([args] { run_decode(*args); });
    }};

}  // namespace
}  // namespace gemmscope::cli
