#include "gemmscope/traces/trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>

#include "strict_json.hpp"
#include "tune/text/output_file.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::traces {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kStageNames[] = {"tma-write", "wgmma-operand-read", "ldmatrix", "stmatrix",
                                            "epilogue-store", "tma-store-read", "load", "store", "user"};
static_assert(std::size(kStageNames) == std::size(kAllStages));

constexpr std::string_view kTextForm =
    "WIDTH KIND MASK ADDR0 ... ADDR31 (WIDTH 4, 8 or 16; KIND load or store; MASK and addresses decimal or 0x-hex; "
    "'-' for an inactive lane's address)";
constexpr std::string_view kHeaderForm =
    "{\"format\":\"gemmscope-trace\",\"version\":1,\"kernel\":...,\"records\":N, ...}";
constexpr std::string_view kRecordForm =
    "{\"stage\":NAME,\"cta\":N,\"warp\":N,\"width\":4|8|16,\"kind\":\"load\"|\"store\",\"mask\":\"0x...\","
    "\"addr\":[32 addresses, null for inactive lanes]}";

std::string hex32(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
  return buf;
}

// An error at `where` ("name:LINE") naming the field and what was expected.
[[noreturn]] void fail(const std::string& where, const std::string& what) { throw TraceError(where + ": " + what); }

// Unsigned decimal or 0x-hex number, at most `limit`; nothing else in the token.
std::optional<uint64_t> parse_unsigned(std::string_view token, uint64_t limit) {
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    base = 16;
    token.remove_prefix(2);
  }
  if (token.empty()) return std::nullopt;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value, base);
  if (ec != std::errc{} || end != token.data() + token.size() || value > limit) return std::nullopt;
  return value;
}

