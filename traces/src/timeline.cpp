#include "gemmscope/traces/timeline.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gemmscope::traces {
namespace {

namespace tr = timeline_record;

const char* const kKindNames[] = {"",           "wait begin",    "wait end",      "TMA issue",
                                  "wgmma issue", "wgmma commit", "tile begin",    "tile end",
                                  "epilogue begin", "epilogue end", "store issue", "store complete"};
const char* const kRoleNames[] = {"producer", "consumer", "fixup", "epilogue"};
const char* const kBarrierNames[] = {"none", "full", "empty", "wgmma", "staging", "turn", "schedule", "fixup"};

}  // namespace


std::string track_name(uint32_t role, uint32_t warpgroup) {
  return role == tr::kRoleProducer ? "producer" : role_name(role) + " " + std::to_string(warpgroup);
}
std::string tile_text(int32_t m0, int32_t n0) {
  return n0 < 0 ? "unit " + std::to_string(m0) : std::to_string(m0) + "," + std::to_string(n0);
}

std::string kind_name(uint32_t kind) {
  if (kind < 1 || kind > tr::kKindLast)
    throw TimelineError("kind = " + std::to_string(kind) + " must be in 1.." + std::to_string(tr::kKindLast));
  return kKindNames[kind];
}
std::string role_name(uint32_t role) {
  if (role > tr::kRoleLast)
    throw TimelineError("role = " + std::to_string(role) + " must be in 0.." + std::to_string(tr::kRoleLast));
  return kRoleNames[role];
}
std::string barrier_name(uint32_t barrier) {
  if (barrier > tr::kBarrierLast)
    throw TimelineError("barrier = " + std::to_string(barrier) + " must be in 0.." + std::to_string(tr::kBarrierLast));
  return kBarrierNames[barrier];
}

Timeline decode_timeline(const std::vector<uint32_t>& words, uint64_t claimed) {
  if (words.size() % tr::kWordsPerEvent != 0)
    throw TimelineError("timeline buffer: " + std::to_string(words.size()) + " words must be a multiple of " +
                        std::to_string(tr::kWordsPerEvent) + " (whole events)");
  const uint64_t n = words.size() / tr::kWordsPerEvent;
  if (n > claimed)
    throw TimelineError("timeline buffer: " + std::to_string(n) + " events must be at most the " +
                        std::to_string(claimed) + " the counter claimed");
  Timeline t;
  t.dropped = claimed - n;
  t.events.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t* w = words.data() + i * tr::kWordsPerEvent;
    TimelineEvent e;
    const uint32_t h = w[tr::kWordHeader];
    e.kind = h & 0xffu;
    e.role = h >> 8 & 0xfu;
    e.warpgroup = h >> 12 & 0xfu;
    e.stage = h >> 16 & 0xffu;
    e.barrier = h >> 24 & 0xffu;
    const std::string at = "timeline event " + std::to_string(i) + ": ";
    if (e.kind < 1 || e.kind > tr::kKindLast)
      throw TimelineError(at + "kind = " + std::to_string(e.kind) + " must be in 1.." + std::to_string(tr::kKindLast) +
                          (e.kind == 0 ? " (0: a slot never written)" : ""));
    if (e.role > tr::kRoleLast)
      throw TimelineError(at + "role = " + std::to_string(e.role) + " must be in 0.." + std::to_string(tr::kRoleLast));
    if (e.barrier > tr::kBarrierLast)
      throw TimelineError(at + "barrier = " + std::to_string(e.barrier) + " must be in 0.." +
                          std::to_string(tr::kBarrierLast));
    const bool is_wait = e.kind == tr::kKindWaitBegin || e.kind == tr::kKindWaitEnd;
    if (is_wait != (e.barrier != tr::kBarrierNone))
      throw TimelineError(at + "barrier = " + std::to_string(e.barrier) +
                          (is_wait ? " must name a barrier for a wait" : " must be 0 (none) for a " + kind_name(e.kind)));
    e.cta = w[tr::kWordCta];
    e.sm = w[tr::kWordSm];
    e.m0 = static_cast<int32_t>(w[tr::kWordM0]);
    e.n0 = static_cast<int32_t>(w[tr::kWordN0]);
    e.time_ns = uint64_t{w[tr::kWordTimeLow]} | uint64_t{w[tr::kWordTimeHigh]} << 32;
    e.clock = w[tr::kWordClock];
    t.events.push_back(e);
  }
  return t;
}

