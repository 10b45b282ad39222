#pragma once
// CSV as RFC 4180 writes it, both ways: csv_field for the writers (bench's report,
// tune's sweep times) and read_csv_records for the readers of bench CSVs (`gemmscope
// compare`, `gemmscope tune merge`). Host-only and CUDA-free.
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

// One field in double quotes, inner quotes doubled, so that commas, line breaks and
// quotes in it survive a reader.
inline std::string csv_field(std::string_view s) {
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

struct CsvRecord {
  std::vector<std::string> fields;
  int line = 0;  // 1-based line where the record starts
};

// The records of a whole file. A quoted field may hold commas, doubled quotes and line
// breaks; "\r\n" ends a record like "\n"; blank lines are skipped. Throws
// std::invalid_argument "<name>: line <n>: <what>" for a quote inside an unquoted
// field, text after a closing quote, or a quoted field left open at the end.
std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& name);
// The same records one at a time, in order (memory: one record), for a reader that
// keeps less than every field of every record.
void for_each_csv_record(std::string_view text, const std::string& name,
                         const std::function<void(const CsvRecord&)>& take);

}  // namespace gemmscope
