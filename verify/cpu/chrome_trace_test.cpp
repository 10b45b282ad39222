// The Chrome trace event format (traces/chrome_trace.hpp): written from a recorded
// timeline and from a simulated run, validated against the format's rules, summarised
// per role. Expected values come from the format's rules and timeline_record.hpp's
// layout, written out here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "gemmscope/model/pipeline.hpp"
#include "gemmscope/model/pipeline_sim.hpp"
#include "gemmscope/traces/chrome_trace.hpp"

#include "timeline_words.hpp"

namespace {

using gemmscope::traces::Timeline;
using gemmscope::traces::TimelineError;
using nlohmann::json;

using namespace timeline_words;

const json* find_event(const json& trace, const std::string& name) {
  for (const json& e : trace["traceEvents"])
    if (e.value("name", std::string()) == name) return &e;
  return nullptr;
}

TEST(TimelineChrome, RecordedEventsBecomeDurationAndInstantEvents) {
  const std::vector<uint32_t> w = small_run();
  const json trace = gemmscope::traces::timeline_to_chrome(gemmscope::traces::decode_timeline(w, w.size() / 8), "t");
  EXPECT_TRUE(gemmscope::traces::validate_chrome_trace(trace).empty());
  // Microseconds from the first event (1000 ns).
  const json* wait = find_event(trace, "wait empty");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ((*wait)["ph"], "X");
  EXPECT_DOUBLE_EQ((*wait)["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ((*wait)["dur"].get<double>(), 2.0);
  EXPECT_EQ((*wait)["pid"], 3);  // the SM
  EXPECT_EQ((*wait)["tid"], 0);  // producer: role 0 x 16 + warpgroup 0
  const json* full = find_event(trace, "wait full");
  ASSERT_NE(full, nullptr);
  EXPECT_EQ((*full)["tid"], 16);  // consumer (role 1) warpgroup 0
  EXPECT_DOUBLE_EQ((*full)["ts"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ((*full)["dur"].get<double>(), 0.5);
  const json* tma = find_event(trace, "TMA issue");
  ASSERT_NE(tma, nullptr);
  EXPECT_EQ((*tma)["ph"], "i");
  EXPECT_DOUBLE_EQ((*tma)["ts"].get<double>(), 2.0);
  const json* epi = find_event(trace, "epilogue 0,0");
  ASSERT_NE(epi, nullptr);
  EXPECT_EQ((*epi)["tid"], 48);  // epilogue (role 3) warpgroup 0
  EXPECT_DOUBLE_EQ((*epi)["dur"].get<double>(), 1.0);
  int threads = 0;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") ++threads;
  EXPECT_EQ(threads, 3);  // producer, consumer 0, epilogue 0 on SM 3
}

TEST(TimelineChrome, AnInconsistentRecordingIsRefused) {
  std::vector<uint32_t> w;
  put(w, kWaitBegin, kProducer, 0, 1, kEmpty, 0, 3, 0, 0, 1000);
  EXPECT_NE(message_of([&] { gemmscope::traces::timeline_to_chrome(gemmscope::traces::decode_timeline(w, 1), "t"); })
                .find("has no end"),
            std::string::npos);
}

// The format's rules, on hand-written traces.
size_t breaches(const char* text) { return gemmscope::traces::validate_chrome_trace(json::parse(text)).size(); }

TEST(ChromeValidator, AcceptsTheFormsTheFormatAllows) {
  EXPECT_EQ(breaches(R"({"traceEvents": [
      {"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "x"}},
      {"name": "a", "ph": "B", "ts": 1, "pid": 1, "tid": 2},
      {"name": "b", "ph": "X", "ts": 1.5, "dur": 0, "pid": 1, "tid": 2},
      {"name": "a", "ph": "E", "ts": 3, "pid": 1, "tid": 2},
      {"name": "c", "ph": "i", "ts": 0.5, "pid": 1, "tid": 3, "s": "t"}]})"),
            0u);
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "ts": 1, "dur": 2, "pid": 0, "tid": 0}])"), 0u);
}

TEST(ChromeValidator, RefusesWhatTheRulesForbid) {
  EXPECT_EQ(breaches(R"({"events": []})"), 1u);
  EXPECT_EQ(breaches(R"([{"ph": "X", "ts": 1, "dur": 2, "pid": 0, "tid": 0}])"), 1u);               // no name
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "dur": 2, "pid": 0, "tid": 0}])"), 1u);           // no ts
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "ts": 1, "dur": 2, "tid": 0}])"), 1u);            // no pid
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "ts": 1, "dur": 2, "pid": 0}])"), 1u);            // no tid
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "ts": 1, "dur": -2, "pid": 0, "tid": 0}])"), 1u); // dur < 0
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "X", "ts": 1, "pid": 0, "tid": 0}])"), 1u);            // X without dur
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "E", "ts": 1, "pid": 0, "tid": 0}])"), 1u);            // E without B
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "B", "ts": 1, "pid": 0, "tid": 0}])"), 1u);            // B left open
  // ts going back on one track; on two tracks it may.
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "i", "ts": 5, "pid": 0, "tid": 0},
                         {"name": "b", "ph": "i", "ts": 4, "pid": 0, "tid": 0}])"),
            1u);
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "i", "ts": 5, "pid": 0, "tid": 0},
                         {"name": "b", "ph": "i", "ts": 4, "pid": 0, "tid": 1}])"),
            0u);
  // B/E balance per track: an E on another track does not close it.
  EXPECT_EQ(breaches(R"([{"name": "a", "ph": "B", "ts": 1, "pid": 0, "tid": 0},
                         {"name": "a", "ph": "E", "ts": 2, "pid": 0, "tid": 1}])"),
            2u);
}

