#include "gemmscope/traces/trace.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

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

// Lines of the input with their 1-based numbers and byte offsets; a final line
// without '\n' counts. Refuses over-long lines.
struct Line {
  std::string_view text;
  size_t number = 0;
  size_t offset = 0;
};
std::vector<Line> split_lines(std::string_view text, std::string_view name) {
  std::vector<Line> lines;
  size_t start = 0, number = 1;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end - start > kMaxLineBytes)
      fail(std::string(name) + ":" + std::to_string(number),
           "line length = " + std::to_string(end - start) + " bytes exceeds the limit of " +
               std::to_string(kMaxLineBytes));
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({line, number, start});
    start = end + 1;
    ++number;
  }
  return lines;
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

void validate_access(const model::WarpAccess& a, const std::string& where) {
  try {
    a.validate();
  } catch (const model::ModelError& e) {
    fail(where, e.what());
  }
}

// ------------------------------------------------------------------------ text form

Trace parse_text(const std::vector<Line>& lines, std::string_view name) {
  Trace trace;
  trace.source = "user";
  for (const Line& line : lines) {
    std::string_view body = line.text;
    if (size_t hash = body.find('#'); hash != std::string_view::npos) body = body.substr(0, hash);
    std::vector<std::string_view> tokens;
    size_t i = 0;
    while (i < body.size()) {
      while (i < body.size() && (body[i] == ' ' || body[i] == '\t' || body[i] == ',')) ++i;
      const size_t begin = i;
      while (i < body.size() && body[i] != ' ' && body[i] != '\t' && body[i] != ',') ++i;
      if (i > begin) tokens.push_back(body.substr(begin, i - begin));
    }
    if (tokens.empty()) continue;
    const std::string where = std::string(name) + ":" + std::to_string(line.number);
    if (tokens.size() != 35)
      fail(where, "fields = " + std::to_string(tokens.size()) + " must be 35: " + std::string(kTextForm));
    TraceRecord r;
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
        continue;
      }
      const auto addr = parse_unsigned(t, kMaxAddress);
      if (!addr)
        fail(where, "ADDR" + std::to_string(lane) + " = " + shown(t) +
                        " must be a shared byte address below 2^32, decimal or 0x-hex, or '-': " +
                        std::string(kTextForm));
      a.address[lane] = a.active(lane) ? *addr : 0;
    }
    a.label = "line " + std::to_string(line.number);
    validate_access(a, where);
    trace.records.push_back(std::move(r));
  }
  if (trace.records.empty())
    fail(std::string(name), "no instruction lines: expected one instruction a line, " + std::string(kTextForm));
  return trace;
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

json parse_json_line(const Line& line, std::string_view name) {
  const std::string where = std::string(name) + ":" + std::to_string(line.number);
  try {
    json j = json::parse(line.text);
    if (!j.is_object()) fail(where, "line must be one JSON object, found " + std::string(j.type_name()));
    return j;
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
    a.address[lane] = a.active(lane) ? x : 0;
  }
  if (auto it = j.find("label"); it != j.end()) a.label = json_string(*it, "label", where);
  validate_access(a, where);
  return r;
}

