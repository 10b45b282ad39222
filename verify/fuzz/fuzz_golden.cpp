// libFuzzer target: golden hardware-trace files (traces/hw/*.json), read by
// gemmscope::traces::read_golden (the input is written to a scratch file first).
//
// Findings: a sanitizer report, an exception other than GoldenError (uncaught:
// abort), or a broken law:
//   - an accepted trace written back with to_json reads back to the same JSON;
//   - every integer field of an accepted file is kept exactly (a value that does
//     not fit the field must be refused, not wrapped into a different one);
//   - an observation array that decodes (plain or runs) decodes the same from its
//     runs form (golden_runs), bit for bit.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "gemmscope/traces/golden.hpp"

namespace traces = gemmscope::traces;
using nlohmann::json;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_golden: %s\n", law.c_str());
  std::abort();
}

// The two findings of this target (an integer wrapped into `int`; 1e400 escaping as
// json::out_of_range) are fixed in traces/src/golden.cpp, with regression tests in
// verify/cpu/regression_golden_reader_test.cpp; their inputs are in the corpus.
void check_kept(const json& from_file, const json& written, const char* key) {
  if (from_file.contains(key) && from_file.at(key) != written.at(key))
    broken(std::string("integer field ") + key + " = " + from_file.at(key).dump() + " read back as " +
           written.at(key).dump());
}

// What the file's own decode reads, or nothing where it refuses (a GoldenError).
template <class Read>
auto unless_refused(Read read) -> std::optional<decltype(read())> {
  try {
    return read();
  } catch (const traces::GoldenError&) {
    return std::nullopt;
  }
}

// The long observation arrays of each case, read as the replay reads them. Only the
// file's own decode may refuse: the runs of what it decoded must read back.
void check_observation_arrays(const traces::GoldenTrace& trace) {
  for (const traces::GoldenCase& c : trace.cases)
    for (const std::string_view key : traces::kGoldenRunArrays) {
      if (!c.observed.is_object() || !c.observed.contains(key)) continue;
      if (const auto ints = unless_refused([&] { return traces::golden_int_array(c.observed, key, c.name); }))
        if (traces::golden_int_array(json{{"v", traces::golden_runs(*ints)}}, "v", "fuzz") != *ints)
          broken("integer runs do not decode to the values");
      const auto numbers = unless_refused([&] { return traces::golden_number_array(c.observed, key, c.name); });
      if (!numbers) continue;
      const std::vector<double> back = traces::golden_number_array(json{{"v", traces::golden_runs(*numbers)}}, "v", "fuzz");
      if (back.size() != numbers->size()) broken("number runs decode to another length");
      for (size_t i = 0; i < back.size(); ++i)
        if (std::memcmp(&back[i], &(*numbers)[i], sizeof(double)) != 0) broken("number runs change a value's bits");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("gemmscope_fuzz_golden_" + std::to_string(getpid()) + ".json");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  json doc;
  traces::GoldenTrace trace;
  try {
    trace = traces::read_golden(path);
  } catch (const traces::GoldenError& e) {
    const std::string expected_start = path.filename().string() + ": ";
    if (std::string(e.what()).rfind(expected_start, 0) != 0)
      broken(std::string("message without the file name: ") + e.what());
    return 0;
  }
  doc = json::parse(data, data + size);  // accepted, so valid JSON
  const json written = traces::to_json(trace);
  check_kept(doc, written, "schema_version");
  for (const char* key : {"compute_major", "compute_minor", "driver_version", "runtime_version", "sm_count", "clock_khz"})
    check_kept(doc.at("gpu"), written.at("gpu"), key);
  traces::GoldenTrace again;
  try {
    again = traces::golden_from_json(written, "fuzz.json");
  } catch (const traces::GoldenError& e) {
    broken(std::string("an accepted trace, written back, is refused: ") + e.what());
  }
  if (traces::to_json(again) != written) broken("an accepted trace does not read back the same");
  check_observation_arrays(trace);
  return 0;
}
