#include "gemmscope/traces/graphviz.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "gemmscope/model/access_patterns.hpp"

namespace gemmscope::traces {

namespace {

// Colours of the four phases (16-byte accesses have four) and of eight bank groups.
constexpr const char* kPhaseColours[] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b"};
constexpr const char* kBankGroupColours[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                             "#80b1d3", "#fdb462", "#b3de69", "#fccde5"};
constexpr const char* kConflict = "#d62728";

// Text inside a "..." DOT string.
std::string quoted(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// Text inside an HTML-like <...> DOT label.
std::string html(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// White (0) to deep orange (1).
std::string heat(double x) {
  x = std::clamp(x, 0.0, 1.0);
  const int r = 255, g = static_cast<int>(255 - 140 * x), b = static_cast<int>(255 - 230 * x);
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

}  // namespace

std::string instruction_dot(const Trace& trace, size_t record_index, const std::string& title) {
  if (record_index >= trace.records.size())
    throw TraceError("instruction = " + std::to_string(record_index) + " must be below the trace's " +
                     std::to_string(trace.records.size()) + " records");
  return instruction_dot(trace, trace.records[record_index], record_index, title);
}

std::string instruction_dot(const Trace& trace, const TraceRecord& r, size_t record_index, const std::string& title) {
  const model::WarpAccess& a = r.access;
  const InstructionCost cost = analyze_instruction(a);

  // Per phase: bank -> distinct words in ascending order (the k-th is served in
  // wavefront k + 1 of the phase: the model's rule, one word per bank per wavefront).
  struct Edge {
    int lane, bank, phase, wavefront;
    bool conflict;
  };
  std::vector<Edge> edges;
  std::array<int, model::kBanks> max_words{};
  std::array<int, model::kWarpSize> lane_phase{};
  lane_phase.fill(-1);
  const int words_per_lane = a.width_bytes / model::kBankBytes;
  for (size_t p = 0; p < cost.cost.phases.size(); ++p) {
    const uint32_t lanes = cost.cost.phases[p].lanes;
    std::array<std::set<uint64_t>, model::kBanks> words;
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      if ((lanes >> lane) & 1u) {
        lane_phase[lane] = static_cast<int>(p);
        for (int k = 0; k < words_per_lane; ++k) {
          const uint64_t w = a.address[lane] + uint64_t(k) * model::kBankBytes;
          words[model::bank_of(w)].insert(w);
        }
      }
    for (int b = 0; b < model::kBanks; ++b) max_words[b] = std::max(max_words[b], static_cast<int>(words[b].size()));
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      if ((lanes >> lane) & 1u)
        for (int k = 0; k < words_per_lane; ++k) {
          const uint64_t w = a.address[lane] + uint64_t(k) * model::kBankBytes;
          const int bank = model::bank_of(w);
          const auto& ws = words[bank];
          const int wavefront = static_cast<int>(std::distance(ws.begin(), ws.find(w))) + 1;
          edges.push_back({lane, bank, static_cast<int>(p), wavefront, ws.size() > 1});
        }
  }

  std::string heading = title.empty() ? trace.kernel_of(r) + " " + std::string(to_string(r.stage)) + ": " +
                                            (a.label.empty() ? "record " + std::to_string(record_index) : a.label)
                                      : title;
  std::string summary = std::to_string(cost.cost.phases.size()) + " phase(s), " +
                        std::to_string(cost.cost.wavefronts) + " wavefronts, ideal " + std::to_string(cost.cost.ideal) +
                        ", conflicts " + std::to_string(cost.cost.conflicts()) + "; " + std::to_string(a.width_bytes) +
                        "-byte " + std::string(model::to_string(a.kind)) + "s" +
                        (is_model_view(r.stage) ? " (model view, not a warp instruction)" : "");
  std::string out = "digraph bank_instruction {\n";
  out += "  graph [rankdir=LR, splines=line, nodesep=0.06, ranksep=2.2, fontname=\"Helvetica\", labelloc=t, "
         "label=<<b>" + html(heading) + "</b><br/>" + html(summary) +
         "<br/><font point-size=\"10\">edge colour = phase; thick red = bank asked for several words in one phase; "
         "lane: address, phase p, wavefront(s) wf serving it</font>>];\n";
  out += "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"rounded,filled\", height=0.25, "
         "width=1.9, margin=\"0.04,0.01\"];\n  edge [arrowsize=0.4];\n";
  // Lanes, top to bottom (a chain of invisible flat edges keeps the order).
  out += "  subgraph lanes {\n    rank=same;\n";
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const bool on = a.active(lane);
    const std::string fill = on && lane_phase[lane] >= 0 ? kPhaseColours[lane_phase[lane] % 4] : "#eeeeee";
    // The wavefront(s) serving this lane's words, e.g. "wf 4" or "wf 1,2".
    std::set<int> wavefronts;
    bool conflict = false;
    for (const Edge& e : edges)
      if (e.lane == lane) {
        wavefronts.insert(e.wavefront);
        conflict = conflict || e.conflict;
      }
    std::string wf;
    for (int w : wavefronts) wf += (wf.empty() ? " wf " : ",") + std::to_string(w);
    out += "    t" + std::to_string(lane) + " [label=\"t" + std::to_string(lane) + "  " +
           (on ? hex(a.address[lane]) + (lane_phase[lane] >= 0 ? "  p" + std::to_string(lane_phase[lane]) : "") + wf
               : std::string("inactive")) +
           "\", fillcolor=\"" + fill + "\"" + (on ? ", fontcolor=white" : ", fontcolor=\"#999999\"") +
           (conflict ? ", color=\"" + std::string(kConflict) + "\", penwidth=2" : "") + "];\n";
  }
  for (int lane = 0; lane + 1 < model::kWarpSize; ++lane)
    out += "    t" + std::to_string(lane) + " -> t" + std::to_string(lane + 1) + " [style=invis];\n";
  out += "  }\n  subgraph banks {\n    rank=same;\n";
  int worst = 1;
  for (int b = 0; b < model::kBanks; ++b) worst = std::max(worst, max_words[b]);
  for (int b = 0; b < model::kBanks; ++b) {
    const bool hot = max_words[b] > 1;
    out += "    b" + std::to_string(b) + " [label=\"bank " + std::to_string(b) +
           (max_words[b] ? "  " + std::to_string(max_words[b]) + " word" + (max_words[b] > 1 ? "s" : "") : "") +
           "\", fillcolor=\"" + (hot ? heat(0.25 + 0.75 * (max_words[b] - 1) / std::max(1, worst - 1)) : "#f4f4f4") +
           "\"" + (hot ? ", color=\"" + std::string(kConflict) + "\", penwidth=2" : "") + "];\n";
  }
  for (int b = 0; b + 1 < model::kBanks; ++b)
    out += "    b" + std::to_string(b) + " -> b" + std::to_string(b + 1) + " [style=invis];\n";
  out += "  }\n";
  for (const Edge& e : edges) {
    out += "  t" + std::to_string(e.lane) + ":e -> b" + std::to_string(e.bank) + ":w [color=\"";
    if (e.conflict)
      out += std::string(kConflict) + "\", penwidth=1.6];\n";
    else
      out += std::string(kPhaseColours[e.phase % 4]) + "\", penwidth=0.7];\n";
  }
  out += "}\n";
  return out;
}

std::string heatmap_dot(const Trace& trace, const TraceAnalysis& analysis, const std::string& title) {
  return heatmap_dot(trace, trace.records.size(), analysis, title);
}

std::string heatmap_dot(const Trace& trace, uint64_t records, const TraceAnalysis& analysis, const std::string& title) {
  std::string heading = title.empty() ? "Bank pressure by stage: " +
                                            (trace.kernel.empty() ? std::string("trace") : trace.kernel) + " (" +
                                            std::to_string(records) + " records)"
                                      : title;
  std::string out = "digraph bank_heatmap {\n  graph [fontname=\"Helvetica\"];\n  node [fontname=\"Helvetica\"];\n";
  out += "  heatmap [shape=plaintext, label=<\n<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" "
         "cellpadding=\"3\">\n";
  const int columns = model::kBanks + 5;
  out += "<tr><td colspan=\"" + std::to_string(columns) + "\" border=\"0\"><b>" + html(heading) +
         "</b></td></tr>\n";
  out += "<tr><td colspan=\"" + std::to_string(columns) +
         "\" border=\"0\"><font point-size=\"10\">cell: distinct 32-bit words asked of the bank, summed over "
         "phases; +N and orange to red: N of them beyond their phase's ideal (the bank's "
         "share of the conflicts); green: never over the ideal</font></td></tr>\n";
  out += "<tr><td><b>kernel / stage</b></td>";
  for (int b = 0; b < model::kBanks; ++b) out += "<td><b>" + std::to_string(b) + "</b></td>";
  out += "<td><b>instr</b></td><td><b>wavefronts</b></td><td><b>ideal</b></td><td><b>conflicts</b></td></tr>\n";
  // Colour = a cell's excess (its share of the conflicts) against the table's largest.
  int64_t max_excess = 1;
  for (const GroupCost& g : analysis.stages)
    for (int b = 0; b < model::kBanks; ++b) max_excess = std::max(max_excess, g.banks.excess[b]);
  auto row = [&](const GroupCost& g, const std::string& name, bool bold) {
    std::string s = "<tr><td align=\"left\">" + std::string(bold ? "<b>" : "") + html(name) +
                    (bold ? "</b>" : "") + "</td>";
    for (int b = 0; b < model::kBanks; ++b) {
      const int64_t w = g.banks.words[b], x = g.banks.excess[b];
      s += "<td bgcolor=\"" +
           (x > 0 ? heat(0.2 + 0.8 * static_cast<double>(x) / static_cast<double>(max_excess))
                  : std::string(w > 0 ? "#e3f1e3" : "#ffffff")) +
           "\"" +
           (x > 0 ? " color=\"" + std::string(kConflict) + "\"" : "") + "><font point-size=\"9\"" +
           (x > 0 ? " color=\"" + std::string(kConflict) + "\"" : "") + ">" + std::to_string(w) +
           (x > 0 ? "<br/>+" + std::to_string(x) : "") + "</font></td>";
    }
    s += "<td>" + std::to_string(g.instructions) + "</td><td>" + std::to_string(g.wavefronts) + "</td><td>" +
         std::to_string(g.ideal) + "</td><td" + (g.conflicts() > 0 ? " bgcolor=\"#f4b6b6\"" : "") + ">" +
         std::to_string(g.conflicts()) + "</td></tr>\n";
    return s;
  };
  for (const GroupCost& k : analysis.kernels) {
    for (const GroupCost& s : analysis.stages)
      if (s.kernel == k.kernel) {
        bool view = false;
        for (Stage st : kAllStages)
          if (to_string(st) == s.stage) view = is_model_view(st);
        out += row(s, (k.kernel.empty() ? "" : k.kernel + " ") + s.stage + (view ? " (model view)" : ""), false);
      }
    out += row(k, (k.kernel.empty() ? std::string("trace") : k.kernel) + " total", true);
  }
  out += "</table>>];\n}\n";
  return out;
}

std::string swizzle_dot(model::SwizzleMode swizzle, uint32_t rows, uint32_t row_bytes, uint64_t base) {
  model::SmemTile tile;
  tile.rows = rows;
  tile.row_bytes = row_bytes;
  tile.swizzle = swizzle;
  tile.base = base;
  tile.validate();
  model::require(rows <= 256, "rows", rows, "must be at most 256 for a picture");
  model::require(row_bytes <= 1024, "row_bytes", row_bytes, "must be at most 1024 for a picture");
  const uint32_t chunks = row_bytes / 16;
  std::string out = "digraph swizzle {\n  graph [fontname=\"Helvetica\"];\n  node [fontname=\"Helvetica\"];\n";
  out += "  tile [shape=plaintext, label=<\n<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" "
         "cellpadding=\"4\">\n";
  out += "<tr><td colspan=\"" + std::to_string(chunks + 1) + "\" border=\"0\"><b>" +
         html("Swizzle " + std::string(model::to_string(swizzle)) + ": " + std::to_string(rows) + " rows x " +
              std::to_string(row_bytes) + " bytes at " + hex(base)) +
         "</b></td></tr>\n";
  out += "<tr><td colspan=\"" + std::to_string(chunks + 1) +
         "\" border=\"0\"><font point-size=\"10\">column = logical 16-byte chunk; cell = the physical chunk "
         "(address / 16 mod 8) it lands in; colour = the 4 banks it uses</font></td></tr>\n";
  out += "<tr><td></td>";
  for (uint32_t c = 0; c < chunks; ++c) out += "<td><b>" + std::to_string(c) + "</b></td>";
  out += "</tr>\n";
  for (uint32_t r = 0; r < rows; ++r) {
    out += "<tr><td><b>row " + std::to_string(r) + "</b></td>";
    for (uint32_t c = 0; c < chunks; ++c) {
      const uint64_t addr = tile.address(r, c * 16);
      const int group = model::bank_of(addr) / 4;
      out += "<td bgcolor=\"" + std::string(kBankGroupColours[group]) + "\">" + std::to_string((addr / 16) % 8) +
             "<br/><font point-size=\"8\">b" + std::to_string(4 * group) + "-" + std::to_string(4 * group + 3) +
             "</font></td>";
    }
    out += "</tr>\n";
  }
  out += "</table>>];\n}\n";
  return out;
}

}  // namespace gemmscope::traces
