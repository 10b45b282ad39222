// gemmscope banks: the shared-memory bank cost of a built-in access pattern (the
// warp instructions a GEMM kernel issues over a 64x64 bf16 tile), per instruction,
// per phase, with the lanes that collide in each bank. The model: model/banks.hpp
// (the phase rule is UNCONFIRMED on hardware) and model/access_patterns.hpp.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "options.hpp"
#include "gemmscope/model/access_patterns.hpp"
#include "gemmscope/model/banks.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/trace.hpp"

namespace gemmscope::cli {
namespace {

struct BanksArgs {
  std::string pattern;
  std::string swizzle = "none";
  long long base = 0;
  bool list = false;
  bool json = false;
  bool all = false;
  bool summary = false;
  bool kernel3 = false;
  std::string addresses_text;        // a hand-made instruction instead of a pattern
  bool have_addresses = false;
  std::vector<long long> addresses;
  int width_bytes = 4;
  bool store = false;
  std::string trace;  // a trace file (docs/traces.md) instead of a pattern
};

// "0-7,9,12-15" for a lane mask.
std::string lane_ranges(uint32_t mask) {
  std::string out;
  for (int t = 0; t < 32;) {
    if (!((mask >> t) & 1u)) { ++t; continue; }
    int end = t;
    while (end + 1 < 32 && ((mask >> (end + 1)) & 1u)) ++end;
    if (!out.empty()) out += ",";
    out += end == t ? std::to_string(t) : std::to_string(t) + "-" + std::to_string(end);
    t = end + 1;
  }
  return out.empty() ? "none" : out;
}

std::string lane_list(const std::vector<int>& lanes) {
  uint32_t mask = 0;
  for (int l : lanes) mask |= 1u << l;
  return lane_ranges(mask);
}

void print_list() {
  for (const model::NamedPattern& p : model::builtin_patterns())
    std::printf("%-36s %s\n", p.name.c_str(), p.description.c_str());
}

nlohmann::json to_json(const model::AccessCost& c, const model::WarpAccess& a) {
  nlohmann::json phases = nlohmann::json::array();
  for (const model::PhaseCost& p : c.phases) {
    nlohmann::json collisions = nlohmann::json::array();
    for (const model::BankCollision& b : p.collisions) {
      nlohmann::json words = nlohmann::json::array();
      for (size_t i = 0; i < b.words.size(); ++i) words.push_back({{"address", b.words[i]}, {"lanes", b.word_lanes[i]}});
      collisions.push_back({{"bank", b.bank}, {"lanes", b.lanes}, {"words", words}});
    }
    phases.push_back({{"lanes", lane_ranges(p.lanes)}, {"distinct_words", p.distinct_words},
                      {"wavefronts", p.wavefronts}, {"ideal", p.ideal}, {"conflicts", p.conflicts()},
                      {"collisions", collisions}});
  }
  nlohmann::json addresses = nlohmann::json::array();
  for (int t = 0; t < model::kWarpSize; ++t)
    addresses.push_back(a.active(t) ? nlohmann::json(a.address[t]) : nlohmann::json(nullptr));
  return {{"label", a.label}, {"kind", std::string(model::to_string(a.kind))}, {"width_bytes", a.width_bytes},
          {"addresses", addresses}, {"wavefronts", c.wavefronts}, {"ideal", c.ideal},
          {"conflicts", c.conflicts()}, {"phases", phases}};
}

void print_detail(int index, const model::AccessCost& c, const model::WarpAccess& a) {
  std::printf("instruction %d: %s (%s, %d bytes per lane, lanes %s)\n", index, a.label.c_str(),
              std::string(model::to_string(a.kind)).c_str(), a.width_bytes, lane_ranges(a.active_mask).c_str());
  for (const model::PhaseCost& p : c.phases) {
    std::printf("  phase lanes %-6s %2d wavefronts, ideal %d, conflicts %d (%d distinct words)\n",
                lane_ranges(p.lanes).c_str(), p.wavefronts, p.ideal, p.conflicts(), p.distinct_words);
    for (const model::BankCollision& b : p.collisions) {
      std::printf("    bank %2d: %zu distinct words from lanes %s:", b.bank, b.words.size(), lane_list(b.lanes).c_str());
      for (size_t i = 0; i < b.words.size(); ++i)
        std::printf(" %llu<-%s", static_cast<unsigned long long>(b.words[i]), lane_list(b.word_lanes[i]).c_str());
      std::printf("\n");
    }
  }
}

// A whole trace, streamed (TraceReader, TraceAnalyzer): memory holds the groups and,
// with --all or --json, each instruction's output line, never the records.
void run_trace(const BanksArgs& args) {
  traces::TraceReader reader(std::filesystem::path(args.trace));
  traces::TraceAnalyzer analyzer(reader.header());
  traces::TraceRecord record;
  if (args.json && !args.summary) {
    // Keys sort, so "instructions" is the object's first: print it as the records come.
    std::string item;
    std::fputs("{\"instructions\":[", stdout);
    while (reader.next(record)) {
      const traces::InstructionCost cost = analyzer.add(record);
      item = traces::instruction_json(reader.header(), record, cost)
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (analyzer.records() > 1) std::fputc(',', stdout);
      std::fputs(item.c_str(), stdout);
    }
    const traces::TraceAnalysis a = std::move(analyzer).finish();
    const std::string rest = traces::analysis_json(reader.header(), a, false)
                                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::printf("],%s\n", rest.c_str() + 1);
    return;
  }
  std::string lines;  // --all: the per-instruction lines, printed after the summary
  while (reader.next(record)) {
    const traces::InstructionCost cost = analyzer.add(record);
    if (args.all) lines += traces::format_instruction_line(reader.header(), record, cost);
  }
  const uint64_t records = analyzer.records();
  const traces::TraceAnalysis a = std::move(analyzer).finish();
  if (args.json) {
    std::printf("%s\n", traces::analysis_json(reader.header(), a, false)
                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                             .c_str());
    return;
  }
  std::fputs(traces::format_analysis_summary(reader.header(), records, a).c_str(), stdout);
  if (args.all) {
    std::fputs(traces::format_instruction_heading().c_str(), stdout);
    std::fputs(lines.c_str(), stdout);
  }
}

void run(const BanksArgs& args, const CLI::App* cmd) {
  const char* const everything[] = {"--pattern", "--addresses", "--trace", "--swizzle", "--base",  "--width",
                                    "--store",   "--kernel3",   "--json",  "--all",     "--summary"};
  if (args.list || args.kernel3) {
    const std::string mode = args.list ? "with --list (it lists the patterns, nothing else)"
                                       : "with --kernel3 (a fixed text comparison)";
    for (const char* name : everything)
      if (std::string(name) != "--kernel3" || args.list) refuse_options(cmd, {name}, mode);
  }
  if (args.list) {
    print_list();
    return;
  }
  if (args.kernel3) {
    std::printf("%s", model::format_kernel3_bank_comparison(model::kernel3_bank_comparison()).c_str());
    return;
  }
  if (args.all && args.summary) refuse_options(cmd, {"--all"}, "with --summary (only the totals)");
  if (args.all && args.json) refuse_options(cmd, {"--all"}, "with --json (JSON lists every instruction; --summary leaves them out)");
  if (!args.trace.empty() || given(cmd, "--trace")) {
    // A whole trace: per kernel, per stage and (with --all) per instruction.
    if (!args.pattern.empty() || args.have_addresses)
      throw std::invalid_argument("--trace = " + args.trace + ": give --trace alone, without --pattern or --addresses");
    refuse_options(cmd, {"--swizzle", "--base", "--width", "--store"}, "with --trace (the trace gives the addresses)");
    if (args.summary && !args.json)
      refuse_options(cmd, {"--summary"}, "to --trace's text (it is the summary unless --all); use it with --json");
    run_trace(args);
    return;
  }
  if (!args.have_addresses) refuse_options(cmd, {"--width", "--store"}, "without --addresses (a pattern sets them)");
  if (args.pattern.empty() == !args.have_addresses)
    throw std::invalid_argument(std::string("--pattern = ") + (args.pattern.empty() ? "(none)" : args.pattern) +
                                ": give exactly one of --pattern NAME (see --list) or --addresses A0,A1,...");
  if (args.base < 0) throw std::invalid_argument("--base = " + std::to_string(args.base) + " must be >= 0");
  const model::SwizzleMode mode = model::parse_swizzle_mode(args.swizzle);
  std::vector<model::WarpAccess> accesses;
  model::NamedPattern pattern;
  if (!args.pattern.empty()) {
    pattern = model::find_pattern(args.pattern);
    accesses = pattern.make(mode, static_cast<uint64_t>(args.base));
  } else {
    // One hand-made instruction: lane t uses the t-th address; fewer than 32 leave the
    // rest inactive. The swizzle, if any, is applied to each address.
    if (args.addresses.size() > 32)
      throw std::invalid_argument("--addresses count = " + std::to_string(args.addresses.size()) +
                                  " must be at most 32 (one per lane)");
    model::WarpAccess a;
    a.width_bytes = args.width_bytes;
    a.kind = args.store ? model::AccessKind::Store : model::AccessKind::Load;
    a.active_mask = 0;
    for (size_t t = 0; t < args.addresses.size(); ++t) {
      if (const std::string rule = traces::shared_address_rule(args.addresses[t]); !rule.empty())
        throw std::invalid_argument("--addresses[" + std::to_string(t) + "] = " + std::to_string(args.addresses[t]) +
                                    " " + rule);
      a.address[t] = model::swizzle_address(mode, static_cast<uint64_t>(args.addresses[t]));
      a.active_mask |= 1u << t;
    }
    a.label = "hand-made " + std::string(args.store ? "store" : "load") + " of " + std::to_string(a.width_bytes) +
              " bytes per lane";
    pattern.name = "addresses";
    accesses.push_back(a);
  }
  const model::SequenceCost cost = model::analyze(accesses);
  const std::string mode_name(model::to_string(mode));

  if (args.json) {
    nlohmann::json instructions = nlohmann::json::array();
    for (size_t i = 0; i < accesses.size(); ++i) instructions.push_back(to_json(cost.instructions[i], accesses[i]));
    nlohmann::json j{{"pattern", pattern.name}, {"swizzle", mode_name}, {"base", args.base},
                     {"phase_rule", "128 bytes per phase (unconfirmed)"}, {"wavefronts", cost.wavefronts},
                     {"ideal", cost.ideal}, {"conflicts", cost.conflicts()},
                     {"instruction_count", accesses.size()}};
    if (!args.summary) j["instructions"] = instructions;
    std::printf("%s\n", j.dump().c_str());
    return;
  }

  std::printf("%s, swizzle %s, base %lld: %zu instructions\n", pattern.name.c_str(), mode_name.c_str(), args.base,
              accesses.size());
  std::printf("total: %d wavefronts, ideal %d, conflicts %d  (phase rule: the H200's, docs/hardware.md#banks-wavefronts)\n",
              cost.wavefronts, cost.ideal, cost.conflicts());
  if (args.summary) return;
  std::printf("\n%5s %10s %6s %9s  %-18s %s\n", "instr", "wavefronts", "ideal", "conflicts", "wavefronts/phase",
              "label");
  for (size_t i = 0; i < accesses.size(); ++i) {
    const model::AccessCost& c = cost.instructions[i];
    std::string per_phase;
    for (const model::PhaseCost& p : c.phases) per_phase += (per_phase.empty() ? "" : " ") + std::to_string(p.wavefronts);
    std::printf("%5zu %10d %6d %9d  %-18s %s\n", i, c.wavefronts, c.ideal, c.conflicts(), per_phase.c_str(),
                accesses[i].label.c_str());
  }
  std::printf("\n");
  const size_t shown = args.all ? accesses.size() : std::min<size_t>(1, accesses.size());
  for (size_t i = 0; i < shown; ++i) print_detail(static_cast<int>(i), cost.instructions[i], accesses[i]);
  if (!args.all && accesses.size() > 1)
    std::printf("(details of instruction 0 only; --all shows every instruction)\n");
}

const Registration registration{"banks", [](CLI::App& root) {
  auto args = std::make_shared<BanksArgs>();
  CLI::App* cmd = root.add_subcommand(
      "banks", "Shared-memory bank conflicts of a built-in warp access pattern: wavefronts per phase, colliding lanes");
  cmd->add_option("--pattern", args->pattern, "Built-in pattern name (see --list)");
  cmd->add_option("--swizzle", args->swizzle, "Tile swizzle: none, 32B, 64B, 128B, 128B-atom32B")->capture_default_str();
  cmd->add_option("--base", args->base, "Tile base byte address (a multiple of 128 when swizzled, 16 when not)")
      ->capture_default_str();
  cmd->add_option("--addresses", args->addresses_text,
                  "Instead of a pattern: one instruction, lane t at the t-th byte address (comma-separated, up to 32)");
  cmd->add_option("--trace", args->trace,
                  "Analyse a trace file (JSON lines or the text form WIDTH KIND MASK ADDR0..ADDR31, docs/traces.md): "
                  "per kernel and stage; --all adds every instruction, --json (with --summary: no instructions)");
  cmd->add_option("--width", args->width_bytes, "With --addresses: bytes per lane, 4, 8 or 16")->capture_default_str();
  cmd->add_flag("--store", args->store, "With --addresses: a store (default: a load)");
  cmd->add_flag("--list", args->list, "List the built-in patterns");
  cmd->add_flag("--kernel3", args->kernel3,
                "The Kernel 3 comparison: ldmatrix-x4-k-major-64x64 unswizzled vs 128B-swizzled, side by side");
  cmd->add_flag("--json", args->json, "Print JSON instead of text");
  cmd->add_flag("--all", args->all, "Text: show the phases and collisions of every instruction, not only the first");
  cmd->add_flag("--summary", args->summary, "Only the totals (wavefronts, ideal, conflicts)");
  cmd->callback([args, cmd] {
    args->have_addresses = given(cmd, "--addresses");
    if (args->have_addresses) args->addresses = integer_list(args->addresses_text, "--addresses", 1 << 16);
    run(*args, cmd);
  });
}};

}  // namespace
}  // namespace gemmscope::cli
