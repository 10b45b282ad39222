// libFuzzer target: the autotuner's results cache (gemmscope::tune::parse_tune_cache,
// kernels/tune/cache.hpp), the JSON file `gemmscope tune` writes and gemm("auto") reads.
//
// Findings: a sanitizer report, an exception other than TuneCacheError (or one whose
// message does not start with the source), or a broken law:
//   - an accepted cache written back with to_json reads back equal, and writes the
//     same text again: parse(to_json(parse(x))) == parse(x);
//   - nlohmann's own parser, reading the accepted text, finds the same number of
//     entries and failures and the same m, n, k and median_ms (no value is changed
//     on the way in: a number that does not fit must be refused, not wrapped).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tune/cache.hpp"

namespace tune = gemmscope::tune;
using nlohmann::json;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_tune_cache: %s\n", law.c_str());
  std::abort();
}

void check_same_numbers(std::string_view text, const tune::TuneCache& cache) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    broken(std::string("accepted text that nlohmann refuses: ") + e.what());
  }
  if (doc.at("entries").size() != cache.entries.size() || doc.at("failures").size() != cache.failures.size())
    broken("entry or failure count differs from nlohmann's reading");
  for (size_t i = 0; i < cache.entries.size(); ++i) {
    const json& e = doc["entries"][i];
    const tune::TuneKey& key = cache.entries[i].key;
    if (e.at("m") != key.m || e.at("n") != key.n || e.at("k") != key.k)
      broken("entries[" + std::to_string(i) + "]: m, n or k differs from nlohmann's reading");
    if (e.at("median_ms").get<double>() != cache.entries[i].median_ms)
      broken("entries[" + std::to_string(i) + "].median_ms differs from nlohmann's reading");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tune::TuneCache cache;
  try {
    cache = tune::parse_tune_cache(text, "fuzz.json");
  } catch (const tune::TuneCacheError& e) {
    if (std::string_view(e.what()).rfind("fuzz.json: ", 0) != 0)
      broken(std::string("message without the source: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    broken(std::string("an exception other than TuneCacheError: ") + e.what());
  }
  check_same_numbers(text, cache);
  std::string written;
  tune::TuneCache again;
  try {
    written = tune::to_json(cache);
    again = tune::parse_tune_cache(written, "written.json");
  } catch (const std::exception& e) {
    broken(std::string("an accepted cache does not write and read back: ") + e.what());
  }
  if (!(again == cache)) broken("an accepted cache reads back different");
  if (tune::to_json(again) != written) broken("an accepted cache writes different text the second time");
  return 0;
}
