// The autotuner's results cache (kernels/tune/cache.hpp). Expected values are
// hand-written JSON text; the properties compare a cache with itself after a trip
// through to_json and parse_tune_cache.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune/cache.hpp"

namespace {

namespace fs = std::filesystem;
using gemmscope::tune::load_tune_cache;
using gemmscope::tune::parse_tune_cache;
using gemmscope::tune::save_tune_cache;
using gemmscope::tune::TuneCache;
using gemmscope::tune::TuneCacheError;
using gemmscope::tune::TuneEntry;
using gemmscope::tune::TuneFailure;
using gemmscope::tune::TuneKey;
using nlohmann::json;

const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

// Two entries (one from another GPU, cuBLAS not measured) and one failure.
const std::string kValid = R"({
  "format": "gemmscope-tune-cache",
  "version": 1,
  "entries": [
    {"gpu": "NVIDIA H200", "cuda": "13.0", "driver": "580.159.04", "kernel_version": 1,
     "m": 512, "n": 8192, "k": 5376, "config": "128x256x64.s4.wg2.c2x1.static.g0.sk1",
     "median_ms": 0.0612, "cublas_ms": 0.0647, "candidates": 24, "date": "2026-11-30T10:00:00Z"},
    {"gpu": "NVIDIA H100 80GB HBM3", "cuda": "12.8", "driver": "570.86.15", "kernel_version": 1,
     "m": 4096, "n": 4096, "k": 4096, "config": "c", "median_ms": 0.2, "cublas_ms": 0, "candidates": 1, "date": ""}
  ],
  "failures": [
    {"gpu": "NVIDIA H200", "cuda": "13.0", "driver": "580.159.04", "kernel_version": 1, "m": 512, "n": 8192,
     "k": 5376, "config": "256x128x64.s5.wg2.c1x1.static.g0.sk1", "reason": "needs 240 KiB of shared memory"}
  ]
})";

const TuneKey kH200Key{"NVIDIA H200", "13.0", "580.159.04", 1, 512, 8192, 5376};

std::string refusal(const std::string& text) {
  try {
    parse_tune_cache(text, "c.json");
  } catch (const TuneCacheError& e) {
    return e.what();
  }
  return "(accepted)";
}

// kValid with one change made through nlohmann (an independent writer).
std::string changed(const std::function<void(json&)>& change) {
  json doc = json::parse(kValid);
  change(doc);
  return doc.dump();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("test text lacks " + from);
  return text.replace(at, from.size(), to);
}

TEST(TuneCache, HandWrittenCacheParses) {
  const TuneCache cache = parse_tune_cache(kValid, "c.json");
  ASSERT_EQ(cache.entries.size(), 2u);
  ASSERT_EQ(cache.failures.size(), 1u);
  const TuneEntry& e = cache.entries[0];
  EXPECT_EQ(e.key, kH200Key);
  EXPECT_EQ(e.config, "128x256x64.s4.wg2.c2x1.static.g0.sk1");
  EXPECT_EQ(e.median_ms, 0.0612);
  EXPECT_EQ(e.cublas_ms, 0.0647);
  EXPECT_EQ(e.candidates, 24);
  EXPECT_EQ(e.date, "2026-11-30T10:00:00Z");
  EXPECT_EQ(cache.entries[1].key, (TuneKey{"NVIDIA H100 80GB HBM3", "12.8", "570.86.15", 1, 4096, 4096, 4096}));
  EXPECT_EQ(cache.entries[1].cublas_ms, 0.0);
  EXPECT_EQ(cache.entries[1].date, "");
  EXPECT_EQ(cache.failures[0].key, kH200Key);
  EXPECT_EQ(cache.failures[0].config, "256x128x64.s5.wg2.c1x1.static.g0.sk1");
  EXPECT_EQ(cache.failures[0].reason, "needs 240 KiB of shared memory");
}

