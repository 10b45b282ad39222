// The shared-memory bank model (banks.hpp). Expected values come from hand-worked
// examples (bank = word index mod 32, worked out in the comments) and from a plainly
// written oracle (sort the distinct words of each phase, count them per bank), never
// from analyze() itself.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/error.hpp"

using namespace gemmscope::model;

namespace {

// rapidcheck's default is 100 cases; run 300 unless RC_PARAMS already says otherwise.
const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

WarpAccess make_access(int width, const std::vector<uint64_t>& addresses, uint32_t mask = 0xFFFFFFFFu,
                       AccessKind kind = AccessKind::Load) {
  WarpAccess a;
  a.width_bytes = width;
  a.active_mask = mask;
  a.kind = kind;
  for (int t = 0; t < 32; ++t) a.address[t] = addresses[t];
  return a;
}

std::vector<uint64_t> lanes_times(uint64_t stride_bytes) {
  std::vector<uint64_t> v(32);
  for (int t = 0; t < 32; ++t) v[t] = t * stride_bytes;
  return v;
}

// The working phase rule, written as explicit lane lists: 4 B one phase of all 32
// lanes, 8 B two phases of 16, 16 B four phases of 8.
std::vector<std::vector<int>> phase_lanes_of(int width) {
  const int per_phase = width == 4 ? 32 : width == 8 ? 16 : 8;
  std::vector<std::vector<int>> phases;
  for (int first = 0; first < 32; first += per_phase) {
    std::vector<int> lanes(per_phase);
    std::iota(lanes.begin(), lanes.end(), first);
    phases.push_back(lanes);
  }
  return phases;
}

struct OraclePhase {
  int wavefronts = 0;
  int ideal = 0;
};

// Plain oracle: per phase, the sorted distinct words; wavefronts = the largest number
// of them sharing a bank; ideal = ceil(count / 32).
std::vector<OraclePhase> oracle(const WarpAccess& a) {
  std::vector<OraclePhase> out;
  for (const std::vector<int>& lanes : phase_lanes_of(a.width_bytes)) {
    std::vector<uint64_t> words;
    for (int t : lanes) {
      if (!((a.active_mask >> t) & 1u)) continue;
      for (int k = 0; k < a.width_bytes / 4; ++k) words.push_back(a.address[t] / 4 + k);  // word index
    }
    if (words.empty()) continue;
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    int per_bank[32] = {};
    for (uint64_t w : words) per_bank[w % 32]++;
    OraclePhase p;
    p.wavefronts = *std::max_element(per_bank, per_bank + 32);
    p.ideal = (static_cast<int>(words.size()) + 31) / 32;
    out.push_back(p);
  }
  return out;
}

// A random valid access: width 4/8/16, addresses in a 4 KiB window (so collisions are
// common), random active mask.
WarpAccess any_access() {
  WarpAccess a;
  a.width_bytes = *rc::gen::elementOf(std::vector<int>{4, 8, 16});
  a.kind = *rc::gen::elementOf(std::vector<AccessKind>{AccessKind::Load, AccessKind::Store});
  a.active_mask = *rc::gen::arbitrary<uint32_t>();
  for (int t = 0; t < 32; ++t)
    a.address[t] = uint64_t(a.width_bytes) * *rc::gen::inRange<uint64_t>(0, 4096 / a.width_bytes);
  return a;
}

}  // namespace

// ------------------------------------------------------------ hand-worked examples

TEST(BankModel, Stride32Words4BIs32Way) {
  // Lane t reads byte 128t = word 32t: every word is in bank 0, all 32 distinct.
  const AccessCost c = analyze(make_access(4, lanes_times(128)));
  ASSERT_EQ(c.phases.size(), 1u);
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.ideal, 1);
  EXPECT_EQ(c.conflicts(), 31);
  ASSERT_EQ(c.phases[0].collisions.size(), 1u);
  EXPECT_EQ(c.phases[0].collisions[0].bank, 0);
  EXPECT_EQ(c.phases[0].collisions[0].lanes.size(), 32u);
  EXPECT_EQ(c.phases[0].collisions[0].words.size(), 32u);
  EXPECT_EQ(c.phases[0].collisions[0].words[1], 128u);
  EXPECT_EQ(c.phases[0].collisions[0].word_lanes[1], std::vector<int>{1});
}

