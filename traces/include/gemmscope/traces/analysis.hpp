#pragma once
// Bank-conflict analysis of a trace: per instruction (the model's analyze() of each
// record), per (kernel, stage) and per kernel: wavefronts, ideal, conflicts, and where
// the pressure sits bank by bank. Costs add: a group's wavefronts are the sum of its
// instructions' wavefronts (model/banks.hpp: "a pattern is usually several
// instructions: costs add").
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmscope/model/banks.hpp"
#include "gemmscope/traces/trace.hpp"

namespace gemmscope::traces {

// Per bank, summed over the phases of the instructions counted:
//  words:  distinct 32-bit words asked of the bank in a phase;
//  excess: words beyond the phase's ideal (ceil(distinct words of the phase / 32)),
//          i.e. the bank's share of the conflicts; a bank with excess 0 everywhere
//          never held a phase back.
struct BankPressure {
  std::array<int64_t, model::kBanks> words{};
  std::array<int64_t, model::kBanks> excess{};
  // The bank with the largest excess (lowest number on a tie); -1 when no bank has any.
  int worst_bank() const;
};

struct InstructionCost {
  size_t record = 0;         // index into Trace::records
  model::AccessCost cost;
  // The bank with the most distinct words in the instruction's costliest phase
  // (lowest number on a tie), and that count; -1 and 0 for an instruction with no
  // active lane.
  int worst_bank = -1;
  int worst_bank_words = 0;
  BankPressure banks;
};

struct GroupCost {
  std::string kernel;
  std::string stage;         // empty for a kernel's or the trace's total
  int64_t instructions = 0;
  int64_t wavefronts = 0;
  int64_t ideal = 0;
  int64_t max_instruction_wavefronts = 0;  // the costliest single instruction
  BankPressure banks;
  int64_t conflicts() const { return wavefronts - ideal; }
  void add(const InstructionCost& c);
};

struct TraceAnalysis {
  std::vector<InstructionCost> instructions;  // one per record, in order
  std::vector<GroupCost> stages;              // per (kernel, stage), in order of first appearance
  std::vector<GroupCost> kernels;             // per kernel, in order of first appearance
  GroupCost total;                            // the whole trace
};

// Throws TraceError naming the record when one breaks WarpAccess::validate().
TraceAnalysis analyze_trace(const Trace& trace, const model::PhaseRule& rule = model::default_phase_rule());

// The same analysis one record at a time, for a trace that streams (TraceReader):
// memory holds the groups only. add() returns the record's cost for the caller to
// print or drop; finish() gives the groups (instructions stays empty).
class TraceAnalyzer {
 public:
  explicit TraceAnalyzer(const Trace& header, model::PhaseRule rule = model::default_phase_rule());
  InstructionCost add(const TraceRecord& record);  // its index: the records added before it
  uint64_t records() const { return records_; }
  TraceAnalysis finish() &&;

 private:
  const Trace& header_;
  model::PhaseRule rule_;
  TraceAnalysis analysis_;
  std::map<std::pair<std::string, Stage>, size_t> stage_index_;
  std::map<std::string, size_t> kernel_index_;
  uint64_t records_ = 0;
};

// The cost of one instruction with its worst bank and bank pressure.
InstructionCost analyze_instruction(const model::WarpAccess& access,
                                    const model::PhaseRule& rule = model::default_phase_rule());

// Text summary: per kernel, per stage, then (with per_instruction) one line per record.
std::string format_analysis(const Trace& trace, const TraceAnalysis& analysis, bool per_instruction);
// JSON: {"kernels": [...], "stages": [...], "total": {...}, "instructions": [...] (optional)}.
nlohmann::json analysis_json(const Trace& trace, const TraceAnalysis& analysis, bool per_instruction);

// format_analysis and analysis_json in pieces, for a trace that streams: the summary
// (`records`: how many were analysed), the per-instruction heading and one line or
// object per record. format_analysis = summary + (heading + lines).
std::string format_analysis_summary(const Trace& header, uint64_t records, const TraceAnalysis& analysis);
std::string format_instruction_heading();
std::string format_instruction_line(const Trace& header, const TraceRecord& record, const InstructionCost& cost);
nlohmann::json instruction_json(const Trace& header, const TraceRecord& record, const InstructionCost& cost);

}  // namespace gemmscope::traces