std::string shown(std::string_view token) {
  // Quote a token for an error message, shortened and with control bytes escaped.
  std::string out = "'";
  for (size_t i = 0; i < token.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (token.size() > 40) out += "...";
  return out + "'";
}

// One line of the input: its text (without '\n' or a final '\r'), its 1-based number
// and the byte offset where it starts.
struct Line {
  std::string_view text;
  size_t number = 0;
  uint64_t offset = 0;
};

[[noreturn]] void line_too_long(const std::string& name, size_t number, const std::string& length) {
  fail(name + ":" + std::to_string(number),
       "line length = " + length + " bytes exceeds the limit of " + std::to_string(kMaxLineBytes));
}

// Lines from text in memory or from a file descriptor, one at a time; a final line
// without '\n' counts. A file is read in 64 KiB pieces: the buffer holds at most one
// line and one piece.
class LineSource {
 public:
  LineSource(std::string_view text, std::string name) : memory_(text), from_memory_(true), name_(std::move(name)) {}
  LineSource(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  ~LineSource() {
    if (fd_ >= 0) ::close(fd_);
  }
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line; the view stays valid until the next call.
  bool next(Line& line) {
    if (from_memory_) {
      if (position_ >= memory_.size()) return false;
      size_t end = memory_.find('\n', position_);
      if (end == std::string_view::npos) end = memory_.size();
      if (end - position_ > kMaxLineBytes) line_too_long(name_, number_ + 1, std::to_string(end - position_));
      return take(line, memory_.substr(position_, end - position_), end);
    }
    for (;;) {
      const size_t end = buffer_.find('\n', position_);
      if (end != std::string::npos) {
        if (end - position_ > kMaxLineBytes) line_too_long(name_, number_ + 1, std::to_string(end - position_));
        return take(line, std::string_view(buffer_).substr(position_, end - position_), end);
      }
      if (buffer_.size() - position_ > kMaxLineBytes)
        line_too_long(name_, number_ + 1, "more than " + std::to_string(kMaxLineBytes));
      if (eof_) {
        if (position_ >= buffer_.size()) return false;
        return take(line, std::string_view(buffer_).substr(position_), buffer_.size());
      }
      buffer_.erase(0, position_);
      position_ = 0;
      fill();
    }
  }
  size_t last_number() const { return number_; }

 private:
  std::string_view memory_;
  bool from_memory_ = false;
  int fd_ = -1;
  std::string name_;
  std::string buffer_;
  size_t position_ = 0;  // of the next line in memory_ or buffer_
  size_t number_ = 0;    // lines given so far
  uint64_t offset_ = 0;  // file offset of the next line
  uint64_t read_bytes_ = 0;
  bool eof_ = false;

  bool take(Line& line, std::string_view text, size_t end) {
    const size_t length = text.size();
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    line = Line{text, ++number_, offset_};
    offset_ += length + 1;
    position_ = end + 1;
    return true;
  }

  void fill() {
    char piece[1 << 16];
    for (;;) {
      const ssize_t got = ::read(fd_, piece, sizeof piece);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail(name_, std::string("cannot be read (") + std::strerror(errno) + ")");
      if (got == 0) {
        eof_ = true;
        return;
      }
      read_bytes_ += static_cast<uint64_t>(got);
      if (read_bytes_ > kMaxTraceFileBytes)
        fail(name_, "larger than the limit of " + std::to_string(kMaxTraceFileBytes) + " bytes for a trace file");
      buffer_.append(piece, static_cast<size_t>(got));
      return;
    }
  }
};

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

void validate_access(const model::WarpAccess& a, const std::string& where) {
  try {
    a.validate();
  } catch (const model::ModelError& e) {
    fail(where, e.what());
  }
}

// ------------------------------------------------------------------------ text form

// One line of the text form: false for a blank or comment line.
bool text_record(const Line& line, const std::string& name, TraceRecord& r) {
  std::string_view body = line.text;
  if (size_t hash = body.find('#'); hash != std::string_view::npos) body = body.substr(0, hash);
  std::string_view tokens[36];
  size_t count = 0;
  size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && (body[i] == ' ' || body[i] == '\t' || body[i] == ',')) ++i;
    const size_t begin = i;
    while (i < body.size() && body[i] != ' ' && body[i] != '\t' && body[i] != ',') ++i;
    if (i > begin) {
      if (count < std::size(tokens)) tokens[count] = body.substr(begin, i - begin);
      ++count;
    }
  }
  if (count == 0) return false;
  const std::string where = name + ":" + std::to_string(line.number);
  if (count != 35) fail(where, "fields = " + std::to_string(count) + " must be 35: " + std::string(kTextForm));
  r = TraceRecord{};
  r.stage = Stage::User;
  model::WarpAccess& a = r.access;
  const auto width = parse_unsigned(tokens[0], 16);
  if (!width || (*width != 4 && *width != 8 && *width != 16))
    fail(where, "WIDTH = " + shown(tokens[0]) + " must be 4, 8 or 16 (bytes per lane): " + std::string(kTextForm));
  a.width_bytes = static_cast<int>(*width);
  if (tokens[1] == "load" || tokens[1] == "ld")
    a.kind = model::AccessKind::Load;
  else if (tokens[1] == "store" || tokens[1] == "st")
    a.kind = model::AccessKind::Store;
  else
    fail(where, "KIND = " + shown(tokens[1]) + " must be load or store: " + std::string(kTextForm));
  const auto mask = parse_unsigned(tokens[2], 0xFFFFFFFFull);
  if (!mask)
    fail(where, "MASK = " + shown(tokens[2]) + " must be a 32-bit lane mask, decimal or 0x-hex: " +
                    std::string(kTextForm));
  a.active_mask = static_cast<uint32_t>(*mask);
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const std::string_view t = tokens[3 + lane];
    if (t == "-") {
      if (a.active(lane))
        fail(where, "ADDR" + std::to_string(lane) + " = '-' but lane " + std::to_string(lane) +
                        " is active in MASK " + hex32(a.active_mask) + ": give its address");
      a.address[lane] = 0;
      continue;
    }
    const auto addr = parse_unsigned(t, kMaxAddress);
    if (!addr)
      fail(where, "ADDR" + std::to_string(lane) + " = " + shown(t) +
                      " must be a shared byte address below 2^32, decimal or 0x-hex, or '-': " +
                      std::string(kTextForm));
    if (!a.active(lane))
      fail(where, "ADDR" + std::to_string(lane) + " = " + shown(t) + " but lane " + std::to_string(lane) +
                      " is inactive in MASK " + hex32(a.active_mask) + ": write '-' (the address would be dropped)");
    a.address[lane] = *addr;
  }
  a.label = "line " + std::to_string(line.number);
  validate_access(a, where);
  return true;
}