TEST(BankModel, Consecutive4BIsOneWavefront) {
  const AccessCost c = analyze(make_access(4, lanes_times(4)));
  EXPECT_EQ(c.wavefronts, 1);
  EXPECT_EQ(c.ideal, 1);
  EXPECT_TRUE(c.phases[0].collisions.empty());
}

TEST(BankModel, Stride2WordsIsTwoWay) {
  // Lane t reads word 2t: banks 0,2,..,30 for lanes 0-15, the same banks again (words
  // 32..62) for lanes 16-31: 2 words per used bank. 32 distinct words: ideal 1.
  const AccessCost c = analyze(make_access(4, lanes_times(8)));
  EXPECT_EQ(c.wavefronts, 2);
  EXPECT_EQ(c.ideal, 1);
  EXPECT_EQ(c.phases[0].collisions.size(), 16u);
}

TEST(BankModel, SameWordIsABroadcastForLoadsAndOneWinnerForStores) {
  for (AccessKind kind : {AccessKind::Load, AccessKind::Store}) {
    const AccessCost c = analyze(make_access(4, std::vector<uint64_t>(32, 64), 0xFFFFFFFFu, kind));
    EXPECT_EQ(c.wavefronts, 1);
    EXPECT_EQ(c.ideal, 1);
    EXPECT_EQ(c.conflicts(), 0);
  }
}

TEST(BankModel, Consecutive8BIsTwoPhasesOfOne) {
  // 8 B per lane: lanes 0-15 are one phase (128 bytes, words 0..31), 16-31 the next.
  const AccessCost c = analyze(make_access(8, lanes_times(8)));
  ASSERT_EQ(c.phases.size(), 2u);
  EXPECT_EQ(c.phases[0].lanes, 0x0000FFFFu);
  EXPECT_EQ(c.phases[1].lanes, 0xFFFF0000u);
  EXPECT_EQ(c.wavefronts, 2);
  EXPECT_EQ(c.ideal, 2);
}

TEST(BankModel, Stride16Bytes8BIsTwoWayPerPhase) {
  // Lane t reads words 4t, 4t+1. Phase 0: lanes 0-7 use banks {0,1,4,5,..,28,29};
  // lanes 8-15 the same banks (words 32..61): 2 per bank. Same in phase 1.
  const AccessCost c = analyze(make_access(8, lanes_times(16)));
  EXPECT_EQ(c.wavefronts, 4);
  EXPECT_EQ(c.ideal, 2);
}

TEST(BankModel, Consecutive16BIsFourPhasesOfOne) {
  const AccessCost c = analyze(make_access(16, lanes_times(16)));
  ASSERT_EQ(c.phases.size(), 4u);
  EXPECT_EQ(c.wavefronts, 4);
  EXPECT_EQ(c.ideal, 4);
}

TEST(BankModel, Stride128Bytes16BIsEightWayPerPhase) {
  // Lane t reads words 32t..32t+3: banks 0-3 for every lane; 8 lanes per phase.
  const AccessCost c = analyze(make_access(16, lanes_times(128)));
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.ideal, 4);
  ASSERT_EQ(c.phases[0].collisions.size(), 4u);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(c.phases[0].collisions[b].bank, b);
}

