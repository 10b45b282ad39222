#include "gemmscope/traces/chrome_trace.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>

#include "gemmscope/model/pipeline_sim.hpp"
#include "strict_json.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope::traces {
namespace {

namespace tr = timeline_record;
using nlohmann::json;

// A Chrome trace file is at most this large (a 4096^3 run of k10 is ~100 MB of events
// before trimming; this reads a few of those).
constexpr size_t kMaxChromeBytes = size_t{1} << 30;

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v);
  std::string s = b;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s.empty() ? "0" : s;
}

std::string escape_xml(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// A thread name without the simulator's "cl<i> " / "cta<i> " prefixes.
std::string role_of_thread(std::string name) {
  for (;;) {
    const size_t sp = name.find(' ');
    if (sp == std::string::npos) break;
    const std::string head = name.substr(0, sp);
    const bool prefix = (head.rfind("cl", 0) == 0 && head.size() > 2 && std::isdigit(static_cast<unsigned char>(head[2]))) ||
                        (head.rfind("cta", 0) == 0 && head.size() > 3 && std::isdigit(static_cast<unsigned char>(head[3])));
    if (!prefix) break;
    name = name.substr(sp + 1);
  }
  return name;
}

// A wait's barrier reduced to its kind: the simulator names "cl0 cta1 full[2]" or
// "cta0 consumer 1 staging 0"; the recording "full".
std::string wait_kind(const std::string& barrier) {
  for (const char* k : {"full", "empty", "staging", "turn", "schedule", "wgmma", "fixup", "tmem", "exit"})
    if (barrier.find(k) != std::string::npos) return std::string("wait ") + k;
  return "wait " + role_of_thread(barrier);
}

// An event name reduced to its kind, for event_order.
std::string name_kind(const std::string& cat, const std::string& name) {
  if (cat == "wait") return name;
  if (cat == "tile") return "tile";
  if (cat == "epilogue") return "epilogue";
  for (const auto& [key, kind] : std::vector<std::pair<std::string, std::string>>{
           {"TMA", "TMA issue"}, {"load", "TMA issue"}, {"wgmma commit", "wgmma commit"}, {"wgmma", "wgmma issue"},
           {"release", "release"}, {"epilogue", "epilogue"}, {"store", "store issue"}, {"start work", "tile"},
           {"receive work", "schedule"}, {"publish work", "schedule"}})
    if (name.find(key) != std::string::npos) return kind;
  return name;
}

struct Track {
  int64_t pid = 0, tid = 0;
  bool operator<(const Track& o) const { return std::tie(pid, tid) < std::tie(o.pid, o.tid); }
};

bool is_int(const json& v) { return v.is_number_integer() || v.is_number_unsigned(); }

}  // namespace