TEST(TimelineShares, BusyWaitAndIdleOfATrack) {
  // One track from 0 to 10 us: a tile 0-8 holding a wait on full 2-5; an instant at 10.
  const json trace = json::parse(R"({"traceEvents": [
      {"name": "thread_name", "ph": "M", "pid": 0, "tid": 1, "args": {"name": "cta0 consumer 0"}},
      {"name": "tile", "cat": "tile", "ph": "X", "ts": 0, "dur": 8, "pid": 0, "tid": 1},
      {"name": "wait full", "cat": "wait", "ph": "X", "ts": 2, "dur": 3, "pid": 0, "tid": 1},
      {"name": "x", "cat": "issue", "ph": "i", "ts": 10, "pid": 0, "tid": 1}]})");
  const auto shares = gemmscope::traces::role_shares(trace);
  ASSERT_EQ(shares.size(), 1u);
  EXPECT_EQ(shares[0].role, "consumer 0");  // "cta0 " dropped
  EXPECT_DOUBLE_EQ(shares[0].span_us, 10.0);
  EXPECT_DOUBLE_EQ(shares[0].busy_us, 5.0);
  EXPECT_DOUBLE_EQ(shares[0].wait_us.at("wait full"), 3.0);
  EXPECT_DOUBLE_EQ(shares[0].idle_us, 2.0);
}

TEST(TimelineOrder, KindsInTimeOrderWithRunsCollapsed) {
  const json trace = json::parse(R"({"traceEvents": [
      {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "producer"}},
      {"name": "wait empty", "cat": "wait", "ph": "X", "ts": 0, "dur": 1, "pid": 0, "tid": 0},
      {"name": "TMA issue", "cat": "issue", "ph": "i", "ts": 1, "pid": 0, "tid": 0},
      {"name": "load k-block 1 of work 0 into stage 1", "cat": "busy", "ph": "X", "ts": 2, "dur": 1, "pid": 0, "tid": 0},
      {"name": "wait empty", "cat": "wait", "ph": "X", "ts": 3, "dur": 1, "pid": 0, "tid": 0}]})");
  const std::vector<std::string> expected = {"wait empty", "TMA issue x2", "wait empty"};
  EXPECT_EQ(gemmscope::traces::event_order(trace, "producer", 10), expected);
  EXPECT_EQ(gemmscope::traces::event_order(trace, "producer", 1).size(), 1u);
}

