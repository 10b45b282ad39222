// libFuzzer target: the trace parser (docs/traces.md), both forms, through
// gemmscope::traces::parse_trace, then the analysis and the writers.
//
// Findings: a sanitizer report, an exception other than TraceError (uncaught: abort),
// or a broken law:
//   - an accepted trace written as JSON lines reads back to the same records;
//   - the analysis totals are the sums of the per-instruction costs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/trace.hpp"

namespace traces = gemmscope::traces;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_traces: %s\n", law.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 20)) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  traces::Trace t;
  try {
    t = traces::parse_trace(text, "fuzz");
  } catch (const traces::TraceError&) {
    return 0;
  }
  const traces::Trace back = traces::parse_trace(traces::write_trace_jsonl(t), "written");
  if (auto diff = traces::first_difference(t, back)) broken("JSON-lines round trip: " + *diff);
  const traces::TraceAnalysis a = traces::analyze_trace(t);
  int64_t wavefronts = 0, ideal = 0;
  for (const traces::InstructionCost& c : a.instructions) {
    wavefronts += c.cost.wavefronts;
    ideal += c.cost.ideal;
  }
  if (wavefronts != a.total.wavefronts || ideal != a.total.ideal) broken("analysis totals are not the sums");
  (void)traces::write_trace_text(t);
  (void)traces::format_analysis(t, a, true);
  return 0;
}
