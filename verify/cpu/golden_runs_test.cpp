// The runs form of golden-trace observation arrays (traces/hw/README.md, schema 3):
// {"runs": [[first, count, step], ...]} read by golden_int_array / golden_number_array,
// written by golden_runs and compact_golden. Expected values are plain arrays written
// out here, or generated value by value; never the encoder's own output.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmscope/traces/golden.hpp"

namespace {

namespace traces = gemmscope::traces;
using nlohmann::json;

const std::string kWhere = "t.json: cases[0].observed";

std::vector<int64_t> ints_of(const json& array_or_runs, long long expected_size = -1) {
  return traces::golden_int_array(json{{"a", array_or_runs}}, "a", kWhere, expected_size);
}

std::vector<double> numbers_of(const json& array_or_runs, long long expected_size = -1) {
  return traces::golden_number_array(json{{"a", array_or_runs}}, "a", kWhere, expected_size);
}

std::vector<uint64_t> bits_of(const std::vector<double>& values) {
  std::vector<uint64_t> bits;
  for (double v : values) bits.push_back(std::bit_cast<uint64_t>(v));
  return bits;
}

std::string int_refusal(const json& runs, long long expected_size = -1) {
  try {
    ints_of(runs, expected_size);
  } catch (const traces::GoldenError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string number_refusal(const json& runs) {
  try {
    numbers_of(runs);
  } catch (const traces::GoldenError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(GoldenRuns, DecodeRunsWrittenByHand) {
  EXPECT_EQ(ints_of(json::parse(R"({"runs": [[65535, 3, 0], [0, 4, 1], [10, 2, -5]]})"), 9),
            (std::vector<int64_t>{65535, 65535, 65535, 0, 1, 2, 3, 10, 5}));
  EXPECT_EQ(bits_of(numbers_of(json::parse(R"({"runs": [[0.5, 3, 0.25], [-0.0, 1, 0.0], [7, 2, -1]]})"))),
            bits_of({0.5, 0.75, 1.0, -0.0, 7.0, 6.0}));
  // The plain form still reads, in either reader.
  EXPECT_EQ(ints_of(json::array({3, -1, 65535}), 3), (std::vector<int64_t>{3, -1, 65535}));
  EXPECT_EQ(numbers_of(json::array({1, 2.5})), (std::vector<double>{1.0, 2.5}));
  EXPECT_TRUE(ints_of(json::parse(R"({"runs": []})"), 0).empty());
}

TEST(GoldenRuns, EncoderTakesTheLongestRunFromEachPosition) {
  EXPECT_EQ(traces::golden_runs(std::vector<int64_t>{65535, 65535, 65535, 0, 1, 2, 3, 10}),
            json::parse(R"({"runs": [[65535, 3, 0], [0, 4, 1], [10, 1, 0]]})"));
  EXPECT_EQ(traces::golden_runs(std::vector<int64_t>{}), json::parse(R"({"runs": []})"));
  // Steps past int64: no run across them.
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(traces::golden_runs(std::vector<int64_t>{lo, hi, lo}).dump(),
            R"({"runs":[[-9223372036854775808,1,0],[9223372036854775807,1,0],[-9223372036854775808,1,0]]})");
  // 3.0000000000000004 is not 1.0 + 2 * 1.0: the run stops before it.
  EXPECT_EQ(traces::golden_runs(std::vector<double>{1.0, 2.0, 3.0000000000000004}).dump(),
            R"({"runs":[[1.0,2,1.0],[3.0000000000000004,1,0.0]]})");
  // Zeros keep their sign: a repeat of -0.0 steps by -0.0.
  EXPECT_EQ(traces::golden_runs(std::vector<double>{-0.0, -0.0, 0.0}).dump(), R"({"runs":[[-0.0,2,-0.0],[0.0,1,0.0]]})");
}

// Values built piece by piece: runs, repeats of the sentinel, extremes, arbitrary values.
rc::Gen<std::vector<int64_t>> gen_ints() {
  return rc::gen::exec([] {
    std::vector<int64_t> values;
    const int pieces = *rc::gen::inRange(0, 12);
    for (int p = 0; p < pieces; ++p) {
      const int count = *rc::gen::inRange(1, 40);
      switch (*rc::gen::inRange(0, 4)) {
        case 0: {
          const int64_t first = *rc::gen::inRange<int64_t>(-1000000, 1000000);
          const int64_t step = *rc::gen::inRange<int64_t>(-1000, 1000);
          for (int k = 0; k < count; ++k) values.push_back(first + k * step);
          break;
        }
        case 1:
          for (int k = 0; k < count; ++k) values.push_back(65535);
          break;
        case 2:
          values.push_back(*rc::gen::element(std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max(), int64_t{0}, int64_t{-1}));
          break;
        default:
          values.push_back(*rc::gen::arbitrary<int64_t>());
      }
    }
    return values;
  });
}

rc::Gen<std::vector<double>> gen_doubles() {
  return rc::gen::exec([] {
    std::vector<double> values;
    const int pieces = *rc::gen::inRange(0, 12);
    for (int p = 0; p < pieces; ++p) {
      const int count = *rc::gen::inRange(1, 40);
      switch (*rc::gen::inRange(0, 4)) {
        case 0: {  // accumulator codes: whole numbers in steps
          const int first = *rc::gen::inRange(-300, 300), step = *rc::gen::inRange(-8, 8);
          for (int k = 0; k < count; ++k) values.push_back(static_cast<double>(first + k * step));
          break;
        }
        case 1: {  // a sequence that rounds: some steps are not exact
          const double first = *rc::gen::inRange(-1000, 1000) / 7.0, step = *rc::gen::inRange(1, 100) / 3.0;
          for (int k = 0; k < count; ++k) values.push_back(first + k * step);
          break;
        }
        case 2: {
          const double v = *rc::gen::element(0.0, -0.0, 0.1, 1e308, -1e308, std::numeric_limits<double>::denorm_min(),
                                             std::numeric_limits<double>::max());
          for (int k = 0; k < count; ++k) values.push_back(v);
          break;
        }
        default:
          values.push_back(*rc::gen::suchThat(rc::gen::arbitrary<double>(), [](double d) { return std::isfinite(d); }));
      }
    }
    return values;
  });
}

// Any integer array, encoded, decodes to itself; as text too.
RC_GTEST_PROP(GoldenRuns, IntegerRoundTrip, ()) {
  const std::vector<int64_t> values = *gen_ints();
  const json runs = traces::golden_runs(values);
  RC_ASSERT(runs["runs"].size() <= values.size());
  RC_ASSERT(ints_of(runs, static_cast<long long>(values.size())) == values);
  RC_ASSERT(ints_of(json::parse(runs.dump()), static_cast<long long>(values.size())) == values);
}

// Any finite double array, encoded and written as text, decodes to the same bits.
RC_GTEST_PROP(GoldenRuns, DoubleRoundTripIsBitExact, ()) {
  const std::vector<double> values = *gen_doubles();
  const json runs = traces::golden_runs(values);
  RC_ASSERT(runs["runs"].size() <= values.size());
  RC_ASSERT(bits_of(numbers_of(json::parse(runs.dump()), static_cast<long long>(values.size()))) == bits_of(values));
}

TEST(GoldenRuns, BadRunsAreRefusedWithTheFieldAndRule) {
  const std::string f = kWhere + ".a";
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[0, 2, 1], [5, 0, 1]]})")),
            f + ".runs[1] = [5,0,1] must have count >= 1");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[5, -3, 1]]})")), f + ".runs[0] = [5,-3,1] must have count >= 1");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[1, 2]]})")), f + ".runs[0] = [1,2] must be [first, count, step]");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[1, 2, 3, 4]]})")),
            f + ".runs[0] = [1,2,3,4] must be [first, count, step]");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [7]})")), f + ".runs[0] = 7 must be [first, count, step]");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[0, 2.0, 1]]})")), f + ".runs[0] = [0,2.0,1] must have an integer count");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[0, 3, 1], [9, 2, 0]]})"), 6), f + " has 5 entries, expected 6");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[1.5, 2, 1]]})")),
            f + ".runs[0] = [1.5,2,1] must have first and step integers of 64 bits");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[18446744073709551615, 1, 0]]})")),
            f + ".runs[0] = [18446744073709551615,1,0] must have first and step integers of 64 bits");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[9223372036854775806, 3, 1]]})")),
            f + ".runs[0] = [9223372036854775806,3,1] leaves the 64-bit integer range");
  EXPECT_EQ(int_refusal(json::parse(R"({"run": []})")),
            f + " = {\"run\":[]} must be an array or {\"runs\": [[first, count, step], ...]}");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [], "extra": 1})")),
            f + " = {\"extra\":1,\"runs\":[]} must be an array or {\"runs\": [[first, count, step], ...]}");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": 3})")), f + ".runs must be an array of [first, count, step]");
  EXPECT_EQ(int_refusal("0,1,2"), f + " must be an array of integers or {\"runs\": [[first, count, step], ...]}");
  // No memory is taken for a count past the limit (a plain array in a 4 MiB file).
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[0, 2000000, 0], [0, 97153, 0]]})")),
            f + ".runs decode to more than 2097152 entries, the limit of an observation array");
  EXPECT_EQ(int_refusal(json::parse(R"({"runs": [[0, 18446744073709551615, 0]]})")),
            f + ".runs decode to more than 2097152 entries, the limit of an observation array");

  EXPECT_EQ(number_refusal(json::parse(R"({"runs": [[1e308, 3, 1e308]]})")),
            f + ".runs[0] = [1e+308,3,1e+308] leaves the range of a double");
  EXPECT_EQ(number_refusal(json::parse(R"({"runs": [[0.0, 2, "1"]]})")),
            f + ".runs[0] = [0.0,2,\"1\"] must have first and step numbers");
  EXPECT_EQ(number_refusal(json::parse(R"({"runs": [[0.0, 0, 1.0]]})")), f + ".runs[0] = [0.0,0,1.0] must have count >= 1");
}

