#pragma once
// Hardware timelines (docs/timelines.md): the events an instrumented kernel recorded
// with gemmscope/traces/timeline.cuh, decoded and checked. chrome_trace.hpp writes
// them in the Chrome trace event format.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gemmscope/model/error.hpp"
#include "gemmscope/traces/timeline_record.hpp"

namespace gemmscope::traces {

class TimelineError : public model::ModelError {
 public:
  using model::ModelError::ModelError;
};

struct TimelineEvent {
  uint32_t kind = 0, role = 0, warpgroup = 0, stage = 0, barrier = 0;
  uint32_t cta = 0, sm = 0;
  int32_t m0 = 0, n0 = 0;
  uint64_t time_ns = 0;  // %globaltimer
  uint32_t clock = 0;    // %clock, low 32 bits
};

struct Timeline {
  std::vector<TimelineEvent> events;  // in buffer order (each writer's in program order)
  uint64_t dropped = 0;               // events past the buffer's capacity, not written
};

// "wait begin", "TMA issue", ...; "producer", "mainloop", ...; "full", "empty", ...
// Throws TimelineError on a code outside timeline_record.hpp's list.
std::string kind_name(uint32_t kind);
std::string role_name(uint32_t role);
std::string barrier_name(uint32_t barrier);
// A track's name: "producer", "consumer 1", "epilogue 0"; a tile "128,256" (n0 < 0: "unit 7").
std::string track_name(uint32_t role, uint32_t warpgroup);
std::string tile_text(int32_t m0, int32_t n0);

// `words`: whole events (a multiple of kWordsPerEvent); `claimed`: the events written
// plus those dropped. Throws TimelineError naming the event, field, value and rule on a
// word count that is not whole events, more events than claimed, or a kind/role/barrier
// code out of range.
Timeline decode_timeline(const std::vector<uint32_t>& words, uint64_t claimed);
// A recorder's buffer (timeline_record.hpp's regions): the events of each region in
// order, region after region. Throws TimelineError, naming the region and slot, where
// the words are not regions x capacity whole events, the regions not whole CTAs, an
// event follows an unwritten slot of its region, or an event's CTA is not its region's;
// and on whatever the flat decode above refuses.
Timeline decode_timeline(const timeline_record::RecordedTimeline& raw);

// The rules a complete recording keeps, one line per breach (empty: consistent). Per
// track (CTA, role, warpgroup), in buffer order: time never goes back; every wait begin
// is followed by its end (same barrier) before another wait or tile event; tile and
// epilogue begin/end alternate; nothing is left open at the end. Per SM, role and
// warpgroup: tiles of different CTAs do not overlap in time. A recording that dropped
// events is reported as incomplete and not checked further.
std::vector<std::string> check_timeline(const Timeline& t);

}  // namespace gemmscope::traces
