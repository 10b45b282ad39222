#include "gemmscope/traces/golden.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

#include "strict_json.hpp"
#include "tune/text/output_file.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::traces {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& field, const std::string& rule) {
  throw GoldenError(source + ": " + field + " " + rule);
}

std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

// `path` prefixes the key in messages: "cases[2]." + "status".
const json& member(const json& obj, std::string_view key, const std::string& where, const std::string& path = "") {
  if (!obj.is_object()) fail(where, path.empty() ? "document" : path.substr(0, path.size() - 1), "is not a JSON object");
  const auto it = obj.find(std::string(key));
  if (it == obj.end()) fail(where, path + std::string(key), "is missing");
  return *it;
}

std::string field_name(const std::string& where, std::string_view key) {
  // "file: cases[2].observed" + key -> "file: cases[2].observed.key"
  return where + "." + std::string(key);
}

int64_t int_member(const json& obj, std::string_view key, const std::string& source, const std::string& path) {
  const json& v = member(obj, key, source, path);
  if (!v.is_number_integer()) fail(source, path + std::string(key) + " = " + shown(v), "must be an integer");
  return v.get<int64_t>();
}

// A JSON integer read into an `int` field: refused, not wrapped, when it does not fit.
int int32_member(const json& obj, std::string_view key, const std::string& source, const std::string& path) {
  const json& v = member(obj, key, source, path);
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= 2147483647u
                                           : v.is_number_integer() && v.get<int64_t>() >= -2147483648LL &&
                                                 v.get<int64_t>() <= 2147483647LL;
  if (v.is_number_integer() && !fits) fail(source, path + std::string(key) + " = " + shown(v), "must fit a 32-bit int");
  return static_cast<int>(int_member(obj, key, source, path));
}

std::string string_member(const json& obj, std::string_view key, const std::string& source, const std::string& path) {
  const json& v = member(obj, key, source, path);
  if (!v.is_string()) fail(source, path + std::string(key) + " = " + shown(v), "must be a string");
  return v.get<std::string>();
}

bool is_runs_object(const json& value) { return value.is_object() && value.size() == 1 && value.contains("runs"); }

// Pretty at object level, compact for arrays of scalars and for runs objects
// (observations are long arrays; one element per line would make the files unreadable).
void dump_compact(const json& value, std::ostringstream& out, int indent) {
  const std::string pad(indent, ' ');
  const std::string pad_in(indent + 2, ' ');
  if (is_runs_object(value)) {
    out << value.dump();
    return;
  }
  if (value.is_object()) {
    if (value.empty()) {
      out << "{}";
      return;
    }
    out << "{\n";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!first) out << ",\n";
      first = false;
      out << pad_in << json(it.key()).dump() << ": ";
      dump_compact(it.value(), out, indent + 2);
    }
    out << "\n" << pad << "}";
  } else if (value.is_array()) {
    const bool scalars = std::all_of(value.begin(), value.end(), [](const json& e) { return e.is_primitive(); });
    if (scalars) {
      out << value.dump();
      return;
    }
    out << "[\n";
    bool first = true;
    for (const json& e : value) {
      if (!first) out << ",\n";
      first = false;
      out << pad_in;
      dump_compact(e, out, indent + 2);
    }
    out << "\n" << pad << "]";
  } else {
    out << value.dump();
  }
}

}  // namespace

std::size_t GoldenTrace::failed_cases() const {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const GoldenCase& c) { return c.status == CaseStatus::Failed; }));
}

const GoldenCase* GoldenTrace::find_case(std::string_view name) const {
  for (const GoldenCase& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

bool valid_probe_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  });
}

