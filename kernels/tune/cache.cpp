#include "tune/cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <tuple>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tune/text/output_file.hpp"
#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::tune {

using nlohmann::json;

namespace {

constexpr int64_t kMaxDim = (int64_t{1} << 31) - 1;
constexpr int64_t kMaxCount = 1000000;  // kernel_version, candidates
constexpr double kMaxMs = 1e9;
constexpr size_t kMaxDepth = 8;  // a cache is 3 deep (document, entries, entry)

const std::string kDimRule = "must be an integer 1.." + std::to_string(kMaxDim);
const std::string kCountRule = "must be an integer 0.." + std::to_string(kMaxCount);
const std::string kMedianRule = "must be a finite number > 0 and < 1e9 (milliseconds)";
const std::string kCublasRule = "must be 0 (not measured) or a finite number > 0 and < 1e9 (milliseconds)";
const std::string kStringRule = "must be at most 256 bytes of UTF-8 without control characters";
const std::string kConfigRule = "must be 1..256 bytes of UTF-8 without control characters";

[[noreturn]] void fail(const std::string& prefix, const std::string& what) { throw TuneCacheError(prefix + ": " + what); }

// A JSON value in a message: short, ASCII, never a deep dump of outside input.
std::string shown(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump(-1, ' ', true);
  if (text.size() > 64) text = text.substr(0, 61) + "...";
  return text;
}

std::string shown_string(std::string_view s) { return "\"" + shown_text(s) + "\""; }

std::string shown_number(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return json(d).dump();
}

// UTF-8 (no overlong forms, no surrogates, at most U+10FFFF) without C0/C1 control characters.
bool clean_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    uint32_t cp = 0;
    size_t len = 0;
    if (b0 < 0x80) {
      cp = b0, len = 1;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 0x1f, len = 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 0x0f, len = 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 0x07, len = 4;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t j = 1; j < len; ++j) {
      const auto b = static_cast<unsigned char>(s[i + j]);
      if ((b & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) return false;
    if (cp >= 0xd800 && cp <= 0xdfff) return false;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return false;
    i += len;
  }
  return true;
}

bool valid_string(std::string_view s, bool non_empty) {
  return s.size() <= kMaxCacheStringBytes && (!non_empty || !s.empty()) && clean_utf8(s);
}

// --- The rules on values, shared by parse (after reading) and to_json (before writing).

void check_string(const std::string& prefix, const std::string& path, const std::string& value, bool non_empty) {
  if (!valid_string(value, non_empty))
    fail(prefix, path + " = " + shown_string(value) + " " + (non_empty ? kConfigRule : kStringRule));
}

void check_key(const std::string& prefix, const std::string& path, const TuneKey& key) {
  check_string(prefix, path + ".gpu", key.gpu, false);
  check_string(prefix, path + ".cuda", key.cuda, false);
  check_string(prefix, path + ".driver", key.driver, false);
  if (key.kernel_version < 0 || key.kernel_version > kMaxCount)
    fail(prefix, path + ".kernel_version = " + std::to_string(key.kernel_version) + " " + kCountRule);
  const std::pair<const char*, int64_t> dims[] = {{"m", key.m}, {"n", key.n}, {"k", key.k}};
  for (const auto& [name, value] : dims)
    if (value < 1 || value > kMaxDim) fail(prefix, path + "." + name + " = " + std::to_string(value) + " " + kDimRule);
}

void check_entry(const std::string& prefix, const std::string& path, const TuneEntry& e) {
  check_key(prefix, path, e.key);
  check_string(prefix, path + ".config", e.config, true);
  if (!std::isfinite(e.median_ms) || !(e.median_ms > 0) || !(e.median_ms < kMaxMs))
    fail(prefix, path + ".median_ms = " + shown_number(e.median_ms) + " " + kMedianRule);
  if (!std::isfinite(e.cublas_ms) || !(e.cublas_ms == 0 || (e.cublas_ms > 0 && e.cublas_ms < kMaxMs)))
    fail(prefix, path + ".cublas_ms = " + shown_number(e.cublas_ms) + " " + kCublasRule);
  if (e.candidates < 0 || e.candidates > kMaxCount)
    fail(prefix, path + ".candidates = " + std::to_string(e.candidates) + " " + kCountRule);
  check_string(prefix, path + ".date", e.date, false);
}

void check_failure(const std::string& prefix, const std::string& path, const TuneFailure& f) {
  check_key(prefix, path, f.key);
  check_string(prefix, path + ".config", f.config, true);
  check_string(prefix, path + ".reason", f.reason, false);
}

using KeyTuple = std::tuple<std::string, std::string, std::string, int, int64_t, int64_t, int64_t>;
KeyTuple key_tuple(const TuneKey& k) { return {k.gpu, k.cuda, k.driver, k.kernel_version, k.m, k.n, k.k}; }

std::string describe(const TuneKey& k) {
  return "gpu " + shown_string(k.gpu) + ", cuda " + shown_string(k.cuda) + ", driver " + shown_string(k.driver) +
         ", kernel_version " + std::to_string(k.kernel_version) + ", m,n,k = " + std::to_string(k.m) + "," +
         std::to_string(k.n) + "," + std::to_string(k.k);
}

// Duplicates: two entries with one key, two failures with one (key, config).
void check_unique(const std::string& prefix, const TuneCache& cache) {
  std::map<KeyTuple, size_t> entry_index;
  for (size_t i = 0; i < cache.entries.size(); ++i) {
    const auto [it, inserted] = entry_index.try_emplace(key_tuple(cache.entries[i].key), i);
    if (!inserted)
      fail(prefix, "entries[" + std::to_string(i) + "] has the same key as entries[" + std::to_string(it->second) +
                       "] (" + describe(cache.entries[i].key) + ")");
  }
  std::map<std::pair<KeyTuple, std::string>, size_t> failure_index;
  for (size_t i = 0; i < cache.failures.size(); ++i) {
    const TuneFailure& f = cache.failures[i];
    const auto [it, inserted] = failure_index.try_emplace({key_tuple(f.key), f.config}, i);
    if (!inserted)
      fail(prefix, "failures[" + std::to_string(i) + "] has the same key and config as failures[" +
                       std::to_string(it->second) + "] (" + describe(f.key) + ", config " + shown_string(f.config) +
                       ")");
  }
}

// --- Reading JSON: a SAX pass that builds the document and stops at the first
// syntax error (with its byte position), a key given twice in one object, or
// nesting deeper than any cache (nlohmann's own parser would take the last of two
// equal keys silently, and report a number overflow without its position).
// An element of a top-level array ("entries", "failures") may be handed to
// element_sink when it closes; when the sink takes it (returns true) it is dropped
// from the document, so a large cache is never held as a document tree.
class DocumentBuilder final : public nlohmann::json_sax<json> {
 public:
  json root;
  std::string problem;  // why the parse stopped
  size_t position = 0;  // byte position of a syntax error
  std::function<bool(const std::string& array, size_t index, const json& element)> element_sink;

