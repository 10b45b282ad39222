// Graphviz pictures of bank behaviour: the DOT text says what the picture must show
// (hand-worked cases), and where `dot` is installed it renders to SVG.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "gemmscope/traces/graphviz.hpp"
#include "gemmscope/traces/model_traces.hpp"

namespace traces = gemmscope::traces;
namespace model = gemmscope::model;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool have_dot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

// Runs dot on the DOT text; returns the SVG ("" when dot failed).
std::string render_svg(const std::string& dot_text, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmscope_viz_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto in = dir / (name + ".dot"), out = dir / (name + ".svg");
  std::ofstream(in) << dot_text;
  const std::string cmd = "dot -Tsvg '" + in.string() + "' -o '" + out.string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) return "";
  std::ifstream f(out);
  std::stringstream s;
  s << f.rdbuf();
  std::filesystem::remove_all(dir);
  return s.str();
}

}  // namespace

TEST(Viz, UnswizzledLdmatrixShowsEightWayConflicts) {
  // ldmatrix.x4 instruction 0 over 128-byte rows, unswizzled: lanes 0-7 read rows 0-7
  // at byte 0 (banks 0-3), lanes 8-15 rows 8-15 at byte 0, lanes 16-31 at byte 16
  // (banks 4-7): every one of the 128 words conflicts; banks 0-7 get 8 words per phase.
  const traces::Trace t = traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::None, 0);
  const std::string dot = traces::instruction_dot(t, 0);
  EXPECT_EQ(count(dot, ":w [color=\"#d62728\""), 128u);
  for (int b = 0; b < 8; ++b) EXPECT_NE(dot.find("label=\"bank " + std::to_string(b) + "  8 words\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"bank 8\""), std::string::npos);  // untouched
  EXPECT_NE(dot.find("t7  0x380  p0 wf 8"), std::string::npos);  // row 7: the 8th word of bank 0 in phase 0
  EXPECT_NE(dot.find("32 wavefronts, ideal 4, conflicts 28"), std::string::npos);
}

TEST(Viz, SwizzledLdmatrixHasNoConflictEdges) {
  const traces::Trace t = traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::B128, 0);
  const std::string dot = traces::instruction_dot(t, 0);
  EXPECT_EQ(count(dot, ":w [color=\"#d62728\""), 0u);
  EXPECT_EQ(count(dot, ":w [color="), 128u);  // 32 lanes x 4 words
  EXPECT_NE(dot.find("4 wavefronts, ideal 4, conflicts 0"), std::string::npos);
  EXPECT_THROW(traces::instruction_dot(t, 16), traces::TraceError);
}

TEST(Viz, HeatmapRowsAndConflictMarks) {
  const traces::Trace plain = traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::None, 0);
  const std::string dot = traces::heatmap_dot(plain, traces::analyze_trace(plain));
  // 16 instructions x 4 phases, 8 distinct words in each of 8 banks per phase: every
  // bank 64 words over the walk, 56 beyond the ideal of 1 per phase.
  EXPECT_EQ(count(dot, ">64<br/>+56<"), 64u);  // 32 banks x (stage row + total row)
  const traces::Trace k04 = traces::model_trace({"k04"});
  const std::string k04_dot = traces::heatmap_dot(k04, traces::analyze_trace(k04));
  for (const char* stage : {"tma-write", "wgmma-operand-read", "stmatrix", "tma-store-read"})
    EXPECT_NE(k04_dot.find(std::string("k04 ") + stage), std::string::npos) << stage;
  EXPECT_EQ(count(k04_dot, "<br/>+"), 0u);
}

TEST(Viz, Swizzle128BTable) {
  // 128B: row r's logical chunk c lands in physical chunk c ^ r (docs/hardware.md#swizzle-modes).
  const std::string dot = traces::swizzle_dot(model::SwizzleMode::B128, 8, 128);
  for (int r = 0; r < 8; ++r) {
    std::string row = "<td><b>row " + std::to_string(r) + "</b></td>";
    const size_t at = dot.find(row);
    ASSERT_NE(at, std::string::npos);
    size_t pos = at;
    for (int c = 0; c < 8; ++c) {
      pos = dot.find("\">", dot.find("<td bgcolor=", pos)) + 2;
      EXPECT_EQ(dot.substr(pos, 1), std::to_string(c ^ r)) << "row " << r << " chunk " << c;
    }
  }
  // A base inside the pattern (512 = line 4 of 8) rotates it: row 0's chunk 0 lands in chunk 0 ^ 4.
  const std::string mid = traces::swizzle_dot(model::SwizzleMode::B128, 8, 128, 512);
  const size_t row0 = mid.find("<td><b>row 0</b></td>");
  ASSERT_NE(row0, std::string::npos);
  const size_t cell = mid.find("\">", mid.find("<td bgcolor=", row0)) + 2;
  EXPECT_EQ(mid.substr(cell, 1), "4");
  EXPECT_THROW(traces::swizzle_dot(model::SwizzleMode::B128, 8, 128, 64), model::ModelError);  // not 128-aligned
}

TEST(Viz, DotRendersEveryPicture) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz dot not installed (tools/setup)";
  const traces::Trace t = traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::None, 0);
  const traces::Trace k04 = traces::model_trace({"k04"});
  const std::pair<std::string, std::string> pictures[] = {
      {"instruction", traces::instruction_dot(t, 0)},
      {"heatmap", traces::heatmap_dot(k04, traces::analyze_trace(k04))},
      {"swizzle", traces::swizzle_dot(model::SwizzleMode::B64, 8, 128)},
      {"quoted", traces::instruction_dot(t, 3, "a \"quoted\" <title> & more")},
  };
  for (const auto& [name, dot] : pictures) {
    const std::string svg = render_svg(dot, name);
    EXPECT_NE(svg.find("<svg"), std::string::npos) << name;
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << name;
  }
}
