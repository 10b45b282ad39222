// tune/text/csv.hpp.
#include "tune/text/csv.hpp"

namespace gemmscope {
namespace {

[[noreturn]] void refuse(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ": line " + std::to_string(line) + ": " + what);
}

}  // namespace

std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& name) {
  std::vector<CsvRecord> out;
  for_each_csv_record(text, name, [&](const CsvRecord& rec) { out.push_back(rec); });
  return out;
}

void for_each_csv_record(std::string_view text, const std::string& name,
                         const std::function<void(const CsvRecord&)>& take) {
  // gzip's magic bytes: the kept calibration times are .csv.gz.
  if (text.size() >= 2 && text[0] == '\x1f' && text[1] == '\x8b')
    throw std::invalid_argument(name + ": gzip-compressed, not CSV text: decompress it first (gunzip -k, or zcat into a .csv)");
  CsvRecord rec{{std::string()}, 1};
  int line = 1, quote_line = 0;
  bool in_quotes = false, was_quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        rec.fields.back() += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
        was_quoted = true;
      } else {
        if (c == '\n') ++line;
        rec.fields.back() += c;
      }
      continue;
    }
    if (c == ',') {
      rec.fields.emplace_back();
      was_quoted = false;
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      if (c == '\r') ++i;
      // A blank line (nothing, not even a quoted empty field) is no record.
      if (any || rec.fields.size() > 1) take(rec);
      ++line;
      rec = CsvRecord{{std::string()}, line};
      was_quoted = false;
      any = false;
      continue;
    } else if (c == '"') {
      if (!rec.fields.back().empty() || was_quoted)
        refuse(name, line, "a quote inside field " + std::to_string(rec.fields.size()) + " that did not start with one");
      in_quotes = true;
      quote_line = line;
    } else {
      if (was_quoted)
        refuse(name, line, "text after the closing quote of field " + std::to_string(rec.fields.size()));
      rec.fields.back() += c;
    }
    any = true;
  }
  if (in_quotes) refuse(name, quote_line, "a quoted field is not closed before the end of the file");
  if (any || rec.fields.size() > 1) take(rec);
}

}  // namespace gemmscope
