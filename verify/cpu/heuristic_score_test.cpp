// `gemmscope tune score` (tools/report/heuristic_score.hpp) on hand-made `tune --times`
// text: which row is the heuristic's pick and which the fastest, the geomeans, shapes
// whose pick has no row, and the refusals. The ratios are written by the test, so the
// expected figures are worked from them by hand, not taken from the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "report/heuristic_score.hpp"
#include "tune/config.hpp"
#include "tune/outcome.hpp"

namespace {

using gemmscope::report::HeuristicScore;
using gemmscope::report::read_sweep_times;
using gemmscope::report::score_heuristic;
using gemmscope::report::SweepTimes;
namespace tune = gemmscope::tune;

constexpr int kSms = 132;

std::string row(const tune::Shape& s, const std::string& config, double ratio, const char* round = "first",
                const char* gpu = "G") {
  return std::string("\"") + gpu + "\",\"D\",\"13.0\",7,2026-12-04T00:00:00Z,\"set/layer\"," + std::to_string(s.m) + "," +
         std::to_string(s.n) + "," + std::to_string(s.k) + "," + round + "," + config + ",0.010000,0.010000," +
         std::to_string(ratio) + "\n";
}

std::string refusal(const std::string& text) {
  SweepTimes times;
  try {
    read_sweep_times(text, "t.csv", times);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(HeuristicScore, SetsThePickBesideTheFastest) {
  // Two shapes; every candidate of each gets a row, the pick 0.9 and the others 0.5,
  // but for one other configuration per shape at 1.2 (the fastest).
  const tune::Shape a{100, 4096, 4096}, b{4096, 4096, 4096};
  const std::string pick_a = tune::to_string(tune::heuristic(a, kSms));
  const std::string pick_b = tune::to_string(tune::heuristic(b, kSms));
  std::string text = tune::sweep_times_header();
  std::string fastest_a, fastest_b;
  for (const auto& [s, pick, fastest] : {std::tuple{a, pick_a, &fastest_a}, std::tuple{b, pick_b, &fastest_b}}) {
    for (const tune::KernelConfig& c : tune::candidates(s, kSms)) {
      const std::string name = tune::to_string(c);
      double ratio = 0.5;
      if (name == pick) ratio = 0.9;
      else if (fastest->empty()) *fastest = name, ratio = 1.2;
      text += row(s, name, ratio);
    }
    text += row(s, pick, 5.0, "refine");  // refine rows are not read
  }
  SweepTimes times;
  read_sweep_times(text, "t.csv", times);
  ASSERT_EQ(times.shapes.size(), 2u);
  const HeuristicScore score = score_heuristic(times, kSms);
  ASSERT_EQ(score.scored, 2);
  EXPECT_EQ(score.shapes[0].pick, pick_a);
  EXPECT_DOUBLE_EQ(score.shapes[0].pick_ratio, 0.9);
  EXPECT_EQ(score.shapes[0].fastest, fastest_a);
  EXPECT_DOUBLE_EQ(score.shapes[1].fastest_ratio, 1.2);
  EXPECT_NEAR(score.pick_geomean, 0.9, 1e-12);
  EXPECT_NEAR(score.fastest_geomean, 1.2, 1e-12);
  EXPECT_NEAR(score.pick_over_fastest, 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(score.pick_min, 0.9);
  const std::string report = gemmscope::report::score_report(score, times);
  EXPECT_NE(report.find("geomean over 2 shapes: fastest measured 1.200, heuristic's pick 0.900 (0.750 of the fastest)"),
            std::string::npos)
      << report;
}

TEST(HeuristicScore, LeavesOutAShapeWhosePickHasNoRow) {
  const tune::Shape a{100, 4096, 4096}, b{2048, 8192, 8192};
  const std::string pick_a = tune::to_string(tune::heuristic(a, kSms));
  std::string other_b;
  for (const tune::KernelConfig& c : tune::candidates(b, kSms))
    if (tune::to_string(c) != tune::to_string(tune::heuristic(b, kSms))) other_b = tune::to_string(c);
  SweepTimes times;
  read_sweep_times(tune::sweep_times_header() + row(a, pick_a, 0.8) + row(b, other_b, 1.1), "t.csv", times);
  const HeuristicScore score = score_heuristic(times, kSms);
  EXPECT_EQ(score.scored, 1);
  EXPECT_EQ(score.shapes[1].pick_ratio, 0.0);
  EXPECT_NEAR(score.pick_geomean, 0.8, 1e-12);
  EXPECT_NE(gemmscope::report::score_report(score, times).find("1 shape without a row for its pick"), std::string::npos);
}

// Another build's times: rows of an instance this build does not compile are counted
// and left out (the heuristic cannot pick them); the rest score as usual.
TEST(HeuristicScore, LeavesOutConfigurationsThisBuildDoesNotCompile) {
  const tune::Shape s{100, 4096, 4096};
  const std::string pick = tune::to_string(tune::heuristic(s, kSms));
  const std::string other = "128x100x64.s6.wg2.c1x1.static.g0.sk2";
  SweepTimes times;
  read_sweep_times(tune::sweep_times_header() + row(s, other, 1.5) + row(s, pick, 0.9) +
                       row(s, "128x100x64.s6.wg2.c1x1.static.g8.sk1", 1.4),
                   "t.csv", times);
  EXPECT_EQ(times.uncompiled_rows, 2);
  ASSERT_EQ(times.shapes.size(), 1u);
  EXPECT_EQ(times.shapes[0].configs.size(), 1u);
  const HeuristicScore score = score_heuristic(times, kSms);
  EXPECT_NEAR(score.fastest_geomean, 0.9, 1e-12);
  EXPECT_NE(gemmscope::report::score_report(score, times)
                .find("2 rows of configurations this build does not compile left out (128x100x64.s6.wg2.c1x1.static)"),
            std::string::npos);
}

TEST(HeuristicScore, ReadsAcrossFilesAndRefusesWhatIsNotOneSweepOfOneGpu) {
  const tune::Shape s{100, 4096, 4096};
  const std::string h = tune::sweep_times_header();
  const std::string c1 = "128x128x64.s6.wg2.c1x1.static.g0.sk1", c2 = "128x128x64.s6.wg2.c1x1.static.g0.sk2";
  SweepTimes times;
  read_sweep_times(h + row(s, c1, 1.0), "one.csv", times);
  read_sweep_times(h + row(s, c2, 1.1), "two.csv", times);
  ASSERT_EQ(times.shapes.size(), 1u);
  EXPECT_EQ(times.shapes[0].configs.size(), 2u);
  try {
    read_sweep_times(h + row(s, c1, 1.0), "three.csv", times);
    ADD_FAILURE() << "a configuration timed again in another file was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is given again (first in an earlier file)"), std::string::npos) << e.what();
  }

  EXPECT_EQ(refusal(h + row(s, c1, 1.0) + row(s, c1, 1.2)),
            "t.csv: line 3: " + c1 + " at 100x4096x4096 is given again (first at line 2); score each run's times on their own");
  EXPECT_EQ(refusal(h + row(s, c1, 1.0) + row(s, c2, 1.0, "first", "H")),
            "t.csv: line 3: gpu = 'H', where earlier rows are of 'G': score one GPU's times at a time");
  EXPECT_NE(refusal("kernel,m,n,k,median_ms\nauto,1,1,1,1\n").find("is not `gemmscope tune --times`'s"), std::string::npos);
  EXPECT_EQ(refusal(""), "t.csv: empty file: expected the CSV of `gemmscope tune --times`");
  EXPECT_EQ(refusal(std::string("\x1f\x8b\x08\x08", 4) + "times.csv"),
            "t.csv: gzip-compressed, not CSV text: decompress it first (gunzip -k, or zcat into a .csv)");
  std::string bad_ratio = row(s, c1, 1.0);
  bad_ratio.replace(bad_ratio.rfind(',') + 1, std::string::npos, "nan\n");
  EXPECT_EQ(refusal(h + bad_ratio), "t.csv: line 2: ratio_to_cublas = 'nan' must be a positive finite number");
  EXPECT_NE(refusal(h + row(s, "128x100.s6.wg2.c1x1.static.g0.sk1", 1.0)).find("t.csv: line 2: config: "),
            std::string::npos);
  EXPECT_EQ(refusal(h + row(s, c1, 1.0, "second")), "t.csv: line 2: round = 'second' must be first or refine");
  EXPECT_EQ(refusal(h + row({0, 4096, 4096}, c1, 1.0)),
            "t.csv: line 2: m = '0' must be a whole number from 1 to 2^31 - 1");
  EXPECT_THROW(score_heuristic(times, 0), std::invalid_argument);
}

}  // namespace
