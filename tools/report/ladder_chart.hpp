#pragma once
// The ladder chart: bench results (the JSON `gemmscope bench --json` writes) as an
// SVG bar chart, one group of bars per shape, one bar per kernel, TFLOP/s with
// the ratio to cuBLAS on top. Host-only; no GPU needed.
#include <string>
#include <vector>

#include "report/bench_json.hpp"

namespace gemmscope::report {

struct ChartBar {
  std::string kernel, shape;
  double tflops = 0, ratio_to_cublas = 0;
};

// The bars of a bench JSON (report/bench_json.hpp reads and checks it): one per row
// measured (TFLOP/s above 0). Throws std::invalid_argument naming what is wrong.
std::vector<ChartBar> read_bench_json(const std::string& json_text, const std::string& name = "bench JSON");
std::vector<ChartBar> chart_bars(const std::vector<BenchJsonRow>& rows);
// Every text from outside (title, kernel names) is escaped for XML; any length.
std::string ladder_chart_svg(const std::vector<ChartBar>& bars, const std::string& title);

}  // namespace gemmscope::report
