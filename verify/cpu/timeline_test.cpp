// Hardware timelines (traces/timeline.hpp): decoding the recorder's buffer and the
// consistency rules. Expected values come from the layout in timeline_record.hpp's
// comments, written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "gemmscope/traces/timeline.hpp"

#include "timeline_words.hpp"

namespace {

using gemmscope::traces::Timeline;
using gemmscope::traces::TimelineError;

using namespace timeline_words;

TEST(TimelineDecode, FieldsComeBackFromTheirWords) {
  std::vector<uint32_t> w;
  put(w, kWaitBegin, kMainloop, 1, 3, kFull, 5, 42, 256, -1, (uint64_t{1} << 33) + 17);
  const Timeline t = gemmscope::traces::decode_timeline(w, 4);
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_EQ(t.dropped, 3u);  // the counter claimed 4 events, 1 was written
  const auto& e = t.events[0];
  EXPECT_EQ(e.kind, kWaitBegin);
  EXPECT_EQ(e.role, kMainloop);
  EXPECT_EQ(e.warpgroup, 1u);
  EXPECT_EQ(e.stage, 3u);
  EXPECT_EQ(e.barrier, kFull);
  EXPECT_EQ(e.cta, 5u);
  EXPECT_EQ(e.sm, 42u);
  EXPECT_EQ(e.m0, 256);
  EXPECT_EQ(e.n0, -1);
  EXPECT_EQ(e.time_ns, (uint64_t{1} << 33) + 17);
  EXPECT_EQ(e.clock, 7u);
}

TEST(TimelineDecode, RefusesWhatTheLayoutRules) {
  std::vector<uint32_t> w;
  put(w, kTma, kProducer, 0, 0, 0, 0, 0, 0, 0, 10);
  std::vector<uint32_t> partial(w.begin(), w.begin() + 5);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(partial, 1); }).find("multiple of 8"), std::string::npos);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(w, 0); }).find("at most the 0"), std::string::npos);
  std::vector<uint32_t> unwritten(8, 0u);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(unwritten, 1); }).find("kind = 0"), std::string::npos);
  std::vector<uint32_t> bad_kind;
  put(bad_kind, 12, kProducer, 0, 0, 0, 0, 0, 0, 0, 10);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(bad_kind, 1); }).find("kind = 12"), std::string::npos);
  std::vector<uint32_t> bad_role;
  put(bad_role, kTma, 4, 0, 0, 0, 0, 0, 0, 0, 10);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(bad_role, 1); }).find("role = 4"), std::string::npos);
  std::vector<uint32_t> wait_without_barrier;
  put(wait_without_barrier, kWaitBegin, kProducer, 0, 0, 0, 0, 0, 0, 0, 10);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(wait_without_barrier, 1); }).find("must name a barrier"),
            std::string::npos);
}

// The recorder's buffer (timeline_record.hpp): one region of `capacity` events per CTA
// and warpgroup, each filled from its first slot, the rest zero.
gemmscope::traces::timeline_record::RecordedTimeline regions_of(uint32_t ctas, uint32_t warpgroups, uint32_t capacity,
                                                                uint64_t dropped) {
  gemmscope::traces::timeline_record::RecordedTimeline raw;
  raw.regions = ctas * warpgroups;
  raw.region_capacity = capacity;
  raw.warpgroups_per_cta = warpgroups;
  raw.dropped = dropped;
  raw.words.assign(size_t{raw.regions} * capacity * 8, 0u);
  return raw;
}
// Event `slot` of region `region`, written by hand as `put` does.
void put_at(gemmscope::traces::timeline_record::RecordedTimeline& raw, uint32_t region, uint32_t slot, uint32_t kind,
            uint32_t role, uint32_t cta, uint64_t ns) {
  std::vector<uint32_t> one;
  put(one, kind, role, 0, 0, 0, cta, 9, 0, 0, ns);
  std::copy(one.begin(), one.end(), raw.words.begin() + (size_t{region} * raw.region_capacity + slot) * 8);
}

TEST(TimelineRegions, EachRegionsEventsComeBackInOrderWithoutItsEmptySlots) {
  // 2 CTAs x 2 warpgroups, 3 slots each: region 0 holds 2 events, region 1 one,
  // region 2 none, region 3 three (full).
  auto raw = regions_of(2, 2, 3, 2);
  put_at(raw, 0, 0, kTma, kProducer, 0, 100);
  put_at(raw, 0, 1, kTma, kProducer, 0, 101);
  put_at(raw, 1, 0, kTma, kMainloop, 0, 200);
  put_at(raw, 3, 0, kTma, kMainloop, 1, 400);
  put_at(raw, 3, 1, kTma, kMainloop, 1, 401);
  put_at(raw, 3, 2, kTma, kMainloop, 1, 402);
  const Timeline t = gemmscope::traces::decode_timeline(raw);
  ASSERT_EQ(t.events.size(), 6u);
  const uint64_t times[] = {100, 101, 200, 400, 401, 402};
  const uint32_t ctas[] = {0, 0, 0, 1, 1, 1};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(t.events[i].time_ns, times[i]) << i;
    EXPECT_EQ(t.events[i].cta, ctas[i]) << i;
  }
  EXPECT_EQ(t.dropped, 2u);
}

