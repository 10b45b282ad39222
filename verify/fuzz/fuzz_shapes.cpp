// libFuzzer target: the GEMM shape list of `gemmscope check/bench --shapes`
// (gemmscope::parse_shape_list, kernels/tune/shape_list.hpp).
//
// Findings: a sanitizer report, an exception other than std::invalid_argument, or a
// broken law, checked against a second reading written differently:
//   - every accepted size is in 1..2^31-1;
//   - accepted input consists only of digits, 'x' and ',' and has as many shapes as
//     comma-separated items, none empty, each with exactly two 'x';
//   - printing the shapes back as "MxNxK" gives the items themselves (no leading zero).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tune/shape_list.hpp"

namespace {

[[noreturn]] void broken(const char* law, std::string_view text) {
  std::fprintf(stderr, "fuzz_shapes: %s for '%.*s'\n", law, int(text.size()), text.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<gemmscope::ParsedShape> shapes;
  try {
    shapes = gemmscope::parse_shape_list(text);
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).empty()) std::abort();
    return 0;
  }
  if (text.find_first_not_of("0123456789x,") != std::string_view::npos) broken("accepted a character outside 0-9 x ,", text);
  std::vector<std::string> items(1);
  for (char c : text) {
    if (c == ',') items.emplace_back();
    else items.back().push_back(c);
  }
  for (const std::string& item : items)
    if (item.empty()) broken("accepted an empty item", text);
  if (items.size() != shapes.size()) broken("shape count differs from the item count", text);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto& s = shapes[i];
    for (int64_t v : {s.m, s.n, s.k})
      if (v < 1 || v > (int64_t{1} << 31) - 1) broken("accepted a size outside 1..2^31-1", text);
    const std::string printed = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    if (printed != items[i]) broken("a shape does not print back as its item (a leading zero accepted?)", text);
  }
  return 0;
}