  bool null() override { return put(json(nullptr)); }
  bool boolean(bool value) override { return put(json(value)); }
  bool number_integer(number_integer_t value) override { return put(json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return put(json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return put(json(value)); }
  bool string(string_t& value) override { return put(json(std::move(value))); }
  bool binary(binary_t&) override {
    problem = "binary values are not JSON";
    return false;
  }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& name) override {
    json& object = *stack_.back();
    if (object.contains(name)) {
      problem = "key \"" + shown_text(name) + "\" appears twice in " + where();
      return false;
    }
    key_ = name;
    slot_ = &object[name];
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t at, const std::string&, const json::exception& error) override {
    position = at;
    std::string text = error.what();
    const size_t tag_end = text.find("] ");  // "[json.exception.parse_error.101] parse error at ..."
    problem = tag_end == std::string::npos ? text : text.substr(tag_end + 2);
    return false;
  }

 private:
  std::vector<json*> stack_;       // the open containers, outermost first
  std::vector<std::string> paths_; // their JSON paths ("" for the document)
  std::vector<size_t> placed_;     // values placed in each (an array's next index)
  std::string key_;                // the key of the next value in the innermost object
  json* slot_ = nullptr;           // where that value goes

  std::string where() const { return paths_.back().empty() ? "the document" : paths_.back(); }

  // The path segment of the next value in the innermost container.
  std::string next_segment() const {
    if (stack_.empty()) return "";
    if (stack_.back()->is_array()) return "[" + std::to_string(placed_.back()) + "]";
    return (paths_.back().empty() ? "" : ".") + shown_text(key_);
  }

  json* place(json&& value) {
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    json& top = *stack_.back();
    ++placed_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return &top.back();
    }
    *slot_ = std::move(value);
    return slot_;
  }
  bool sinkable(size_t depth) const {
    return element_sink && stack_.size() == depth && stack_[1]->is_array() &&
           (paths_[1] == "entries" || paths_[1] == "failures");
  }
  bool put(json&& value) {
    const json* placed = place(std::move(value));
    if (sinkable(2) && element_sink(paths_[1], placed_[1] - 1, *placed)) stack_[1]->erase(stack_[1]->size() - 1);
    return true;
  }
  bool open(json&& container) {
    const std::string path = (paths_.empty() ? "" : paths_.back()) + next_segment();
    if (stack_.size() >= kMaxDepth) {
      problem = (path.empty() ? std::string("the document") : path) + " is nested deeper than " +
                std::to_string(kMaxDepth) + " levels (a tune cache has 3)";
      return false;
    }
    // Elements of an enclosing array are not moved by this: only the innermost
    // container grows, and it is the one just placed.
    stack_.push_back(place(std::move(container)));
    paths_.push_back(path);
    placed_.push_back(0);
    return true;
  }
  bool close() {
    if (sinkable(3) && element_sink(paths_[1], placed_[1] - 1, *stack_.back())) {
      stack_.pop_back();
      stack_.back()->erase(stack_.back()->size() - 1);
    } else {
      stack_.pop_back();
    }
    paths_.pop_back();
    placed_.pop_back();
    return true;
  }
};

json read_document(std::string_view text, const std::string& source, DocumentBuilder& builder) {
  bool ok = false;
  try {
    ok = json::sax_parse(text.data(), text.data() + text.size(), &builder);
  } catch (const json::exception& e) {
    fail(source, std::string("not valid JSON: ") + e.what());
  }
  if (!ok) {
    if (builder.position > 0)
      fail(source, "not valid JSON at byte " + std::to_string(builder.position) + ": " + builder.problem);
    fail(source, builder.problem.empty() ? std::string("not valid JSON") : builder.problem);
  }
  return std::move(builder.root);
}

// --- From the document to the cache.

struct Reader {
  const std::string& source;

