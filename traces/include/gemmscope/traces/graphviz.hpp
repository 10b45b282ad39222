#pragma once
// Graphviz (DOT) pictures of bank behaviour; `gemmscope viz` runs `dot` on them.
//  - one instruction: lanes on the left, banks on the right, an edge per 32-bit word a
//    lane asks for, coloured by phase; edges into a bank asked for several distinct
//    words in one phase (a conflict) drawn thick and red, labelled with the
//    wavefront that serves them;
//  - a trace: a bank-by-stage heat map (distinct words per bank, conflicts marked);
//  - a swizzle: a tile's 16-byte chunks in logical order, coloured by the group of
//    four banks their physical address falls in.
#include <cstdint>
#include <string>

#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/trace.hpp"

namespace gemmscope::traces {

std::string instruction_dot(const Trace& trace, size_t record_index, const std::string& title = "");
std::string heatmap_dot(const Trace& trace, const TraceAnalysis& analysis, const std::string& title = "");
// The same for a trace that streams (TraceReader): its header, the one record (and
// its index), or the record count and the groups of a TraceAnalyzer.
std::string instruction_dot(const Trace& header, const TraceRecord& record, size_t record_index,
                            const std::string& title = "");
std::string heatmap_dot(const Trace& header, uint64_t records, const TraceAnalysis& analysis,
                        const std::string& title = "");
// Throws ModelError (through SmemTile::validate) for a tile the model refuses.
std::string swizzle_dot(model::SwizzleMode swizzle, uint32_t rows, uint32_t row_bytes, uint64_t base = 0);

}  // namespace gemmscope::traces
