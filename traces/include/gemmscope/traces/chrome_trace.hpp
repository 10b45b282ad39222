#pragma once
// The Chrome trace event format that Perfetto (ui.perfetto.dev) and chrome://tracing
// open (docs/timelines.md): written from a recorded timeline (timeline.hpp) or from a
// simulated run (model/pipeline_sim.hpp), read back, validated against the format's
// rules, summarised per role and drawn.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gemmscope/traces/timeline.hpp"

namespace gemmscope::model::sim {
class PipelineSim;
}

namespace gemmscope::traces {

// A recording as a Chrome trace: pid = SM, tid = role x 16 + warpgroup, with
// process_name / thread_name metadata ("SM 3", "consumer 0"); "X" duration events for
// tiles (cat "tile"), waits (cat "wait", name "wait full"), epilogues (cat "epilogue");
// instant events (ph "i", cat "issue") for TMA, wgmma and store issues. ts and dur in
// microseconds from the first event. Throws TimelineError where check_timeline finds
// a breach (an unclosed wait cannot be drawn).
nlohmann::json timeline_to_chrome(const Timeline& t, const std::string& title);

// A simulated run as a Chrome trace: pid 0, one tid per role and async lane; a role's
// actions are "X" events of cat "busy", its waits cat "wait" ("wait full"), an async
// landing cat "async"; one scheduler step is one microsecond (otherData.time_unit).
nlohmann::json sim_to_chrome(const model::sim::PipelineSim& sim, const std::string& title);

// The format's rules, one line per breach (empty: valid): an object with a
// "traceEvents" array (or a bare array); every event an object with a string "ph"; every
// event other than metadata ("M") has string "name", numeric "ts", integer "pid" and
// "tid"; "X" has numeric "dur" >= 0; "B"/"E" balance per (pid, tid) and no "E" comes
// before its "B"; per (pid, tid), ts never decreases in file order.
std::vector<std::string> validate_chrome_trace(const nlohmann::json& trace);

// Reads and validates a Chrome trace file; throws TimelineError naming the file and the
// first breach.
nlohmann::json read_chrome_trace(const std::string& path);

// A shorter trace to share: the first `processes` processes (by pid) that hold a tile
// (an "X" event of cat "tile"), each cut after its tracks' first `tiles_per_track`
// tiles: an event is kept where it ends (ts + dur) by the latest end of those tiles
// over the process's tracks; metadata of kept processes is kept. Throws TimelineError
// where either count is 0 or the trace holds no tile (a simulator's trace has none).
nlohmann::json trim_chrome_trace(const nlohmann::json& trace, size_t tiles_per_track, size_t processes);

// Per role (a thread name without its "cl<i> " / "cta<i> " prefix, over every process),
// where its tracks' time went between the trace's first and last timestamp: waiting on
// each barrier (X events of cat "wait"), busy (the rest of the time covered by X
// events), idle (covered by none). Times summed over the role's tracks.
struct RoleShares {
  std::string role;
  uint32_t tracks = 0;
  double span_us = 0;  // tracks x (last - first timestamp)
  double busy_us = 0, idle_us = 0;
  std::map<std::string, double> wait_us;  // by event name ("wait full")
};
std::vector<RoleShares> role_shares(const nlohmann::json& trace);

// A role's event names in time order on its first track (lowest pid, then tid), each
// reduced to its kind ("wait full", "TMA issue", "wgmma issue", "release", "epilogue",
// "tile"), runs of one kind collapsed to "name xN"; at most `limit` entries.
std::vector<std::string> event_order(const nlohmann::json& trace, const std::string& role, size_t limit);

// The summary picture: per role a bar of busy / each wait / idle shares, and per
// process a lane of the last quarter of the run (the tail wave) with its tiles and waits.
std::string timeline_summary_svg(const nlohmann::json& trace, const std::string& title);

}  // namespace gemmscope::traces
