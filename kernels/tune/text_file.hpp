#pragma once
// Reading a whole (small) text file with the errno of a failure kept, for the
// messages of load_shape_set and load_tune_cache. Internal to gemmscope::tune.
#include <cstddef>
#include <string>
#include <string_view>

#include "gemmscope/shown_text.hpp"

namespace gemmscope::tune::detail {

struct TextFile {
  std::string text;
  int error = 0;           // errno of the failed open/read, 0 if none
  bool too_large = false;  // more than limit_bytes (text is then incomplete)
};

TextFile read_text_file(const std::string& path, size_t limit_bytes);

// "path" with bytes outside printable ASCII as \xHH, at most 64 characters.
using gemmscope::shown_text;

}  // namespace gemmscope::tune::detail
