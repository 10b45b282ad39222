#pragma once
// One CSV field as RFC 4180 writes it: in double quotes, inner quotes doubled, so
// commas, line breaks and quotes in it survive a reader. Header-only and CUDA-free, for
// bench's report and tune's sweep times alike.
#include <string>
#include <string_view>

namespace gemmscope {

inline std::string csv_field(std::string_view s) {
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

}  // namespace gemmscope