TEST(TimelineRegions, ARunThatRecordedNothingDecodesEmpty) {
  const Timeline t = gemmscope::traces::decode_timeline(regions_of(0, 0, 0, 5));
  EXPECT_TRUE(t.events.empty());
  EXPECT_EQ(t.dropped, 5u);  // every event found no room: still counted
}

TEST(TimelineRegions, RefusesWhatTheLayoutRules) {
  auto short_buffer = regions_of(2, 1, 4, 0);
  short_buffer.words.resize(short_buffer.words.size() - 8);
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(short_buffer); })
                .find("regions (2) x region capacity (4) x 8"),
            std::string::npos);
  auto not_whole_ctas = regions_of(3, 1, 1, 0);
  not_whole_ctas.warpgroups_per_cta = 2;
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(not_whole_ctas); }).find("whole number of CTAs of 2"),
            std::string::npos);
  auto gap = regions_of(1, 2, 3, 0);
  put_at(gap, 1, 1, kTma, kMainloop, 0, 10);  // slot 0 of region 1 left unwritten
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(gap); }).find("region 1 (CTA 0, warpgroup 1), slot 1: an event after the unwritten slot 0"),
            std::string::npos);
  auto wrong_cta = regions_of(2, 1, 2, 0);
  put_at(wrong_cta, 1, 0, kTma, kProducer, 0, 10);  // region 1 is CTA 1's
  EXPECT_NE(message_of([&] { gemmscope::traces::decode_timeline(wrong_cta); }).find("CTA = 0 must be the region's CTA 1"),
            std::string::npos);
}

TEST(TimelineCheck, AConsistentRunHasNoBreach) {
  const std::vector<uint32_t> w = small_run();
  const Timeline t = gemmscope::traces::decode_timeline(w, w.size() / 8);
  EXPECT_TRUE(gemmscope::traces::check_timeline(t).empty());
}

TEST(TimelineCheck, AWaitWithoutItsEndIsABreach) {
  std::vector<uint32_t> w;
  put(w, kTileBegin, kProducer, 0, 0, 0, 0, 3, 0, 0, 1000);
  put(w, kWaitBegin, kProducer, 0, 1, kEmpty, 0, 3, 0, 0, 1000);
  put(w, kTileEnd, kProducer, 0, 0, 0, 0, 3, 0, 0, 5000);
  const auto problems = gemmscope::traces::check_timeline(gemmscope::traces::decode_timeline(w, 3));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("has no end"), std::string::npos) << problems[0];
}

TEST(TimelineCheck, AWaitEndOnAnotherBarrierIsABreach) {
  std::vector<uint32_t> w;
  put(w, kWaitBegin, kMainloop, 0, 1, kFull, 0, 3, 0, 0, 1000);
  put(w, kWaitEnd, kMainloop, 0, 1, kEmpty, 0, 3, 0, 0, 1100);
  EXPECT_EQ(gemmscope::traces::check_timeline(gemmscope::traces::decode_timeline(w, 2)).size(), 1u);
}

TEST(TimelineCheck, TilesOfTwoCtasOverlappingOnOneSmAreABreachOnTwoSmsNot) {
  for (const uint32_t second_sm : {3u, 4u}) {
    std::vector<uint32_t> w;
    put(w, kTileBegin, kMainloop, 0, 0, 0, 0, 3, 0, 0, 1000);
    put(w, kTileEnd, kMainloop, 0, 0, 0, 0, 3, 0, 0, 5000);
    put(w, kTileBegin, kMainloop, 0, 0, 0, 1, second_sm, 128, 0, 4000);
    put(w, kTileEnd, kMainloop, 0, 0, 0, 1, second_sm, 128, 0, 8000);
    const auto problems = gemmscope::traces::check_timeline(gemmscope::traces::decode_timeline(w, 4));
    EXPECT_EQ(problems.size(), second_sm == 3u ? 1u : 0u) << second_sm;
    if (!problems.empty()) EXPECT_NE(problems[0].find("overlaps"), std::string::npos) << problems[0];
  }
}

TEST(TimelineCheck, TimeGoingBackOnATrackIsABreach) {
  std::vector<uint32_t> w;
  put(w, kTma, kProducer, 0, 0, 0, 0, 3, 0, 0, 2000);
  put(w, kTma, kProducer, 0, 1, 0, 0, 3, 0, 0, 1000);
  EXPECT_EQ(gemmscope::traces::check_timeline(gemmscope::traces::decode_timeline(w, 2)).size(), 1u);
}

TEST(TimelineCheck, DroppedEventsMakeTheRecordingIncomplete) {
  const std::vector<uint32_t> w = small_run();
  const auto problems = gemmscope::traces::check_timeline(gemmscope::traces::decode_timeline(w, w.size() / 8 + 1));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("incomplete: 1 events were dropped"), std::string::npos);
}

}  // namespace