// docs/hardware.md#banks-repeats-across-phases: an 8/16-byte load whose lanes l and
// l ^ 2 ask for one address is served per 256-byte window; a store never is.
TEST(BankModel, LoadLanesPairedByXor2ShareOne256ByteWindow) {
  // 8 B, lane t reads chunk t % 2 (bytes 0-7 or 8-15: banks 0-3). Lanes t and t ^ 2
  // agree, so the warp is one phase asking for 4 words in 4 banks: 1 wavefront.
  std::vector<uint64_t> alternating(32);
  for (int t = 0; t < 32; ++t) alternating[t] = 8 * (t % 2);
  AccessCost c = analyze(make_access(8, alternating));
  ASSERT_EQ(c.phases.size(), 1u);
  EXPECT_EQ(c.phases[0].lanes, 0xFFFFFFFFu);
  EXPECT_EQ(c.wavefronts, 1);
  EXPECT_EQ(c.ideal, 1);
  // The same two chunks as 0 1 2 3 period: lane t reads chunk t % 4 (banks 0-7);
  // lanes t and t ^ 2 differ: two phases of 1 (the H200 measured 2).
  std::vector<uint64_t> period4(32);
  for (int t = 0; t < 32; ++t) period4[t] = 8 * (t % 4);
  c = analyze(make_access(8, period4));
  EXPECT_EQ(c.phases.size(), 2u);
  EXPECT_EQ(c.wavefronts, 2);
  // The previous rule merged only a uniform access: 2 for the alternating pattern.
  EXPECT_EQ(analyze(make_access(8, alternating), phases_h200_uniform_only).wavefronts, 2);
  // 16 B, lane t reads byte 128 * (t % 2): chunks 0 and 8, both in banks 0-3. Pairs
  // agree: windows lanes 0-15 and 16-31, each asking for 2 words of bank 0: 2 + 2.
  std::vector<uint64_t> same_banks(32);
  for (int t = 0; t < 32; ++t) same_banks[t] = 128 * (t % 2);
  c = analyze(make_access(16, same_banks));
  ASSERT_EQ(c.phases.size(), 2u);
  EXPECT_EQ(c.phases[0].lanes, 0x0000FFFFu);
  EXPECT_EQ(c.wavefronts, 4);
  EXPECT_EQ(c.conflicts(), 2);
  // One inactive lane whose partner is active: unmatched, the 128-byte phases (not
  // measured: the probe ran every lane).
  EXPECT_EQ(analyze(make_access(8, alternating, ~1u)).phases.size(), 2u);
}

TEST(BankModel, UniformLoadsMergeUniformStoresDoNot) {
  const std::vector<uint64_t> one_address(32, 64);
  EXPECT_EQ(analyze(make_access(8, one_address)).wavefronts, 1);
  EXPECT_EQ(analyze(make_access(16, one_address)).wavefronts, 2);
  // Stores: the 128-byte phases (the H200: 2 and 4), where the previous rule said 1 and 2.
  EXPECT_EQ(analyze(make_access(8, one_address, 0xFFFFFFFFu, AccessKind::Store)).wavefronts, 2);
  EXPECT_EQ(analyze(make_access(16, one_address, 0xFFFFFFFFu, AccessKind::Store)).wavefronts, 4);
  EXPECT_EQ(
      analyze(make_access(8, one_address, 0xFFFFFFFFu, AccessKind::Store), phases_h200_uniform_only).wavefronts, 1);
}

TEST(BankModel, InactiveLanesContributeNothing) {
  std::vector<uint64_t> addr = lanes_times(4);
  addr[1] = 128;  // same bank as lane 0, another word
  EXPECT_EQ(analyze(make_access(4, addr, 0xFFFFFFFFu)).wavefronts, 2);
  EXPECT_EQ(analyze(make_access(4, addr, ~2u)).wavefronts, 1);
  const AccessCost none = analyze(make_access(4, addr, 0));
  EXPECT_TRUE(none.phases.empty());
  EXPECT_EQ(none.wavefronts, 0);
  EXPECT_EQ(none.ideal, 0);
  // 16 B, only lanes 0-7 (ldmatrix.x1): one phase.
  EXPECT_EQ(analyze(make_access(16, lanes_times(16), 0xFFu)).phases.size(), 1u);
}

