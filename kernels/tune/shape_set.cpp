#include "tune/shape_set.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::tune {

namespace {

constexpr std::string_view kHeader[] = {"model", "layer", "m", "n", "k"};
constexpr std::string_view kHeaderLine = "model,layer,m,n,k";

[[noreturn]] void fail(const std::string& source, size_t line, const std::string& what) {
  throw ShapeSetError(source + ":" + std::to_string(line) + ": " + what);
}

std::string_view trim(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t begin = 0;
  for (;;) {
    const size_t comma = line.find(',', begin);
    if (comma == std::string_view::npos) {
      fields.push_back(trim(line.substr(begin)));
      return fields;
    }
    fields.push_back(trim(line.substr(begin, comma - begin)));
    begin = comma + 1;
  }
}

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxShapeSetNameBytes) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string name_field(std::string_view value, std::string_view field, const std::string& source, size_t line) {
  if (!valid_name(value))
    fail(source, line,
         std::string(field) + " = '" + shown_text(value) + "' must be 1..64 characters of A-Z a-z 0-9 . _ -");
  return std::string(value);
}

int64_t size_field(std::string_view value, std::string_view field, const std::string& source, size_t line) {
  auto refuse = [&] {
    fail(source, line,
         std::string(field) + " = '" + shown_text(value) + "' must be 1.." + std::to_string(kMaxShapeSetDim));
  };
  if (value.empty()) refuse();
  int64_t result = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') refuse();
    result = result * 10 + (c - '0');
    if (result > kMaxShapeSetDim) refuse();  // checked every digit: no overflow
  }
  if (result < 1) refuse();
  return result;
}

}  // namespace

std::vector<NamedShape> parse_shape_set(std::string_view text, const std::string& source) {
  if (text.size() > kMaxShapeSetBytes)
    throw ShapeSetError(source + ": " + std::to_string(text.size()) + " bytes, more than the limit of " +
                        std::to_string(kMaxShapeSetBytes) + " (16 MiB) for a shape set");
  std::vector<NamedShape> shapes;
  std::vector<size_t> lines;  // each shape's line, for the repeat check at the end
  bool header_seen = false;
  size_t line_number = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;

    const auto fields = split_fields(line);
    if (!header_seen) {
      bool is_header = fields.size() == 5;
      for (size_t i = 0; is_header && i < 5; ++i) is_header = fields[i] == kHeader[i];
      if (!is_header)
        fail(source, line_number,
             "header = '" + shown_text(content) + "' must be exactly " + std::string(kHeaderLine));
      header_seen = true;
      continue;
    }
    if (fields.size() != 5)
      fail(source, line_number,
           "row '" + shown_text(content) + "' has " + std::to_string(fields.size()) + " fields, expected 5 (" +
               std::string(kHeaderLine) + ")");
    NamedShape shape;
    shape.model = name_field(fields[0], "model", source, line_number);
    shape.layer = name_field(fields[1], "layer", source, line_number);
    shape.m = size_field(fields[2], "m", source, line_number);
    shape.n = size_field(fields[3], "n", source, line_number);
    shape.k = size_field(fields[4], "k", source, line_number);
    shapes.push_back(std::move(shape));
    lines.push_back(line_number);
  }
  // A (model, layer, m) given twice: the earliest line that repeats one, and the line
  // it repeats. Sorted indices, not a map of keys: memory stays near the shapes'.
  std::vector<size_t> order(shapes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key = [&](size_t i) { return std::tie(shapes[i].model, shapes[i].layer, shapes[i].m); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  size_t repeat = shapes.size(), repeated = 0;
  for (size_t j = 1; j < order.size(); ++j)
    if (key(order[j]) == key(order[j - 1]) && (j < 2 || key(order[j - 2]) != key(order[j])) && order[j] < repeat) {
      repeat = order[j];
      repeated = order[j - 1];
    }
  if (repeat < shapes.size())
    fail(source, lines[repeat],
         "model,layer,m = " + shapes[repeat].model + "," + shapes[repeat].layer + "," +
             std::to_string(shapes[repeat].m) + " repeats line " + std::to_string(lines[repeated]) +
             " (each model, layer and m once)");
  if (!header_seen)
    throw ShapeSetError(source + ": no header line: expected " + std::string(kHeaderLine) + " and at least one row");
  if (shapes.empty())
    throw ShapeSetError(source + ": no shape rows after the header " + std::string(kHeaderLine) +
                        " (a shape set must not be empty)");
  return shapes;
}

std::vector<NamedShape> load_shape_set(const std::string& path) {
  const TextFile file = read_text_file(path, kMaxShapeSetBytes);
  if (file.error != 0) throw ShapeSetError("cannot read shape set '" + path + "': " + std::strerror(file.error));
  if (file.not_regular)
    throw ShapeSetError("cannot read shape set '" + path + "': it is " + file.not_regular + ", not a regular file");
  if (file.too_large)
    throw ShapeSetError("cannot read shape set '" + path + "': larger than the limit of " +
                        std::to_string(kMaxShapeSetBytes) + " bytes (16 MiB)");
  return parse_shape_set(file.text, path);
}

}  // namespace gemmscope::tune