  const json& member(const json& object, const char* key, const std::string& path) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(source, path + key + " is missing");
    return *it;
  }

  void no_unknown_fields(const json& object, const std::string& path, const char* what,
                         std::initializer_list<const char*> known) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      const bool is_known = std::any_of(known.begin(), known.end(), [&](const char* k) { return it.key() == k; });
      if (!is_known) {
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(source, path + shown_text(it.key()) + " is not a field of " + what + " (fields: " + list + ")");
      }
    }
  }

  std::string string_field(const json& object, const char* key, const std::string& path) const {
    const json& v = member(object, key, path);
    if (!v.is_string()) fail(source, path + key + " = " + shown(v) + " must be a string");
    return v.get<std::string>();
  }

  // An integer lo..hi, checked on the JSON value itself (no conversion can wrap).
  int64_t integer_field(const json& object, const char* key, const std::string& path, int64_t lo, int64_t hi,
                        const std::string& rule) const {
    const json& v = member(object, key, path);
    bool in_range = false;
    if (v.is_number_unsigned())
      in_range = v.get<uint64_t>() >= static_cast<uint64_t>(lo) && v.get<uint64_t>() <= static_cast<uint64_t>(hi);
    else if (v.is_number_integer())
      in_range = v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
    if (!in_range) fail(source, path + key + " = " + shown(v) + " " + rule);
    return v.get<int64_t>();
  }

  double number_field(const json& object, const char* key, const std::string& path, const std::string& rule) const {
    const json& v = member(object, key, path);
    if (!v.is_number()) fail(source, path + key + " = " + shown(v) + " " + rule);
    return v.get<double>();
  }

  TuneKey key(const json& object, const std::string& path) const {
    TuneKey k;
    k.gpu = string_field(object, "gpu", path);
    k.cuda = string_field(object, "cuda", path);
    k.driver = string_field(object, "driver", path);
    k.kernel_version = static_cast<int>(integer_field(object, "kernel_version", path, 0, kMaxCount, kCountRule));
    k.m = integer_field(object, "m", path, 1, kMaxDim, kDimRule);
    k.n = integer_field(object, "n", path, 1, kMaxDim, kDimRule);
    k.k = integer_field(object, "k", path, 1, kMaxDim, kDimRule);
    return k;
  }

  const json& array_member(const json& doc, const char* key) const {
    const json& v = member(doc, key, "");
    if (!v.is_array()) fail(source, std::string(key) + " = " + shown(v) + " must be an array");
    return v;
  }
};

