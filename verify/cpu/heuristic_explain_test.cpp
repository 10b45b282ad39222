// `gemmscope tune explain` (tools/report/heuristic_explain.hpp): its first rank is the
// configuration tune::heuristic returns, its ranks are in the model's order, the HBM
// floor is A, B and C at 3.5 TB/s as docs/tuning.md states it, ties with the pick and
// the shipped cache's entry (read from kernels/tune/caches/h200.json here) are named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "report/heuristic_explain.hpp"
#include "tune/config.hpp"

namespace {

using gemmscope::report::explain_heuristic;
using gemmscope::report::explain_report;
namespace tune = gemmscope::tune;

constexpr int kSms = 132;

TEST(HeuristicExplain, RanksAsTheHeuristicChooses) {
  for (const tune::Shape s : {tune::Shape{1, 4096, 4096}, tune::Shape{156, 3072, 3072}, tune::Shape{777, 4096, 12288},
                              tune::Shape{4096, 4096, 4096}, tune::Shape{6326, 6144, 5120}, tune::Shape{5, 6656, 6912}}) {
    const auto e = explain_heuristic(s, kSms);
    ASSERT_FALSE(e.ranked.empty());
    EXPECT_EQ(tune::to_string(e.ranked.front().config), tune::to_string(tune::heuristic(s, kSms)))
        << s.m << "x" << s.n << "x" << s.k;
    EXPECT_EQ(e.ranked.size(), tune::candidates(s, kSms).size());
    for (size_t i = 1; i < e.ranked.size(); ++i) EXPECT_LE(e.ranked[i - 1].time.total_us, e.ranked[i].time.total_us);
    for (const auto& r : e.ranked) EXPECT_EQ(r.time.total_us, tune::modelled_time_us(r.config, s, kSms));
  }
}

TEST(HeuristicExplain, ShowsTheModelsTerms) {
  // 4096^3 in 128 x 256 tiles, 2x1 clusters: 256 work units over 66 cluster slots, all
  // whole (no split), and a floor of A, B and C once: 3 x 4096^2 x 2 bytes at 3.5 TB/s.
  const tune::Shape s{4096, 4096, 4096};
  const auto e = explain_heuristic(s, kSms);
  const std::string whole = "128x256x64.s4.wg2.c2x1.static.g0.sk1";
  bool found = false;
  for (const auto& r : e.ranked) {
    if (tune::to_string(r.config) != whole) continue;
    found = true;
    EXPECT_EQ(r.units, 256);
    EXPECT_EQ(r.slots, 66);
    EXPECT_EQ(r.time.cut_us, 0.0);
    EXPECT_NEAR(r.time.floor_us, 3.0 * 4096 * 4096 * 2 / 3.5e12 * 1e6, 1e-9);
    EXPECT_FALSE(r.time.on_floor());
  }
  EXPECT_TRUE(found);
}

TEST(HeuristicExplain, NamesTiesAndTheShippedEntry) {
  // At M = 72 both 64 x 128 tiles (BK = 64 in 8 stages, BK = 128 in 4) sit on the HBM
  // floor with the same tiles behind it: the model cannot tell them apart.
  const std::string report = explain_report(explain_heuristic({72, 6656, 6912}, kSms), 3);
  EXPECT_NE(report.find("64x128x128.s4.wg1.c2x1.static.g0.sk1"), std::string::npos) << report;
  EXPECT_NE(report.find("(tied)"), std::string::npos) << report;
  EXPECT_NE(report.find("1 configuration ties with the pick"), std::string::npos) << report;
  EXPECT_NE(report.find("no tuning cache here has this shape"), std::string::npos) << report;

  // A shape of the 48 the H200's cache was tuned on: its entry, from the file itself.
  std::ifstream in(std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "kernels" / "tune" / "caches" / "h200.json");
  const nlohmann::json cache = nlohmann::json::parse(in);
  const auto& entry = cache["entries"][0];
  const tune::Shape s{entry["m"].get<int64_t>(), entry["n"].get<int64_t>(), entry["k"].get<int64_t>()};
  const auto e = explain_heuristic(s, kSms);
  ASSERT_FALSE(e.cached.empty());
  EXPECT_EQ(e.cached.front().cache, "shipped cache h200");
  EXPECT_EQ(e.cached.front().config, entry["config"].get<std::string>());
  EXPECT_NE(explain_report(e, 1).find("shipped cache h200: on " + entry["gpu"].get<std::string>()), std::string::npos);
}

TEST(HeuristicExplain, ReadsACacheOfYours) {
  // Two entries for 156x3072x3072, of this kernel version and of an older one, and one
  // for another shape.
  const std::string path = testing::TempDir() + "/explain_cache.json";
  auto entry = [](int version, int64_t m, const std::string& config) {
    return "{\"gpu\": \"G\", \"cuda\": \"13.0\", \"driver\": \"580.1\", \"kernel_version\": " +
           std::to_string(version) + ", \"m\": " + std::to_string(m) +
           ", \"n\": 3072, \"k\": 3072, \"config\": \"" + config +
           "\", \"median_ms\": 1, \"cublas_ms\": 1, \"candidates\": 9, \"date\": \"x\"}";
  };
  std::ofstream(path) << "{\"format\": \"gemmscope-tune-cache\", \"version\": 1, \"entries\": [" +
                             entry(tune::kKernelVersion, 156, "128x64x64.swap.s8.wg2.c1x1.static.g0.sk2") + ", " +
                             entry(tune::kKernelVersion - 1, 156, "128x128x64.s6.wg2.c1x1.static.g0.sk1") + ", " +
                             entry(tune::kKernelVersion, 157, "128x128x64.s6.wg2.c1x1.static.g0.sk1") +
                             "], \"failures\": []}";
  const auto e = explain_heuristic({156, 3072, 3072}, kSms, path);
  ASSERT_EQ(e.cached.size(), 2u);
  const std::string report = explain_report(e, 1);
  EXPECT_NE(report.find("your cache " + path + ": on G, CUDA 13.0, driver 580, auto runs "
                        "128x64x64.swap.s8.wg2.c1x1.static.g0.sk2 instead"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("kernel version " + std::to_string(tune::kKernelVersion - 1) + ": ignored by this build's"),
            std::string::npos)
      << report;
  EXPECT_THROW(explain_heuristic({1, 8, 8}, kSms, testing::TempDir() + "/no_such_cache.json"), std::invalid_argument);
}

TEST(HeuristicExplain, SaysWhyNoConfigurationRuns) {
  auto e = explain_heuristic({64, 64, 7}, kSms);
  EXPECT_TRUE(e.ranked.empty());
  EXPECT_NE(explain_report(e, 8).find("no configuration of k10 runs it (K = 7 must be a multiple of 8"),
            std::string::npos);
  EXPECT_TRUE(e.fallback.empty() && e.fallback_refusal.empty());  // the kernel registry is the caller's to ask
  EXPECT_NE(explain_report(e, 8).find("; auto runs the last ladder kernel that does"), std::string::npos);
  // What the caller found auto runs instead, or the registry's refusal, ends the line.
  e.fallback = "k01";
  EXPECT_TRUE(explain_report(e, 8).ends_with("); auto runs k01 instead\n")) << explain_report(e, 8);
  e.fallback.clear();
  e.fallback_refusal = "no kernel can implement 64 x 64 x 7";
  EXPECT_TRUE(explain_report(e, 8).ends_with("); auto refuses it: no kernel can implement 64 x 64 x 7\n"))
      << explain_report(e, 8);
  EXPECT_THROW(explain_heuristic({64, 64, 64}, 0), std::invalid_argument);
}

}  // namespace
