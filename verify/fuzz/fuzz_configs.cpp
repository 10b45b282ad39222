// libFuzzer target: k10 configuration strings (gemmscope::tune::parse_config,
// kernels/tune/config.hpp), as given to `bench --kernels k10:...`, `tune --configs`
// and gemmscope::gemm(..., "k10:...").
//
// Findings: a sanitizer report, an exception other than ConfigError (or one whose
// message does not name the configuration), or a broken law:
//   - an accepted configuration is a compiled instance, BM = 64 x warpgroups, split >= 1;
//   - printing it and reading it back gives the same configuration;
//   - the printed form differs from the input only by leading zeros of numbers;
//   - its shape rules and split plan on a shape drawn from the input do not throw.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tune/config.hpp"

namespace tune = gemmscope::tune;

namespace {
[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_configs: %s\n", law.c_str());
  std::abort();
}

std::string strip_leading_zeros(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool digit = s[i] >= '0' && s[i] <= '9';
    const bool starts_number = digit && (i == 0 || !(s[i - 1] >= '0' && s[i - 1] <= '9'));
    if (starts_number && s[i] == '0' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
      size_t j = i;
      while (j + 1 < s.size() && s[j] == '0' && s[j + 1] >= '0' && s[j + 1] <= '9') ++j;
      i = j - 1;  // the loop's ++i lands on the first kept digit
      continue;
    }
    out += s[i];
  }
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  tune::KernelConfig c;
  try {
    c = tune::parse_config(text);
  } catch (const tune::ConfigError& e) {
    if (std::string(e.what()).rfind("configuration '", 0) != 0) broken(std::string("message: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    broken(std::string("not a ConfigError: ") + e.what());
  }
  if (tune::instance_index(c) < 0) broken("accepted an uncompiled instance: " + text);
  if (c.bm != 64 * c.consumers || c.splits < 1) broken("accepted an invalid configuration: " + text);
  const std::string printed = tune::to_string(c);
  if (!(tune::parse_config(printed) == c)) broken("print/parse round trip: " + text);
  if (printed != strip_leading_zeros(text)) broken("printed '" + printed + "' for '" + text + "'");
  const tune::Shape s{1 + static_cast<int64_t>(size % 9000), 8 * (1 + static_cast<int64_t>(size % 700)),
                      8 * (1 + static_cast<int64_t>(c.group % 3000))};
  (void)tune::shape_rules(c, s);
  const auto plan = tune::split_plan(c, s, 1 + static_cast<int64_t>(c.group % 200));
  if (plan.units < plan.tiles) broken("split plan has fewer units than tiles");
  return 0;
}