std::string render(const TuneCache& cache, const std::string& prefix) {
  for (size_t i = 0; i < cache.entries.size(); ++i)
    check_entry(prefix, "entries[" + std::to_string(i) + "]", cache.entries[i]);
  for (size_t i = 0; i < cache.failures.size(); ++i)
    check_failure(prefix, "failures[" + std::to_string(i) + "]", cache.failures[i]);
  check_unique(prefix, cache);

  auto key_fields = [](const TuneKey& k) {
    nlohmann::ordered_json j;
    j["gpu"] = k.gpu;
    j["cuda"] = k.cuda;
    j["driver"] = k.driver;
    j["kernel_version"] = k.kernel_version;
    j["m"] = k.m;
    j["n"] = k.n;
    j["k"] = k.k;
    return j;
  };
  try {
    std::string out = "{\n  \"format\": \"" + std::string(kCacheFormatName) + "\",\n  \"version\": " +
                      std::to_string(kCacheFormatVersion) + ",\n  \"entries\": [";
    for (size_t i = 0; i < cache.entries.size(); ++i) {
      const TuneEntry& e = cache.entries[i];
      nlohmann::ordered_json j = key_fields(e.key);
      j["config"] = e.config;
      j["median_ms"] = e.median_ms;
      j["cublas_ms"] = e.cublas_ms;
      j["candidates"] = e.candidates;
      j["date"] = e.date;
      out += (i ? ",\n    " : "\n    ") + j.dump();
    }
    out += cache.entries.empty() ? "],\n  \"failures\": [" : "\n  ],\n  \"failures\": [";
    for (size_t i = 0; i < cache.failures.size(); ++i) {
      const TuneFailure& f = cache.failures[i];
      nlohmann::ordered_json j = key_fields(f.key);
      j["config"] = f.config;
      j["reason"] = f.reason;
      out += (i ? ",\n    " : "\n    ") + j.dump();
    }
    out += cache.failures.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
  } catch (const json::exception& e) {  // not reached: the strings are checked UTF-8 above
    fail(prefix, e.what());
  }
}

}  // namespace