json timeline_to_chrome(const Timeline& t, const std::string& title) {
  if (const auto problems = check_timeline(t); !problems.empty())
    throw TimelineError("timeline: " + problems.front() +
                        (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
  uint64_t t0 = std::numeric_limits<uint64_t>::max();
  for (const auto& e : t.events) t0 = std::min(t0, e.time_ns);
  auto us = [&](uint64_t ns) { return static_cast<double>(ns - t0) / 1000.0; };
  struct Out {
    Track track;
    double ts, dur;
    json event;
  };
  std::vector<Out> events;
  std::set<int64_t> sms;
  std::set<Track> tracks;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::map<uint32_t, size_t>> open;  // track -> kind -> begin index
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    const Track tr_{static_cast<int64_t>(e.sm), static_cast<int64_t>(e.role * 16 + e.warpgroup)};
    sms.insert(tr_.pid);
    tracks.insert(tr_);
    auto& o = open[{e.cta, e.role, e.warpgroup}];
    auto span = [&](uint32_t begin_kind, const std::string& name, const std::string& cat) {
      const TimelineEvent& b = t.events[o.at(begin_kind)];
      json x = {{"name", name},     {"cat", cat},      {"ph", "X"},
                {"ts", us(b.time_ns)}, {"dur", us(e.time_ns) - us(b.time_ns)},
                {"pid", tr_.pid},   {"tid", tr_.tid},
                {"args", {{"cta", e.cta}, {"m0", e.m0}, {"n0", e.n0}, {"stage", b.stage}}}};
      events.push_back({tr_, us(b.time_ns), us(e.time_ns) - us(b.time_ns), std::move(x)});
    };
    switch (e.kind) {
      case tr::kKindWaitBegin:
      case tr::kKindTileBegin:
      case tr::kKindEpilogueBegin:
        o[e.kind] = i;
        break;
      case tr::kKindWaitEnd:
        span(tr::kKindWaitBegin, "wait " + barrier_name(e.barrier), "wait");
        break;
      case tr::kKindTileEnd:
        span(tr::kKindTileBegin, "tile " + tile_text(e.m0, e.n0), "tile");
        break;
      case tr::kKindEpilogueEnd:
        span(tr::kKindEpilogueBegin, "epilogue " + tile_text(e.m0, e.n0), "epilogue");
        break;
      default: {
        json x = {{"name", kind_name(e.kind)}, {"cat", "issue"},   {"ph", "i"}, {"s", "t"},
                  {"ts", us(e.time_ns)},       {"pid", tr_.pid}, {"tid", tr_.tid},
                  {"args", {{"cta", e.cta}, {"m0", e.m0}, {"n0", e.n0}, {"stage", e.stage}}}};
        events.push_back({tr_, us(e.time_ns), -1.0, std::move(x)});
      }
    }
  }
  // Per track in time order, an enclosing span before what it encloses.
  std::stable_sort(events.begin(), events.end(), [](const Out& a, const Out& b) {
    return std::tie(a.track.pid, a.track.tid, a.ts) < std::tie(b.track.pid, b.track.tid, b.ts) ||
           (std::tie(a.track.pid, a.track.tid, a.ts) == std::tie(b.track.pid, b.track.tid, b.ts) && a.dur > b.dur);
  });
  json list = json::array();
  for (const int64_t sm : sms)
    list.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", sm}, {"tid", 0}, {"args", {{"name", "SM " + std::to_string(sm)}}}});
  for (const Track& k : tracks) {
    const std::string name = track_name(static_cast<uint32_t>(k.tid / 16), static_cast<uint32_t>(k.tid % 16));
    list.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", k.pid}, {"tid", k.tid}, {"args", {{"name", name}}}});
  }
  for (auto& o : events) list.push_back(std::move(o.event));
  return {{"traceEvents", std::move(list)},
          {"displayTimeUnit", "ns"},
          {"otherData", {{"title", title}, {"source", "hardware"}, {"time_unit", "us"}, {"dropped", t.dropped}}}};
}

json sim_to_chrome(const model::sim::PipelineSim& sim, const std::string& title) {
  json list = json::array();
  const uint32_t roles = sim.role_count();
  const uint32_t lanes = roles + static_cast<uint32_t>(sim.async_lanes().size());
  list.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"tid", 0}, {"args", {{"name", "simulator"}}}});
  for (uint32_t l = 0; l < lanes; ++l)
    list.push_back({{"name", "thread_name"},
                    {"ph", "M"},
                    {"pid", 0},
                    {"tid", l},
                    {"args", {{"name", l < roles ? sim.role_name(l) : "async " + sim.async_lanes()[l - roles]}}}});
  std::vector<const model::sim::SimEvent*> events;
  for (const auto& e : sim.events()) events.push_back(&e);
  std::stable_sort(events.begin(), events.end(), [](const auto* a, const auto* b) {
    return std::tie(a->lane, a->begin) < std::tie(b->lane, b->begin) ||
           (std::tie(a->lane, a->begin) == std::tie(b->lane, b->begin) && a->end > b->end);
  });
  using Kind = model::sim::SimEvent::Kind;
  for (const auto* e : events) {
    const bool wait = e->kind == Kind::wait;
    const std::string name = wait ? wait_kind(e->label.substr(std::min<size_t>(5, e->label.size())))
                             : e->label.empty() ? "step" : e->label;
    list.push_back({{"name", name},
                    {"cat", wait ? "wait" : e->kind == Kind::async ? "async" : "busy"},
                    {"ph", "X"},
                    {"ts", static_cast<double>(e->begin)},
                    {"dur", static_cast<double>(e->end - e->begin)},
                    {"pid", 0},
                    {"tid", e->lane},
                    {"args", {{"label", e->label}, {"stage", e->color}}}});
  }
  return {{"traceEvents", std::move(list)},
          {"otherData", {{"title", title}, {"source", "simulator"}, {"time_unit", "simulator step"}}}};
}

