#include "ladder_chart.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace gemmscope::report {

std::vector<ChartBar> read_bench_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(std::string("bench JSON does not parse at byte ") + std::to_string(e.byte) +
                                ": expected the output of `gemmscope bench --json`");
  }
  if (!j.is_object() || !j.contains("rows") || !j["rows"].is_array())
    throw std::invalid_argument("bench JSON has no \"rows\" array: expected the output of `gemmscope bench --json`");
  std::vector<ChartBar> bars;
  for (const auto& r : j["rows"]) {
    for (const char* key : {"kernel", "m", "n", "k", "tflops", "ratio_to_cublas"})
      if (!r.contains(key)) throw std::invalid_argument(std::string("bench JSON row lacks \"") + key + "\"");
    ChartBar b;
    b.kernel = r["kernel"].get<std::string>();
    b.shape = std::to_string(r["m"].get<long long>()) + "x" + std::to_string(r["n"].get<long long>()) + "x" +
              std::to_string(r["k"].get<long long>());
    // null: no finite measurement (bench writes non-finite values as null); no bar.
    b.tflops = r["tflops"].is_null() ? 0.0 : r["tflops"].get<double>();
    b.ratio_to_cublas = r["ratio_to_cublas"].is_null() ? 0.0 : r["ratio_to_cublas"].get<double>();
    if (b.tflops > 0) bars.push_back(b);
  }
  return bars;
}

std::string ladder_chart_svg(const std::vector<ChartBar>& bars, const std::string& title) {
  std::vector<std::string> shapes, kernels;
  for (const auto& b : bars) {
    if (std::find(shapes.begin(), shapes.end(), b.shape) == shapes.end()) shapes.push_back(b.shape);
    if (std::find(kernels.begin(), kernels.end(), b.kernel) == kernels.end()) kernels.push_back(b.kernel);
  }
  double top = 1;
  for (const auto& b : bars) top = std::max(top, b.tflops);
  top *= 1.15;
  const double bar_w = 34, gap = 40, left = 60, plot_h = 300, base_y = 360;
  const double group_w = bar_w * kernels.size() + gap;
  const double width = left + group_w * shapes.size() + 140;
  static const char* colors[] = {"#9e9e9e", "#90caf9", "#42a5f5", "#1e88e5", "#1565c0", "#0d47a1",
                                 "#66bb6a", "#43a047", "#2e7d32", "#1b5e20", "#ef6c00", "#6a1b9a",
                                 "#8e24aa", "#ab47bc", "#c2185b", "#d84315"};
  constexpr size_t kColors = sizeof(colors) / sizeof(colors[0]);
  std::string svg;
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"420\" font-family=\"sans-serif\" "
                "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                "<text x=\"%.0f\" y=\"24\" font-size=\"15\">%s</text>\n",
                width, left, title.c_str());
  svg += buf;
  for (int t = 0; t <= 4; ++t) {  // gridlines
    const double v = top * t / 4, y = base_y - plot_h * t / 4;
    std::snprintf(buf, sizeof(buf),
                  "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%.0f\" y=\"%.1f\" "
                  "text-anchor=\"end\">%.0f</text>\n",
                  left, width - 140, y, y, left - 6, y + 4, v);
    svg += buf;
  }
  std::snprintf(buf, sizeof(buf), "<text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\">TFLOP/s</text>\n",
                base_y - plot_h / 2, base_y - plot_h / 2);
  svg += buf;
  for (size_t s = 0; s < shapes.size(); ++s) {
    const double x0 = left + gap / 2 + s * group_w;
    for (const auto& b : bars) {
      if (b.shape != shapes[s]) continue;
      const size_t ki = std::find(kernels.begin(), kernels.end(), b.kernel) - kernels.begin();
      const double h = plot_h * b.tflops / top, x = x0 + ki * bar_w;
      std::snprintf(buf, sizeof(buf),
                    "<rect class=\"bar\" data-kernel=\"%s\" data-shape=\"%s\" data-tflops=\"%.1f\" x=\"%.1f\" "
                    "y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"%s\"/>\n"
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.2fx</text>\n",
                    b.kernel.c_str(), b.shape.c_str(), b.tflops, x + 2, base_y - h, bar_w - 4, h,
                    colors[ki % kColors], x + bar_w / 2, base_y - h - 4, b.ratio_to_cublas);
      svg += buf;
    }
    std::snprintf(buf, sizeof(buf), "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
                  x0 + bar_w * kernels.size() / 2, base_y + 18, shapes[s].c_str());
    svg += buf;
  }
  for (size_t k = 0; k < kernels.size(); ++k) {  // legend
    std::snprintf(buf, sizeof(buf),
                  "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%.0f\" "
                  "y=\"%.0f\">%s</text>\n",
                  width - 120, 50 + 18.0 * k, colors[k % kColors], width - 102, 60 + 18.0 * k, kernels[k].c_str());
    svg += buf;
  }
  svg += "<text x=\"60\" y=\"410\" fill=\"#555\">bar label: ratio to cuBLAS (time_cuBLAS / time_kernel) in the same run</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace gemmscope::report