TEST(TuneCache, WrittenTextIsStable) {
  EXPECT_EQ(gemmscope::tune::to_json(TuneCache{}),
            "{\n  \"format\": \"gemmscope-tune-cache\",\n  \"version\": 1,\n  \"entries\": [],\n  \"failures\": []\n}\n");
  TuneCache cache;
  cache.entries.push_back({kH200Key, "128x256x64.s4.wg2.c2x1.static.g0.sk1", 0.0612, 0.0647, 24, "2026-11-30T10:00:00Z"});
  cache.entries.push_back({{"NVIDIA H200", "13.0", "580.159.04", 1, 128, 6144, 4096}, "c", 0.5, 0, 3, "d"});
  cache.failures.push_back({kH200Key, "x", "caf\xc3\xa9 \"quoted\""});
  EXPECT_EQ(gemmscope::tune::to_json(cache),
            R"({
  "format": "gemmscope-tune-cache",
  "version": 1,
  "entries": [
    {"gpu":"NVIDIA H200","cuda":"13.0","driver":"580.159.04","kernel_version":1,"m":512,"n":8192,"k":5376,"config":"128x256x64.s4.wg2.c2x1.static.g0.sk1","median_ms":0.0612,"cublas_ms":0.0647,"candidates":24,"date":"2026-11-30T10:00:00Z"},
    {"gpu":"NVIDIA H200","cuda":"13.0","driver":"580.159.04","kernel_version":1,"m":128,"n":6144,"k":4096,"config":"c","median_ms":0.5,"cublas_ms":0.0,"candidates":3,"date":"d"}
  ],
  "failures": [
    {"gpu":"NVIDIA H200","cuda":"13.0","driver":"580.159.04","kernel_version":1,"m":512,"n":8192,"k":5376,"config":"x","reason":"café \"quoted\""}
  ]
}
)");
}

TEST(TuneCache, DocumentErrors) {
  EXPECT_EQ(refusal(changed([](json& d) { d.erase("format"); })),
            "c.json: format is missing: not a gemmscope tune cache");
  EXPECT_EQ(refusal(changed([](json& d) { d["format"] = "gemmscope-golden-trace"; })),
            "c.json: format = \"gemmscope-golden-trace\" must be \"gemmscope-tune-cache\"");
  EXPECT_EQ(refusal(changed([](json& d) { d["format"] = 1; })),
            "c.json: format = 1 must be \"gemmscope-tune-cache\"");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = 2; })), "c.json: version 2 is newer than this gemmscope (1)");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = 18446744073709551615ULL; })),
            "c.json: version 18446744073709551615 is newer than this gemmscope (1)");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = 0; })), "c.json: version = 0 must be 1");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = -1; })), "c.json: version = -1 must be 1");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = "1"; })), "c.json: version = \"1\" must be the integer 1");
  EXPECT_EQ(refusal(changed([](json& d) { d["version"] = 1.0; })), "c.json: version = 1.0 must be the integer 1");
  EXPECT_EQ(refusal(changed([](json& d) { d.erase("version"); })), "c.json: version is missing");
  EXPECT_EQ(refusal(changed([](json& d) { d.erase("entries"); })), "c.json: entries is missing");
  EXPECT_EQ(refusal(changed([](json& d) { d.erase("failures"); })), "c.json: failures is missing");
  EXPECT_EQ(refusal(changed([](json& d) { d["entries"] = json::object(); })),
            "c.json: entries = an object must be an array");
  EXPECT_EQ(refusal(changed([](json& d) { d["failures"] = "none"; })),
            "c.json: failures = \"none\" must be an array");
  EXPECT_EQ(refusal(changed([](json& d) { d["comment"] = "hi"; })),
            "c.json: comment is not a field of a tune cache (fields: format, version, entries, failures)");
  EXPECT_EQ(refusal("[]"), "c.json: the document = an array must be a JSON object (a gemmscope tune cache)");
  EXPECT_EQ(refusal("42"), "c.json: the document = 42 must be a JSON object (a gemmscope tune cache)");
}

