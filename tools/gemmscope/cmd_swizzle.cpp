// gemmscope swizzle: where a byte offset lands under a TMA/MMA swizzle mode, or the
// table of 16-byte chunks of a few rows. The facts live in model/swizzle.hpp.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "options.hpp"
#include "gemmscope/model/swizzle.hpp"

namespace gemmscope::cli {
namespace {

struct SwizzleArgs {
  std::string mode;
  long long offset = -1;
  bool have_offset = false;
  bool table = false;
  bool logical_view = false;
  long long rows = 8;
  long long row_bytes = 128;
  long long base = 0;
  bool json = false;
};

void refuse(const std::string& field, long long value, const std::string& rule) {
  throw std::invalid_argument(field + " = " + std::to_string(value) + " " + rule);
}

void print_offset(const SwizzleArgs& args, model::SwizzleMode mode) {
  if (args.offset < 0) refuse("--offset", args.offset, "must be >= 0");
  const uint64_t swizzled = model::swizzle_address(mode, static_cast<uint64_t>(args.offset));
  if (args.json) {
    nlohmann::json j{{"mode", std::string(model::to_string(mode))}, {"offset", args.offset}, {"swizzled", swizzled}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%llu\n", static_cast<unsigned long long>(swizzled));
  }
}

void print_table(const SwizzleArgs& args, model::SwizzleMode mode) {
  if (args.rows < 1 || args.rows > 1024) refuse("--rows", args.rows, "must be in 1..1024");
  if (args.row_bytes < 16 || args.row_bytes > 1024 || args.row_bytes % 16 != 0)
    refuse("--row-bytes", args.row_bytes, "must be a multiple of 16 in 16..1024");
  if (args.base < 0 || args.base % 16 != 0) refuse("--base", args.base, "must be a non-negative multiple of 16");
  // Shared addresses are 32-bit: the table's last byte stays below 2^32, which also
  // keeps every sum and difference below in range.
  const long long table_bytes = args.rows * args.row_bytes;
  if (args.base > (1ll << 32) - table_bytes)
    refuse("--base", args.base,
           "must be at most 2^32 - rows x row-bytes = " + std::to_string((1ll << 32) - table_bytes) +
               " (the table stays in the 32-bit shared window)");
  const uint64_t base = static_cast<uint64_t>(args.base);
  const uint64_t row_bytes = static_cast<uint64_t>(args.row_bytes);
  const int chunks = static_cast<int>(row_bytes / 16);
  // Physical view: the swizzle is an involution (swizzle_test checks it), so the
  // logical byte stored at physical address P is swizzle(P).
  auto cell = [&](int row, int chunk) {
    const uint64_t from = base + row * row_bytes + uint64_t(chunk) * 16;
    const uint64_t to = model::swizzle_address(mode, from);
    const int64_t rel = static_cast<int64_t>(to) - static_cast<int64_t>(base);
    return std::pair<long long, long long>{rel / static_cast<int64_t>(row_bytes),
                                           (rel % static_cast<int64_t>(row_bytes)) / 16};
  };
  const char* view = args.logical_view ? "logical" : "physical";
  if (args.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < args.rows; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (int c = 0; c < chunks; ++c) {
        const auto [rr, cc] = cell(r, c);
        row.push_back({{"row", rr}, {"chunk", cc}});
      }
      rows.push_back(row);
    }
    nlohmann::json j{{"mode", std::string(model::to_string(mode))}, {"rows", args.rows},
                     {"row_bytes", args.row_bytes}, {"base", args.base}, {"view", view}, {"table", rows}};
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  std::printf("%s swizzle, %lld rows x %lld bytes from byte %lld, in 16-byte chunks\n",
              std::string(model::to_string(mode)).c_str(), args.rows, args.row_bytes, args.base);
  if (args.logical_view)
    std::printf("row r, column c = LOGICAL chunk c of row r; cell = the PHYSICAL chunk it is stored in\n");
  else
    std::printf("row r, column c = PHYSICAL chunk c of row r; cell = the LOGICAL chunk stored there\n");
  std::printf("(a cell 'R:C' is chunk C of another row R)\n");
  std::printf("row |");
  for (int c = 0; c < chunks; ++c) std::printf(" %5d", c);
  std::printf("\n----+");
  for (int c = 0; c < chunks; ++c) std::printf("------");
  std::printf("\n");
  for (int r = 0; r < args.rows; ++r) {
    std::printf("%3d |", r);
    for (int c = 0; c < chunks; ++c) {
      const auto [rr, cc] = cell(r, c);
      if (rr == r)
        std::printf(" %5lld", cc);
      else
        std::printf(" %5s", (std::to_string(rr) + ":" + std::to_string(cc)).c_str());
    }
    std::printf("\n");
  }
}

void run(const SwizzleArgs& args, const CLI::App* cmd) {
  const model::SwizzleMode mode = model::parse_swizzle_mode(args.mode);
  if (args.table == args.have_offset)
    throw std::invalid_argument("swizzle query = " + std::string(args.table ? "both" : "none") +
                                ": give exactly one of --offset N or --table");
  if (!args.table)
    refuse_options(cmd, {"--rows", "--row-bytes", "--base", "--logical"}, "with --offset (they shape --table)");
  if (args.table)
    print_table(args, mode);
  else
    print_offset(args, mode);
}

const Registration registration{"swizzle", [](CLI::App& root) {
  auto args = std::make_shared<SwizzleArgs>();
  CLI::App* cmd = root.add_subcommand(
      "swizzle", "Swizzled shared-memory byte offsets and chunk tables (TMA/MMA modes, PTX ISA \"Tensor Map\" swizzling)");
  cmd->add_option("--mode", args->mode, "Swizzle mode: none, 32B, 64B, 128B, 128B-atom32B")->required();
  cmd->add_option_function<long long>(
      "--offset", [args](long long v) { args->offset = v; args->have_offset = true; },
      "Byte offset (absolute shared-memory address bits) to swizzle; prints the result in decimal");
  cmd->add_flag("--table", args->table, "Print the chunk table of --rows rows of --row-bytes bytes");
  cmd->add_flag("--logical", args->logical_view,
                "Table cells give where each LOGICAL chunk is stored (default: which logical chunk each PHYSICAL chunk holds)");
  cmd->add_option("--rows", args->rows, "Table rows (1..1024)")->capture_default_str();
  cmd->add_option("--row-bytes", args->row_bytes, "Bytes per table row, a multiple of 16")->capture_default_str();
  cmd->add_option("--base", args->base, "Byte address of the table's first row, a multiple of 16")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print JSON instead of text");
  cmd->callback([args, cmd] { run(*args, cmd); });
}};

}  // namespace
}  // namespace gemmscope::cli
