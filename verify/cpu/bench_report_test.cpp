// The bench report's writers (tools/bench/bench_report.cpp) against readers
// written independently: nlohmann's JSON parser, the ladder chart's readers, and a
// small RFC 4180 CSV reader here. Strings with quotes, commas, control characters
// and bytes that are not UTF-8 must come back, and a non-finite timing must not
// make the JSON unreadable.
#include <gtest/gtest.h>

#ifdef GEMMSCOPE_HAVE_BENCH_REPORT
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#if __has_include("report/ladder_chart.hpp")
#include "report/ladder_chart.hpp"
#define GEMMSCOPE_HAVE_LADDER_CHART 1
#endif

namespace gemmscope::harness {
namespace {

BenchRow row(const std::string& kernel, GemmShape shape, double ms, double ratio, const std::string& label) {
  BenchRow r;
  r.kernel = kernel;
  r.shape = shape;
  r.median_ms = r.min_ms = r.max_ms = ms;
  r.tflops = 2.0 * shape.m * shape.n * shape.k / (ms * 1e-3) / 1e12;
  r.ratio_to_cublas = ratio;
  r.buffer_sets = 3;
  r.label = label;
  return r;
}

BenchReport sample() {
  BenchReport rep;
  rep.env.gpu = "NVIDIA \"H200\" \\ test";
  rep.env.driver = "580.159.04 (CUDA 13.0)";
  rep.env.cuda_runtime = "13.0";
  rep.env.commit = "abc1234+dirty";
  rep.env.date = "2026-11-30T02:00:00Z";
  rep.env.sm_count = 132;
  rep.env.l2_bytes = 52428800;
  rep.env.l2_before_batch = "cleaned";
  rep.rows.push_back(row("cublas", {512, 4096, 4096}, 0.0274, 1.0, "llama3-8b/o"));
  rep.rows.push_back(row("auto", {512, 4096, 4096}, 0.0548, 0.5, "llama3-8b/o"));
  rep.rows.push_back(row("auto", {128, 64, 64}, 0.001, 2.0, "a, \"quoted\" label\twith a tab"));
  rep.rows.back().detail = "k10:128x128x64.s6.wg2.c2x1.static.g0.sk1 (tuning cache /tmp/x.json)";
  rep.env.clock_sampling = "NVML every 100 us";
  rep.rows[1].clock_samples = 40;
  rep.rows[1].sm_clock_mhz = 1560.5;
  rep.rows[1].power_capped_pct = 87.5;
  rep.rows[1].slowdown_pct = 2.5;
  rep.rows[1].tensor_peak_pct = 91.25;
  rep.rows[2].clock_samples = 3;  // sampled on a GPU with no known peak
  rep.rows[2].sm_clock_mhz = 1980;
  BenchRow broken = row("k10:64x64x64.s12.wg1.c2x1.static.g0.sk1", {8, 8, 8}, 0.0, 0.0, "bad\xff" "byte");
  broken.tflops = std::numeric_limits<double>::quiet_NaN();
  broken.ratio_to_cublas = std::numeric_limits<double>::infinity();
  broken.note = "line one\nline two";
  rep.rows.push_back(broken);
  return rep;
}

TEST(BenchReport, JsonParsesAndKeepsEveryField) {
  const BenchReport rep = sample();
  const nlohmann::json j = nlohmann::json::parse(rep.to_json());  // throws on invalid JSON
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["environment"]["gpu"], "NVIDIA \"H200\" \\ test");
  EXPECT_EQ(j["environment"]["sm_count"], 132);
  EXPECT_EQ(j["environment"]["l2_bytes"], 52428800);
  EXPECT_EQ(j["environment"]["l2_before_batch"], "cleaned");
  EXPECT_EQ(nlohmann::json::parse(BenchReport{}.to_json())["environment"]["l2_before_batch"], "as left");
  ASSERT_EQ(j["rows"].size(), 4u);
  EXPECT_EQ(j["rows"][1]["kernel"], "auto");
  EXPECT_EQ(j["rows"][1]["m"], 512);
  EXPECT_DOUBLE_EQ(j["rows"][1]["median_ms"].get<double>(), 0.0548);
  EXPECT_DOUBLE_EQ(j["rows"][1]["ratio_to_cublas"].get<double>(), 0.5);
  EXPECT_EQ(j["rows"][2]["label"], "a, \"quoted\" label\twith a tab");
  EXPECT_EQ(j["rows"][2]["detail"], rep.rows[2].detail);
  // Non-finite values are null; the byte that is not UTF-8 is replaced, the rest kept.
  EXPECT_TRUE(j["rows"][3]["tflops"].is_null());
  EXPECT_TRUE(j["rows"][3]["ratio_to_cublas"].is_null());
  EXPECT_EQ(j["rows"][3]["note"], "line one\nline two");
  EXPECT_EQ(j["rows"][3]["label"], "bad\xEF\xBF\xBD" "byte");
  // Clock samples: the sampled row has them, an unsampled row has nulls.
  EXPECT_EQ(j["environment"]["clock_sampling"], "NVML every 100 us");
  EXPECT_EQ(j["rows"][1]["clock_samples"], 40);
  EXPECT_DOUBLE_EQ(j["rows"][1]["sm_clock_mhz"].get<double>(), 1560.5);
  EXPECT_DOUBLE_EQ(j["rows"][1]["power_capped_pct"].get<double>(), 87.5);
  EXPECT_DOUBLE_EQ(j["rows"][1]["slowdown_pct"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(j["rows"][1]["tensor_peak_pct"].get<double>(), 91.25);
  EXPECT_EQ(j["rows"][0]["clock_samples"], 0);
  EXPECT_TRUE(j["rows"][0]["sm_clock_mhz"].is_null());
  EXPECT_TRUE(j["rows"][0]["tensor_peak_pct"].is_null());
  EXPECT_DOUBLE_EQ(j["rows"][2]["sm_clock_mhz"].get<double>(), 1980);
  EXPECT_TRUE(j["rows"][2]["tensor_peak_pct"].is_null());
  EXPECT_EQ(nlohmann::json::parse(BenchReport{}.to_json())["environment"]["clock_sampling"], "off");
}

TEST(BenchReport, SummaryIsTheGeometricMeanOfTheFiniteRatios) {
  const nlohmann::json j = nlohmann::json::parse(sample().to_json());
  // auto: ratios 0.5 and 2.0 -> geomean 1, minimum 0.5 at 512x4096x4096. cuBLAS is
  // the reference and the k10 row has no finite ratio: neither gets a summary.
  ASSERT_EQ(j["summary"].size(), 1u);
  EXPECT_EQ(j["summary"][0]["kernel"], "auto");
  EXPECT_EQ(j["summary"][0]["shapes"], 2);
  EXPECT_NEAR(j["summary"][0]["geomean_ratio_to_cublas"].get<double>(), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(j["summary"][0]["min_ratio_to_cublas"].get<double>(), 0.5);
  EXPECT_EQ(j["summary"][0]["min_shape"], "512x4096x4096");
}

#ifdef GEMMSCOPE_HAVE_LADDER_CHART
TEST(BenchReport, LadderChartReadsTheJson) {
  const auto bars = report::read_bench_json(sample().to_json());
  ASSERT_EQ(bars.size(), 3u);  // the row without a finite TFLOP/s has no bar
  EXPECT_EQ(bars[1].kernel, "auto");
  EXPECT_EQ(bars[1].shape, "512x4096x4096");
  EXPECT_DOUBLE_EQ(bars[1].ratio_to_cublas, 0.5);
}

TEST(BenchReport, LadderChartReadsTheCsvAsTheJson) {
  const BenchReport rep = sample();
  const auto from_json = report::read_bench_json(rep.to_json());
  const auto from_csv = report::chart_bars(report::read_bench_csv(rep.to_csv(), "bench.csv"));
  ASSERT_EQ(from_csv.size(), from_json.size());  // the row without a time has no bar in either
  for (size_t i = 0; i < from_csv.size(); ++i) {
    EXPECT_EQ(from_csv[i].kernel, from_json[i].kernel);
    EXPECT_EQ(from_csv[i].shape, from_json[i].shape);
    EXPECT_NEAR(from_csv[i].tflops, from_json[i].tflops, 1e-9 * from_json[i].tflops);
  }
  // The CSV's ratio is recomputed from the cuBLAS row of the same shape: 0.0274 / 0.0548.
  EXPECT_DOUBLE_EQ(from_csv[1].ratio_to_cublas, 0.5);
  // 128x64x64 has no cuBLAS row in the file: no ratio, where the JSON carries the
  // one bench wrote.
  EXPECT_EQ(from_csv[2].shape, "128x64x64");
  EXPECT_EQ(from_csv[2].ratio_to_cublas, 0.0);
}
#endif

// RFC 4180: fields separated by commas; a field in double quotes may hold commas,
// line breaks and doubled quotes.
std::vector<std::vector<std::string>> read_csv(const std::string& text) {
  std::vector<std::vector<std::string>> out(1, std::vector<std::string>(1));
  bool in_quotes = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') out.back().back() += '"', ++i;
      else if (c == '"') in_quotes = false;
      else out.back().back() += c;
    } else if (c == '"') {
      in_quotes = true;
    } else if (c == ',') {
      out.back().emplace_back();
    } else if (c == '\n') {
      out.emplace_back(1);
    } else {
      out.back().back() += c;
    }
  }
  if (out.back().size() == 1 && out.back()[0].empty()) out.pop_back();
  return out;
}

TEST(BenchReport, CsvReadsBackFieldByField) {
  const BenchReport rep = sample();
  const auto rows = read_csv(rep.to_csv());
  ASSERT_EQ(rows.size(), 5u);
  const auto& header = rows[0];
  ASSERT_EQ(header.size(), 28u);
  for (size_t r = 1; r < rows.size(); ++r) ASSERT_EQ(rows[r].size(), header.size()) << "row " << r;
  auto col = [&](const char* name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return size_t{0};
  };
  EXPECT_EQ(rows[3][col("label")], "a, \"quoted\" label\twith a tab");
  EXPECT_EQ(rows[3][col("detail")], rep.rows[2].detail);
  EXPECT_EQ(rows[3][col("m")], "128");
  EXPECT_EQ(rows[3][col("l2_before_batch")], "cleaned");
  EXPECT_EQ(rows[1][col("gpu")], "NVIDIA \"H200\" \\ test");
  EXPECT_EQ(rows[4][col("note")], "line one\nline two");
  EXPECT_EQ(rows[2][col("kernel")], "auto");
  EXPECT_DOUBLE_EQ(std::stod(rows[2][col("ratio_to_cublas")]), 0.5);
  // The sampled row carries its clock figures; the others leave them empty.
  EXPECT_EQ(rows[2][col("clock_sampling")], "NVML every 100 us");
  EXPECT_EQ(rows[2][col("clock_samples")], "40");
  EXPECT_DOUBLE_EQ(std::stod(rows[2][col("sm_clock_mhz")]), 1560.5);
  EXPECT_DOUBLE_EQ(std::stod(rows[2][col("power_capped_pct")]), 87.5);
  EXPECT_DOUBLE_EQ(std::stod(rows[2][col("slowdown_pct")]), 2.5);
  EXPECT_DOUBLE_EQ(std::stod(rows[2][col("tensor_peak_pct")]), 91.25);
  EXPECT_EQ(rows[1][col("clock_samples")], "0");
  EXPECT_EQ(rows[1][col("sm_clock_mhz")], "");
  EXPECT_EQ(rows[3][col("tensor_peak_pct")], "");
  EXPECT_EQ(rows[3][col("sm_clock_mhz")], "1980");
  EXPECT_EQ(rows[4][col("tensor_peak_pct")], "");
}

TEST(BenchReport, TableShowsTheClockOfSampledRowsOnly) {
  const std::string table = sample().to_table();
  EXPECT_NE(table.find("[1560 MHz, power cap 88%, 91.2% of tensor peak at that clock]"), std::string::npos) << table;
  EXPECT_NE(table.find("[1980 MHz, power cap 0%]"), std::string::npos) << table;  // no known peak
  // The unsampled rows have no clock.
  size_t mhz = 0, at = 0;
  while ((at = table.find("MHz", at)) != std::string::npos) ++mhz, ++at;
  EXPECT_EQ(mhz, 2u) << table;
}

}  // namespace
}  // namespace gemmscope::harness
#else
TEST(BenchReport, NeedsTheKernelsBuild) { GTEST_SKIP() << "built without the kernels (no bench report writers)"; }
#endif
