// libFuzzer target: golden hardware-trace files (traces/hw/*.json), read by
// gemmscope::traces::read_golden (the input is written to a scratch file first).
//
// Findings: a sanitizer report, an exception other than GoldenError (uncaught:
// abort), or a broken law:
//   - an accepted trace written back with to_json reads back to the same JSON;
//   - every integer field of an accepted file is kept exactly (a value that does
//     not fit the field must be refused, not wrapped into a different one).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

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

// Known finding, reported: golden_from_json wraps integers past 32 bits into `int`
// (verify/cpu/regression_golden_reader_test.cpp, disabled until traces/src/golden.cpp
// refuses them). Until then this law skips values outside the int range, so that a
// 10-minute run can look for other findings; set true with the fix.
constexpr bool kGoldenIntTruncationFixed = true;

void check_kept(const json& from_file, const json& written, const char* key) {
  if (!kGoldenIntTruncationFixed && from_file.contains(key) && from_file.at(key).is_number_integer()) {
    const json& v = from_file.at(key);
    const bool fits_int = v.is_number_unsigned() ? v.get<uint64_t>() <= 2147483647u
                                                  : v.get<int64_t>() >= -2147483648LL && v.get<int64_t>() <= 2147483647LL;
    if (!fits_int) return;
  }
  if (from_file.contains(key) && from_file.at(key) != written.at(key))
    broken(std::string("integer field ") + key + " = " + from_file.at(key).dump() + " read back as " +
           written.at(key).dump());
}

}  // namespace

// Known finding, reported: json::parse throws json::out_of_range (not parse_error) for
// a number past double's range such as 1e400, and read_golden lets it escape instead of
// a GoldenError (verify/cpu/regression_golden_reader_test.cpp). Until the fix this
// target stops such input before the reader; set true with the fix.
constexpr bool kGoldenNumberOverflowFixed = false;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!kGoldenNumberOverflowFixed) {
    try {
      (void)json::parse(data, data + size);
    } catch (const json::out_of_range&) {
      return -1;
    } catch (const json::exception&) {
    }
  }
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
  return 0;
}
