// Regressions found by verify/fuzz/fuzz_golden.
//
// 1. Number overflow: nlohmann::json::parse throws json::out_of_range (406 "number
// overflow"), not json::parse_error, for a number past double's range such as 1e400;
// read_golden catches only parse_error, so a corrupt file escapes as a plain
// std::exception instead of a GoldenError (golden_replay_test would terminate).
//
// 2. Integer wrap (corpus file
// corpus/fuzz_golden/schema_version_wraps.json): golden_from_json reads integer
// fields into `int` with static_cast, so "schema_version": 4294967297 (2^32 + 1) is
// read as version 1 and accepted, and gpu.sm_count = 4294967428 as 132: a value that
// does not fit must be refused with the field and the rule, not wrapped into another.
//
// Both are fixed in traces/src/golden.cpp (int fields outside the int range are
// refused; any nlohmann exception while parsing becomes a GoldenError).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "gemmscope/traces/golden.hpp"

namespace {

using nlohmann::json;

// A minimal valid trace, written out by hand from traces/hw/README.md.
json valid_trace() {
  return json::parse(R"({"format":"gemmscope-golden-trace","schema_version":1,"probe":"tma_swizzle",
    "description":"d","settles":[],"gpu":{"name":"NVIDIA H200","compute_capability":"9.0","compute_major":9,
    "compute_minor":0,"driver_version":12080,"runtime_version":13000,"sm_count":132,"clock_khz":1980000},
    "date":"2025-01-31T12:00:00Z","commit":"unknown","case_count":1,"failed_case_count":0,
    "cases":[{"name":"c0","status":"ok","params":{},"observed":{"x":1}}]})");
}

std::string refusal(const json& doc) {
  try {
    gemmscope::traces::golden_from_json(doc, "bad.json");
  } catch (const gemmscope::traces::GoldenError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(RegressionGoldenIntRange, ValidTraceIsAccepted) { EXPECT_EQ(refusal(valid_trace()), "(accepted)"); }

TEST(RegressionGoldenIntRange, SchemaVersionPastIntIsRefused) {
  json doc = valid_trace();
  doc["schema_version"] = 4294967297LL;  // 2^32 + 1: wraps to 1 in an int
  EXPECT_NE(refusal(doc), "(accepted)");
  EXPECT_NE(refusal(doc).find("schema_version = 4294967297"), std::string::npos) << refusal(doc);
}

TEST(RegressionGoldenIntRange, GpuFieldsPastIntAreRefused) {
  for (const char* key : {"compute_major", "compute_minor", "driver_version", "runtime_version", "sm_count",
                          "clock_khz"}) {
    json doc = valid_trace();
    doc["gpu"][key] = doc["gpu"][key].get<long long>() + (1LL << 32);  // same low 32 bits
    if (std::string(key) == "compute_major" || std::string(key) == "compute_minor")
      doc["gpu"]["compute_capability"] = "9.0";  // still what the wrapped values would print
    const std::string why = refusal(doc);
    EXPECT_NE(why, "(accepted)") << key;
    EXPECT_NE(why.find(std::string("gpu.") + key), std::string::npos) << why;
  }
}

TEST(RegressionGoldenReader, NumberPastDoubleRangeIsAGoldenError) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_regression_golden";
  std::filesystem::create_directories(dir);
  const auto path = dir / "tma_swizzle.json";
  std::string text = valid_trace().dump();
  text.replace(text.find("1980000"), 7, "1e400");
  std::ofstream(path) << text;
  try {
    gemmscope::traces::read_golden(path);
    ADD_FAILURE() << "accepted 1e400";
  } catch (const gemmscope::traces::GoldenError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("tma_swizzle.json: ", 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a GoldenError: " << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