TEST(TimelineSim, ASimulatedRunWritesAValidTraceOfEveryEvent) {
  gemmscope::model::sim::SyntheticConfig c;
  c.stages = 2;
  c.consumers = 2;
  c.tiles = 3;
  c.k_blocks = 4;
  gemmscope::model::sim::SyntheticRingSim sim(c);
  sim.set_logging(true);
  ASSERT_TRUE(gemmscope::model::sim::run_random(sim, 1).ok());
  const json trace = gemmscope::traces::sim_to_chrome(sim, "synthetic");
  EXPECT_TRUE(gemmscope::traces::validate_chrome_trace(trace).empty());
  size_t durations = 0, waits = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++durations;
    if (e["cat"] == "wait") {
      ++waits;
      EXPECT_EQ(e["name"].get<std::string>().rfind("wait ", 0), 0u) << e.dump();
    }
  }
  size_t sim_waits = 0;
  for (const auto& e : sim.events()) sim_waits += e.kind == gemmscope::model::sim::SimEvent::Kind::wait;
  EXPECT_EQ(durations, sim.events().size());
  EXPECT_EQ(waits, sim_waits);
  EXPECT_FALSE(gemmscope::traces::role_shares(trace).empty());
}

// Trimming: SM 1's consumer has tiles ending at 10, 20, 30 and its producer at 8, 18, 28;
// SM 2 has one tile, SM 3 none.
json trim_input() {
  auto x = [](int64_t pid, int64_t tid, const char* cat, double ts, double dur) {
    return json{{"name", cat}, {"cat", cat}, {"ph", "X"}, {"ts", ts}, {"dur", dur}, {"pid", pid}, {"tid", tid}};
  };
  json events = json::array();
  for (int64_t pid : {1, 2, 3})
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", "SM"}}}});
  for (int i = 0; i < 3; ++i) {
    events.push_back(x(1, 16, "tile", 10.0 * i, 10));
    events.push_back(x(1, 0, "tile", i == 0 ? 0.0 : 10.0 * i - 2, i == 0 ? 8 : 10));
  }
  events.push_back(x(1, 16, "wait", 21, 1));
  events.push_back(x(1, 16, "wait", 12, 1));
  events.push_back({{"name", "TMA issue"}, {"cat", "issue"}, {"ph", "i"}, {"ts", 25}, {"pid", 1}, {"tid", 0}});
  events.push_back(x(2, 16, "tile", 0, 50));
  events.push_back(x(3, 16, "wait", 0, 1));
  return {{"traceEvents", events}, {"otherData", {{"title", "t"}}}};
}

TEST(ChromeTrim, KeepsTheFirstTilesOfEachTrackOnTheFirstSms) {
  const json kept = gemmscope::traces::trim_chrome_trace(trim_input(), 2, 1);
  // SM 1 only (the first with a tile); cut at 20, the later of its tracks' second tile
  // ends (20 and 18): 2 + 2 tiles, the wait at 12, its metadata. Not the wait at 21,
  // the issue at 25, the third tiles.
  size_t tiles = 0, waits = 0, meta = 0;
  for (const json& e : kept["traceEvents"]) {
    EXPECT_EQ(e["pid"], 1) << e.dump();
    if (e["ph"] == "M") ++meta;
    else if (e["cat"] == "tile") ++tiles;
    else if (e["cat"] == "wait") {
      ++waits;
      EXPECT_EQ(e["ts"], 12) << e.dump();
    } else {
      ADD_FAILURE() << "kept " << e.dump();
    }
  }
  EXPECT_EQ(tiles, 4u);
  EXPECT_EQ(waits, 1u);
  EXPECT_EQ(meta, 1u);
  EXPECT_EQ(kept["otherData"]["title"], "t");
  EXPECT_TRUE(gemmscope::traces::validate_chrome_trace(kept).empty());
}

TEST(ChromeTrim, MoreTilesThanATrackHasKeepItAllAndSmsWithoutTilesAreLeftOut) {
  const json kept = gemmscope::traces::trim_chrome_trace(trim_input(), 5, 10);
  // SMs 1 and 2 whole (9 + 1 events and their metadata); SM 3 has no tile.
  EXPECT_EQ(kept["traceEvents"].size(), 12u);
  for (const json& e : kept["traceEvents"]) EXPECT_NE(e["pid"], 3) << e.dump();
  EXPECT_NE(message_of([&] { gemmscope::traces::trim_chrome_trace(trim_input(), 0, 1); }).find("at least 1"),
            std::string::npos);
  const json no_tile = {{"traceEvents", json::array({trim_input()["traceEvents"].back()})}};  // SM 3's wait
  EXPECT_NE(message_of([&] { gemmscope::traces::trim_chrome_trace(no_tile, 2, 1); }).find("has no tile"),
            std::string::npos);
}

}  // namespace