TEST(BankModel, ValidateRefusesBadWidthAndUnalignedActiveLanes) {
  try {
    analyze(make_access(2, lanes_times(2)));
    FAIL() << "width 2 accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("access width_bytes = 2"), std::string::npos) << e.what();
  }
  std::vector<uint64_t> addr = lanes_times(8);
  addr[5] = 44;  // not a multiple of 8
  try {
    analyze(make_access(8, addr));
    FAIL() << "unaligned 8-byte address accepted";
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("address of lane 5 = 44"), std::string::npos) << what;
    EXPECT_NE(what.find("8 bytes"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(analyze(make_access(8, addr, ~(1u << 5))));  // the bad lane is inactive
}

TEST(BankModel, PhaseRuleIsReplaceable) {
  // A rule serving every lane alone: 32 phases of one word each.
  PhaseRule one_lane_each = [](const WarpAccess&) {
    std::vector<uint32_t> m;
    for (int t = 0; t < 32; ++t) m.push_back(1u << t);
    return m;
  };
  const AccessCost c = analyze(make_access(4, lanes_times(4)), one_lane_each);
  EXPECT_EQ(c.phases.size(), 32u);
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.ideal, 32);
  PhaseRule overlapping = [](const WarpAccess&) { return std::vector<uint32_t>{0xFFFFFFFFu, 1u}; };
  EXPECT_THROW(analyze(make_access(4, lanes_times(4)), overlapping), ModelError);
  PhaseRule incomplete = [](const WarpAccess&) { return std::vector<uint32_t>{0xFFFFu}; };
  EXPECT_THROW(analyze(make_access(4, lanes_times(4)), incomplete), ModelError);
}

TEST(BankModel, SequenceCostsAdd) {
  const SequenceCost s = analyze(std::vector<WarpAccess>{make_access(4, lanes_times(128)), make_access(4, lanes_times(4))});
  EXPECT_EQ(s.instructions.size(), 2u);
  EXPECT_EQ(s.wavefronts, 33);
  EXPECT_EQ(s.ideal, 2);
  EXPECT_EQ(s.conflicts(), 31);
}

// -------------------------------------------------------------------- properties

RC_GTEST_PROP(BankModelProperty, AgreesWithPlainOracle, ()) {
  const WarpAccess a = any_access();
  const AccessCost c = analyze(a);
  const std::vector<OraclePhase> expected = oracle(a);
  RC_ASSERT(c.phases.size() == expected.size());
  int total = 0, ideal = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    RC_ASSERT(c.phases[i].wavefronts == expected[i].wavefronts);
    RC_ASSERT(c.phases[i].ideal == expected[i].ideal);
    total += expected[i].wavefronts;
    ideal += expected[i].ideal;
  }
  RC_ASSERT(c.wavefronts == total);
  RC_ASSERT(c.ideal == ideal);
}

RC_GTEST_PROP(BankModelProperty, WavefrontsAtLeastIdeal, ()) {
  const AccessCost c = analyze(any_access());
  RC_ASSERT(c.wavefronts >= c.ideal);
  for (const PhaseCost& p : c.phases) {
    RC_ASSERT(p.wavefronts >= p.ideal);
    // A bank listed as colliding really has more than one word; wavefronts are the largest.
    for (const BankCollision& b : p.collisions) {
      RC_ASSERT(b.words.size() > 1u);
      RC_ASSERT(static_cast<int>(b.words.size()) <= p.wavefronts);
    }
  }
}

RC_GTEST_PROP(BankModelProperty, SameWordBroadcastCostsNothingExtra, ()) {
  WarpAccess a = any_access();
  const auto phases = phase_lanes_of(a.width_bytes);
  const std::vector<int>& lanes = phases[*rc::gen::inRange<size_t>(0, phases.size())];
  const int i = lanes[*rc::gen::inRange<size_t>(0, lanes.size())];
  int j = lanes[*rc::gen::inRange<size_t>(0, lanes.size())];
  RC_PRE(i != j);
  a.active_mask |= 1u << i;
  a.active_mask &= ~(1u << j);
  const AccessCost before = analyze(a);
  a.address[j] = a.address[i];  // lane j joins, asking for lane i's words
  a.active_mask |= 1u << j;
  const AccessCost after = analyze(a);
  RC_ASSERT(after.wavefronts == before.wavefronts);
  RC_ASSERT(after.ideal == before.ideal);
}

RC_GTEST_PROP(BankModelProperty, PermutingLanesWithinAPhaseKeepsTheCost, ()) {
  const WarpAccess a = any_access();
  WarpAccess b = a;
  for (const std::vector<int>& lanes : phase_lanes_of(a.width_bytes)) {
    std::vector<int> order = lanes;
    // a random permutation of this phase's lanes
    for (size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[*rc::gen::inRange<size_t>(0, k)]);
    for (size_t k = 0; k < lanes.size(); ++k) {
      b.address[lanes[k]] = a.address[order[k]];
      b.active_mask = (b.active_mask & ~(1u << lanes[k])) | (((a.active_mask >> order[k]) & 1u) << lanes[k]);
    }
  }
  const AccessCost ca = analyze(a), cb = analyze(b);
  RC_ASSERT(ca.wavefronts == cb.wavefronts);
  RC_ASSERT(ca.ideal == cb.ideal);
  RC_ASSERT(ca.phases.size() == cb.phases.size());
  for (size_t p = 0; p < ca.phases.size(); ++p) RC_ASSERT(ca.phases[p].wavefronts == cb.phases[p].wavefronts);
}