// ----------------------------------------------------------------------- JSON lines

const json& member(const json& obj, const char* key, const std::string& where, std::string_view form) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where, std::string("key \"") + key + "\" is missing: expected " + std::string(form));
  return *it;
}

uint64_t json_unsigned(const json& v, const char* key, uint64_t limit, const std::string& where) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
    fail(where, std::string(key) + " = " + shown(v.dump()) + " must be an unsigned integer at most " +
                    std::to_string(limit));
  const uint64_t x = v.get<uint64_t>();
  if (x > limit) fail(where, std::string(key) + " = " + std::to_string(x) + " must be at most " + std::to_string(limit));
  return x;
}

std::string json_string(const json& v, const char* key, const std::string& where) {
  if (!v.is_string()) fail(where, std::string(key) + " = " + shown(v.dump()) + " must be a string");
  return v.get<std::string>();
}

json parse_json_line(const Line& line, const std::string& name) {
  const std::string where = name + ":" + std::to_string(line.number);
  try {
    json j = detail::parse_strict_json(line.text, 4);
    if (!j.is_object()) fail(where, "line must be one JSON object, found " + std::string(j.type_name()));
    return j;
  } catch (const detail::StrictJsonError& e) {
    fail(where, e.what());
  } catch (const json::parse_error& e) {
    // e.byte is 1-based within the line.
    fail(where, "byte " + std::to_string(line.offset + (e.byte > 0 ? e.byte - 1 : 0)) +
                    " of the file: malformed or truncated JSON (" + e.what() + ")");
  } catch (const json::exception& e) {
    // The parser's other refusals, e.g. out_of_range for a number like 1e999 (found by fuzz_traces).
    fail(where, std::string("JSON the reader cannot hold (") + e.what() + ")");
  }
}

void reject_unknown_keys(const json& j, std::initializer_list<std::string_view> known, const std::string& where,
                         std::string_view form) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || it.key() == k;
    if (!ok) fail(where, "key " + shown(it.key()) + " is not part of format version 1: expected " + std::string(form));
  }
}

