// gemmscope tmem: the tcgen05.ld/st thread map of one shape and repeat count:
// (thread, register) -> (lane, column) relative to the instruction's address.
// The facts live in model/tmem.hpp.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "options.hpp"
#include "gemmscope/model/tmem.hpp"

namespace gemmscope::cli {
namespace {

struct TmemArgs {
  std::string shape;
  long long num = 1;
  long long half_split_offset = 0;
  bool json = false;
};

void run_tmem(const TmemArgs& a, const CLI::App* cmd) {
  const model::TmemLdShape shape = model::parse_tmem_ld_shape(a.shape);
  if (shape != model::TmemLdShape::S16x32bx2)
    refuse_options(cmd, {"--half-split-offset"}, "to --shape " + a.shape + " (only 16x32bx2 splits its halves)");
  if (a.num < 1 || a.num > 128) throw std::invalid_argument("--num = " + std::to_string(a.num) + " must be in 1..128");
  if (a.half_split_offset < 0 || a.half_split_offset > 511)
    throw std::invalid_argument("--half-split-offset = " + std::to_string(a.half_split_offset) + " must be in 0..511");
  const uint32_t num = static_cast<uint32_t>(a.num);
  const uint32_t regs = model::tmem_registers_per_thread(shape, num);
  const bool confirmed = model::tmem_map_confirmed(shape, num);
  const auto cell = [&](uint32_t t, uint32_t j) {
    return model::tmem_ld_cell(shape, num, t, j, static_cast<uint32_t>(a.half_split_offset));
  };
  if (a.json) {
    nlohmann::ordered_json cells = nlohmann::ordered_json::array();
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < regs; ++j) {
        const auto c = cell(t, j);
        cells.push_back({t, j, c.lane, c.column});
      }
    nlohmann::ordered_json j{{"shape", model::to_string(shape)},
                             {"num", num},
                             {"registers_per_thread", regs},
                             {"confirmed", confirmed},
                             {"columns", {"thread", "register", "lane", "column"}},
                             {"cells", cells}};
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  std::printf("# tcgen05.ld/st .%s.x%u: 32 threads x %u registers; lane and column relative to the address; %s\n",
              std::string(model::to_string(shape)).c_str(), num, regs,
              confirmed ? "confirmed by the PTX ISA figures" : "UNCONFIRMED (library reading, not probed on hardware)");
  std::printf("%6s %8s %4s %6s\n", "thread", "register", "lane", "column");
  for (uint32_t t = 0; t < 32; ++t)
    for (uint32_t j = 0; j < regs; ++j) {
      const auto c = cell(t, j);
      std::printf("%6u %8u %4u %6u\n", t, j, c.lane, c.column);
    }
}

const Registration reg{
    "tmem", [](CLI::App& app) {
      auto args = std::make_shared<TmemArgs>();
      auto* cmd = app.add_subcommand("tmem", "tcgen05.ld/st thread map: (thread, register) -> (lane, column)");
      cmd->add_option("--shape", args->shape, "32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2")->required();
      cmd->add_option("--num", args->num, "repeat count N of .xN (power of two)")->capture_default_str();
      cmd->add_option("--half-split-offset", args->half_split_offset,
                      "16x32bx2: column offset of threads 16-31 (0 = num, adjacent)")
          ->capture_default_str();
      cmd->add_flag("--json", args->json, "print one JSON object");
      cmd->callback([args, cmd] { run_tmem(*args, cmd); });
    }};

}  // namespace
}  // namespace gemmscope::cli