std::vector<std::string> validate_chrome_trace(const json& trace) {
  std::vector<std::string> out;
  const json* list = &trace;
  if (trace.is_object()) {
    if (!trace.contains("traceEvents") || !trace["traceEvents"].is_array()) {
      out.push_back("the object must have a \"traceEvents\" array");
      return out;
    }
    list = &trace["traceEvents"];
  } else if (!trace.is_array()) {
    out.push_back("a trace must be an object with \"traceEvents\" or an array of events");
    return out;
  }
  std::map<Track, double> last_ts;
  std::map<Track, std::vector<std::string>> open_b;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& e = (*list)[i];
    const std::string at = "event " + std::to_string(i) + ": ";
    if (!e.is_object()) {
      out.push_back(at + "must be an object");
      continue;
    }
    if (!e.contains("ph") || !e["ph"].is_string()) {
      out.push_back(at + "\"ph\" must be a string");
      continue;
    }
    const std::string ph = e["ph"].get<std::string>();
    if (ph == "M") continue;
    bool ok = true;
    if (!e.contains("name") || !e["name"].is_string()) out.push_back(at + "\"name\" must be a string"), ok = false;
    if (!e.contains("ts") || !e["ts"].is_number()) out.push_back(at + "\"ts\" must be a number"), ok = false;
    if (!e.contains("pid") || !is_int(e["pid"])) out.push_back(at + "\"pid\" must be an integer"), ok = false;
    if (!e.contains("tid") || !is_int(e["tid"])) out.push_back(at + "\"tid\" must be an integer"), ok = false;
    if (!ok) continue;
    const Track k{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
    const double ts = e["ts"].get<double>();
    if (auto it = last_ts.find(k); it != last_ts.end() && ts < it->second)
      out.push_back(at + "ts = " + fmt(ts) + " is before the previous event's " + fmt(it->second) + " on pid " +
                    std::to_string(k.pid) + " tid " + std::to_string(k.tid) + " (ts must not decrease per track)");
    last_ts[k] = std::max(ts, last_ts.count(k) ? last_ts[k] : ts);
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number())
        out.push_back(at + "\"dur\" must be a number for ph X");
      else if (e["dur"].get<double>() < 0)
        out.push_back(at + "dur = " + fmt(e["dur"].get<double>()) + " must be >= 0");
    } else if (ph == "B") {
      open_b[k].push_back(e["name"].get<std::string>());
    } else if (ph == "E") {
      if (open_b[k].empty())
        out.push_back(at + "E on pid " + std::to_string(k.pid) + " tid " + std::to_string(k.tid) + " has no open B");
      else
        open_b[k].pop_back();
    } else if (ph != "i" && ph != "I" && ph != "C") {
      out.push_back(at + "ph = \"" + ph + "\" is not one of: B, E, X, i, I, C, M");
    }
  }
  for (const auto& [k, names] : open_b)
    if (!names.empty())
      out.push_back("pid " + std::to_string(k.pid) + " tid " + std::to_string(k.tid) + ": " +
                    std::to_string(names.size()) + " B event(s) without an E (first \"" + names.front() + "\")");
  return out;
}