Trace parse_jsonl(const std::vector<Line>& lines, std::string_view name) {
  Trace trace;
  size_t i = 0;
  while (i < lines.size() && blank(lines[i].text)) ++i;
  const std::string header_where = std::string(name) + ":" + std::to_string(lines[i].number);
  const json header = parse_json_line(lines[i], name);
  reject_unknown_keys(header, {"format", "version", "kernel", "source", "description", "smem_base", "records"},
                      header_where, kHeaderForm);
  const std::string format = json_string(member(header, "format", header_where, kHeaderForm), "format", header_where);
  if (format != kTraceFormatName)
    fail(header_where, "format = " + shown(format) + " must be \"" + std::string(kTraceFormatName) + "\"");
  const json& version = member(header, "version", header_where, kHeaderForm);
  if (!version.is_number_integer() || version.get<int64_t>() != kTraceFormatVersion)
    fail(header_where, "version = " + shown(version.dump()) + " is not a version this reader knows (it reads " +
                           std::to_string(kTraceFormatVersion) + ")");
  if (auto it = header.find("kernel"); it != header.end()) trace.kernel = json_string(*it, "kernel", header_where);
  if (auto it = header.find("source"); it != header.end()) trace.source = json_string(*it, "source", header_where);
  if (auto it = header.find("description"); it != header.end())
    trace.description = json_string(*it, "description", header_where);
  if (auto it = header.find("smem_base"); it != header.end())
    trace.smem_base = json_unsigned(*it, "smem_base", kMaxAddress, header_where);
  const uint64_t expected =
      json_unsigned(member(header, "records", header_where, kHeaderForm), "records", 1ull << 32, header_where);
  for (++i; i < lines.size(); ++i) {
    if (blank(lines[i].text)) continue;
    const std::string where = std::string(name) + ":" + std::to_string(lines[i].number);
    if (trace.records.size() >= expected)
      fail(where, "record " + std::to_string(trace.records.size() + 1) + " is more than the header's records = " +
                      std::to_string(expected));
    trace.records.push_back(record_from_json(parse_json_line(lines[i], name), where));
  }
  if (trace.records.size() != expected)
    fail(std::string(name) + ":" + std::to_string(lines.empty() ? 1 : lines.back().number),
         "records = " + std::to_string(trace.records.size()) + " but the header says " + std::to_string(expected) +
             " (truncated file?)");
  return trace;
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

Trace parse_trace(std::string_view text, std::string_view source_name) {
  const std::vector<Line> lines = split_lines(text, source_name);
  for (const Line& line : lines) {
    const size_t first = line.text.find_first_not_of(" \t\r\f\v");
    if (first == std::string_view::npos) continue;
    if (line.text[first] == '{') return parse_jsonl(lines, source_name);
    break;
  }
  bool any = false;
  for (const Line& line : lines) any = any || !blank(line.text);
  if (!any)
    throw TraceError(std::string(source_name) + ": empty trace: expected a JSON-lines header " +
                     std::string(kHeaderForm) + " or text-form lines " + std::string(kTextForm));
  return parse_text(lines, source_name);
}

Trace read_trace_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path.string() + ": cannot open the trace file");
  // Read in pieces up to a limit, so that a device or a pipe without end is refused.
  constexpr size_t kMaxFileBytes = size_t{1} << 30;
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    text.append(piece, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes)
      throw TraceError(path.string() + ": larger than the limit of " + std::to_string(kMaxFileBytes) + " bytes");
  }
  return parse_trace(text, path.string());
}

// --------------------------------------------------------------------------- writing

std::string write_trace_jsonl(const Trace& trace) {
  std::string out;
  ordered_json header{{"format", kTraceFormatName},
                      {"version", kTraceFormatVersion},
                      {"kernel", trace.kernel},
                      {"source", trace.source},
                      {"description", trace.description},
                      {"smem_base", trace.smem_base},
                      {"records", trace.records.size()}};
  out += header.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
  for (const TraceRecord& r : trace.records) {
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
    out += j.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
  }
  return out;
}

std::string write_trace_text(const Trace& trace) {
  std::string out = "# gemmscope trace, text form (docs/traces.md): WIDTH KIND MASK ADDR0 .. ADDR31\n";
  if (!trace.kernel.empty()) out += "# kernel " + trace.kernel + ", source " + trace.source + "\n";
  for (const TraceRecord& r : trace.records) {
    std::string label = r.access.label;
    for (char& c : label)
      if (c == '\n' || c == '\r') c = ' ';
    out += "# " + std::string(to_string(r.stage)) + " cta " + std::to_string(r.cta) + " warp " +
           std::to_string(r.warp) + (label.empty() ? "" : ": " + label) + "\n";
    out += std::to_string(r.access.width_bytes) + " " + std::string(model::to_string(r.access.kind)) + " " +
           hex32(r.access.active_mask);
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      out += r.access.active(lane) ? " " + std::to_string(r.access.address[lane]) : std::string(" -");
    out += "\n";
  }
  return out;
}

std::string write_trace(const Trace& trace, TraceFormat format) {
  return format == TraceFormat::JsonLines ? write_trace_jsonl(trace) : write_trace_text(trace);
}

void write_trace_file(const std::filesystem::path& path, const Trace& trace, TraceFormat format) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw TraceError(path.string() + ": cannot open for writing");
  out << write_trace(trace, format);
  if (!out) throw TraceError(path.string() + ": write failed");
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

std::optional<std::string> first_difference(const Trace& a, const Trace& b) {
  const size_t n = std::min(a.records.size(), b.records.size());
  for (size_t i = 0; i < n; ++i) {
    const TraceRecord& x = a.records[i];
    const TraceRecord& y = b.records[i];
    if (same_record(a, x, b, y)) continue;
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
          out << "lane " << lane << " address " << x.access.address[lane] << " vs " << y.access.address[lane]
              << " (" << x.access.label << " / " << y.access.label << ")";
          break;
        }
    return out.str();
  }
  if (a.records.size() != b.records.size())
    return "record counts " + std::to_string(a.records.size()) + " vs " + std::to_string(b.records.size());
  return std::nullopt;
}

}  // namespace gemmscope::traces
