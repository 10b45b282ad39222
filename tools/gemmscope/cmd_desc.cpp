// gemmscope desc: encode, decode and interpret shared-memory matrix descriptors
// (sm90 wgmma, sm100 tcgen05). The facts live in model/desc_sm90.hpp,
// desc_sm100.hpp and desc_interpreter.hpp; this file only parses and prints.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.hpp"
#include "options.hpp"
#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/descriptor_json.hpp"
#include "gemmscope/model/error.hpp"

namespace gemmscope::cli {
namespace {

struct DescArgs {
  std::string arch;
  long long start = 0, lbo = 0, sbo = 0, base_offset = 0;
  std::string swizzle = "none";
  std::string lbo_mode = "relative";
  std::string bits_text;  // decode/map: the descriptor as hex
  bool json = false;
  long long rows = 0, k = 0, elem_bytes = 2;
  std::string major = "K";
};

void refuse(const std::string& field, long long value, const std::string& rule) {
  throw std::invalid_argument(field + " = " + std::to_string(value) + " " + rule);
}

bool is_sm90(const std::string& arch) {
  if (arch == "sm90") return true;
  if (arch == "sm100") return false;
  throw std::invalid_argument("--arch = '" + arch + "' must be one of sm90, sm100");
}

uint32_t field_bytes(const char* name, long long value) {
  if (value < 0 || value > 0xFFFFFFFFll) refuse(name, value, "must be in 0..4294967295 bytes");
  return static_cast<uint32_t>(value);
}

uint64_t parse_hex64(const std::string& text, const char* field) {
  std::string digits = text;
  if (digits.rfind("0x", 0) == 0 || digits.rfind("0X", 0) == 0) digits = digits.substr(2);
  if (digits.empty() || digits.size() > 16 || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw std::invalid_argument(std::string(field) + " = '" + text +
                                "' must be a hexadecimal value of at most 64 bits");
  return std::stoull(digits, nullptr, 16);
}

model::SmemDescriptorSm90 sm90_from_fields(const DescArgs& a) {
  model::SmemDescriptorSm90 d;
  d.start_address_bytes = field_bytes("--start", a.start);
  d.lbo_bytes = field_bytes("--lbo", a.lbo);
  d.sbo_bytes = field_bytes("--sbo", a.sbo);
  d.base_offset = field_bytes("--base-offset", a.base_offset);
  d.swizzle = model::parse_swizzle_mode(a.swizzle);
  if (a.lbo_mode != "relative") throw std::invalid_argument("--lbo-mode = '" + a.lbo_mode + "' exists on sm100 only");
  d.validate();
  return d;
}

model::SmemDescriptorSm100 sm100_from_fields(const DescArgs& a) {
  model::SmemDescriptorSm100 d;
  d.start_address_bytes = field_bytes("--start", a.start);
  d.lbo_bytes = field_bytes("--lbo", a.lbo);
  d.sbo_bytes = field_bytes("--sbo", a.sbo);
  d.base_offset = field_bytes("--base-offset", a.base_offset);
  d.swizzle = model::parse_swizzle_mode(a.swizzle);
  d.lbo_mode = model::parse_lbo_mode(a.lbo_mode);
  d.validate();
  return d;
}

void run_encode(const DescArgs& a) {
  const uint64_t bits = is_sm90(a.arch) ? sm90_from_fields(a).encode() : sm100_from_fields(a).encode();
  std::printf("0x%016llx\n", static_cast<unsigned long long>(bits));
}

void run_decode(const DescArgs& a) {
  const uint64_t bits = parse_hex64(a.bits_text, "descriptor");
  std::string text, invalid;
  if (is_sm90(a.arch)) {
    const auto d = model::SmemDescriptorSm90::decode(bits);
    text = a.json ? model::to_json(d) : d.to_string();
  } else {
    const auto d = model::SmemDescriptorSm100::decode(bits);
    text = a.json ? model::to_json(d) : d.to_string();
    // A field out of its range still decodes: its fields are printed to look at, and
    // the word is refused as sm90's with a reserved bit is.
    try {
      d.validate();
    } catch (const model::ModelError& e) {
      invalid = e.what();
    }
  }
  std::printf("%s\n", text.c_str());
  if (!invalid.empty())
    throw CommandExit{kExitBadInput, "descriptor = " + a.bits_text + " is not a valid sm100 descriptor: " + invalid};
}

// Streamed: each element printed as it is computed, so memory does not grow with
// --rows x --k (up to 4096 x 4096 = 16M lines).
void run_map(const DescArgs& a, bool have_bits, const CLI::App* cmd) {
  if (have_bits)
    refuse_options(cmd, {"--start", "--lbo", "--sbo", "--swizzle", "--base-offset", "--lbo-mode"},
                   "with --desc (the descriptor word gives every field)");
  if (a.rows < 1 || a.rows > 4096) refuse("--rows", a.rows, "must be in 1..4096");
  if (a.k < 1 || a.k > 4096) refuse("--k", a.k, "must be in 1..4096");
  if (a.elem_bytes != 1 && a.elem_bytes != 2 && a.elem_bytes != 4)
    refuse("--elem-bytes", a.elem_bytes, "must be 1, 2 or 4");
  const model::OperandExtent op{static_cast<uint32_t>(a.rows), static_cast<uint32_t>(a.k),
                                model::parse_operand_major(a.major), static_cast<uint32_t>(a.elem_bytes)};
  model::CanonicalSmemLayout layout;
  uint64_t bits = 0;
  if (is_sm90(a.arch)) {
    const auto d =
        have_bits ? model::SmemDescriptorSm90::decode(parse_hex64(a.bits_text, "descriptor")) : sm90_from_fields(a);
    bits = d.encode();
    layout = model::CanonicalSmemLayout::from(d);
  } else {
    const auto d =
        have_bits ? model::SmemDescriptorSm100::decode(parse_hex64(a.bits_text, "descriptor")) : sm100_from_fields(a);
    bits = d.encode();
    layout = model::CanonicalSmemLayout::from(d);
  }
  layout.check_operand(op);
  if (a.json) {
    char hex[19];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(bits));
    const nlohmann::ordered_json j{{"arch", a.arch},
                                   {"descriptor", hex},
                                   {"rows", op.rows},
                                   {"k", op.k_elems},
                                   {"major", model::to_string(op.major)},
                                   {"elem_bytes", op.elem_bytes},
                                   {"columns", {"row", "k", "address"}}};
    std::string head = j.dump();
    head.pop_back();  // the closing brace: "elements" follows
    std::fputs(head.c_str(), stdout);
    std::fputs(",\"elements\":[", stdout);
    for (uint32_t r = 0; r < op.rows; ++r)
      for (uint32_t k = 0; k < op.k_elems; ++k)
        std::printf("%s[%u,%u,%llu]", r == 0 && k == 0 ? "" : ",", r, k,
                    static_cast<unsigned long long>(layout.address(op, r, k)));
    std::fputs("]}\n", stdout);
    return;
  }
  std::printf("%5s %5s %8s\n", "row", "k", "address");
  for (uint32_t r = 0; r < op.rows; ++r)
    for (uint32_t k = 0; k < op.k_elems; ++k)
      std::printf("%5u %5u %8llu\n", r, k, static_cast<unsigned long long>(layout.address(op, r, k)));
}

void add_field_options(CLI::App* cmd, DescArgs& a) {
  cmd->add_option("--start", a.start, "start address in bytes (multiple of 16, below 2^18)");
  cmd->add_option("--lbo", a.lbo, "leading-dimension byte offset (multiple of 16)");
  cmd->add_option("--sbo", a.sbo, "stride-dimension byte offset (multiple of 16)");
  cmd->add_option("--swizzle", a.swizzle, "none, 32B, 64B, 128B, 128B-atom32B (sm100)")->capture_default_str();
  cmd->add_option("--base-offset", a.base_offset, "matrix base offset 0..7")->capture_default_str();
  cmd->add_option("--lbo-mode", a.lbo_mode, "relative or absolute (sm100 only)")->capture_default_str();
}

const Registration reg{
    "desc", [](CLI::App& app) {
      auto args = std::make_shared<DescArgs>();
      auto* desc = app.add_subcommand("desc", "shared-memory matrix descriptors: encode, decode, element map");
      desc->require_subcommand(1);

      auto* enc = desc->add_subcommand("encode", "pack descriptor fields; prints 0x + 16 hex digits");
      enc->add_option("--arch", args->arch, "sm90 or sm100")->required();
      add_field_options(enc, *args);
      enc->callback([args] { run_encode(*args); });

      auto* dec = desc->add_subcommand("decode", "unpack a descriptor");
      dec->add_option("--arch", args->arch, "sm90 or sm100")->required();
      dec->add_option("descriptor", args->bits_text, "the 64-bit descriptor in hex")->required();
      dec->add_flag("--json", args->json, "print one JSON object");
      dec->callback([args] { run_decode(*args); });

      auto* map = desc->add_subcommand("map", "shared-memory byte address of every operand element (row, k)");
      map->add_option("--arch", args->arch, "sm90 or sm100")->required();
      map->add_option("--desc", args->bits_text, "the descriptor in hex (instead of the field options)");
      add_field_options(map, *args);
      map->add_option("--rows", args->rows, "operand rows (M for A, N for B)")->required();
      map->add_option("--k", args->k, "operand K extent in elements")->required();
      map->add_option("--major", args->major, "K or MN")->capture_default_str();
      map->add_option("--elem-bytes", args->elem_bytes, "element size in bytes")->capture_default_str();
      map->add_flag("--json", args->json, "print one JSON object");
      map->callback([args, map] { run_map(*args, given(map, "--desc"), map); });
    }};

}  // namespace
}  // namespace gemmscope::cli