TEST(TuneCache, EntryErrorsNameThePathAndValue) {
  const std::string dim = " must be an integer 1..2147483647";
  const std::string count = " must be an integer 0..1000000";
  const std::string median = " must be a finite number > 0 and < 1e9 (milliseconds)";
  const std::string cublas = " must be 0 (not measured) or a finite number > 0 and < 1e9 (milliseconds)";
  const std::string text_rule = " must be at most 256 bytes of UTF-8 without control characters";
  const std::string config_rule = " must be 1..256 bytes of UTF-8 without control characters";
  struct Case {
    const char* field;
    json value;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"m", 0, "entries[1].m = 0" + dim},
      {"m", -1, "entries[1].m = -1" + dim},
      {"m", 2147483648LL, "entries[1].m = 2147483648" + dim},
      {"m", 18446744073709551615ULL, "entries[1].m = 18446744073709551615" + dim},
      {"m", 4096.0, "entries[1].m = 4096.0" + dim},
      {"m", 1e30, "entries[1].m = 1e+30" + dim},
      {"m", "4096", "entries[1].m = \"4096\"" + dim},
      {"n", json::array({1}), "entries[1].n = an array" + dim},
      {"k", nullptr, "entries[1].k = null" + dim},
      {"kernel_version", -1, "entries[1].kernel_version = -1" + count},
      {"kernel_version", 1000001, "entries[1].kernel_version = 1000001" + count},
      {"candidates", 1000001, "entries[1].candidates = 1000001" + count},
      {"candidates", 2.5, "entries[1].candidates = 2.5" + count},
      {"median_ms", 0, "entries[1].median_ms = 0.0" + median},
      {"median_ms", -1.5, "entries[1].median_ms = -1.5" + median},
      {"median_ms", 1e9, "entries[1].median_ms = 1000000000.0" + median},
      {"median_ms", "fast", "entries[1].median_ms = \"fast\"" + median},
      {"median_ms", false, "entries[1].median_ms = false" + median},
      {"cublas_ms", -0.5, "entries[1].cublas_ms = -0.5" + cublas},
      {"cublas_ms", 2e9, "entries[1].cublas_ms = 2000000000.0" + cublas},
      {"gpu", 7, "entries[1].gpu = 7 must be a string"},
      {"gpu", std::string(257, 'g'), "entries[1].gpu = \"" + std::string(64, 'g') + "...\"" + text_rule},
      {"cuda", "13\x01" "0", "entries[1].cuda = \"13\\x010\"" + text_rule},
      {"driver", "580\x7f", "entries[1].driver = \"580\\x7f\"" + text_rule},
      {"date", "\xc2\x85", "entries[1].date = \"\\xc2\\x85\"" + text_rule},  // U+0085, a C1 control
      {"date", "a\nb", "entries[1].date = \"a\\x0ab\"" + text_rule},
      {"config", "", "entries[1].config = \"\"" + config_rule},
      {"config", std::string(257, 'c'), "entries[1].config = \"" + std::string(64, 'c') + "...\"" + config_rule},
  };
  for (const Case& c : cases) {
    const std::string text = changed([&](json& d) { d["entries"][1][c.field] = c.value; });
    EXPECT_EQ(refusal(text), "c.json: " + c.message) << c.field << " = " << c.value.dump();
  }
  // The limits themselves are accepted.
  for (const auto& [field, value] : std::vector<std::pair<const char*, json>>{
           {"m", 2147483647}, {"k", 1}, {"kernel_version", 0}, {"kernel_version", 1000000}, {"candidates", 0},
           {"median_ms", 5e-324}, {"median_ms", std::nextafter(1e9, 0.0)}, {"median_ms", 3}, {"cublas_ms", 0.0},
           {"gpu", std::string(256, 'g')}, {"gpu", ""}, {"config", "\xf0\x9f\x98\x80"}}) {
    EXPECT_EQ(refusal(changed([&](json& d) { d["entries"][1][field] = value; })), "(accepted)")
        << field << " = " << value.dump();
  }
  EXPECT_EQ(refusal(changed([](json& d) { d["entries"][1].erase("date"); })), "c.json: entries[1].date is missing");
  EXPECT_EQ(refusal(changed([](json& d) { d["entries"][1]["note"] = 1; })),
            "c.json: entries[1].note is not a field of a cache entry (fields: gpu, cuda, driver, kernel_version, m, "
            "n, k, config, median_ms, cublas_ms, candidates, date)");
  EXPECT_EQ(refusal(changed([](json& d) { d["entries"][1] = 3; })), "c.json: entries[1] = 3 must be an object");
}

