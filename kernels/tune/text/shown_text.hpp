#pragma once
// How an error message shows text the user gave (a shape, a configuration, a file
// path): as typed, bytes outside printable ASCII as \xHH (a NUL would cut the
// message), at most 64 characters then "...". Header-only and CUDA-free, for the
// shape parser, the tuning code, the command line and the fuzzers alike.
#include <string>
#include <string_view>

namespace gemmscope {

inline std::string shown_text(std::string_view text) {
  std::string shown;
  for (const char c : text.substr(0, 64)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      shown += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  if (text.size() > 64) shown += "...";
  return shown;
}

}  // namespace gemmscope