json to_json(const GoldenTrace& trace) {
  json doc;
  doc["format"] = kGoldenFormatName;
  doc["schema_version"] = trace.schema_version;
  if (trace.schema_version >= 2) doc["source"] = trace.source;
  doc["probe"] = trace.probe;
  doc["description"] = trace.description;
  doc["settles"] = trace.settles;
  doc["gpu"] = {{"name", trace.gpu.name},
                {"compute_capability", std::to_string(trace.gpu.compute_major) + "." +
                                           std::to_string(trace.gpu.compute_minor)},
                {"compute_major", trace.gpu.compute_major},
                {"compute_minor", trace.gpu.compute_minor},
                {"driver_version", trace.gpu.driver_version},
                {"runtime_version", trace.gpu.runtime_version},
                {"sm_count", trace.gpu.sm_count},
                {"clock_khz", trace.gpu.clock_khz}};
  doc["date"] = trace.date;
  doc["commit"] = trace.commit;
  doc["case_count"] = trace.cases.size();
  doc["failed_case_count"] = trace.failed_cases();
  json cases = json::array();
  for (const GoldenCase& c : trace.cases) {
    json jc;
    jc["name"] = c.name;
    jc["status"] = c.status == CaseStatus::Ok ? "ok" : "failed";
    jc["params"] = c.params;
    if (c.status == CaseStatus::Failed) jc["error"] = c.error;
    jc["observed"] = c.observed;
    cases.push_back(std::move(jc));
  }
  doc["cases"] = std::move(cases);
  return doc;
}