RC_GTEST_PROP(BankModelProperty, DistinctBanksGiveOneWavefrontPerPhase, ()) {
  // Each lane of a phase gets its own group of width/4 banks (a random permutation of
  // the 32/(width/4) groups) and a random row: no two lanes of a phase share a bank.
  WarpAccess a;
  a.width_bytes = *rc::gen::elementOf(std::vector<int>{4, 8, 16});
  a.active_mask = *rc::gen::arbitrary<uint32_t>();
  const int words_per_lane = a.width_bytes / 4;
  int phases_with_active_lanes = 0;
  for (const std::vector<int>& lanes : phase_lanes_of(a.width_bytes)) {
    std::vector<int> slot(lanes.size());
    std::iota(slot.begin(), slot.end(), 0);
    for (size_t k = slot.size(); k > 1; --k) std::swap(slot[k - 1], slot[*rc::gen::inRange<size_t>(0, k)]);
    bool any = false;
    for (size_t k = 0; k < lanes.size(); ++k) {
      const uint64_t row = *rc::gen::inRange<uint64_t>(0, 2000);
      a.address[lanes[k]] = (row * 32 + uint64_t(slot[k]) * words_per_lane) * 4;
      any = any || ((a.active_mask >> lanes[k]) & 1u);
    }
    phases_with_active_lanes += any;
  }
  const AccessCost c = analyze(a);
  RC_ASSERT(c.wavefronts == phases_with_active_lanes);
  RC_ASSERT(c.ideal == phases_with_active_lanes);
  for (const PhaseCost& p : c.phases) RC_ASSERT(p.collisions.empty());
}

RC_GTEST_PROP(BankModelProperty, KLanesToKDistinctWordsOfOneBankCostK, ()) {
  // 4-byte accesses: k lanes, bank b, k distinct rows (word = 32*row + b).
  const int bank = *rc::gen::inRange(0, 32);
  const int k = *rc::gen::inRange(1, 33);
  std::vector<int> lanes(32);
  std::iota(lanes.begin(), lanes.end(), 0);
  for (size_t n = lanes.size(); n > 1; --n) std::swap(lanes[n - 1], lanes[*rc::gen::inRange<size_t>(0, n)]);
  lanes.resize(k);
  std::set<uint64_t> rows;
  while (static_cast<int>(rows.size()) < k) rows.insert(*rc::gen::inRange<uint64_t>(0, 5000));
  WarpAccess a;
  a.active_mask = 0;
  auto row = rows.begin();
  for (int lane : lanes) {
    a.address[lane] = (*row++ * 32 + bank) * 4;
    a.active_mask |= 1u << lane;
  }
  const AccessCost c = analyze(a);
  RC_ASSERT(c.wavefronts == k);
  RC_ASSERT(c.ideal == 1);
  RC_ASSERT(c.conflicts() == k - 1);
  if (k > 1) {
    RC_ASSERT(c.phases[0].collisions.size() == 1u);
    RC_ASSERT(c.phases[0].collisions[0].bank == bank);
    std::sort(lanes.begin(), lanes.end());
    RC_ASSERT(c.phases[0].collisions[0].lanes == lanes);
  }
}

RC_GTEST_PROP(BankModelProperty, KRowsOf16BytesInOnePhaseCostK, ()) {
  // 16-byte accesses (ldmatrix rows): k lanes of one phase, same 16-byte column of
  // 128-byte-pitched rows: k distinct words in each of 4 banks -> k wavefronts.
  const int phase = *rc::gen::inRange(0, 4);
  const int k = *rc::gen::inRange(1, 9);
  const uint64_t chunk = *rc::gen::inRange<uint64_t>(0, 8);
  WarpAccess a;
  a.width_bytes = 16;
  a.active_mask = 0;
  for (int r = 0; r < k; ++r) {
    a.address[8 * phase + r] = uint64_t(r) * 128 + chunk * 16;
    a.active_mask |= 1u << (8 * phase + r);
  }
  const AccessCost c = analyze(a);
  RC_ASSERT(c.phases.size() == 1u);
  RC_ASSERT(c.wavefronts == k);
  RC_ASSERT(c.ideal == (4 * k + 31) / 32);
}