TraceRecord record_from_json(const json& j, const std::string& where) {
  reject_unknown_keys(j, {"kernel", "stage", "cta", "warp", "width", "kind", "mask", "addr", "label"}, where,
                      kRecordForm);
  TraceRecord r;
  if (auto it = j.find("kernel"); it != j.end()) r.kernel = json_string(*it, "kernel", where);
  {
    const std::string stage = json_string(member(j, "stage", where, kRecordForm), "stage", where);
    try {
      r.stage = parse_stage(stage);
    } catch (const TraceError& e) {
      fail(where, e.what());
    }
  }
  r.cta = static_cast<uint32_t>(json_unsigned(member(j, "cta", where, kRecordForm), "cta", 0xFFFFFFFFull, where));
  r.warp = static_cast<uint32_t>(json_unsigned(member(j, "warp", where, kRecordForm), "warp", 31, where));
  model::WarpAccess& a = r.access;
  const uint64_t width = json_unsigned(member(j, "width", where, kRecordForm), "width", 16, where);
  if (width != 4 && width != 8 && width != 16)
    fail(where, "width = " + std::to_string(width) + " must be 4, 8 or 16 (bytes per lane)");
  a.width_bytes = static_cast<int>(width);
  const std::string kind = json_string(member(j, "kind", where, kRecordForm), "kind", where);
  if (kind == "load")
    a.kind = model::AccessKind::Load;
  else if (kind == "store")
    a.kind = model::AccessKind::Store;
  else
    fail(where, "kind = " + shown(kind) + " must be \"load\" or \"store\"");
  const json& mask = member(j, "mask", where, kRecordForm);
  if (mask.is_string()) {
    const std::string m = mask.get<std::string>();
    const auto v = parse_unsigned(m, 0xFFFFFFFFull);
    if (!v) fail(where, "mask = " + shown(m) + " must be a 32-bit lane mask, \"0x...\" or decimal");
    a.active_mask = static_cast<uint32_t>(*v);
  } else {
    a.active_mask = static_cast<uint32_t>(json_unsigned(mask, "mask", 0xFFFFFFFFull, where));
  }
  const json& addr = member(j, "addr", where, kRecordForm);
  if (!addr.is_array() || addr.size() != model::kWarpSize)
    fail(where, "addr must be an array of 32 addresses (null for inactive lanes), found " +
                    (addr.is_array() ? std::to_string(addr.size()) + " entries" : std::string(addr.type_name())));
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const json& v = addr[static_cast<size_t>(lane)];
    if (v.is_null()) {
      if (a.active(lane))
        fail(where, "addr[" + std::to_string(lane) + "] = null but lane " + std::to_string(lane) +
                        " is active in mask " + hex32(a.active_mask));
      continue;
    }
    const std::string key = "addr[" + std::to_string(lane) + "]";
    const uint64_t x = json_unsigned(v, key.c_str(), kMaxAddress, where);
    if (!a.active(lane))
      fail(where, key + " = " + std::to_string(x) + " but lane " + std::to_string(lane) + " is inactive in mask " +
                      hex32(a.active_mask) + ": write null (the address would be dropped)");
    a.address[lane] = x;
  }
  if (auto it = j.find("label"); it != j.end()) a.label = json_string(*it, "label", where);
  validate_access(a, where);
  return r;
}

// The header line: the trace's fields and the record count it declares.
uint64_t header_from_json(const Line& line, const std::string& name, Trace& trace) {
  const std::string where = name + ":" + std::to_string(line.number);
  const json header = parse_json_line(line, name);
  reject_unknown_keys(header, {"format", "version", "kernel", "source", "description", "smem_base", "records"}, where,
                      kHeaderForm);
  const std::string format = json_string(member(header, "format", where, kHeaderForm), "format", where);
  if (format != kTraceFormatName)
    fail(where, "format = " + shown(format) + " must be \"" + std::string(kTraceFormatName) + "\"");
  const json& version = member(header, "version", where, kHeaderForm);
  if (!version.is_number_integer() || version.get<int64_t>() != kTraceFormatVersion)
    fail(where, "version = " + shown(version.dump()) + " is not a version this reader knows (it reads " +
                    std::to_string(kTraceFormatVersion) + ")");
  if (auto it = header.find("kernel"); it != header.end()) trace.kernel = json_string(*it, "kernel", where);
  if (auto it = header.find("source"); it != header.end()) trace.source = json_string(*it, "source", where);
  if (auto it = header.find("description"); it != header.end())
    trace.description = json_string(*it, "description", where);
  if (auto it = header.find("smem_base"); it != header.end())
    trace.smem_base = json_unsigned(*it, "smem_base", kMaxAddress, where);
  return json_unsigned(member(header, "records", where, kHeaderForm), "records", 1ull << 32, where);
}

// ------------------------------------------------------------------------ writing

// The writer's half of the reader's rules: what it writes reads back.
void check_writable_header(const Trace& t) {
  if (t.smem_base > kMaxAddress)
    throw TraceError("cannot write the trace: smem_base = " + std::to_string(t.smem_base) +
                     " is past the 32-bit shared window (at most " + std::to_string(kMaxAddress) + ")");
}

void check_writable_record(const TraceRecord& r, uint64_t index) {
  const std::string where = "cannot write the trace: record " + std::to_string(index);
  if (r.warp > 31) throw TraceError(where + ": warp = " + std::to_string(r.warp) + " must be at most 31");
  try {
    r.access.validate();
  } catch (const model::ModelError& e) {
    throw TraceError(where + ": " + e.what());
  }
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (r.access.active(lane) && r.access.address[lane] > kMaxAddress)
      throw TraceError(where + ": lane " + std::to_string(lane) + " address = " +
                       std::to_string(r.access.address[lane]) + " is past the 32-bit shared window (at most " +
                       std::to_string(kMaxAddress) + ")");
}