GoldenTrace golden_from_json(const json& doc, const std::string& source) {
  if (!doc.is_object()) fail(source, "document", "must be a JSON object (a golden trace)");
  GoldenTrace t;
  const std::string format = string_member(doc, "format", source, "");
  if (format != kGoldenFormatName)
    fail(source, "format = \"" + format + "\"", "must be \"" + std::string(kGoldenFormatName) + "\"");
  t.schema_version = int32_member(doc, "schema_version", source, "");
  if (t.schema_version < 1 || t.schema_version > kGoldenSchemaVersion)
    fail(source, "schema_version = " + std::to_string(t.schema_version),
         "is not supported by this reader (1.." + std::to_string(kGoldenSchemaVersion) + ")");
  if (t.schema_version >= 2) {
    t.source = string_member(doc, "source", source, "");
    if (t.source != kGoldenSourceHardware && t.source != kGoldenSourceSynthetic)
      fail(source, "source = \"" + t.source + "\"",
           "must be \"" + std::string(kGoldenSourceHardware) + "\" or \"" + std::string(kGoldenSourceSynthetic) + "\"");
  } else if (doc.contains("source")) {
    fail(source, "source", "needs schema_version 2 (this file says 1)");
  }
  t.probe = string_member(doc, "probe", source, "");
  if (!valid_probe_name(t.probe))
    fail(source, "probe = \"" + t.probe + "\"", "must be 1..64 of letters, digits, '.', '_', '-'");
  t.description = string_member(doc, "description", source, "");
  const json& settles = member(doc, "settles", source);
  if (!settles.is_array()) fail(source, "settles", "must be an array of strings");
  for (const json& s : settles) {
    if (!s.is_string()) fail(source, "settles[] = " + shown(s), "must be a string");
    t.settles.push_back(s.get<std::string>());
  }
  const json& gpu = member(doc, "gpu", source);
  if (!gpu.is_object()) fail(source, "gpu", "must be an object");
  t.gpu.name = string_member(gpu, "name", source, "gpu.");
  if (t.gpu.name.empty()) fail(source, "gpu.name", "must not be empty");
  t.gpu.compute_major = int32_member(gpu, "compute_major", source, "gpu.");
  t.gpu.compute_minor = int32_member(gpu, "compute_minor", source, "gpu.");
  if (t.gpu.compute_major < 1 || t.gpu.compute_minor < 0)
    fail(source, "gpu.compute_major = " + std::to_string(t.gpu.compute_major), "must be a compute capability >= 1.0");
  const std::string cc = string_member(gpu, "compute_capability", source, "gpu.");
  if (cc != std::to_string(t.gpu.compute_major) + "." + std::to_string(t.gpu.compute_minor))
    fail(source, "gpu.compute_capability = \"" + cc + "\"", "must agree with compute_major.compute_minor");
  t.gpu.driver_version = int32_member(gpu, "driver_version", source, "gpu.");
  t.gpu.runtime_version = int32_member(gpu, "runtime_version", source, "gpu.");
  // A synthetic trace ran on no GPU: its version numbers may be 0.
  const int min_version = t.synthetic() ? 0 : 1;
  if (t.gpu.driver_version < min_version || t.gpu.runtime_version < min_version)
    fail(source, "gpu.driver_version/runtime_version",
         t.synthetic() ? "must not be negative" : "must be positive CUDA version numbers");
  t.gpu.sm_count = int32_member(gpu, "sm_count", source, "gpu.");
  t.gpu.clock_khz = int32_member(gpu, "clock_khz", source, "gpu.");
  t.date = string_member(doc, "date", source, "");
  // YYYY-MM-DDTHH:MM:SSZ
  const bool date_ok = t.date.size() == 20 && t.date[4] == '-' && t.date[7] == '-' && t.date[10] == 'T' &&
                       t.date[13] == ':' && t.date[16] == ':' && t.date[19] == 'Z';
  if (!date_ok) fail(source, "date = \"" + t.date + "\"", "must be UTC ISO 8601, YYYY-MM-DDTHH:MM:SSZ");
  t.commit = string_member(doc, "commit", source, "");
  if (t.commit.empty()) fail(source, "commit", "must not be empty (write \"unknown\" when not known)");

  const json& cases = member(doc, "cases", source);
  if (!cases.is_array()) fail(source, "cases", "must be an array");
  std::set<std::string> names;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = "cases[" + std::to_string(i) + "].";
    const json& jc = cases[i];
    if (!jc.is_object()) fail(source, "cases[" + std::to_string(i) + "]", "must be an object");
    GoldenCase c;
    c.name = string_member(jc, "name", source, path);
    if (c.name.empty()) fail(source, path + "name", "must not be empty");
    if (!names.insert(c.name).second) fail(source, path + "name = \"" + c.name + "\"", "appears twice");
    const std::string status = string_member(jc, "status", source, path);
    if (status == "ok") {
      c.status = CaseStatus::Ok;
    } else if (status == "failed") {
      c.status = CaseStatus::Failed;
    } else {
      fail(source, path + "status = \"" + status + "\"", "must be ok or failed");
    }
    c.params = member(jc, "params", source, path);
    if (!c.params.is_object()) fail(source, path + "params", "must be an object");
    c.observed = member(jc, "observed", source, path);
    if (!c.observed.is_object()) fail(source, path + "observed", "must be an object");
    if (c.status == CaseStatus::Failed) {
      c.error = string_member(jc, "error", source, path);
      if (c.error.empty()) fail(source, path + "error", "must say why a failed case failed");
    } else {
      if (jc.contains("error")) fail(source, path + "error", "must be absent when status is ok");
      if (c.observed.empty()) fail(source, path + "observed", "must not be empty when status is ok");
    }
    t.cases.push_back(std::move(c));
  }
  if (doc.contains("case_count") && int_member(doc, "case_count", source, "") != static_cast<int64_t>(t.cases.size()))
    fail(source, "case_count = " + doc["case_count"].dump(),
         "must equal the number of cases (" + std::to_string(t.cases.size()) + "); the file is truncated or edited");
  return t;
}

GoldenTrace read_golden(const std::filesystem::path& path) {
  const std::string source = path.filename().string();
  const TextFile file = read_text_file(path.string(), kMaxGoldenFileBytes);
  if (file.error != 0 || file.not_regular)
    throw GoldenError(source + ": cannot read " + path.string() + ": it " +
                      input_problem(file.error, file.not_regular, file.read_failed));
  if (file.too_large)
    throw GoldenError(source + ": larger than the limit of " + std::to_string(kMaxGoldenFileBytes) +
                      " bytes for a golden trace");
  json doc;
  try {
    doc = detail::parse_strict_json(file.text, kMaxGoldenDepth);
  } catch (const detail::StrictJsonError& e) {
    throw GoldenError(source + ": not valid JSON: " + e.what());
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    throw GoldenError(source + ": not valid JSON: " + e.what());
  }
  return golden_from_json(doc, source);
}

