#pragma once
// The tuning library's names for the shared file reader (gemmscope/text_file.hpp)
// and the shown form of user text (gemmscope/shown_text.hpp).
#include "gemmscope/shown_text.hpp"
#include "gemmscope/text_file.hpp"

namespace gemmscope::tune::detail {

using gemmscope::read_text_file;
using gemmscope::TextFile;

// "path" with bytes outside printable ASCII as \xHH, at most 64 characters.
using gemmscope::shown_text;

}  // namespace gemmscope::tune::detail