TEST(TuneCache, FailureErrors) {
  EXPECT_EQ(refusal(changed([](json& d) { d["failures"][0].erase("reason"); })),
            "c.json: failures[0].reason is missing");
  EXPECT_EQ(refusal(changed([](json& d) { d["failures"][0]["config"] = ""; })),
            "c.json: failures[0].config = \"\" must be 1..256 bytes of UTF-8 without control characters");
  EXPECT_EQ(refusal(changed([](json& d) { d["failures"][0]["n"] = 0; })),
            "c.json: failures[0].n = 0 must be an integer 1..2147483647");
  EXPECT_EQ(refusal(changed([](json& d) { d["failures"][0]["median_ms"] = 1; })),
            "c.json: failures[0].median_ms is not a field of a failure (fields: gpu, cuda, driver, kernel_version, "
            "m, n, k, config, reason)");
}

TEST(TuneCache, DuplicatesNameBothIndices) {
  // The same key with another config: still one key.
  EXPECT_EQ(refusal(changed([](json& d) {
              json copy = d["entries"][0];
              copy["config"] = "other";
              d["entries"].push_back(copy);
            })),
            "c.json: entries[2] has the same key as entries[0] (gpu \"NVIDIA H200\", cuda \"13.0\", driver "
            "\"580.159.04\", kernel_version 1, m,n,k = 512,8192,5376)");
  // Another kernel_version is another key.
  EXPECT_EQ(refusal(changed([](json& d) {
              json copy = d["entries"][0];
              copy["kernel_version"] = 2;
              d["entries"].push_back(copy);
            })),
            "(accepted)");
  EXPECT_EQ(refusal(changed([](json& d) {
              json copy = d["failures"][0];
              copy["reason"] = "another reason";
              d["failures"].push_back(copy);
            })),
            "c.json: failures[1] has the same key and config as failures[0] (gpu \"NVIDIA H200\", cuda \"13.0\", "
            "driver \"580.159.04\", kernel_version 1, m,n,k = 512,8192,5376, config "
            "\"256x128x64.s5.wg2.c1x1.static.g0.sk1\")");
  EXPECT_EQ(refusal(changed([](json& d) {
              json copy = d["failures"][0];
              copy["config"] = "another config";
              d["failures"].push_back(copy);
            })),
            "(accepted)");
  // A JSON key given twice (nlohmann would keep the last silently).
  EXPECT_EQ(refusal(replaced(kValid, R"("m": 4096,)", R"("m": 4096, "m": 1,)")),
            "c.json: key \"m\" appears twice in entries[1]");
  EXPECT_EQ(refusal(replaced(kValid, R"("version": 1,)", R"("version": 1, "version": 1,)")),
            "c.json: key \"version\" appears twice in the document");
}

TEST(TuneCache, SyntaxErrorsGiveTheBytePosition) {
  for (const std::string text : {std::string(""), std::string("{"), kValid.substr(0, 100), std::string("{\"a\":tru}"),
                                 replaced(kValid, "0.0612", "1e400"), kValid + "x", std::string("\xff")}) {
    const std::string message = refusal(text);
    EXPECT_EQ(message.rfind("c.json: not valid JSON at byte ", 0), 0u) << message;
  }
  EXPECT_EQ(refusal(replaced(kValid, "0.0612", "1e400")).find("number overflow parsing '1e400'") != std::string::npos,
            true);
  // {"format": "gemmscope-tune-cache", "version": 1, "entries": [ then nothing: the position is the end.
  const std::string cut = R"({"format":"gemmscope-tune-cache","version":1,"entries":[)";
  EXPECT_EQ(refusal(cut).rfind("c.json: not valid JSON at byte " + std::to_string(cut.size() + 1) + ": ", 0), 0u)
      << refusal(cut);
  // Nesting deeper than any cache.
  const std::string deep = R"({"format":"gemmscope-tune-cache","version":1,"failures":[],"entries":[[[[[[[[[]]]]]]]]]})";
  EXPECT_EQ(refusal(deep), "c.json: entries[0][0][0][0][0][0][0] is nested deeper than 8 levels (a tune cache has 3)");
}

