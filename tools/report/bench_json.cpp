#include "bench_json.hpp"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::report {
namespace {

using nlohmann::json;

constexpr int64_t kMaxDim = (int64_t{1} << 31) - 1;
constexpr size_t kMaxEnvironmentKeys = 64;

const std::set<std::string> kTopKeys = {"schema_version", "environment", "rows", "summary"};
const std::set<std::string> kRowNumbers = {"median_ms",  "min_ms",       "max_ms",           "spread_pct",
                                           "tflops",     "ratio_to_cublas", "sm_clock_mhz", "power_capped_pct",
                                           "slowdown_pct", "tensor_peak_pct"};
const std::set<std::string> kRowSizes = {"m", "n", "k"};
const std::set<std::string> kRowCounts = {"buffer_sets", "clock_samples"};
const std::set<std::string> kRowTexts = {"kernel", "label", "detail", "note"};
const std::set<std::string> kSummaryKeys = {"kernel", "shapes", "geomean_ratio_to_cublas", "min_ratio_to_cublas",
                                            "min_shape"};

std::string shown(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  std::string text = v.dump(-1, ' ', true, json::error_handler_t::replace);
  if (text.size() > 64) text = text.substr(0, 61) + "...";
  return text;
}

// One pass over the document; rows are checked and converted as they close.
class Reader final : public nlohmann::json_sax<json> {
 public:
  Reader(const std::string& name, std::vector<BenchJsonRow>& rows) : name_(name), rows_(rows) {}
  size_t error_byte = 0;
  std::string error_text;
  bool saw_rows = false;

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool v) override { return scalar(json(v)); }
  bool number_integer(number_integer_t v) override { return scalar(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return scalar(json(v)); }
  bool string(string_t& v) override { return scalar(json(std::move(v))); }
  bool binary(binary_t&) override { fail("the document", "holds binary data, which is not JSON"); }

  bool start_object(std::size_t) override {
    if (stack_.empty()) return push(Kind::top, "");
    Frame& f = stack_.back();
    if (f.kind == Kind::top && f.key == "environment") return push(Kind::environment, "environment");
    if (f.kind == Kind::rows) {
      row_ = json::object();
      return push(Kind::row, "rows[" + std::to_string(f.count++) + "]");
    }
    if (f.kind == Kind::summary) return push(Kind::summary_item, "summary[" + std::to_string(f.count++) + "]");
    fail(where(), "= an object: " + rule_for(f));
  }
  bool end_object() override {
    const Frame f = stack_.back();
    stack_.pop_back();
    if (f.kind == Kind::row) take_row(f.path);
    if (f.kind == Kind::top && !saw_rows)
      fail("the document", "has no \"rows\" array: expected the output of `gemmscope bench --json`");
    return true;
  }
  bool start_array(std::size_t) override {
    if (!stack_.empty() && stack_.back().kind == Kind::top) {
      if (stack_.back().key == "rows") {
        saw_rows = true;
        return push(Kind::rows, "rows");
      }
      if (stack_.back().key == "summary") return push(Kind::summary, "summary");
    }
    if (stack_.empty()) fail("the document", "= an array must be an object: expected the output of `gemmscope bench --json`");
    fail(where(), "= an array: " + rule_for(stack_.back()));
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool key(string_t& name) override {
    Frame& f = stack_.back();
    if (!f.keys.insert(name).second) fail(f.path.empty() ? "the document" : f.path, "has the key \"" + shown_text(name) + "\" twice");
    f.key = name;
    const std::string path = (f.path.empty() ? "" : f.path + ".") + shown_text(name);
    if (f.kind == Kind::top && !kTopKeys.count(name))
      fail(path, "is not a field of a bench JSON (fields: schema_version, environment, rows, summary)");
    if (f.kind == Kind::environment && f.keys.size() > kMaxEnvironmentKeys)
      fail("environment", "has more than " + std::to_string(kMaxEnvironmentKeys) + " fields");
    if (f.kind == Kind::row && !kRowNumbers.count(name) && !kRowCounts.count(name) && !kRowTexts.count(name) &&
        !kRowSizes.count(name))
      fail(path, "is not a field of a bench row");
    if (f.kind == Kind::summary_item && !kSummaryKeys.count(name)) fail(path, "is not a field of a bench summary");
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) override {
    error_byte = position;
    const std::string text = e.what();
    const size_t tag_end = text.find("] ");
    error_text = tag_end == std::string::npos ? text : text.substr(tag_end + 2);
    return false;
  }

 private:
  enum class Kind { top, environment, rows, row, summary, summary_item };
  struct Frame {
    Kind kind;
    std::string path;
    std::set<std::string> keys;
    std::string key;
    size_t count = 0;
  };
  const std::string& name_;
  std::vector<BenchJsonRow>& rows_;
  std::vector<Frame> stack_;
  json row_;
  std::map<std::tuple<std::string, int64_t, int64_t, int64_t>, size_t> seen_;

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw std::invalid_argument(name_ + ": " + where + " " + what);
  }
  bool push(Kind kind, std::string path) {
    stack_.push_back(Frame{kind, std::move(path), {}, {}, 0});
    return true;
  }
  std::string where() const {
    const Frame& f = stack_.back();
    if (f.kind == Kind::rows || f.kind == Kind::summary) return f.path + "[" + std::to_string(f.count) + "]";
    return (f.path.empty() ? "" : f.path + ".") + shown_text(f.key);
  }
  static std::string rule_for(const Frame& f) {
    switch (f.kind) {
      case Kind::top:
        return f.key == "schema_version" ? "must be the integer 1"
               : f.key == "environment"  ? "must be an object"
                                         : "must be an array";
      case Kind::environment: return "must be a string, a number or null";
      case Kind::rows: return "must be an object (a bench row)";
      case Kind::summary: return "must be an object (a kernel's summary)";
      default: return "must be a string, a number or null (a row holds no nested values)";
    }
  }
  bool scalar(json&& v) {
    if (stack_.empty()) fail("the document", "= " + shown(v) + " must be an object: expected the output of `gemmscope bench --json`");
    Frame& f = stack_.back();
    switch (f.kind) {
      case Kind::top:
        if (f.key != "schema_version" || !v.is_number_integer() || v.get<int64_t>() != 1)
          fail(where(), "= " + shown(v) + " " + rule_for(f));
        return true;
      case Kind::environment:
      case Kind::summary_item:
        if (v.is_boolean()) fail(where(), "= " + shown(v) + " " + rule_for(f));
        return true;
      case Kind::rows:
      case Kind::summary: fail(where(), "= " + shown(v) + " " + rule_for(f));
      case Kind::row: row_[f.key] = std::move(v); return true;
    }
    return true;
  }

  void take_row(const std::string& path) {
    if (rows_.size() >= kMaxBenchJsonRows)
      fail(path, "is past the limit of " + std::to_string(kMaxBenchJsonRows) + " rows");
    for (const char* key : {"kernel", "m", "n", "k", "tflops", "ratio_to_cublas"})
      if (!row_.contains(key)) fail(path, std::string("lacks \"") + key + "\"");
    for (auto it = row_.begin(); it != row_.end(); ++it) {
      const json& v = it.value();
      const std::string at = path + "." + it.key();
      if (kRowTexts.count(it.key()) && !v.is_string()) fail(at, "= " + shown(v) + " must be a string");
      if (kRowNumbers.count(it.key()) && !v.is_null() &&
          !(v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0))
        fail(at, "= " + shown(v) + " must be null or a finite number >= 0");
      if (kRowCounts.count(it.key()) && !(v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)))
        fail(at, "= " + shown(v) + " must be a whole number >= 0");
    }
    BenchJsonRow r;
    r.index = rows_.size();
    r.kernel = row_["kernel"].get<std::string>();
    if (r.kernel.empty() || r.kernel.size() > 256)
      fail(path + ".kernel", "= " + shown(row_["kernel"]) + " must be 1..256 bytes");
    int64_t* dims[] = {&r.m, &r.n, &r.k};
    const char* names[] = {"m", "n", "k"};
    for (int d = 0; d < 3; ++d) {
      const json& v = row_[names[d]];
      if (!v.is_number_unsigned() || v.get<uint64_t>() < 1 || v.get<uint64_t>() > static_cast<uint64_t>(kMaxDim))
        fail(path + "." + names[d], "= " + shown(v) + " must be a whole number from 1 to 2^31 - 1");
      *dims[d] = static_cast<int64_t>(v.get<uint64_t>());
    }
    double* rates[] = {&r.tflops, &r.ratio_to_cublas};
    const char* rate_names[] = {"tflops", "ratio_to_cublas"};
    for (int i = 0; i < 2; ++i) {
      const json& v = row_[rate_names[i]];
      if (v.is_null()) continue;  // bench writes a non-finite value (no measurement) as null
      if (v.get<double>() > kMaxJsonRate)
        fail(path + "." + rate_names[i], "= " + shown(v) + " must be null or a number from 0 to 1e6");
      *rates[i] = v.get<double>();
    }
    const auto [it, fresh] = seen_.try_emplace(std::make_tuple(r.kernel, r.m, r.n, r.k), r.index);
    if (!fresh)
      fail(path, "repeats kernel \"" + shown_text(r.kernel) + "\" at " + std::to_string(r.m) + "x" +
                     std::to_string(r.n) + "x" + std::to_string(r.k) + " (first at rows[" +
                     std::to_string(it->second) + "])");
    rows_.push_back(std::move(r));
  }
};

}  // namespace

std::vector<BenchJsonRow> read_bench_json_rows(std::string_view text, const std::string& name) {
  std::vector<BenchJsonRow> rows;
  Reader reader(name, rows);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &reader);
  } catch (const json::exception& e) {  // out_of_range: a number past double's range
    throw std::invalid_argument(name + ": not valid JSON: " + e.what());
  }
  if (!ok)
    throw std::invalid_argument(name + ": not valid JSON at byte " + std::to_string(reader.error_byte) + ": " +
                                reader.error_text + " (expected the output of `gemmscope bench --json`)");
  return rows;
}

std::vector<BenchJsonRow> load_bench_json(const std::string& path) {
  constexpr size_t kMaxJsonBytes = size_t{64} << 20;  // a bench JSON is a few hundred rows
  const TextFile file = read_text_file(path, kMaxJsonBytes);
  const std::string shown_path = "bench JSON = " + shown_text(path);
  if (file.error != 0 || file.not_regular)
    throw std::invalid_argument(shown_path + " " + input_problem(file.error, file.not_regular, file.read_failed));
  if (file.too_large) throw std::invalid_argument(shown_path + " is larger than 64 MiB");
  return read_bench_json_rows(file.text, path);
}

}  // namespace gemmscope::report