namespace {

std::string golden_text(const GoldenTrace& trace) {
  std::ostringstream text;
  dump_compact(to_json(trace), text, 0);
  text << "\n";
  return text.str();
}

}  // namespace

std::filesystem::path write_golden(const std::filesystem::path& dir, const GoldenTrace& trace) {
  if (!valid_probe_name(trace.probe))
    throw GoldenError("probe = \"" + trace.probe + "\" must be 1..64 of letters, digits, '.', '_', '-'");
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / (trace.probe + ".json");
  write_golden_file(path, trace);
  return path;
}

void write_golden_file(const std::filesystem::path& path, const GoldenTrace& trace) {
  const std::string text = golden_text(trace);
  try {
    write_output_file(path.string(), text, "golden trace");
  } catch (const OutputFileError& e) {
    throw GoldenError(path.string() + ": " + e.reason());
  }
}

std::vector<std::filesystem::path> list_golden_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

// For the typed readers: "where.key is missing".
const json& member_at(const json& obj, std::string_view key, const std::string& where) {
  if (!obj.is_object()) throw GoldenError(where + " is not a JSON object");
  const auto it = obj.find(std::string(key));
  if (it == obj.end()) throw GoldenError(field_name(where, key) + " is missing");
  return *it;
}

}  // namespace

int64_t golden_int(const json& obj, std::string_view key, const std::string& where) {
  const json& v = member_at(obj, key, where);
  if (!v.is_number_integer()) throw GoldenError(field_name(where, key) + " = " + shown(v) + " must be an integer");
  return v.get<int64_t>();
}

std::string golden_string(const json& obj, std::string_view key, const std::string& where) {
  const json& v = member_at(obj, key, where);
  if (!v.is_string()) throw GoldenError(field_name(where, key) + " = " + shown(v) + " must be a string");
  return v.get<std::string>();
}

namespace {

constexpr const char* kRunsForm = "{\"runs\": [[first, count, step], ...]}";

// Value k of a number run. Value 0 is `first` itself (0 * step + first would turn
// -0.0 into 0.0); fma rounds once, whatever the compiler contracts.
double run_value(double first, double step, long long k) {
  return k == 0 ? first : std::fma(static_cast<double>(k), step, first);
}

bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

bool fits_int64(const json& v) {
  return v.is_number_integer() &&
         (!v.is_number_unsigned() || v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
}

// A runs object of `field` decoded into integers (T = int64_t) or numbers (T = double).
template <class T>
std::vector<T> decode_runs(const json& v, const std::string& field, long long expected_size) {
  constexpr bool kIntegers = std::is_same_v<T, int64_t>;
  if (!is_runs_object(v))
    throw GoldenError(field + " = " + shown(v) + " must be an array or " + kRunsForm);
  const json& runs = v.at("runs");
  if (!runs.is_array()) throw GoldenError(field + ".runs must be an array of [first, count, step]");
  // The shape of every run and the decoded length, before any memory is taken.
  long long total = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& r = runs[i];
    const std::string at = field + ".runs[" + std::to_string(i) + "] = " + shown(r);
    if (!r.is_array() || r.size() != 3) throw GoldenError(at + " must be [first, count, step]");
    if (!r[1].is_number_integer()) throw GoldenError(at + " must have an integer count");
    const long long count = fits_int64(r[1]) ? r[1].get<int64_t>() : std::numeric_limits<long long>::max();
    if (count < 1) throw GoldenError(at + " must have count >= 1");
    if (kIntegers && (!fits_int64(r[0]) || !fits_int64(r[2])))
      throw GoldenError(at + " must have first and step integers of 64 bits");
    if (!kIntegers && (!r[0].is_number() || !r[2].is_number()))
      throw GoldenError(at + " must have first and step numbers");
    if (count > kMaxGoldenArrayEntries - total)
      throw GoldenError(field + ".runs decode to more than " + std::to_string(kMaxGoldenArrayEntries) +
                        " entries, the limit of an observation array");
    total += count;
  }
  if (expected_size >= 0 && total != expected_size)
    throw GoldenError(field + " has " + std::to_string(total) + " entries, expected " + std::to_string(expected_size));
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& r = runs[i];
    const long long count = r[1].get<int64_t>();
    const T first = r[0].get<T>(), step = r[2].get<T>();
    if constexpr (kIntegers) {
      T value = first;
      out.push_back(value);
      for (long long k = 1; k < count; ++k) {
        if (__builtin_add_overflow(value, step, &value))
          throw GoldenError(field + ".runs[" + std::to_string(i) + "] = " + shown(r) +
                            " leaves the 64-bit integer range");
        out.push_back(value);
      }
    } else {
      for (long long k = 0; k < count; ++k) {
        const double value = run_value(first, step, k);
        if (!std::isfinite(value))
          throw GoldenError(field + ".runs[" + std::to_string(i) + "] = " + shown(r) + " leaves the range of a double");
        out.push_back(value);
      }
    }
  }
  return out;
}

}  // namespace