TEST(TuneCache, SizeLimit) {
  std::string text(size_t{64} << 20, ' ');
  text += "{}";
  EXPECT_EQ(refusal(text), "c.json: 67108866 bytes, more than the limit of 67108864 (64 MiB) for a tune cache");
}

TEST(TuneCache, ToJsonRefusesWhatWouldNotReadBack) {
  auto refused = [](const TuneCache& cache) {
    try {
      gemmscope::tune::to_json(cache);
    } catch (const TuneCacheError& e) {
      return std::string(e.what());
    }
    return std::string("(written)");
  };
  TuneEntry good{kH200Key, "c", 1.0, 0.0, 1, ""};
  TuneCache cache;
  cache.entries = {good};
  EXPECT_EQ(refused(cache), "(written)");
  cache.entries[0].median_ms = std::nan("");
  EXPECT_EQ(refused(cache),
            "cannot write tune cache: entries[0].median_ms = nan must be a finite number > 0 and < 1e9 (milliseconds)");
  cache.entries[0] = good;
  cache.entries[0].cublas_ms = std::numeric_limits<double>::infinity();
  EXPECT_EQ(refused(cache), "cannot write tune cache: entries[0].cublas_ms = inf must be 0 (not measured) or a finite "
                            "number > 0 and < 1e9 (milliseconds)");
  cache.entries[0] = good;
  cache.entries[0].key.gpu = "bad \xff byte";  // not UTF-8
  EXPECT_EQ(refused(cache), "cannot write tune cache: entries[0].gpu = \"bad \\xff byte\" must be at most 256 bytes "
                            "of UTF-8 without control characters");
  cache.entries[0] = good;
  cache.entries[0].key.m = 0;
  EXPECT_EQ(refused(cache), "cannot write tune cache: entries[0].m = 0 must be an integer 1..2147483647");
  cache.entries = {good, good};
  EXPECT_EQ(refused(cache).rfind("cannot write tune cache: entries[1] has the same key as entries[0] (", 0), 0u);
  cache.entries = {good};
  cache.failures = {{kH200Key, "", "r"}};
  EXPECT_EQ(refused(cache), "cannot write tune cache: failures[0].config = \"\" must be 1..256 bytes of UTF-8 "
                            "without control characters");
}

TEST(TuneCache, FindUpsertAddFailure) {
  TuneCache cache;
  EXPECT_EQ(cache.find(kH200Key), nullptr);
  cache.upsert({kH200Key, "first", 1.0, 0, 4, "d1"});
  TuneKey other = kH200Key;
  other.m = 128;
  cache.upsert({other, "other", 2.0, 0, 4, "d1"});
  cache.upsert({kH200Key, "second", 0.5, 0.6, 8, "d2"});
  ASSERT_EQ(cache.entries.size(), 2u);
  EXPECT_EQ(cache.entries[0].config, "second");  // replaced in place
  EXPECT_EQ(cache.entries[1].config, "other");
  ASSERT_NE(cache.find(kH200Key), nullptr);
  EXPECT_EQ(cache.find(kH200Key)->median_ms, 0.5);
  TuneKey other_driver = kH200Key;
  other_driver.driver = "580.0";
  EXPECT_EQ(cache.find(other_driver), nullptr);  // exact key only

  cache.add_failure({kH200Key, "a", "r1"});
  cache.add_failure({kH200Key, "b", "r2"});
  cache.add_failure({kH200Key, "a", "r3"});
  cache.add_failure({other, "a", "r4"});
  ASSERT_EQ(cache.failures.size(), 3u);
  EXPECT_EQ(cache.failures[0].reason, "r3");
  EXPECT_EQ(cache.failures[1].reason, "r2");
  EXPECT_EQ(cache.failures[2].reason, "r4");
}