// A version-1 trace with plain arrays, written out by hand from traces/hw/README.md.
json plain_trace(int schema_version) {
  json doc = json::parse(R"({"format":"gemmscope-golden-trace","probe":"wgmma_desc",
    "description":"d","settles":["s"],"gpu":{"name":"NVIDIA H200","compute_capability":"9.0","compute_major":9,
    "compute_minor":0,"driver_version":13000,"runtime_version":13000,"sm_count":132,"clock_khz":1980000},
    "date":"2025-01-31T12:00:00Z","commit":"abc","case_count":2,"failed_case_count":1,
    "cases":[{"name":"c0","status":"ok","params":{"rows":64,"scale":0.5},
              "observed":{"smem_u16":[65535,65535,65535,0,1,2,3],"d_low":[0.0,0.0,1.0,2.0],
                          "elem_offset_bytes":[-1,-1,0,2,4],"regs":[5,6,7],"d_high":[0,1.5],
                          "descriptor":"0x0000001000080040"}},
             {"name":"c1","status":"failed","params":{},"observed":{},"error":"refused"}]})");
  doc["schema_version"] = schema_version;
  if (schema_version >= 2) doc["source"] = "hardware";
  return doc;
}

TEST(GoldenRuns, CompactingKeepsEveryValueAndTheOtherFields) {
  for (int version : {1, 2}) {
    const traces::GoldenTrace before = traces::golden_from_json(plain_trace(version), "v.json");
    const traces::GoldenTrace after = traces::compact_golden(before);
    EXPECT_EQ(after.schema_version, 3);
    EXPECT_EQ(after.source, "hardware");
    const json& observed = after.cases[0].observed;
    EXPECT_EQ(observed["smem_u16"].dump(), R"({"runs":[[65535,3,0],[0,4,1]]})");
    EXPECT_EQ(observed["d_low"].dump(), R"({"runs":[[0.0,2,0.0],[1.0,2,1.0]]})");
    EXPECT_EQ(observed["elem_offset_bytes"].dump(), R"({"runs":[[-1,2,0],[0,3,2]]})");
    EXPECT_EQ(observed["regs"].dump(), "[5,6,7]");  // not a run array
    EXPECT_EQ(observed["d_high"].dump(), "[0,1.5]");  // mixed integers and floats: left as it is
    EXPECT_EQ(observed["descriptor"], "0x0000001000080040");
    EXPECT_EQ(after.cases[0].params, before.cases[0].params);
    EXPECT_EQ(after.cases[1].error, "refused");

    // Written and read back: the readers give the plain arrays.
    const auto dir = std::filesystem::temp_directory_path() / "gemmscope_golden_runs_test";
    std::filesystem::remove_all(dir);
    const auto path = traces::write_golden(dir, after);
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(R"("smem_u16": {"runs":[[65535,3,0],[0,4,1]]})"), std::string::npos) << text;
    const traces::GoldenTrace back = traces::read_golden(path);
    std::filesystem::remove_all(dir);
    const std::string w = "v.json: cases[0].observed";
    EXPECT_EQ(traces::golden_int_array(back.cases[0].observed, "smem_u16", w, 7),
              (std::vector<int64_t>{65535, 65535, 65535, 0, 1, 2, 3}));
    EXPECT_EQ(traces::golden_int_array(back.cases[0].observed, "elem_offset_bytes", w, 5),
              (std::vector<int64_t>{-1, -1, 0, 2, 4}));
    EXPECT_EQ(bits_of(traces::golden_number_array(back.cases[0].observed, "d_low", w, 4)),
              bits_of({0.0, 0.0, 1.0, 2.0}));
    // Compacting again changes nothing.
    EXPECT_EQ(traces::to_json(traces::compact_golden(back)), traces::to_json(after));
  }
}

TEST(GoldenRuns, SchemaVersionsOneToThreeRead) {
  for (int version : {1, 2, 3}) {
    const traces::GoldenTrace t = traces::golden_from_json(plain_trace(version), "v.json");
    EXPECT_EQ(t.schema_version, version);
    EXPECT_EQ(traces::golden_int_array(t.cases[0].observed, "smem_u16", "v.json", 7).size(), 7u);
  }
  json doc = plain_trace(3);
  doc["schema_version"] = 4;
  try {
    traces::golden_from_json(doc, "v.json");
    ADD_FAILURE() << "version 4 was accepted";
  } catch (const traces::GoldenError& e) {
    EXPECT_STREQ(e.what(), "v.json: schema_version = 4 is not supported by this reader (1..3)");
  }
}

}  // namespace
