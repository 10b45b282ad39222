// libFuzzer target: k10 configuration strings (gemmscope::tune::parse_config,
// kernels/tune/config.hpp), as given to `bench --kernels k10:...`, `tune --configs`
// and gemmscope::gemm(..., "k10:...").
//
// Findings: a sanitizer report, an exception other than ConfigError (or one whose
// message does not name the configuration), or a broken law:
//   - an accepted configuration is a compiled instance, BM = 64 x warpgroups, split >= 1;
//   - printing it and reading it back gives the same configuration;
//   - the printed form differs from the input only by leading zeros of numbers;
//   - its shape rules and split plan on a shape drawn from the input do not throw; the
//     plan keeps every tile once; a stream-K plan's walk deals every k-block once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <algorithm>

#include "common/sm90_scheduler.hpp"
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
  if (c.consumers != (c.bm == 64 ? 1 : 2) || (c.pingpong && c.bm != 128) || c.splits < 1) broken("accepted an invalid configuration: " + text);
  const std::string printed = tune::to_string(c);
  if (!(tune::parse_config(printed) == c)) broken("print/parse round trip: " + text);
  if (printed != strip_leading_zeros(text)) broken("printed '" + printed + "' for '" + text + "'");
  const tune::Shape s{1 + static_cast<int64_t>(size % 9000), 8 * (1 + static_cast<int64_t>(size % 700)),
                      8 * (1 + static_cast<int64_t>(c.group % 3000))};
  (void)tune::shape_rules(c, s);
  const int64_t workers = 1 + static_cast<int64_t>(c.group % 200);
  const auto plan = tune::split_plan(c, s, workers);
  if (plan.dp_tiles + plan.split_tiles + plan.sk_tiles != plan.tiles) broken("split plan loses or repeats tiles");
  if (!c.stream_k) {
    if (plan.units < plan.tiles) broken("split plan has fewer units than tiles");
    return 0;
  }
  // Stream-K: the workers sharing the k-blocks fit the grid, and the kernel's walk
  // (sm90::StreamK) deals every k-block of the stream-K tiles exactly once.
  if (c.schedule != tune::Schedule::Static || c.splits != 1) broken("stream-K accepted with " + printed);
  if (plan.split_tiles != 0 || plan.sk_workers > workers || plan.units > std::max(workers, plan.tiles))
    broken("stream-K plan out of bounds: " + printed);
  const int64_t kb = tune::decompose(c, s).k_blocks;
  if (plan.sk_tiles == 0 || plan.sk_tiles * kb > 200000) return 0;
  const gemmscope::sm90::StreamK sk{static_cast<uint32_t>(plan.dp_tiles), static_cast<uint32_t>(plan.sk_tiles),
                                    static_cast<uint32_t>(kb), static_cast<uint32_t>(plan.sk_workers)};
  int64_t dealt = 0, next = 0;
  for (uint32_t w = 0; w < sk.workers; ++w) {
    auto cursor = sk.start(w);
    gemmscope::sm90::StreamKSegment seg;
    while (sk.next(cursor, seg)) {
      const int64_t at = int64_t{seg.tile} * kb + seg.kb_begin;
      if (at != next || seg.kb_end <= seg.kb_begin || seg.index >= seg.count || seg.slot >= 2 * sk.workers)
        broken("stream-K walk: " + printed);
      next = at + (seg.kb_end - seg.kb_begin);
      dealt += seg.kb_end - seg.kb_begin;
    }
  }
  if (dealt != plan.sk_tiles * kb) broken("stream-K walk dealt " + std::to_string(dealt) + " k-blocks: " + printed);
  return 0;
}