// Free text in a text-form comment: one line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------- names

std::string_view to_string(Stage stage) { return kStageNames[static_cast<size_t>(stage)]; }

Stage parse_stage(std::string_view name) {
  for (Stage s : kAllStages)
    if (to_string(s) == name) return s;
  std::string names;
  for (Stage s : kAllStages) names += (names.empty() ? "" : ", ") + std::string(to_string(s));
  throw TraceError("stage = " + shown(name) + " must be one of " + names);
}

bool is_model_view(Stage stage) {
  return stage == Stage::TmaWrite || stage == Stage::WgmmaOperandRead || stage == Stage::TmaStoreRead;
}

std::string_view to_string(TraceFormat format) { return format == TraceFormat::JsonLines ? "jsonl" : "text"; }

TraceFormat parse_trace_format(std::string_view name) {
  if (name == "jsonl") return TraceFormat::JsonLines;
  if (name == "text") return TraceFormat::Text;
  throw TraceError("format = " + shown(name) + " must be jsonl or text");
}

// --------------------------------------------------------------------------- reading

struct TraceReader::State {
  std::unique_ptr<LineSource> lines;
  std::string name;
  Trace header;
  bool jsonl = false;
  uint64_t expected = 0;  // JSON lines: the header's count
  uint64_t read = 0;
  bool have_pending = false;  // the text form's first line, read to tell the form
  Line pending;
  bool done = false;

  void start() {
    Line line;
    bool found = false;
    while (lines->next(line))
      if (!blank(line.text)) {
        found = true;
        break;
      }
    if (!found)
      throw TraceError(name + ": empty trace: expected a JSON-lines header " + std::string(kHeaderForm) +
                       " or text-form lines " + std::string(kTextForm));
    const size_t first = line.text.find_first_not_of(" \t\r\f\v");
    jsonl = line.text[first] == '{';
    if (jsonl) {
      expected = header_from_json(line, name, header);
    } else {
      header.source = "user";
      pending = line;
      have_pending = true;
    }
  }

  bool next(TraceRecord& r) {
    if (done) return false;
    Line line;
    if (jsonl) {
      while (lines->next(line)) {
        if (blank(line.text)) continue;
        const std::string where = name + ":" + std::to_string(line.number);
        if (read >= expected)
          fail(where, "record " + std::to_string(read + 1) + " is more than the header's records = " +
                          std::to_string(expected));
        r = record_from_json(parse_json_line(line, name), where);
        ++read;
        return true;
      }
      done = true;
      if (read != expected)
        fail(name + ":" + std::to_string(std::max<size_t>(1, lines->last_number())),
             "records = " + std::to_string(read) + " but the header says " + std::to_string(expected) +
                 " (truncated file?)");
      return false;
    }
    if (have_pending) {
      have_pending = false;
      if (text_record(pending, name, r)) {
        ++read;
        return true;
      }
    }
    while (lines->next(line))
      if (text_record(line, name, r)) {
        ++read;
        return true;
      }
    done = true;
    if (read == 0) fail(name, "no instruction lines: expected one instruction a line, " + std::string(kTextForm));
    return false;
  }
};

TraceReader::TraceReader(const std::filesystem::path& path) : state_(std::make_unique<State>()) {
  state_->name = path.string();
  const InputFile file = open_input_file(path.string());
  if (file.fd < 0)
    throw TraceError(state_->name + ": " + (file.not_regular ? "cannot be read: it is " : "cannot open the trace file: ") +
                     (file.not_regular ? std::string(file.not_regular) + ", not a regular file"
                                       : std::string(std::strerror(file.error))));
  if (file.size > kMaxTraceFileBytes) {
    ::close(file.fd);
    throw TraceError(state_->name + ": " + std::to_string(file.size) + " bytes, larger than the limit of " +
                     std::to_string(kMaxTraceFileBytes) + " bytes for a trace file");
  }
  state_->lines = std::make_unique<LineSource>(file.fd, state_->name);
  state_->start();
}