TEST(TuneCache, ForeignEntries) {
  const TuneCache cache = parse_tune_cache(kValid);
  EXPECT_EQ(cache.foreign_entries(kH200Key), 1u);  // the H100 entry
  TuneKey here = kH200Key;
  here.m = here.n = here.k = 1;  // m, n, k do not matter
  EXPECT_EQ(cache.foreign_entries(here), 1u);
  here.kernel_version = 2;  // a newer kernel: both are stale
  EXPECT_EQ(cache.foreign_entries(here), 2u);
  here = kH200Key;
  here.cuda = "13.1";
  EXPECT_EQ(cache.foreign_entries(here), 2u);
  here = kH200Key;
  here.gpu = "NVIDIA H200 NVL";
  EXPECT_EQ(cache.foreign_entries(here), 2u);
  const TuneKey h100{"NVIDIA H100 80GB HBM3", "12.8", "570.86.15", 1, 0, 0, 0};
  EXPECT_EQ(cache.foreign_entries(h100), 1u);
  EXPECT_EQ(TuneCache{}.foreign_entries(h100), 0u);
}

// --- Files.

class TuneCacheFiles : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("gemmscope_tune_cache_test_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override {
    ::chmod(dir.c_str(), 0755);
    fs::remove_all(dir);
  }
  std::vector<std::string> names() const {
    std::set<std::string> found;
    for (const auto& e : fs::directory_iterator(dir)) found.insert(e.path().filename().string());
    return {found.begin(), found.end()};
  }
  static std::string contents(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  static std::string save_refusal(const std::string& path, const TuneCache& cache) {
    try {
      save_tune_cache(path, cache);
    } catch (const TuneCacheError& e) {
      return e.what();
    }
    return "(saved)";
  }
};

TEST_F(TuneCacheFiles, MissingFileIsAnEmptyCache) {
  EXPECT_EQ(load_tune_cache((dir / "none.json").string()), TuneCache{});
}

TEST_F(TuneCacheFiles, SaveWritesTheJsonAndLeavesNoTemporary) {
  const TuneCache cache = parse_tune_cache(kValid);
  const fs::path path = dir / "cache.json";
  save_tune_cache(path.string(), cache);
  EXPECT_EQ(contents(path), gemmscope::tune::to_json(cache));
  EXPECT_EQ(load_tune_cache(path.string()), cache);
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
}

TEST_F(TuneCacheFiles, SaveReplacesAnExistingFile) {
  const fs::path path = dir / "cache.json";
  write(path, "old");
  save_tune_cache(path.string(), TuneCache{});
  EXPECT_EQ(contents(path), gemmscope::tune::to_json(TuneCache{}));
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
}

