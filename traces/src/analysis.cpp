#include "gemmscope/traces/analysis.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace gemmscope::traces {

int BankPressure::worst_bank() const {
  int best = -1;
  int64_t best_excess = 0;
  for (int b = 0; b < model::kBanks; ++b)
    if (excess[b] > best_excess) {
      best_excess = excess[b];
      best = b;
    }
  return best;
}

void GroupCost::add(const InstructionCost& c) {
  ++instructions;
  wavefronts += c.cost.wavefronts;
  ideal += c.cost.ideal;
  max_instruction_wavefronts = std::max<int64_t>(max_instruction_wavefronts, c.cost.wavefronts);
  for (int b = 0; b < model::kBanks; ++b) {
    banks.words[b] += c.banks.words[b];
    banks.excess[b] += c.banks.excess[b];
  }
}

InstructionCost analyze_instruction(const model::WarpAccess& access, const model::PhaseRule& rule) {
  InstructionCost out;
  out.cost = model::analyze(access, rule);
  // Words per bank per phase, counted again from the addresses (the model's
  // PhaseCost keeps only the colliding banks): distinct 32-bit words per bank.
  const int words_per_lane = access.width_bytes / model::kBankBytes;
  int worst_phase_wavefronts = -1;
  for (const model::PhaseCost& phase : out.cost.phases) {
    std::array<std::set<uint64_t>, model::kBanks> words;
    for (int lane = 0; lane < model::kWarpSize; ++lane) {
      if (!((phase.lanes >> lane) & 1u)) continue;
      for (int k = 0; k < words_per_lane; ++k) {
        const uint64_t word = access.address[lane] + uint64_t(k) * model::kBankBytes;
        words[model::bank_of(word)].insert(word);
      }
    }
    for (int b = 0; b < model::kBanks; ++b) {
      const int64_t n = static_cast<int64_t>(words[b].size());
      out.banks.words[b] += n;
      out.banks.excess[b] += std::max<int64_t>(0, n - phase.ideal);
    }
    if (phase.wavefronts > worst_phase_wavefronts) {
      worst_phase_wavefronts = phase.wavefronts;
      out.worst_bank = -1;
      out.worst_bank_words = 0;
      for (int b = 0; b < model::kBanks; ++b)
        if (static_cast<int>(words[b].size()) > out.worst_bank_words) {
          out.worst_bank_words = static_cast<int>(words[b].size());
          out.worst_bank = b;
        }
    }
  }
  return out;
}

TraceAnalyzer::TraceAnalyzer(const Trace& header, model::PhaseRule rule) : header_(header), rule_(std::move(rule)) {}

InstructionCost TraceAnalyzer::add(const TraceRecord& r) {
  InstructionCost c;
  try {
    c = analyze_instruction(r.access, rule_);
  } catch (const model::ModelError& e) {
    throw TraceError("record " + std::to_string(records_) + ": " + e.what());
  }
  c.record = static_cast<size_t>(records_++);
  const std::string& kernel = header_.kernel_of(r);
  auto [s, new_stage] = stage_index_.try_emplace({kernel, r.stage}, analysis_.stages.size());
  if (new_stage) analysis_.stages.push_back(GroupCost{kernel, std::string(to_string(r.stage))});
  auto [k, new_kernel] = kernel_index_.try_emplace(kernel, analysis_.kernels.size());
  if (new_kernel) analysis_.kernels.push_back(GroupCost{kernel, ""});
  analysis_.stages[s->second].add(c);
  analysis_.kernels[k->second].add(c);
  analysis_.total.add(c);
  return c;
}

TraceAnalysis TraceAnalyzer::finish() && {
  analysis_.total.kernel = header_.kernel;
  return std::move(analysis_);
}

TraceAnalysis analyze_trace(const Trace& trace, const model::PhaseRule& rule) {
  TraceAnalyzer analyzer(trace, rule);
  std::vector<InstructionCost> instructions;
  instructions.reserve(trace.records.size());
  for (const TraceRecord& r : trace.records) instructions.push_back(analyzer.add(r));
  TraceAnalysis a = std::move(analyzer).finish();
  a.instructions = std::move(instructions);
  return a;
}

namespace {

std::string bank_text(int bank) { return bank < 0 ? std::string("none") : std::to_string(bank); }

// The name is the trace's text (a kernel name of any length): padded to 34, never cut.
std::string group_line(const GroupCost& g, const std::string& name) {
  char numbers[160];
  const int worst = g.banks.worst_bank();
  std::snprintf(numbers, sizeof numbers, " %7lld %11lld %8lld %10lld  ", static_cast<long long>(g.instructions),
                static_cast<long long>(g.wavefronts), static_cast<long long>(g.ideal),
                static_cast<long long>(g.conflicts()));
  std::string line = "  " + name;
  if (line.size() < 36) line.resize(36, ' ');
  return line + numbers +
         (worst < 0 ? "none" : std::to_string(worst) + " (excess " + std::to_string(g.banks.excess[worst]) + ")") +
         "\n";
}

nlohmann::json group_json(const GroupCost& g) {
  const int worst = g.banks.worst_bank();
  nlohmann::json j{{"kernel", g.kernel},
                   {"instructions", g.instructions},
                   {"wavefronts", g.wavefronts},
                   {"ideal", g.ideal},
                   {"conflicts", g.conflicts()},
                   {"max_instruction_wavefronts", g.max_instruction_wavefronts},
                   {"worst_bank", worst < 0 ? nlohmann::json(nullptr) : nlohmann::json(worst)},
                   {"bank_words", g.banks.words},
                   {"bank_excess", g.banks.excess}};
  if (!g.stage.empty()) j["stage"] = g.stage;
  return j;
}

}  // namespace

