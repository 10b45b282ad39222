#include "ladder_chart.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string_view>

#include "tune/shape_list.hpp"

namespace gemmscope::report {

std::vector<ChartBar> chart_bars(const std::vector<BenchJsonRow>& rows) {
  std::vector<ChartBar> bars;
  for (const BenchJsonRow& r : rows) {
    if (!(r.tflops > 0)) continue;  // not measured: no bar
    bars.push_back(ChartBar{r.kernel, shape_text(r.m, r.n, r.k),
                            r.tflops, r.ratio_to_cublas});
  }
  return bars;
}

std::vector<ChartBar> chart_bars(const BenchRun& run) {
  const auto shape = [](const BenchCsvRow& r) { return shape_text(r.m, r.n, r.k); };
  std::map<std::string, double> cublas_ms;
  for (const BenchCsvRow& r : run.rows)
    if (r.measured && r.kernel == "cublas") cublas_ms[shape(r)] = r.median_ms;
  std::vector<ChartBar> bars;
  for (const BenchCsvRow& r : run.rows) {
    if (!r.measured) continue;  // refused or failed: no bar
    const auto ref = cublas_ms.find(shape(r));
    const double flops = 2.0 * static_cast<double>(r.m) * static_cast<double>(r.n) * static_cast<double>(r.k);
    bars.push_back(ChartBar{r.kernel, shape(r), flops / (r.median_ms * 1e-3) / 1e12,
                            ref == cublas_ms.end() ? 0.0 : ref->second / r.median_ms});
  }
  return bars;
}

std::vector<ChartBar> read_bench_json(const std::string& text, const std::string& name) {
  return chart_bars(read_bench_json_rows(text, name));
}

namespace {

// Text and attribute values from outside: the five XML specials escaped, control
// characters (not allowed in XML 1.0) shown as '?'.
std::string xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
    }
  }
  return out;
}

// A number in a fixed format, e.g. num(12.345, 1) = "12.3".
std::string num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::string ladder_chart_svg(const std::vector<ChartBar>& bars, const std::string& title) {
  // Shapes and kernels in order of first appearance; each bar's slot found by map,
  // so that the chart is O(bars log bars) however many rows the file has.
  std::vector<std::string> shapes, kernels;
  std::map<std::string, size_t> shape_index, kernel_index;
  std::vector<std::vector<size_t>> bars_of_shape;
  for (size_t i = 0; i < bars.size(); ++i) {
    const ChartBar& b = bars[i];
    const auto [s, new_shape] = shape_index.try_emplace(b.shape, shapes.size());
    if (new_shape) {
      shapes.push_back(b.shape);
      bars_of_shape.emplace_back();
    }
    bars_of_shape[s->second].push_back(i);
    if (kernel_index.try_emplace(b.kernel, kernels.size()).second) kernels.push_back(b.kernel);
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
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width, 0) +
                    "\" height=\"420\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"" +
                    num(left, 0) + "\" y=\"24\" font-size=\"15\">" + xml(title) + "</text>\n";
  for (int t = 0; t <= 4; ++t) {  // gridlines
    const double v = top * t / 4, y = base_y - plot_h * t / 4;
    svg += "<line x1=\"" + num(left, 0) + "\" x2=\"" + num(width - 140, 0) + "\" y1=\"" + num(y, 1) + "\" y2=\"" +
           num(y, 1) + "\" stroke=\"#ddd\"/><text x=\"" + num(left - 6, 0) + "\" y=\"" + num(y + 4, 1) +
           "\" text-anchor=\"end\">" + num(v, 0) + "</text>\n";
  }
  svg += "<text x=\"14\" y=\"" + num(base_y - plot_h / 2, 0) + "\" transform=\"rotate(-90 14 " +
         num(base_y - plot_h / 2, 0) + ")\">TFLOP/s</text>\n";
  for (size_t s = 0; s < shapes.size(); ++s) {
    const double x0 = left + gap / 2 + s * group_w;
    for (const size_t i : bars_of_shape[s]) {
      const ChartBar& b = bars[i];
      const size_t ki = kernel_index.at(b.kernel);
      const double h = plot_h * b.tflops / top, x = x0 + ki * bar_w;
      svg += "<rect class=\"bar\" data-kernel=\"" + xml(b.kernel) + "\" data-shape=\"" + xml(b.shape) +
             "\" data-tflops=\"" + num(b.tflops, 1) + "\" x=\"" + num(x + 2, 1) + "\" y=\"" + num(base_y - h, 1) +
             "\" width=\"" + num(bar_w - 4, 0) + "\" height=\"" + num(h, 1) + "\" fill=\"" + colors[ki % kColors] +
             "\"/>\n";
      if (b.ratio_to_cublas > 0)  // 0: no cuBLAS time for the shape, no label
        svg += "<text x=\"" + num(x + bar_w / 2, 1) + "\" y=\"" + num(base_y - h - 4, 1) +
               "\" text-anchor=\"middle\" font-size=\"9\">" + num(b.ratio_to_cublas, 2) + "x</text>\n";
    }
    svg += "<text x=\"" + num(x0 + bar_w * kernels.size() / 2, 1) + "\" y=\"" + num(base_y + 18, 0) +
           "\" text-anchor=\"middle\">" + xml(shapes[s]) + "</text>\n";
  }
  for (size_t k = 0; k < kernels.size(); ++k) {  // legend
    svg += "<rect x=\"" + num(width - 120, 0) + "\" y=\"" + num(50 + 18.0 * k, 0) +
           "\" width=\"12\" height=\"12\" fill=\"" + colors[k % kColors] + "\"/><text x=\"" +
           num(width - 102, 0) + "\" y=\"" + num(60 + 18.0 * k, 0) + "\">" + xml(kernels[k]) + "</text>\n";
  }
  svg += "<text x=\"60\" y=\"410\" fill=\"#555\">bar label: ratio to cuBLAS (time_cuBLAS / time_kernel) in the same run</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace gemmscope::report
