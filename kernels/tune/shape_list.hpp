#pragma once
// The GEMM shape list of the command line ("4096x4096x4096,512x8192x5376"), parsed
// without CUDA so that the CPU tests and the libFuzzer target (verify/fuzz/) can
// reach it; shape_set.hpp reads the shape-set files. harness::parse_shapes
// (tools/bench/) wraps it and turns the sizes into GemmShape.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tune/text/shown_text.hpp"

namespace gemmscope {

struct ParsedShape {
  int64_t m = 0, n = 0, k = 0;
};

// Each size is 1..2^31-1: the bound validate_problem enforces (TMA's global
// dimensions are 32-bit, and M*N*2 bytes must stay below 2^63).
inline constexpr int64_t kMaxShapeDim = (int64_t{1} << 31) - 1;

// A shape as the lists below write it: "MxNxK".
inline std::string shape_text(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// Comma-separated MxNxK items, sizes in decimal digits only (no sign, no spaces, no
// leading zero), no empty item. Throws std::invalid_argument naming the bad item.
inline std::vector<ParsedShape> parse_shape_list(std::string_view text) {
  auto refuse = [](std::string_view item) {
    throw std::invalid_argument("shape '" + shown_text(item) + "' must be MxNxK with each size in 1..2^31-1");
  };
  std::vector<ParsedShape> shapes;
  if (text.empty()) throw std::invalid_argument("no shapes given: expected a list like 4096x4096x4096,512x8192x5376");
  size_t begin = 0;
  for (size_t index = 1; begin <= text.size(); ++index) {
    size_t end = text.find(',', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(begin, end - begin);
    begin = end + 1;
    if (item.empty())
      throw std::invalid_argument("shapes = '" + shown_text(text) + "': item " + std::to_string(index) +
                                  " is empty (give MxNxK,MxNxK,... with no empty item)");
    int64_t size[3];
    size_t pos = 0;
    for (int i = 0; i < 3; ++i) {
      const size_t stop = i < 2 ? item.find('x', pos) : item.size();
      if (stop == std::string_view::npos || stop == pos) refuse(item);
      int64_t value = 0;
      for (size_t j = pos; j < stop; ++j) {
        const char c = item[j];
        if (c < '0' || c > '9') refuse(item);
        value = value * 10 + (c - '0');
        if (value > kMaxShapeDim) refuse(item);  // checked every digit: no overflow
      }
      if (value < 1) refuse(item);
      if (item[pos] == '0')  // "007": read as something else by other tools (octal)
        throw std::invalid_argument("shape '" + shown_text(item) + "': size '" +
                                    shown_text(item.substr(pos, stop - pos)) + "' must be written without leading zeros");
      size[i] = value;
      pos = stop + 1;
    }
    shapes.push_back({size[0], size[1], size[2]});
  }
  return shapes;
}

}  // namespace gemmscope