TEST_F(TuneCacheFiles, RefusedCacheLeavesTheFileAlone) {
  const fs::path path = dir / "cache.json";
  write(path, "old");
  TuneCache bad;
  bad.entries.push_back({kH200Key, "", 1.0, 0, 1, ""});
  EXPECT_EQ(save_refusal(path.string(), bad),
            "cannot write tune cache '" + path.string() +
                "': entries[0].config = \"\" must be 1..256 bytes of UTF-8 without control characters");
  EXPECT_EQ(contents(path), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
}

TEST_F(TuneCacheFiles, MissingDirectoryThrowsAndLeavesNothing) {
  const fs::path path = dir / "no" / "cache.json";
  const std::string message = save_refusal(path.string(), TuneCache{});
  EXPECT_EQ(message, "cannot write tune cache '" + path.string() + "': cannot create a file in " +
                         (dir / "no").string() + " (No such file or directory)");
  EXPECT_FALSE(fs::exists(dir / "no"));
  EXPECT_TRUE(names().empty());
}

TEST_F(TuneCacheFiles, DirectoryTargetIsRefusedBeforeAnyFile) {
  // The target is a directory: refused by its type, no temporary file created.
  const fs::path path = dir / "cache.json";
  fs::create_directory(path);
  const std::string message = save_refusal(path.string(), parse_tune_cache(kValid));
  EXPECT_EQ(message, "cannot write tune cache '" + path.string() + "': a directory; give a file path") << message;
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
  EXPECT_TRUE(fs::is_directory(path));
}

TEST_F(TuneCacheFiles, FailedWriteLeavesTheFileAlone) {
  // A file-size limit of 64 bytes makes the write of the temporary fail half way
  // (EFBIG), as a full disk would; root is not exempt.
  const fs::path path = dir / "cache.json";
  write(path, "old");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto saved_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message = save_refusal(path.string(), parse_tune_cache(kValid));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, saved_handler);
  EXPECT_EQ(message, "cannot write tune cache '" + path.string() +
                         "': writing failed (File too large); the file was left as it was");
  EXPECT_EQ(contents(path), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
}

TEST_F(TuneCacheFiles, ReadOnlyDirectoryLeavesTheFileAlone) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  const fs::path path = dir / "cache.json";
  write(path, "old");
  ::chmod(dir.c_str(), 0555);
  const std::string message = save_refusal(path.string(), TuneCache{});
  EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
  ::chmod(dir.c_str(), 0755);
  EXPECT_EQ(contents(path), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"cache.json"});
}

TEST_F(TuneCacheFiles, LoadErrorsNameThePath) {
  const fs::path path = dir / "cache.json";
  write(path, "{\"format\": \"gemmscope-tune-cache\", \"version\": 2}");
  try {
    load_tune_cache(path.string());
    FAIL() << "loaded a version 2 cache";
  } catch (const TuneCacheError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": version 2 is newer than this gemmscope (1)");
  }
  write(path, "");
  try {
    load_tune_cache(path.string());
    FAIL() << "loaded an empty file";
  } catch (const TuneCacheError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": not valid JSON at byte ", 0), 0u) << e.what();
  }
  try {
    load_tune_cache(dir.string());
    FAIL() << "loaded a directory";
  } catch (const TuneCacheError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read tune cache '" + dir.string() + "': Is a directory");
  }
  // A path through a file is not a missing cache.
  try {
    load_tune_cache((path / "x.json").string());
    FAIL() << "loaded a path through a file";
  } catch (const TuneCacheError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read tune cache '" + (path / "x.json").string() + "': Not a directory");
  }
}

// --- Properties.

// Strings the rules allow: ASCII with JSON's special characters, two- to four-byte
// UTF-8, up to 256 bytes.
rc::Gen<std::string> text_gen(bool non_empty) {
  return rc::gen::exec([non_empty] {
    static const std::vector<std::string> pieces = {"a", "Z", "0", " ", ".", "\"", "\\", "/", "{", "x", "NVIDIA H200",
                                                    "\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xc2\xa0"};
    const auto count = *rc::gen::inRange<size_t>(non_empty ? 1 : 0, 40);
    std::string s;
    for (size_t i = 0; i < count; ++i) {
      const std::string& piece = *rc::gen::elementOf(pieces);
      if (s.size() + piece.size() > 256) break;
      s += piece;
    }
    if (non_empty && s.empty()) s = "c";
    return s;
  });
}

rc::Gen<double> ms_gen() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange(1, 100000000), [](int v) { return v / 1000.0; }),
      rc::gen::suchThat(rc::gen::map(rc::gen::arbitrary<double>(), [](double d) { return std::fabs(d); }),
                        [](double d) { return std::isfinite(d) && d > 0 && d < 1e9; }),
      rc::gen::element(DBL_TRUE_MIN, DBL_MIN, 1e-300, 0.1, 1.0 / 3.0, std::nextafter(1e9, 0.0)));
}

