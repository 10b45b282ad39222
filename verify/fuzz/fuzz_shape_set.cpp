// libFuzzer target: shape-set CSV files (gemmscope::tune::parse_shape_set,
// kernels/tune/shape_set.hpp; bench/shapes/*.csv).
//
// Findings: a sanitizer report, an exception other than ShapeSetError (or one whose
// message does not start with the source), or a broken law, checked against a
// second reading written differently:
//   - the rows are the lines that are not blank or '#' comments, less the header;
//   - each row's fields, split at ',' and trimmed, are the model and layer as
//     accepted and the sizes with leading zeros removed; names are 1..64 of
//     [A-Za-z0-9._-], sizes 1..2^31-1; no (model, layer, m) twice;
//   - the rows printed back as CSV read back the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "tune/shape_set.hpp"

namespace tune = gemmscope::tune;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_shape_set: %s\n", law.c_str());
  std::abort();
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string without_leading_zeros(const std::string& digits) {
  const size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

bool name_ok(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return false;
  return true;
}

// The data lines, read with a loop of its own: lines split at '\n', one trailing
// '\r' dropped, blank and '#' lines skipped, the first remaining line (the header) dropped.
std::vector<std::string> data_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  bool header = true;
  auto finish = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string content = trimmed(line);
    if (!content.empty() && content[0] != '#') {
      if (header)
        header = false;
      else
        lines.push_back(line);
    }
    line.clear();
  };
  for (const char c : text) {
    if (c == '\n')
      finish();
    else
      line.push_back(c);
  }
  finish();
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<tune::NamedShape> shapes;
  try {
    shapes = tune::parse_shape_set(text, "fuzz.csv");
  } catch (const tune::ShapeSetError& e) {
    if (std::string_view(e.what()).rfind("fuzz.csv:", 0) != 0)
      broken(std::string("message without the source: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    broken(std::string("an exception other than ShapeSetError: ") + e.what());
  }
  const std::vector<std::string> lines = data_lines(text);
  if (lines.size() != shapes.size() || shapes.empty()) broken("row count differs from the data-line count");
  std::set<std::tuple<std::string, std::string, int64_t>> seen;
  std::string printed = "model,layer,m,n,k\n";
  for (size_t i = 0; i < shapes.size(); ++i) {
    const tune::NamedShape& s = shapes[i];
    std::vector<std::string> fields;
    size_t begin = 0;
    for (size_t comma; (comma = lines[i].find(',', begin)) != std::string::npos; begin = comma + 1)
      fields.push_back(trimmed(std::string_view(lines[i]).substr(begin, comma - begin)));
    fields.push_back(trimmed(std::string_view(lines[i]).substr(begin)));
    if (fields.size() != 5) broken("accepted a row without 5 fields: " + lines[i]);
    if (fields[0] != s.model || fields[1] != s.layer) broken("model or layer differs from the row: " + lines[i]);
    if (!name_ok(s.model) || !name_ok(s.layer)) broken("accepted a name outside 1..64 of [A-Za-z0-9._-]");
    const int64_t sizes[] = {s.m, s.n, s.k};
    for (int f = 0; f < 3; ++f) {
      if (sizes[f] < 1 || sizes[f] > (int64_t{1} << 31) - 1) broken("accepted a size outside 1..2^31-1");
      if (fields[2 + f].find_first_not_of("0123456789") != std::string::npos ||
          std::to_string(sizes[f]) != without_leading_zeros(fields[2 + f]))
        broken("a size differs from its field: " + lines[i]);
    }
    if (!seen.insert({s.model, s.layer, s.m}).second) broken("accepted the same model, layer and m twice");
    printed += s.model + "," + s.layer + "," + std::to_string(s.m) + "," + std::to_string(s.n) + "," +
               std::to_string(s.k) + "\n";
  }
  std::vector<tune::NamedShape> again;
  try {
    again = tune::parse_shape_set(printed, "printed.csv");
  } catch (const tune::ShapeSetError& e) {
    broken(std::string("accepted rows, printed back, are refused: ") + e.what());
  }
  if (again != shapes) broken("accepted rows, printed back, read back different");
  return 0;
}