TraceReader::TraceReader(std::string_view text, std::string_view source_name) : state_(std::make_unique<State>()) {
  state_->name = std::string(source_name);
  state_->lines = std::make_unique<LineSource>(text, state_->name);
  state_->start();
}

TraceReader::~TraceReader() = default;

const Trace& TraceReader::header() const { return state_->header; }

std::optional<uint64_t> TraceReader::declared_records() const {
  if (!state_->jsonl) return std::nullopt;
  return state_->expected;
}

bool TraceReader::next(TraceRecord& record) { return state_->next(record); }

uint64_t TraceReader::records_read() const { return state_->read; }

const std::string& TraceReader::source_name() const { return state_->name; }

namespace {

Trace read_all(TraceReader& reader, uint64_t size_bytes) {
  Trace t = reader.header();
  if (const auto declared = reader.declared_records()) {
    if (*declared > kMaxRecordsInMemory)
      throw TraceError(reader.source_name() + ": records = " + std::to_string(*declared) +
                       " is more than the " + std::to_string(kMaxRecordsInMemory) +
                       " records a trace in memory may hold (the gemmscope commands stream any size)");
    // A record line is at least 150 bytes: a header that claims more than the file
    // can hold does not reserve for them.
    t.records.reserve(static_cast<size_t>(std::min<uint64_t>(*declared, size_bytes / 150 + 1)));
  }
  TraceRecord r;
  while (reader.next(r)) {
    if (t.records.size() >= kMaxRecordsInMemory)
      throw TraceError(reader.source_name() + ": more than the " + std::to_string(kMaxRecordsInMemory) +
                       " records a trace in memory may hold (the gemmscope commands stream any size)");
    t.records.push_back(std::move(r));
  }
  return t;
}

}  // namespace

Trace parse_trace(std::string_view text, std::string_view source_name) {
  TraceReader reader(text, source_name);
  return read_all(reader, text.size());
}

Trace read_trace_file(const std::filesystem::path& path) {
  TraceReader reader(path);
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  return read_all(reader, ec ? kMaxTraceFileBytes : size);
}

// --------------------------------------------------------------------------- writing

