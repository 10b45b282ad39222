#pragma once
// The ladder chart: bench results (the JSON `gemmscope bench --json` writes) as an
// SVG bar chart, one group of bars per shape, one bar per kernel, TFLOP/s with
// the ratio to cuBLAS on top. Host-only; no GPU needed.
#include <string>
#include <vector>

namespace gemmscope::report {

struct ChartBar {
  std::string kernel, shape;
  double tflops = 0, ratio_to_cublas = 0;
};

// Parses the bench JSON; throws std::invalid_argument naming what is missing.
std::vector<ChartBar> read_bench_json(const std::string& json_text);
std::string ladder_chart_svg(const std::vector<ChartBar>& bars, const std::string& title);

}  // namespace gemmscope::report