std::string format_analysis_summary(const Trace& trace, uint64_t records, const TraceAnalysis& a) {
  std::string out;
  out += "trace: " + std::to_string(records) + " instructions" +
         (trace.kernel.empty() ? "" : ", kernel " + trace.kernel) +
         (trace.source.empty() ? "" : ", source " + trace.source) +
         "  (phase rule: the H200's, docs/hardware.md#banks-wavefronts)\n";
  char head[256];
  std::snprintf(head, sizeof head, "  %-34s %7s %11s %8s %10s  %s\n", "kernel / stage", "instr", "wavefronts",
                "ideal", "conflicts", "worst bank");
  out += head;
  for (const GroupCost& k : a.kernels) {
    out += group_line(k, k.kernel.empty() ? "(no kernel)" : k.kernel);
    for (const GroupCost& s : a.stages)
      if (s.kernel == k.kernel) {
        bool view = false;
        for (Stage st : kAllStages)
          if (to_string(st) == s.stage) view = is_model_view(st);
        out += group_line(s, "  " + s.stage + (view ? " (model view)" : ""));
      }
  }
  if (a.kernels.size() > 1) out += group_line(a.total, "total");
  return out;
}

std::string format_instruction_heading() {
  char head[256];
  std::snprintf(head, sizeof head, "%6s %-20s %4s %5s %6s %11s %6s %10s  %-11s %s\n", "record", "stage", "cta",
                "warp", "width", "wavefronts", "ideal", "conflicts", "worst bank", "label");
  return "\n" + std::string(head);
}

std::string format_instruction_line(const Trace&, const TraceRecord& r, const InstructionCost& c) {
  char line[512];
  const std::string worst =
      c.worst_bank < 0 ? "none" : bank_text(c.worst_bank) + " x" + std::to_string(c.worst_bank_words);
  // The label is free text of any length: cut to 200 bytes, the rest of the line is at
  // most about 110, so the buffer always holds it.
  std::snprintf(line, sizeof line, "%6zu %-20s %4u %5u %6d %11d %6d %10d  %-11s %s\n", c.record,
                std::string(to_string(r.stage)).c_str(), r.cta, r.warp, r.access.width_bytes, c.cost.wavefronts,
                c.cost.ideal, c.cost.conflicts(), worst.c_str(), r.access.label.substr(0, 200).c_str());
  return line;
}

std::string format_analysis(const Trace& trace, const TraceAnalysis& a, bool per_instruction) {
  std::string out = format_analysis_summary(trace, trace.records.size(), a);
  if (!per_instruction) return out;
  out += format_instruction_heading();
  for (const InstructionCost& c : a.instructions) out += format_instruction_line(trace, trace.records[c.record], c);
  return out;
}

nlohmann::json instruction_json(const Trace& trace, const TraceRecord& r, const InstructionCost& c) {
  std::vector<int> per_phase;
  for (const model::PhaseCost& p : c.cost.phases) per_phase.push_back(p.wavefronts);
  return {{"record", c.record},
          {"kernel", trace.kernel_of(r)},
          {"stage", to_string(r.stage)},
          {"cta", r.cta},
          {"warp", r.warp},
          {"width", r.access.width_bytes},
          {"kind", model::to_string(r.access.kind)},
          {"wavefronts", c.cost.wavefronts},
          {"ideal", c.cost.ideal},
          {"conflicts", c.cost.conflicts()},
          {"phase_wavefronts", per_phase},
          {"worst_bank", c.worst_bank < 0 ? nlohmann::json(nullptr) : nlohmann::json(c.worst_bank)},
          {"worst_bank_words", c.worst_bank_words},
          {"label", r.access.label}};
}

nlohmann::json analysis_json(const Trace& trace, const TraceAnalysis& a, bool per_instruction) {
  nlohmann::json kernels = nlohmann::json::array(), stages = nlohmann::json::array();
  for (const GroupCost& k : a.kernels) kernels.push_back(group_json(k));
  for (const GroupCost& s : a.stages) stages.push_back(group_json(s));
  nlohmann::json j{{"kernel", trace.kernel},
                   {"source", trace.source},
                   {"phase_rule", "128 bytes per phase (unconfirmed)"},
                   {"kernels", kernels},
                   {"stages", stages},
                   {"total", group_json(a.total)}};
  if (per_instruction) {
    nlohmann::json list = nlohmann::json::array();
    for (const InstructionCost& c : a.instructions) list.push_back(instruction_json(trace, trace.records[c.record], c));
    j["instructions"] = list;
  }
  return j;
}

}  // namespace gemmscope::traces
