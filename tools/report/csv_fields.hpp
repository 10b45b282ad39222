#pragma once
// Fields of the CSV files the reports read back (bench_compare, heuristic_score): each
// refusal names the file, the line, the column and the value.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tune/text/shown_text.hpp"

namespace gemmscope::report {

[[noreturn]] inline void refuse(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ": line " + std::to_string(line) + ": " + what);
}

// A matrix size: a whole number from 1 to 2^31 - 1, written without leading zeros.
inline int64_t size_field(const std::string& name, int line, const char* column, const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos &&
                      (text.size() == 1 || text[0] != '0');
  const int64_t v = digits ? std::stoll(text) : 0;
  if (!digits || v < 1 || v > 2147483647)
    refuse(name, line, std::string(column) + " = '" + shown_text(text) + "' must be a whole number from 1 to 2^31 - 1");
  return v;
}

}  // namespace gemmscope::report