std::vector<int64_t> golden_int_array(const json& obj, std::string_view key, const std::string& where,
                                      long long expected_size) {
  const json& v = member_at(obj, key, where);
  if (v.is_object()) return decode_runs<int64_t>(v, field_name(where, key), expected_size);
  if (!v.is_array())
    throw GoldenError(field_name(where, key) + " must be an array of integers or " + kRunsForm);
  if (expected_size >= 0 && static_cast<long long>(v.size()) != expected_size)
    throw GoldenError(field_name(where, key) + " has " + std::to_string(v.size()) + " entries, expected " +
                      std::to_string(expected_size));
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer())
      throw GoldenError(field_name(where, key) + "[" + std::to_string(i) + "] = " + shown(v[i]) +
                        " must be an integer");
    out.push_back(v[i].get<int64_t>());
  }
  return out;
}

std::vector<double> golden_number_array(const json& obj, std::string_view key, const std::string& where,
                                        long long expected_size) {
  const json& v = member_at(obj, key, where);
  if (v.is_object()) return decode_runs<double>(v, field_name(where, key), expected_size);
  if (!v.is_array()) throw GoldenError(field_name(where, key) + " must be an array of numbers or " + kRunsForm);
  if (expected_size >= 0 && static_cast<long long>(v.size()) != expected_size)
    throw GoldenError(field_name(where, key) + " has " + std::to_string(v.size()) + " entries, expected " +
                      std::to_string(expected_size));
  std::vector<double> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number())
      throw GoldenError(field_name(where, key) + "[" + std::to_string(i) + "] = " + shown(v[i]) + " must be a number");
    out.push_back(v[i].get<double>());
  }
  return out;
}

json golden_runs(const std::vector<int64_t>& values) {
  json runs = json::array();
  for (std::size_t i = 0; i < values.size();) {
    std::size_t count = 1;
    int64_t step = 0;
    if (i + 1 < values.size() && !__builtin_sub_overflow(values[i + 1], values[i], &step)) {
      count = 2;
      int64_t next = 0;
      while (i + count < values.size() && !__builtin_add_overflow(values[i + count - 1], step, &next) &&
             next == values[i + count])
        ++count;
    }
    runs.push_back(json::array({values[i], count, count == 1 ? 0 : step}));
    i += count;
  }
  return json{{"runs", std::move(runs)}};
}

