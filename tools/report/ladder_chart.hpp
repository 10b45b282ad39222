#pragma once
// The ladder chart: bench results (the CSV `gemmscope bench --csv` writes, or its JSON)
// as an SVG bar chart, one group of bars per shape, one bar per kernel, TFLOP/s with
// the ratio to cuBLAS on top. Host-only; no GPU needed.
#include <string>
#include <vector>

#include "report/bench_compare.hpp"
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
// The bars of a bench CSV (report/bench_compare.hpp reads and checks it): one per
// measured row, TFLOP/s from its shape and median time, the ratio from the median of
// the "cublas" row of the same shape (0 where the file has none measured).
std::vector<ChartBar> chart_bars(const BenchRun& run);
// Every text from outside (title, kernel names) is escaped for XML; any length.
std::string ladder_chart_svg(const std::vector<ChartBar>& bars, const std::string& title);

}  // namespace gemmscope::report