Timeline decode_timeline(const timeline_record::RecordedTimeline& raw) {
  const uint64_t slots = uint64_t{raw.regions} * raw.region_capacity;
  if (raw.words.size() != slots * tr::kWordsPerEvent)
    throw TimelineError("timeline buffer: " + std::to_string(raw.words.size()) + " words must be regions (" +
                        std::to_string(raw.regions) + ") x region capacity (" + std::to_string(raw.region_capacity) +
                        ") x " + std::to_string(tr::kWordsPerEvent));
  if (raw.regions > 0 && (raw.warpgroups_per_cta == 0 || raw.regions % raw.warpgroups_per_cta != 0))
    throw TimelineError("timeline buffer: " + std::to_string(raw.regions) + " regions must be a whole number of CTAs of " +
                        std::to_string(raw.warpgroups_per_cta) + " warpgroups (at least 1)");
  // Each region: its writer's events from slot 0, then only unwritten (zero) slots.
  std::vector<uint32_t> events;
  for (uint32_t r = 0; r < raw.regions; ++r) {
    const uint32_t cta = r / raw.warpgroups_per_cta;
    uint64_t written = 0;
    for (uint64_t i = 0; i < raw.region_capacity; ++i) {
      const uint32_t* w = raw.words.data() + (uint64_t{r} * raw.region_capacity + i) * tr::kWordsPerEvent;
      const std::string at = "timeline region " + std::to_string(r) + " (CTA " + std::to_string(cta) + ", warpgroup " +
                             std::to_string(r % raw.warpgroups_per_cta) + "), slot " + std::to_string(i) + ": ";
      if (w[tr::kWordHeader] == 0) continue;
      if (written != i)
        throw TimelineError(at + "an event after the unwritten slot " + std::to_string(written) +
                            " (a region's events are contiguous from its first slot)");
      if (w[tr::kWordCta] != cta)
        throw TimelineError(at + "CTA = " + std::to_string(w[tr::kWordCta]) + " must be the region's CTA " +
                            std::to_string(cta));
      events.insert(events.end(), w, w + tr::kWordsPerEvent);
      ++written;
    }
  }
  return decode_timeline(events, events.size() / tr::kWordsPerEvent + raw.dropped);
}

std::vector<std::string> check_timeline(const Timeline& t) {
  std::vector<std::string> out;
  if (t.dropped > 0) {
    out.push_back("incomplete: " + std::to_string(t.dropped) +
                  " events were dropped past the buffer's capacity (record with a larger buffer)");
    return out;
  }
  struct Open {
    int64_t wait = -1, tile = -1, epilogue = -1;  // index of the open begin
    uint64_t last_ns = 0;
  };
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Open> tracks;  // (cta, role, warpgroup)
  struct Span {
    uint64_t begin, end;
    uint32_t cta;
    size_t index;
  };
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<Span>> tiles;  // (sm, role, warpgroup)
  auto where = [&](size_t i) {
    const TimelineEvent& e = t.events[i];
    return "event " + std::to_string(i) + " (CTA " + std::to_string(e.cta) + ", " + track_name(e.role, e.warpgroup) + ", " +
           kind_name(e.kind) + ")";
  };
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    Open& o = tracks[{e.cta, e.role, e.warpgroup}];
    if (e.time_ns < o.last_ns)
      out.push_back(where(i) + ": time " + std::to_string(e.time_ns) + " ns is before the track's previous event at " +
                    std::to_string(o.last_ns) + " ns");
    o.last_ns = std::max(o.last_ns, e.time_ns);
    const bool tile_event = e.kind == tr::kKindTileBegin || e.kind == tr::kKindTileEnd ||
                            e.kind == tr::kKindEpilogueBegin || e.kind == tr::kKindEpilogueEnd;
    if (o.wait >= 0 && (e.kind == tr::kKindWaitBegin || tile_event)) {
      out.push_back(where(static_cast<size_t>(o.wait)) + ": has no end before " + where(i));
      o.wait = -1;  // reported once
    }
    switch (e.kind) {
      case tr::kKindWaitBegin:
        o.wait = static_cast<int64_t>(i);
        break;
      case tr::kKindWaitEnd:
        if (o.wait < 0)
          out.push_back(where(i) + ": ends a wait that did not begin");
        else if (t.events[static_cast<size_t>(o.wait)].barrier != e.barrier)
          out.push_back(where(i) + ": ends a wait on " + barrier_name(e.barrier) + " but the open wait is on " +
                        barrier_name(t.events[static_cast<size_t>(o.wait)].barrier));
        o.wait = -1;
        break;
      case tr::kKindTileBegin:
      case tr::kKindEpilogueBegin: {
        int64_t& open = e.kind == tr::kKindTileBegin ? o.tile : o.epilogue;
        if (open >= 0) out.push_back(where(static_cast<size_t>(open)) + ": has no end before " + where(i));
        open = static_cast<int64_t>(i);
        break;
      }
      case tr::kKindTileEnd:
      case tr::kKindEpilogueEnd: {
        int64_t& open = e.kind == tr::kKindTileEnd ? o.tile : o.epilogue;
        if (open < 0) {
          out.push_back(where(i) + ": ends a " + (e.kind == tr::kKindTileEnd ? "tile" : "epilogue") +
                        " that did not begin");
        } else {
          const TimelineEvent& b = t.events[static_cast<size_t>(open)];
          if (b.m0 != e.m0 || b.n0 != e.n0)
            out.push_back(where(i) + ": ends tile " + tile_text(e.m0, e.n0) + " but the open one is " + tile_text(b.m0, b.n0));
          tiles[{e.sm, e.role, e.warpgroup}].push_back({b.time_ns, e.time_ns, e.cta, i});
        }
        open = -1;
        break;
      }
      default:
        break;
    }
  }
  for (const auto& [key, o] : tracks)
    for (const int64_t open : {o.wait, o.tile, o.epilogue})
      if (open >= 0) out.push_back(where(static_cast<size_t>(open)) + ": has no end (the recording ends first)");
  for (auto& [key, spans] : tiles) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    for (size_t i = 1; i < spans.size(); ++i)
      if (spans[i].cta != spans[i - 1].cta && spans[i].begin < spans[i - 1].end)
        out.push_back(where(spans[i].index) + ": on SM " + std::to_string(std::get<0>(key)) +
                      " overlaps the one ending at " + where(spans[i - 1].index));
  }
  return out;
}

}  // namespace gemmscope::traces