json read_chrome_trace(const std::string& path) {
  const TextFile file = read_text_file(path, kMaxChromeBytes);
  if (file.error != 0 || file.not_regular)
    throw TimelineError("trace = " + path + " " + input_problem(file.error, file.not_regular, file.read_failed));
  if (file.too_large)
    throw TimelineError("trace = " + path + " is larger than the limit of " + std::to_string(kMaxChromeBytes) + " bytes");
  json doc;
  try {
    doc = detail::parse_strict_json(file.text, 8);
  } catch (const std::exception& e) {
    throw TimelineError("trace = " + path + " is not valid JSON: " + e.what());
  }
  if (const auto problems = validate_chrome_trace(doc); !problems.empty())
    throw TimelineError("trace = " + path + " breaks the Chrome trace event format: " + problems.front() +
                        (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
  return doc;
}

namespace {

struct Parsed {
  std::map<Track, std::string> thread;  // track -> role
  std::map<Track, std::vector<const json*>> events;
  double first = std::numeric_limits<double>::max(), last = std::numeric_limits<double>::lowest();
};

Parsed parse(const json& trace) {
  Parsed p;
  const json& list = trace.is_object() ? trace.at("traceEvents") : trace;
  for (const json& e : list) {
    const std::string ph = e.at("ph").get<std::string>();
    const Track k{e.value("pid", int64_t{0}), e.value("tid", int64_t{0})};
    if (ph == "M") {
      if (e.value("name", std::string()) == "thread_name" && e.contains("args") && e["args"].contains("name"))
        p.thread[k] = role_of_thread(e["args"]["name"].get<std::string>());
      continue;
    }
    const double ts = e.at("ts").get<double>();
    const double end = ts + (ph == "X" ? e.at("dur").get<double>() : 0.0);
    p.first = std::min(p.first, ts);
    p.last = std::max(p.last, end);
    p.events[k].push_back(&e);
  }
  for (const auto& [k, v] : p.events)
    if (!p.thread.count(k)) p.thread[k] = "tid " + std::to_string(k.tid);
  if (p.first > p.last) p.first = p.last = 0;
  return p;
}

// The length of the union of [b, e) intervals.
double covered(std::vector<std::pair<double, double>> v) {
  std::sort(v.begin(), v.end());
  double total = 0, cur_b = 0, cur_e = -1;
  bool any = false;
  for (const auto& [b, e] : v) {
    if (!any || b > cur_e) {
      if (any) total += cur_e - cur_b;
      cur_b = b, cur_e = e, any = true;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (any) total += cur_e - cur_b;
  return total;
}

}  // namespace

json trim_chrome_trace(const json& trace, size_t tiles_per_track, size_t processes) {
  if (tiles_per_track < 1 || processes < 1)
    throw TimelineError("trim: tiles per track = " + std::to_string(tiles_per_track) + " and processes = " +
                        std::to_string(processes) + " must both be at least 1");
  const json& list = trace.is_object() ? trace.at("traceEvents") : trace;
  // Per process, the first `processes` (by pid) that hold a tile; per track, the ends
  // of its tiles in order.
  std::map<int64_t, std::map<int64_t, std::vector<double>>> tile_ends;  // pid -> tid -> ends
  for (const json& e : list)
    if (e.at("ph") == "X" && e.value("cat", std::string()) == "tile")
      tile_ends[e.at("pid").get<int64_t>()][e.at("tid").get<int64_t>()].push_back(e.at("ts").get<double>() +
                                                                                  e.at("dur").get<double>());
  if (tile_ends.empty())
    throw TimelineError("trim: the trace has no tile (an X event of cat \"tile\", as a recording writes) to cut after");
  std::map<int64_t, double> cutoff;  // pid -> the latest end of its tracks' tiles_per_track-th tile
  for (auto& [pid, tracks] : tile_ends) {
    if (cutoff.size() == processes) break;
    double c = std::numeric_limits<double>::lowest();
    for (auto& [tid, ends] : tracks) {
      std::sort(ends.begin(), ends.end());
      c = std::max(c, ends[std::min(ends.size(), tiles_per_track) - 1]);
    }
    cutoff[pid] = c;
  }
  json kept = json::array();
  for (const json& e : list) {
    const auto it = cutoff.find(e.value("pid", int64_t{-1}));
    if (it == cutoff.end()) continue;
    const std::string ph = e.at("ph").get<std::string>();
    const double end = ph == "M" ? 0.0 : e.at("ts").get<double>() + (ph == "X" ? e.at("dur").get<double>() : 0.0);
    if (ph == "M" || end <= it->second) kept.push_back(e);
  }
  if (!trace.is_object()) return kept;
  json out = trace;
  out["traceEvents"] = std::move(kept);
  return out;
}

std::vector<RoleShares> role_shares(const json& trace) {
  const Parsed p = parse(trace);
  std::map<std::string, RoleShares> by_role;
  std::vector<std::string> order;
  for (const auto& [k, evs] : p.events) {
    const std::string& role = p.thread.at(k);
    if (role.rfind("async", 0) == 0) continue;
    if (!by_role.count(role)) order.push_back(role);
    RoleShares& r = by_role[role];
    r.role = role;
    ++r.tracks;
    r.span_us += p.last - p.first;
    std::vector<std::pair<double, double>> all, waits;
    for (const json* e : evs) {
      if ((*e)["ph"] != "X") continue;
      const double b = (*e)["ts"].get<double>(), d = (*e)["dur"].get<double>();
      all.push_back({b, b + d});
      if (e->value("cat", std::string()) == "wait") {
        r.wait_us[(*e)["name"].get<std::string>()] += d;
        waits.push_back({b, b + d});
      }
    }
    const double cov = covered(all);
    r.busy_us += cov - covered(waits);
    r.idle_us += (p.last - p.first) - cov;
  }
  std::vector<RoleShares> out;
  std::sort(order.begin(), order.end());
  for (const auto& r : order) out.push_back(by_role[r]);
  return out;
}

std::vector<std::string> event_order(const json& trace, const std::string& role, size_t limit) {
  const Parsed p = parse(trace);
  std::vector<std::string> out;
  for (const auto& [k, evs] : p.events) {
    if (p.thread.at(k) != role) continue;
    std::string prev;
    size_t run = 0;
    auto flush = [&] {
      if (run > 0 && out.size() < limit) out.push_back(run > 1 ? prev + " x" + std::to_string(run) : prev);
    };
    for (const json* e : evs) {
      const std::string kind = name_kind(e->value("cat", std::string()), (*e)["name"].get<std::string>());
      if (kind == prev) {
        ++run;
        continue;
      }
      flush();
      prev = kind;
      run = 1;
    }
    flush();
    break;  // the first track of the role only
  }
  return out;
}

std::string timeline_summary_svg(const json& trace, const std::string& title) {
  const Parsed p = parse(trace);
  const std::vector<RoleShares> shares = role_shares(trace);
  std::set<std::string> wait_names;
  for (const auto& r : shares)
    for (const auto& [w, us] : r.wait_us) wait_names.insert(w);
  const char* const palette[] = {"#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#7f7f7f"};
  std::map<std::string, std::string> wait_color;
  size_t ci = 0;
  for (const auto& w : wait_names) wait_color[w] = palette[ci++ % 8];
  const double label_w = 170, bar_w = 700, row_h = 20, top = 60;
  std::set<int64_t> pids;
  for (const auto& [k, v] : p.events) pids.insert(k.pid);
  const double lane_h = pids.size() > 40 ? 4 : 10;
  const double lanes_top = top + shares.size() * row_h + 70;
  const double height = lanes_top + pids.size() * lane_h + 40;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(label_w + bar_w + 40) + "\" height=\"" +
                    fmt(height) + "\" font-family=\"monospace\" font-size=\"11\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" + escape_xml(title) + "</text>\n";
  svg += "<text x=\"8\" y=\"34\" fill=\"#555\">share of each role's time: busy (green), waiting (by barrier), idle "
         "(grey)</text>\n";
  double lx = label_w;
  for (const auto& [w, c] : wait_color) {
    svg += "<rect x=\"" + fmt(lx) + "\" y=\"40\" width=\"12\" height=\"10\" fill=\"" + c + "\"/><text x=\"" +
           fmt(lx + 15) + "\" y=\"49\">" + escape_xml(w) + "</text>\n";
    lx += 30 + 7.0 * w.size();
  }
  for (size_t i = 0; i < shares.size(); ++i) {
    const RoleShares& r = shares[i];
    const double y = top + i * row_h;
    svg += "<text x=\"6\" y=\"" + fmt(y + 13) + "\">" + escape_xml(r.role) + " (" + std::to_string(r.tracks) + ")</text>\n";
    double x = label_w;
    auto seg = [&](double us, const std::string& color, const std::string& what) {
      if (r.span_us <= 0 || us <= 0) return;
      const double w = bar_w * us / r.span_us;
      svg += "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(y + 2) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(row_h - 5) +
             "\" fill=\"" + color + "\"><title>" + escape_xml(what + ": " + fmt(100.0 * us / r.span_us) + "%") +
             "</title></rect>\n";
      x += w;
    };
    seg(r.busy_us, "#2ca02c", "busy");
    for (const auto& [w, us] : r.wait_us) seg(us, wait_color[w], w);
    seg(r.idle_us, "#dddddd", "idle");
  }
  // The tail wave: the last quarter of the run, one lane per process (SM), its first
  // consumer-like track (else its first track).
  const double t_begin = p.last - (p.last - p.first) / 4, t_span = std::max(1e-9, p.last - t_begin);
  svg += "<text x=\"8\" y=\"" + fmt(lanes_top - 12) + "\" font-weight=\"bold\">tail wave: the last quarter of the run (" +
         fmt(t_begin) + " to " + fmt(p.last) + "), one lane per SM: tiles blue, waits by barrier</text>\n";
  size_t lane = 0;
  for (const int64_t pid : pids) {
    const Track* pick = nullptr;
    for (const auto& [k, v] : p.events)
      if (k.pid == pid && (pick == nullptr || (p.thread.at(k).find("consumer") != std::string::npos &&
                                               p.thread.at(*pick).find("consumer") == std::string::npos)))
        pick = &k;
    const double y = lanes_top + lane * lane_h;
    if (pids.size() <= 40 || lane % 8 == 0)
      svg += "<text x=\"6\" y=\"" + fmt(y + lane_h - 1) + "\" font-size=\"" + (lane_h < 8 ? "8" : "10") + "\">pid " +
             std::to_string(pid) + "</text>\n";
    for (const json* e : p.events.at(*pick)) {
      if ((*e)["ph"] != "X") continue;
      const double b = std::max(t_begin, (*e)["ts"].get<double>()), en = (*e)["ts"].get<double>() + (*e)["dur"].get<double>();
      if (en < t_begin) continue;
      const bool wait = e->value("cat", std::string()) == "wait";
      const std::string color = wait ? wait_color[(*e)["name"].get<std::string>()] : "#1f77b4";
      svg += "<rect x=\"" + fmt(label_w + bar_w * (b - t_begin) / t_span) + "\" y=\"" + fmt(y + (wait ? lane_h * 0.3 : 0)) +
             "\" width=\"" + fmt(std::max(0.5, bar_w * (en - b) / t_span)) + "\" height=\"" +
             fmt(wait ? lane_h * 0.5 : lane_h - 1) + "\" fill=\"" + color + "\" fill-opacity=\"" + (wait ? "1" : "0.35") +
             "\"/>\n";
    }
    ++lane;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gemmscope::traces
