#pragma once
// printf into a string of any length: names, commits, labels and GPU names come from
// files and the command line, and a fixed buffer would cut a line (and its newline)
// short.
#include <string>

namespace gemmscope {

std::string text_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace gemmscope