const TuneEntry* TuneCache::find(const TuneKey& key) const {
  for (const TuneEntry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

void TuneCache::upsert(const TuneEntry& e) {
  for (TuneEntry& existing : entries)
    if (existing.key == e.key) {
      existing = e;
      return;
    }
  entries.push_back(e);
}

void TuneCache::add_failure(const TuneFailure& f) {
  for (TuneFailure& existing : failures)
    if (existing.key == f.key && existing.config == f.config) {
      existing = f;
      return;
    }
  failures.push_back(f);
}

size_t TuneCache::foreign_entries(const TuneKey& here) const {
  return static_cast<size_t>(std::count_if(entries.begin(), entries.end(), [&](const TuneEntry& e) {
    return e.key.gpu != here.gpu || e.key.cuda != here.cuda || e.key.driver != here.driver ||
           e.key.kernel_version != here.kernel_version;
  }));
}

namespace {

TuneEntry entry_from(const Reader& read, const std::string& source, const json& item, const std::string& path) {
  if (!item.is_object()) fail(source, path + " = " + shown(item) + " must be an object");
  TuneEntry e;
  e.key = read.key(item, path + ".");
  e.config = read.string_field(item, "config", path + ".");
  e.median_ms = read.number_field(item, "median_ms", path + ".", kMedianRule);
  e.cublas_ms = read.number_field(item, "cublas_ms", path + ".", kCublasRule);
  e.candidates = static_cast<int>(read.integer_field(item, "candidates", path + ".", 0, kMaxCount, kCountRule));
  e.date = read.string_field(item, "date", path + ".");
  read.no_unknown_fields(item, path + ".", "a cache entry",
                         {"gpu", "cuda", "driver", "kernel_version", "m", "n", "k", "config", "median_ms",
                          "cublas_ms", "candidates", "date"});
  check_entry(source, path, e);
  return e;
}

TuneFailure failure_from(const Reader& read, const std::string& source, const json& item, const std::string& path) {
  if (!item.is_object()) fail(source, path + " = " + shown(item) + " must be an object");
  TuneFailure f;
  f.key = read.key(item, path + ".");
  f.config = read.string_field(item, "config", path + ".");
  f.reason = read.string_field(item, "reason", path + ".");
  read.no_unknown_fields(item, path + ".", "a failure",
                         {"gpu", "cuda", "driver", "kernel_version", "m", "n", "k", "config", "reason"});
  check_failure(source, path, f);
  return f;
}

// The document so far names this format and version (a writer puts them first).
bool known_header(const json& doc) {
  if (!doc.is_object()) return false;
  const auto format = doc.find("format");
  const auto version = doc.find("version");
  return format != doc.end() && format->is_string() && format->get<std::string>() == kCacheFormatName &&
         version != doc.end() && version->is_number_integer() && version->get<int64_t>() == kCacheFormatVersion;
}

}  // namespace

TuneCache parse_tune_cache(std::string_view text, const std::string& source) {
  if (text.size() > kMaxCacheBytes)
    fail(source, std::to_string(text.size()) + " bytes, more than the limit of " + std::to_string(kMaxCacheBytes) +
                     " (64 MiB) for a tune cache");
  const Reader read{source};
  TuneCache cache;
  // Entries and failures are read as they close once the format and version are
  // known (memory: the cache, not a document tree of the file); a file that does
  // not start with them is read whole, its header checked first.
  DocumentBuilder builder;
  builder.element_sink = [&](const std::string& array, size_t index, const json& item) {
    if (!known_header(builder.root)) return false;
    const std::string path = array + "[" + std::to_string(index) + "]";
    if (array == "entries")
      cache.entries.push_back(entry_from(read, source, item, path));
    else
      cache.failures.push_back(failure_from(read, source, item, path));
    return true;
  };
  const json doc = read_document(text, source, builder);
  if (!doc.is_object()) fail(source, "the document = " + shown(doc) + " must be a JSON object (a gemmscope tune cache)");

  const auto format = doc.find("format");
  if (format == doc.end()) fail(source, "format is missing: not a gemmscope tune cache");
  if (!format->is_string() || format->get<std::string>() != kCacheFormatName)
    fail(source, "format = " + shown(*format) + " must be \"" + std::string(kCacheFormatName) + "\"");
  const json& version = read.member(doc, "version", "");
  if (!version.is_number_integer())
    fail(source, "version = " + shown(version) + " must be the integer " + std::to_string(kCacheFormatVersion));
  if (version.is_number_unsigned() && version.get<uint64_t>() > uint64_t{kCacheFormatVersion})
    fail(source, "version " + shown(version) + " is newer than this gemmscope (" +
                     std::to_string(kCacheFormatVersion) + ")");
  if (version.get<int64_t>() != kCacheFormatVersion)
    fail(source, "version = " + shown(version) + " must be " + std::to_string(kCacheFormatVersion));
  read.no_unknown_fields(doc, "", "a tune cache", {"format", "version", "entries", "failures"});

  // What was not read as it closed (a file whose header came after its arrays).
  const json& entries = read.array_member(doc, "entries");
  for (size_t i = 0; i < entries.size(); ++i)
    cache.entries.push_back(entry_from(read, source, entries[i], "entries[" + std::to_string(i) + "]"));
  const json& failures = read.array_member(doc, "failures");
  for (size_t i = 0; i < failures.size(); ++i)
    cache.failures.push_back(failure_from(read, source, failures[i], "failures[" + std::to_string(i) + "]"));
  check_unique(source, cache);
  return cache;
}

std::string to_json(const TuneCache& cache) { return render(cache, "cannot write tune cache"); }

TuneCache load_tune_cache(const std::string& path) {
  const TextFile file = read_text_file(path, kMaxCacheBytes);
  if (file.error == ENOENT) return {};
  if (file.error != 0) throw TuneCacheError("cannot read tune cache '" + path + "': " + std::strerror(file.error));
  if (file.not_regular)
    throw TuneCacheError("cannot read tune cache '" + path + "': it is " + file.not_regular + ", not a regular file");
  if (file.too_large)
    throw TuneCacheError("cannot read tune cache '" + path + "': larger than the limit of " +
                         std::to_string(kMaxCacheBytes) + " bytes (64 MiB)");
  return parse_tune_cache(file.text, path);
}

void save_tune_cache(const std::string& path, const TuneCache& cache) {
  const std::string prefix = "cannot write tune cache '" + path + "'";
  const std::string text = render(cache, prefix);  // refuses before any file is touched
  try {
    write_output_file(path, text, "tune cache", /*durable=*/true);
  } catch (const OutputFileError& e) {
    fail(prefix, e.reason());
  }
}

}  // namespace gemmscope::tune
