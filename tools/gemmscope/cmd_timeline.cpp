// gemmscope timeline: hardware timelines in the Chrome trace event format
// (docs/timelines.md). `render` validates a trace and draws its summary (per role: busy,
// waiting on each barrier, idle; the tail wave per SM); `trim` keeps the first tiles of
// the first SMs, a trace small enough to share; `compare` sets two traces side
// by side per role (a recording and the simulator's `sim --chrome`). `record` (the GPU)
// is in cmd_gpu_timeline.cpp. The logic lives in traces/chrome_trace.hpp.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "gemmscope/traces/chrome_trace.hpp"
#include "timeline_command.hpp"
#include "tune/text/output_file.hpp"

namespace gemmscope::cli {

std::vector<std::pair<std::string, AddTimelineSubcommand>>& timeline_subcommands() {
  static std::vector<std::pair<std::string, AddTimelineSubcommand>> list;
  return list;
}
TimelineSubcommand::TimelineSubcommand(std::string name, AddTimelineSubcommand add) {
  timeline_subcommands().emplace_back(std::move(name), std::move(add));
}

namespace {

std::string percent(double part, double whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return b;
}

std::string title_of(const nlohmann::json& trace, const std::string& fallback) {
  if (trace.is_object() && trace.contains("otherData") && trace["otherData"].contains("title") &&
      trace["otherData"]["title"].is_string())
    return trace["otherData"]["title"].get<std::string>();
  return fallback;
}

// One role's shares as a line: busy, each wait in `waits`, idle.
void print_shares_header(const std::set<std::string>& waits) {
  std::printf("%-14s %6s %8s", "role", "tracks", "busy");
  for (const auto& w : waits) std::printf(" %14s", w.c_str());
  std::printf(" %8s\n", "idle");
}
void print_shares(const std::string& label, const traces::RoleShares& r, const std::set<std::string>& waits) {
  std::printf("%-14s %6u %8s", label.c_str(), r.tracks, percent(r.busy_us, r.span_us).c_str());
  for (const auto& w : waits) {
    const auto it = r.wait_us.find(w);
    std::printf(" %14s", percent(it == r.wait_us.end() ? 0.0 : it->second, r.span_us).c_str());
  }
  std::printf(" %8s\n", percent(r.idle_us, r.span_us).c_str());
}
std::set<std::string> wait_names(const std::vector<traces::RoleShares>& shares) {
  std::set<std::string> out;
  for (const auto& r : shares)
    for (const auto& [w, us] : r.wait_us) out.insert(w);
  return out;
}

struct RenderArgs {
  std::string in, out, title;
};

void render(const RenderArgs& a) {
  check_output_file(a.out, "-o");
  const nlohmann::json trace = traces::read_chrome_trace(a.in);
  const std::string title = a.title.empty() ? title_of(trace, a.in) : a.title;
  const auto shares = traces::role_shares(trace);
  const auto waits = wait_names(shares);
  std::printf("%s: %zu roles; share of each role's time from the first to the last event\n", title.c_str(),
              shares.size());
  print_shares_header(waits);
  for (const auto& r : shares) print_shares(r.role, r, waits);
  write_output_file(a.out, traces::timeline_summary_svg(trace, title), "-o");
  std::printf("summary: %s\n", a.out.c_str());
}

struct TrimArgs {
  std::string in, out;
  size_t tiles = 2, sms = 16;
};

void trim(const TrimArgs& a) {
  check_output_file(a.out, "-o");
  const nlohmann::json trace = traces::read_chrome_trace(a.in);
  const nlohmann::json kept = traces::trim_chrome_trace(trace, a.tiles, a.sms);
  const auto count = [](const nlohmann::json& t) { return (t.is_object() ? t.at("traceEvents") : t).size(); };
  write_output_file(a.out, kept.dump(), "-o");
  std::printf("%s: kept %zu of %zu events (first %zu tiles of each track on the first %zu SMs); %s\n", a.in.c_str(),
              count(kept), count(trace), a.tiles, a.sms, a.out.c_str());
}

struct CompareArgs {
  std::string a, b;
  size_t events = 12;
};

void compare(const CompareArgs& c) {
  if (c.events < 1 || c.events > 1000)
    throw std::invalid_argument("--events = " + std::to_string(c.events) + " must be in 1..1000");
  const nlohmann::json ta = traces::read_chrome_trace(c.a), tb = traces::read_chrome_trace(c.b);
  const auto sa = traces::role_shares(ta), sb = traces::role_shares(tb);
  std::map<std::string, const traces::RoleShares*> ra, rb;
  for (const auto& r : sa) ra[r.role] = &r;
  for (const auto& r : sb) rb[r.role] = &r;
  std::set<std::string> waits = wait_names(sa);
  for (const auto& w : wait_names(sb)) waits.insert(w);
  std::printf("A: %s (%s)\nB: %s (%s)\n\nper role, share of its time (A above B):\n", c.a.c_str(),
              title_of(ta, "").c_str(), c.b.c_str(), title_of(tb, "").c_str());
  print_shares_header(waits);
  std::vector<std::string> common, only_a, only_b;
  for (const auto& [role, r] : ra) (rb.count(role) ? common : only_a).push_back(role);
  for (const auto& [role, r] : rb)
    if (!ra.count(role)) only_b.push_back(role);
  for (const auto& role : common) {
    print_shares(role + " A", *ra[role], waits);
    print_shares(role + " B", *rb[role], waits);
  }
  for (const auto& role : only_a) print_shares(role + " A", *ra[role], waits);
  for (const auto& role : only_b) print_shares(role + " B", *rb[role], waits);
  if (!only_a.empty() || !only_b.empty())
    std::printf("(roles in one trace only are listed once: A %zu, B %zu)\n", only_a.size(), only_b.size());
  for (const auto& role : common) {
    const auto oa = traces::event_order(ta, role, c.events), ob = traces::event_order(tb, role, c.events);
    std::printf("\norder of events, %s (first track of each; runs collapsed):\n  %-34s %s\n", role.c_str(), "A", "B");
    for (size_t i = 0; i < std::max(oa.size(), ob.size()); ++i)
      std::printf("  %-34s %s\n", i < oa.size() ? oa[i].c_str() : "", i < ob.size() ? ob[i].c_str() : "");
  }
}

const Registration reg{
    "timeline", [](CLI::App& app) {
      CLI::App* cmd = app.add_subcommand("timeline", "Hardware timelines in the Chrome trace event format (Perfetto)");
      cmd->require_subcommand(1);

      auto r = std::make_shared<RenderArgs>();
      CLI::App* render_cmd =
          cmd->add_subcommand("render", "Validate a Chrome trace and draw its per-role summary and tail wave as SVG");
      render_cmd->add_option("trace", r->in, "Chrome trace JSON (timeline record, sim --chrome)")->required();
      render_cmd->add_option("-o,--out", r->out, "SVG file to write")->required();
      render_cmd->add_option("--title", r->title, "title (default: the trace's own)");
      render_cmd->callback([r] { render(*r); });

      auto t = std::make_shared<TrimArgs>();
      CLI::App* trim_cmd = cmd->add_subcommand(
          "trim", "A shorter Chrome trace to share: the first tiles of each track on the first SMs");
      trim_cmd->add_option("trace", t->in, "Chrome trace JSON (timeline record)")->required();
      trim_cmd->add_option("-o,--out", t->out, "Chrome trace JSON to write")->required();
      trim_cmd->add_option("--max-tiles-per-sm", t->tiles, "tiles kept of each track (role) on an SM, at least 1")
          ->capture_default_str();
      trim_cmd->add_option("--max-sms", t->sms, "SMs (processes) kept, lowest first, at least 1")->capture_default_str();
      trim_cmd->callback([t] { trim(*t); });

      auto k = std::make_shared<CompareArgs>();
      CLI::App* compare_cmd = cmd->add_subcommand(
          "compare", "Two Chrome traces side by side per role: stall shares and the order of events");
      compare_cmd->add_option("a", k->a, "Chrome trace (e.g. recorded on the GPU)")->required();
      compare_cmd->add_option("b", k->b, "Chrome trace (e.g. the simulator's)")->required();
      compare_cmd->add_option("--events", k->events, "events listed per role, 1..1000")->capture_default_str();
      compare_cmd->callback([k] { compare(*k); });

      add_gpu_subcommands(cmd, timeline_subcommands(), "Record a kernel's timeline on the GPU");
    }};

}  // namespace
}  // namespace gemmscope::cli
