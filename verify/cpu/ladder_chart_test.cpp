// The ladder chart: every measured row becomes one bar whose height is its
// TFLOP/s on the chart's scale; bad input is refused with a message.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#if __has_include("report/ladder_chart.hpp")
#include "report/ladder_chart.hpp"

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

TEST(LadderChart, OneBarPerMeasuredRowScaledToTflops) {
  const std::string json = R"({"rows": [
    {"kernel": "k03", "m": 64, "n": 64, "k": 64, "tflops": 100.0, "ratio_to_cublas": 0.5},
    {"kernel": "cublas", "m": 64, "n": 64, "k": 64, "tflops": 200.0, "ratio_to_cublas": 1.0},
    {"kernel": "k04", "m": 64, "n": 64, "k": 64, "tflops": 0, "ratio_to_cublas": 0}]})";
  const auto bars = gemmscope::report::read_bench_json(json);
  ASSERT_EQ(bars.size(), 2u);  // the unmeasured row (0 TFLOP/s) has no bar
  const std::string svg = gemmscope::report::ladder_chart_svg(bars, "t");
  // Scale: the tallest bar is 300 px / 1.15 of the axis; so 200 -> 260.9, 100 -> 130.4.
  const std::regex bar(R"re(data-kernel="([^"]+)"[^>]*height="([0-9.]+)")re");
  std::map<std::string, double> heights;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it)
    heights[(*it)[1]] = std::stod((*it)[2]);
  ASSERT_EQ(heights.size(), 2u);
  EXPECT_NEAR(heights["cublas"], 300.0 / 1.15, 0.1);
  EXPECT_NEAR(heights["k03"], 150.0 / 1.15, 0.1);
  EXPECT_NE(svg.find("0.50x"), std::string::npos);
}

TEST(LadderChart, CommittedResultsPlot) {
  const std::string path = std::string(GEMMSCOPE_SOURCE_DIR) + "/bench/results/ladder/bench.csv";
  const auto bars = gemmscope::report::chart_bars(gemmscope::report::load_bench_csv(path, "ladder"));
  ASSERT_EQ(bars.size(), 30u);  // 15 kernels (the ladder, its variants, cuBLAS) x 2 shapes
  for (const auto& b : bars)
    if (b.kernel == "cublas") EXPECT_DOUBLE_EQ(b.ratio_to_cublas, 1.0) << b.shape;
}

TEST(LadderChart, CsvBarsWithoutCublasHaveNoRatioLabel) {
  const auto run = gemmscope::report::read_bench_csv(
      "kernel,m,n,k,median_ms\n"
      "k03,64,64,64,0.001\n"
      "k04,64,64,64,nan\n",
      "t.csv");
  const auto bars = gemmscope::report::chart_bars(run);
  ASSERT_EQ(bars.size(), 1u);  // k04 has no time: no bar
  // 2 x 64^3 flop in 1 us = 0.524288 TFLOP/s.
  EXPECT_NEAR(bars[0].tflops, 0.524288, 1e-9);
  EXPECT_EQ(bars[0].ratio_to_cublas, 0.0);
  EXPECT_EQ(gemmscope::report::ladder_chart_svg(bars, "t").find("x</text>"), std::string::npos);
}

TEST(LadderChart, RefusesMalformedJson) {
  EXPECT_THROW(gemmscope::report::read_bench_json("{\"rows\": [ {\"kernel\": 1"), std::invalid_argument);
  EXPECT_THROW(gemmscope::report::read_bench_json("{}"), std::invalid_argument);
  EXPECT_THROW(gemmscope::report::read_bench_json(R"({"rows":[{"kernel":"k01"}]})"), std::invalid_argument);
}
#else
TEST(LadderChart, NeedsTools) { GTEST_SKIP() << "configured with GEMMSCOPE_BUILD_TOOLS=OFF"; }
#endif
