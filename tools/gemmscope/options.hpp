#pragma once
// Rules every subcommand applies to its options the same way: an option given where
// the chosen mode does not use it is refused (naming the option and the mode), not
// ignored; a comma-separated list has no empty item; an integer is written as one
// (no leading zeros, within 64 bits). Refusals are std::invalid_argument (exit 2).
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "tune/text/shown_text.hpp"

namespace gemmscope::cli {

// Whether the user gave the option (a flag or an option with a value) on the command line.
inline bool given(const CLI::App* cmd, const std::string& name) {
  const CLI::Option* opt = cmd->get_option_no_throw(name);
  return opt != nullptr && opt->count() > 0;
}

// The option as the user wrote it, for a message: "--start = 16", "--json" for a flag.
inline std::string as_given(const CLI::App* cmd, const std::string& name) {
  const CLI::Option* opt = cmd->get_option_no_throw(name);
  if (opt == nullptr || opt->get_expected_min() == 0 || opt->results().empty()) return name;  // a flag: its name
  return name + " = " + shown_text(opt->results().back());
}

// Refuses each of `names` the user gave: "--start = 16 does not apply <mode>".
inline void refuse_options(const CLI::App* cmd, std::initializer_list<const char*> names, const std::string& mode) {
  for (const char* name : names)
    if (given(cmd, name)) throw std::invalid_argument(as_given(cmd, name) + " does not apply " + mode);
}

// CLI11 reads integers with strtoll(text, 0): "010" is octal 8 and a value past 64
// bits saturates. The rule refuses both, so that no number is read as another one;
// empty when `text` is a well-written integer or not a number at all (CLI11 then
// reports "Could not convert").
inline std::string integer_text_rule(const std::string& text, bool is_unsigned) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  const bool hex = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (digits.empty() || digits.find_first_not_of(hex ? "0123456789abcdefABCDEFxX" : "0123456789") != std::string::npos)
    return {};
  if (!hex && digits.size() > 1 && digits[0] == '0')
    return text + " must be written without leading zeros (decimal), or as 0x... (hex)";
  if (is_unsigned && negative) return text + " must not be negative";
  errno = 0;
  if (is_unsigned)
    (void)std::strtoull(text.c_str(), nullptr, 0);
  else
    (void)std::strtoll(text.c_str(), nullptr, 0);
  if (errno == ERANGE) return text + " is outside the 64-bit integer range";
  return {};
}

// The items of "a,b,c": none may be empty ("", "a,,b", "a," are refused, naming the
// item), at most `max_items`.
inline std::vector<std::string> list_items(const std::string& text, const std::string& option, size_t max_items) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty())
      throw std::invalid_argument(option + " = '" + shown_text(text) + "': item " + std::to_string(items.size() + 1) +
                                  " is empty (give A,B,... with no empty item)");
    items.push_back(item);
    if (items.size() > max_items)
      throw std::invalid_argument(option + " = '" + shown_text(text) + "' has more than " +
                                  std::to_string(max_items) + " items");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

// A list of integers, each decimal or 0x-hex, within 64 bits, written as a number.
inline std::vector<long long> integer_list(const std::string& text, const std::string& option, size_t max_items) {
  std::vector<long long> values;
  for (const std::string& item : list_items(text, option, max_items)) {
    const std::string rule = integer_text_rule(item, false);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 0);
    if (!rule.empty() || end != item.c_str() + item.size() || errno == ERANGE || item.find_first_of(" \t+") == 0)
      throw std::invalid_argument(option + " item " + std::to_string(values.size() + 1) + " = '" + shown_text(item) +
                                  "' must be an integer (decimal, or 0x... hex), without leading zeros");
    values.push_back(v);
  }
  return values;
}

}  // namespace gemmscope::cli