json golden_runs(const std::vector<double>& values) {
  json runs = json::array();
  for (std::size_t i = 0; i < values.size();) {
    const double first = values[i];
    std::size_t count = 1;
    double step = 0.0;
    if (i + 1 < values.size()) {
      // A repeat keeps the sign of zero: -0.0 + -0.0 is -0.0, -0.0 + 0.0 is not.
      step = values[i + 1] == first ? std::copysign(0.0, first) : values[i + 1] - first;
      while (i + count < values.size() &&
             same_bits(run_value(first, step, static_cast<long long>(count)), values[i + count]))
        ++count;
    }
    runs.push_back(json::array({first, count, count == 1 ? 0.0 : step}));
    i += count;
  }
  return json{{"runs", std::move(runs)}};
}

namespace {

bool is_float(const json& v) { return v.is_number_float(); }

// Integer runs for integers, number runs for floats: each entry keeps its JSON type.
// A mixed array (or an integer past int64) stays as it is.
json compact_array(const json& a) {
  if (!a.is_array()) return a;  // runs already, or not an observation array
  if (std::all_of(a.begin(), a.end(), fits_int64)) {
    std::vector<int64_t> values;
    values.reserve(a.size());
    for (const json& e : a) values.push_back(e.get<int64_t>());
    return golden_runs(values);
  }
  if (std::all_of(a.begin(), a.end(), is_float)) {
    std::vector<double> values;
    values.reserve(a.size());
    for (const json& e : a) values.push_back(e.get<double>());
    return golden_runs(values);
  }
  return a;
}

// `after` holds every value of `before`: run arrays decode to the same entries (doubles
// bit for bit), everything else is equal as JSON.
void check_same_values(const GoldenTrace& before, const GoldenTrace& after) {
  const std::string source = before.probe + " (compacted)";
  const auto differ = [&](const std::string& what) {
    throw GoldenError(source + ": " + what + " would change; nothing written");
  };
  json a = to_json(before), b = to_json(after);
  if (before.source != after.source) differ("source");
  for (json* doc : {&a, &b}) {
    doc->erase("schema_version");
    doc->erase("source");
  }
  for (std::size_t i = 0; i < before.cases.size() && i < after.cases.size(); ++i) {
    const std::string where = "cases[" + std::to_string(i) + "].observed";
    const json& x = before.cases[i].observed;
    const json& y = after.cases[i].observed;
    for (std::string_view key : kGoldenRunArrays) {
      const auto it = x.find(std::string(key));
      if (it == x.end() || !it->is_array() || !y.contains(std::string(key))) continue;
      if (std::all_of(it->begin(), it->end(), fits_int64)) {
        if (golden_int_array(x, key, where) != golden_int_array(y, key, where)) differ(field_name(where, key));
      } else if (std::all_of(it->begin(), it->end(), is_float)) {
        const std::vector<double> u = golden_number_array(x, key, where), v = golden_number_array(y, key, where);
        if (u.size() != v.size() || !std::equal(u.begin(), u.end(), v.begin(), same_bits))
          differ(field_name(where, key));
      } else {
        continue;  // left as it was: compared as JSON below
      }
      a["cases"][i]["observed"].erase(std::string(key));
      b["cases"][i]["observed"].erase(std::string(key));
    }
  }
  if (a != b) differ("a field other than the run arrays");
}

}  // namespace

GoldenTrace compact_golden(const GoldenTrace& trace) {
  GoldenTrace out = trace;
  out.schema_version = kGoldenSchemaVersion;
  for (GoldenCase& c : out.cases)
    for (std::string_view key : kGoldenRunArrays) {
      const auto it = c.observed.find(std::string(key));
      if (it != c.observed.end()) *it = compact_array(*it);
    }
  // The text as it will be written, read back.
  const GoldenTrace back = golden_from_json(json::parse(golden_text(out)), trace.probe + " (compacted)");
  check_same_values(trace, back);
  return out;
}

}  // namespace gemmscope::traces
