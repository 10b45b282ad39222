// The tuning caches that ship with the library (kernels/tune/caches/*.json): they
// parse, hold compiled configurations, cover the 48 LLM shapes they were tuned on, and
// apply exactly where the rule of tune/shipped.hpp says.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "tune/config.hpp"
#include "tune/shape_set.hpp"
#include "tune/shipped.hpp"

namespace gemmscope::tune {
namespace {

TuneKey h200(std::string driver = "580.159.04") {
  TuneKey k;
  k.gpu = "NVIDIA H200";
  k.cuda = "13.0";
  k.driver = std::move(driver);
  k.kernel_version = kKernelVersion;
  return k;
}

TEST(ShippedCache, DriverMajorIsTheTextBeforeTheFirstDot) {
  EXPECT_EQ(driver_major("580.159.04"), "580");
  EXPECT_EQ(driver_major("575.51"), "575");
  EXPECT_EQ(driver_major("cuda-driver-13000"), "cuda-driver-13000");
}

TEST(ShippedCache, TheH200CacheShipsAndItsConfigurationsAreCompiled) {
  bool found = false;
  for (const ShippedCache& c : shipped_caches()) {
    const TuneCache cache = parse_tune_cache(c.json, std::string(c.name));
    EXPECT_FALSE(cache.entries.empty()) << c.name;
    for (const TuneEntry& e : cache.entries) EXPECT_NO_THROW(parse_config(e.config)) << c.name << ": " << e.config;
    found = found || c.name == "h200";
  }
  EXPECT_TRUE(found) << "kernels/tune/caches/h200.json is not compiled in";
}

TEST(ShippedCache, CoversEveryLlmShapeOnTheH200WithAnyDriverOfTheSameMajor) {
  const auto shapes = load_shape_set(std::string(GEMMSCOPE_SOURCE_DIR) + "/bench/shapes/llm_projections.csv");
  for (const std::string driver : {"580.159.04", "580.65.06"}) {
    const TuneCache usable = shipped_entries_for(h200(driver));
    std::set<std::tuple<int64_t, int64_t, int64_t>> distinct;
    for (const auto& s : shapes) {
      TuneKey key = h200(driver);
      key.m = s.m, key.n = s.n, key.k = s.k;
      const TuneEntry* e = usable.find(key);
      ASSERT_NE(e, nullptr) << s.m << "x" << s.n << "x" << s.k << " with driver " << driver;
      EXPECT_EQ(e->key.driver, driver);
      distinct.insert({s.m, s.n, s.k});
    }
    EXPECT_EQ(usable.entries.size(), distinct.size());
  }
}

TEST(ShippedCache, DoesNotApplyToAnotherGpuCudaDriverMajorOrKernelVersion) {
  TuneKey h100 = h200();
  h100.gpu = "NVIDIA H100 80GB HBM3";
  TuneKey cuda = h200();
  cuda.cuda = "13.1";
  TuneKey version = h200();
  version.kernel_version = kKernelVersion + 1;
  for (const TuneKey& other : {h100, cuda, h200("575.51.03"), h200("5800.1"), version})
    EXPECT_TRUE(shipped_entries_for(other).entries.empty()) << other.gpu << " " << other.cuda << " " << other.driver;
}

}  // namespace
}  // namespace gemmscope::tune