std::string write_trace_header(const Trace& trace, uint64_t records, TraceFormat format) {
  check_writable_header(trace);
  if (format == TraceFormat::Text) {
    std::string out = "# gemmscope trace, text form (docs/traces.md): WIDTH KIND MASK ADDR0 .. ADDR31\n";
    if (!trace.kernel.empty()) out += "# kernel " + one_line(trace.kernel) + ", source " + one_line(trace.source) + "\n";
    return out;
  }
  ordered_json header{{"format", kTraceFormatName},
                      {"version", kTraceFormatVersion},
                      {"kernel", trace.kernel},
                      {"source", trace.source},
                      {"description", trace.description},
                      {"smem_base", trace.smem_base},
                      {"records", records}};
  return header.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string write_trace_record(const Trace& trace, const TraceRecord& r, uint64_t index, TraceFormat format) {
  check_writable_record(r, index);
  if (format == TraceFormat::Text) {
    const std::string label = one_line(r.access.label);
    std::string out = "# " + std::string(to_string(r.stage)) + " cta " + std::to_string(r.cta) + " warp " +
                      std::to_string(r.warp) + (label.empty() ? "" : ": " + label) + "\n";
    out += std::to_string(r.access.width_bytes) + " " + std::string(model::to_string(r.access.kind)) + " " +
           hex32(r.access.active_mask);
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      out += r.access.active(lane) ? " " + std::to_string(r.access.address[lane]) : std::string(" -");
    return out + "\n";
  }
  ordered_json j;
  if (!r.kernel.empty() && r.kernel != trace.kernel) j["kernel"] = r.kernel;
  j["stage"] = to_string(r.stage);
  j["cta"] = r.cta;
  j["warp"] = r.warp;
  j["width"] = r.access.width_bytes;
  j["kind"] = model::to_string(r.access.kind);
  j["mask"] = hex32(r.access.active_mask);
  ordered_json addr = ordered_json::array();
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    addr.push_back(r.access.active(lane) ? ordered_json(r.access.address[lane]) : ordered_json(nullptr));
  j["addr"] = std::move(addr);
  if (!r.access.label.empty()) j["label"] = r.access.label;
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string write_trace(const Trace& trace, TraceFormat format) {
  std::string out = write_trace_header(trace, trace.records.size(), format);
  for (size_t i = 0; i < trace.records.size(); ++i) out += write_trace_record(trace, trace.records[i], i, format);
  return out;
}

std::string write_trace_jsonl(const Trace& trace) { return write_trace(trace, TraceFormat::JsonLines); }

std::string write_trace_text(const Trace& trace) { return write_trace(trace, TraceFormat::Text); }

void write_trace_file(const std::filesystem::path& path, const Trace& trace, TraceFormat format) {
  const std::string text = write_trace(trace, format);  // refuses before any file is touched
  try {
    write_output_file(path.string(), text, "trace file");
  } catch (const OutputFileError& e) {
    throw TraceError(path.string() + ": " + e.reason());
  }
}

// ------------------------------------------------------------------------ comparing

model::WarpAccess canonical_access(const model::WarpAccess& access) {
  model::WarpAccess a = access;
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (!a.active(lane)) a.address[lane] = 0;
  return a;
}

bool same_record(const Trace& a_trace, const TraceRecord& a, const Trace& b_trace, const TraceRecord& b) {
  if (a_trace.kernel_of(a) != b_trace.kernel_of(b) || a.stage != b.stage || a.cta != b.cta || a.warp != b.warp)
    return false;
  const model::WarpAccess x = canonical_access(a.access), y = canonical_access(b.access);
  return x.width_bytes == y.width_bytes && x.kind == y.kind && x.active_mask == y.active_mask && x.address == y.address;
}

std::optional<std::string> record_difference(uint64_t i, const Trace& a, const TraceRecord& x, const Trace& b,
                                             const TraceRecord& y) {
  if (same_record(a, x, b, y)) return std::nullopt;
  std::ostringstream out;
  out << "record " << i << ": ";
  if (a.kernel_of(x) != b.kernel_of(y)) out << "kernel " << a.kernel_of(x) << " vs " << b.kernel_of(y);
  else if (x.stage != y.stage) out << "stage " << to_string(x.stage) << " vs " << to_string(y.stage);
  else if (x.cta != y.cta) out << "cta " << x.cta << " vs " << y.cta;
  else if (x.warp != y.warp) out << "warp " << x.warp << " vs " << y.warp;
  else if (x.access.width_bytes != y.access.width_bytes)
    out << "width " << x.access.width_bytes << " vs " << y.access.width_bytes;
  else if (x.access.kind != y.access.kind)
    out << "kind " << model::to_string(x.access.kind) << " vs " << model::to_string(y.access.kind);
  else if (x.access.active_mask != y.access.active_mask)
    out << "mask " << hex32(x.access.active_mask) << " vs " << hex32(y.access.active_mask);
  else
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      if (x.access.active(lane) && x.access.address[lane] != y.access.address[lane]) {
        out << "lane " << lane << " address " << x.access.address[lane] << " vs " << y.access.address[lane] << " ("
            << x.access.label << " / " << y.access.label << ")";
        break;
      }
  return out.str();
}

std::optional<std::string> first_difference(const Trace& a, const Trace& b) {
  const size_t n = std::min(a.records.size(), b.records.size());
  for (size_t i = 0; i < n; ++i)
    if (auto diff = record_difference(i, a, a.records[i], b, b.records[i])) return diff;
  if (a.records.size() != b.records.size())
    return "record counts " + std::to_string(a.records.size()) + " vs " + std::to_string(b.records.size());
  return std::nullopt;
}

}  // namespace gemmscope::traces