rc::Gen<int64_t> dim_gen() {
  return rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 20000), rc::gen::inRange<int64_t>(2147483000, 2147483648),
                        rc::gen::inRange<int64_t>(1, 2147483648));
}

rc::Gen<TuneKey> key_gen() {
  return rc::gen::exec([] {
    return TuneKey{*rc::gen::oneOf(rc::gen::element<std::string>("NVIDIA H200", "NVIDIA H100"), text_gen(false)),
                   *rc::gen::oneOf(rc::gen::element<std::string>("13.0", "12.8"), text_gen(false)),
                   *text_gen(false),
                   *rc::gen::inRange(0, 1000001),
                   *dim_gen(),
                   *dim_gen(),
                   *dim_gen()};
  });
}

TuneCache random_cache() {
  TuneCache cache;
  std::vector<TuneKey> keys;
  const auto entries = *rc::gen::inRange<size_t>(0, 8);
  for (size_t i = 0; i < entries; ++i) {
    // Sometimes reuse a key with another m, so caches hold near-equal keys.
    TuneKey key = (!keys.empty() && *rc::gen::arbitrary<bool>()) ? keys[*rc::gen::inRange<size_t>(0, keys.size())]
                                                                   : *key_gen();
    if (!keys.empty() && key == keys.back()) key.m = key.m == 1 ? 2 : key.m - 1;
    if (cache.find(key)) continue;
    keys.push_back(key);
    cache.entries.push_back({key, *text_gen(true), *ms_gen(),
                             *rc::gen::arbitrary<bool>() ? 0.0 : *ms_gen(), *rc::gen::inRange(0, 1000001),
                             *text_gen(false)});
  }
  const auto failures = *rc::gen::inRange<size_t>(0, 5);
  for (size_t i = 0; i < failures; ++i) {
    const TuneKey key = keys.empty() ? *key_gen() : keys[*rc::gen::inRange<size_t>(0, keys.size())];
    cache.add_failure({key, *text_gen(true), *text_gen(false)});
  }
  return cache;
}

RC_GTEST_PROP(TuneCache, WrittenCachesReadBackExactly, ()) {
  const TuneCache cache = random_cache();
  const std::string text = gemmscope::tune::to_json(cache);
  const TuneCache back = parse_tune_cache(text);
  RC_ASSERT(back == cache);
  RC_ASSERT(gemmscope::tune::to_json(back) == text);
  // nlohmann, reading the same text, sees the same numbers (an independent reader).
  const json doc = json::parse(text);
  RC_ASSERT(doc.at("entries").size() == cache.entries.size());
  for (size_t i = 0; i < cache.entries.size(); ++i) {
    RC_ASSERT(doc["entries"][i]["median_ms"].get<double>() == cache.entries[i].median_ms);
    RC_ASSERT(doc["entries"][i]["m"].get<int64_t>() == cache.entries[i].key.m);
  }
}

RC_GTEST_PROP(TuneCache, UpsertKeepsOneEntryPerKeyWithTheLastValue, ()) {
  TuneCache cache;
  std::vector<std::pair<TuneKey, std::string>> last;  // the model: key -> last config, in first-insertion order
  const auto steps = *rc::gen::inRange(1, 30);
  for (int i = 0; i < steps; ++i) {
    TuneKey key = kH200Key;
    key.m = *rc::gen::inRange(1, 5);
    key.kernel_version = *rc::gen::inRange(0, 2);
    const std::string config = "c" + std::to_string(i);
    cache.upsert({key, config, 1.0, 0, 1, ""});
    bool found = false;
    for (auto& [k, c] : last)
      if (k == key) c = config, found = true;
    if (!found) last.push_back({key, config});
  }
  RC_ASSERT(cache.entries.size() == last.size());
  for (size_t i = 0; i < last.size(); ++i) {
    RC_ASSERT(cache.entries[i].key == last[i].first);
    RC_ASSERT(cache.entries[i].config == last[i].second);
    RC_ASSERT(cache.find(last[i].first) == &cache.entries[i]);
  }
}

}  // namespace
