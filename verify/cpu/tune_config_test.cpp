// The tunable kernel's configuration space (kernels/tune/config.hpp): the printed
// form, its parser's refusals, shared-memory budgets, shape rules, candidates and
// the heuristic. Expected values are written out by hand from the rules in the
// header comment and instances.hpp, not computed by the code under test.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "common/sm90_address.hpp"
#include "tune/config.hpp"

using namespace gemmscope::tune;

namespace {

std::string refusal(const std::string& text) {
  try {
    parse_config(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TuneConfig, PrintsTheDocumentedForm) {
  KernelConfig c;  // defaults: k08's configuration
  EXPECT_EQ(to_string(c), "128x256x64.s4.wg2.c2x1.static.g0.sk1");
  c.schedule = Schedule::Dynamic;
  c.group = 8;
  c.splits = 3;
  EXPECT_EQ(to_string(c), "128x256x64.s4.wg2.c2x1.dynamic.g8.sk3");
  c.schedule = Schedule::Static;
  c.splits = 1;
  c.stream_k = true;
  EXPECT_EQ(to_string(c), "128x256x64.s4.wg2.c2x1.static.g8.streamk");
  c.bn = 128;
  c.stages = 6;
  c.stream_k = false;
  c.pingpong = true;
  EXPECT_EQ(to_string(c), "128x128x64.s6.wg2pp.c2x1.static.g8.sk1");
}

TEST(TuneConfig, ParsesStreamK) {
  const KernelConfig c = parse_config("128x128x64.s6.wg2.c1x1.static.g0.streamk");
  EXPECT_TRUE(c.stream_k);
  EXPECT_EQ(c.splits, 1);
  EXPECT_GE(instance_index(c), 0);
  EXPECT_NE(refusal("128x128x64.s6.wg2.c2x1.dynamic.g0.streamk").find("stream-K needs the static schedule"),
            std::string::npos);
  EXPECT_NE(refusal("128x128x64.s6.wg2.c1x1.static.g0.streamK").find("split-K field 'streamK' must start with 'sk'"),
            std::string::npos);
  KernelConfig both = c;
  both.splits = 2;
  EXPECT_NE(shape_rules(both, {128, 4096, 4096}).find("exclude each other"), std::string::npos);
}

TEST(TuneConfig, ParsesCompiledInstances) {
  const KernelConfig c = parse_config("64x128x64.s8.wg1.c1x1.static.g16.sk4");
  EXPECT_EQ(c.bm, 64);
  EXPECT_EQ(c.bn, 128);
  EXPECT_EQ(c.stages, 8);
  EXPECT_EQ(c.consumers, 1);
  EXPECT_EQ(c.cluster_m, 1);
  EXPECT_EQ(c.group, 16);
  EXPECT_EQ(c.splits, 4);
  EXPECT_GE(instance_index(c), 0);
}

// Ping-pong: "wg2pp", BM = 128 only; a distinct compiled instance from the
// cooperative one of the same tile; split-K and stream-K as the cooperative ones
// (kernel version 5; version 4 refused them).
TEST(TuneConfig, ParsesPingPong) {
  const KernelConfig c = parse_config("128x128x64.s6.wg2pp.c2x1.static.g8.sk1");
  EXPECT_TRUE(c.pingpong);
  EXPECT_EQ(c.bm, 128);
  EXPECT_EQ(c.consumers, 2);
  EXPECT_EQ(c.group, 8);
  EXPECT_EQ(c.splits, 1);
  EXPECT_EQ(to_string(c), "128x128x64.s6.wg2pp.c2x1.static.g8.sk1");
  const KernelConfig cooperative = parse_config("128x128x64.s6.wg2.c2x1.static.g8.sk1");
  EXPECT_FALSE(cooperative.pingpong);
  EXPECT_GE(instance_index(c), 0);
  EXPECT_GE(instance_index(cooperative), 0);
  EXPECT_NE(instance_index(c), instance_index(cooperative));
  EXPECT_NE(refusal("64x128x64.s8.wg1pp.c1x1.static.g0.sk1").find("ping-pong (wg1pp) needs BM = 128 and 2 consumer warpgroups"),
            std::string::npos);
  // 128 x 256 has no ping-pong instance: two 128 x 256 fp32 accumulators do not fit
  // one warpgroup's registers.
  EXPECT_NE(refusal("128x256x64.s4.wg2pp.c2x1.static.g0.sk1").find("not a compiled instance"), std::string::npos);
  EXPECT_NE(refusal("128x128x64.s6.wgpp.c2x1.static.g0.sk1").find("consumer warpgroups = ''"), std::string::npos);
  EXPECT_EQ(parse_config("128x128x64.s6.wg2pp.c2x1.static.g0.sk3").splits, 3);
  EXPECT_TRUE(parse_config("128x128x64.s6.wg2pp.c1x2.static.g0.streamk").stream_k);
  KernelConfig cut = c;
  cut.splits = 2;
  EXPECT_EQ(shape_rules(cut, {512, 4096, 4096}), "");
  // 512x5376x4096 leaves a partial wave of 128 x 128 tiles: the sweep offers
  // ping-pong split-K and stream-K as it does the cooperative twin's.
  int cut_pingpong = 0;
  for (const KernelConfig& k : candidates({512, 5376, 4096}, 132)) cut_pingpong += k.pingpong && (k.splits > 1 || k.stream_k);
  EXPECT_GT(cut_pingpong, 0);
  EXPECT_NE(refusal("128x128x64.s6.wg2p.c2x1.static.g0.sk1").find("consumer warpgroups = '2p'"), std::string::npos);
}

// Swapped operands: a field `swap` after the tile, its own instances, and the kernel's
// problem with M and N exchanged (M = 777 in 160-wide steps: 5 tiles, 800 rows).
TEST(TuneConfig, ParsesSwappedOperandsAndCountsInTheKernelsShape) {
  const KernelConfig c = parse_config("128x160x64.swap.s5.wg2.c1x1.static.g0.sk2");
  EXPECT_TRUE(c.swap_ab);
  EXPECT_EQ(c.bn, 160);
  EXPECT_EQ(c.splits, 2);
  EXPECT_EQ(to_string(c), "128x160x64.swap.s5.wg2.c1x1.static.g0.sk2");
  EXPECT_GE(instance_index(c), 0);
  EXPECT_FALSE(parse_config("128x128x64.s6.wg2.c1x1.static.g0.sk1").swap_ab);
  EXPECT_NE(instance_index(parse_config("128x128x64.swap.s6.wg2.c1x1.static.g0.sk1")),
            instance_index(parse_config("128x128x64.s6.wg2.c1x1.static.g0.sk1")));
  EXPECT_NE(refusal("128x256x64.swap.s4.wg2.c2x1.static.g0.sk1").find("not a compiled instance"), std::string::npos);
  EXPECT_NE(refusal("128x160x64.s5.swap.wg2.c1x1.static.g0.sk1").find("expected 7 fields"), std::string::npos);
  EXPECT_EQ(parse_selection_item("128x160x64.swap.s5.wg2.c1x1.static"), "128x160x64.swap.s5.wg2.c1x1.static");
  // An instance's fields alone: group 0, no split, swapped or not.
  const KernelConfig alone = parse_config_or_instance("128x160x64.swap.s5.wg2.c1x1.static");
  EXPECT_TRUE(alone.swap_ab);
  EXPECT_EQ(alone.bm, 128);
  EXPECT_EQ(alone.bn, 160);
  EXPECT_EQ(alone.group, 0);
  EXPECT_EQ(alone.splits, 1);
  EXPECT_FALSE(alone.stream_k);
  EXPECT_EQ(parse_config_or_instance("128x128x64.s6.wg2.c1x1.static").stages, 6);
  EXPECT_EQ(parse_config_or_instance("128x160x64.swap.s5.wg2.c1x1.static.g8.sk2").splits, 2);
  EXPECT_TRUE(selected(c, {"128x160x64.swap.s5.wg2.c1x1.static"}));
  EXPECT_FALSE(selected(parse_config("128x128x64.s6.wg2.c1x1.static.g0.sk1"), {"128x128x64.swap.s6.wg2.c1x1.static"}));

  const Shape s{777, 4096, 12288};
  EXPECT_EQ(kernel_shape(c, s).m, 4096);
  EXPECT_EQ(kernel_shape(c, s).n, 777);
  const Decomposition d = decompose(c, s);
  EXPECT_EQ(d.tiles_m, 32);  // 4096 / 128 along N
  EXPECT_EQ(d.tiles_n, 5);   // ceil(777 / 160) along M
  // C's row stride is N's whatever the kernel's shape: M needs no multiple of 8.
  EXPECT_EQ(shape_rules(c, {777, 4096, 12288}), "");
  EXPECT_NE(shape_rules(c, {776, 4100, 12288}).find("N = 4100 must be a multiple of 8"), std::string::npos);
  // B's evict_first policy looks at the kernel's B, which is A: one row of 128 x 160
  // tiles covers N only where N <= 128.
  EXPECT_FALSE(evict_first_b(c, {1, 5376, 4096}, 50 << 20));
  EXPECT_TRUE(evict_first_b(c, {5376, 128, 4096}, 50 << 20));
  // 128-row swapped tiles are offered within one wave only: 32 x 4 tiles of 128 x 208
  // at M = 777, N = 4096; at N = 35840 the 128 x 160 tiles of M = 480 are 280 x 3,
  // several waves. 256-row ones at any wave count: 140 x 4 of 256 x 128 there.
  auto swapped = [](const Shape& shape, int bm) {
    int n = 0;
    for (const KernelConfig& k : candidates(shape, 132)) n += k.swap_ab && k.bm == bm;
    return n;
  };
  EXPECT_GT(swapped({777, 4096, 12288}, 128), 0);
  EXPECT_EQ(swapped({480, 35840, 5120}, 128), 0);
  EXPECT_GT(swapped({480, 35840, 5120}, 256), 0);
  for (const KernelConfig& k : candidates({777, 4096, 12288}, 132)) {
    if (!k.swap_ab || k.bm == 256) continue;
    const Decomposition dk = decompose(k, {777, 4096, 12288});
    EXPECT_LE(dk.units_m * dk.units_n, 132) << to_string(k);
  }
}

// `tune --configs`: whole configurations, or an instance's five fields for all of
// its candidates.
TEST(TuneConfig, SelectionsOfConfigurationsAndInstances) {
  EXPECT_EQ(parse_selection_item("128x128x64.s6.wg2pp.c2x1.static"), "128x128x64.s6.wg2pp.c2x1.static");
  EXPECT_EQ(parse_selection_item("128x128x64.s6.wg2.c2x1.static.g8.sk2"), "128x128x64.s6.wg2.c2x1.static.g8.sk2");
  EXPECT_THROW(parse_selection_item("128x256x64.s4.wg2pp.c2x1.static"), ConfigError);  // not compiled
  EXPECT_THROW(parse_selection_item("128x128x64.s6.wg2pp.c2x1"), ConfigError);         // 4 fields
  const std::vector<std::string> sel{"128x128x64.s6.wg2pp.c2x1.static", "64x128x64.s8.wg1.c2x1.static.g0.sk2"};
  EXPECT_TRUE(selected(parse_config("128x128x64.s6.wg2pp.c2x1.static.g0.sk1"), sel));
  EXPECT_TRUE(selected(parse_config("128x128x64.s6.wg2pp.c2x1.static.g8.sk1"), sel));
  EXPECT_FALSE(selected(parse_config("128x128x64.s6.wg2.c2x1.static.g0.sk1"), sel));  // cooperative
  EXPECT_TRUE(selected(parse_config("64x128x64.s8.wg1.c2x1.static.g0.sk2"), sel));
  EXPECT_FALSE(selected(parse_config("64x128x64.s8.wg1.c2x1.static.g0.sk3"), sel));
  EXPECT_FALSE(selected(parse_config("64x128x64.s8.wg1.c2x1.static.g0.sk2"), {}));
}

// What one sweep times: with a selection, the selected candidates plus the cache's
// entry for the shape, so the two are timed in the same interleaved run.
TEST(TuneConfig, SweepListAddsTheIncumbentToASelection) {
  const std::vector<KernelConfig> all{parse_config("128x256x64.s4.wg2.c2x1.static.g0.sk1"),
                                      parse_config("128x128x64.s6.wg2pp.c2x1.static.g0.sk1"),
                                      parse_config("128x128x64.s6.wg2pp.c2x1.static.g8.sk1"),
                                      parse_config("64x128x64.s8.wg1.c2x1.static.g0.sk2")};
  auto names = [](const std::vector<KernelConfig>& list) {
    std::vector<std::string> out;
    for (const auto& c : list) out.push_back(to_string(c));
    return out;
  };
  using V = std::vector<std::string>;
  const std::string held = "128x256x64.s4.wg2.c2x1.static.g0.sk1";
  // No selection: every candidate not excluded; the incumbent changes nothing.
  EXPECT_EQ(names(sweep_list(all, {}, {}, held)).size(), 4u);
  EXPECT_EQ(names(sweep_list(all, {"64x128x64.s8.wg1.c2x1.static.g0.sk2"}, {}, "")),
            (V{held, "128x128x64.s6.wg2pp.c2x1.static.g0.sk1", "128x128x64.s6.wg2pp.c2x1.static.g8.sk1"}));
  // A selection: its candidates, and the incumbent in candidates' order.
  const V sel{"128x128x64.s6.wg2pp.c2x1.static"};
  EXPECT_EQ(names(sweep_list(all, {}, sel, held)),
            (V{held, "128x128x64.s6.wg2pp.c2x1.static.g0.sk1", "128x128x64.s6.wg2pp.c2x1.static.g8.sk1"}));
  EXPECT_EQ(names(sweep_list(all, {}, sel, "")),
            (V{"128x128x64.s6.wg2pp.c2x1.static.g0.sk1", "128x128x64.s6.wg2pp.c2x1.static.g8.sk1"}));
  // An incumbent that is not one of the shape's candidates is not added.
  EXPECT_EQ(names(sweep_list(all, {}, sel, "128x192x64.s4.wg2.c2x1.static.g0.sk1")).size(), 2u);
  // One that failed earlier in the sweep stays out.
  EXPECT_EQ(names(sweep_list(all, {held}, sel, held)).size(), 2u);
}

// The refine round's candidates: the fastest few within the spread, fastest first.
TEST(TuneConfig, RefinePicksTheFastestFewWithinTheSpread) {
  using V = std::vector<size_t>;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const std::vector<double> medians{1.08, 1.00, 1.20, nan, 1.02, inf, 1.05};
  EXPECT_EQ(refine_picks(medians, 3, 0.10), (V{1, 4, 6}));
  EXPECT_EQ(refine_picks(medians, 5, 0.10), (V{1, 4, 6, 0}));  // 1.20 is out of the 10%
  EXPECT_EQ(refine_picks(medians, 5, 0.03), (V{1, 4}));
  EXPECT_EQ(refine_picks(medians, 5, 0.01), V{});  // only the fastest: nothing to decide
  EXPECT_EQ(refine_picks(medians, 1, 0.10), V{});
  EXPECT_EQ(refine_picks(medians, 0, 0.10), V{});
  EXPECT_EQ(refine_picks({nan, 1.0, inf}, 3, 1.0), V{});
  EXPECT_EQ(refine_picks({}, 3, 0.1), V{});
  // Ties keep the candidates' order.
  EXPECT_EQ(refine_picks({2.0, 1.0, 1.0, 1.0}, 2, 0.0), (V{1, 2}));
}

TEST(TuneConfig, RefusalsNameTheFieldAndValue) {
  EXPECT_NE(refusal("128x256x64.s4.wg2.c2x1.static.g0").find("expected 7 fields"), std::string::npos);
  EXPECT_NE(refusal("128x256.s4.wg2.c2x1.static.g0.sk1").find("must be BMxBNxBK"), std::string::npos);
  EXPECT_NE(refusal("128x256x64.s4.wg2.c2x1.sometimes.g0.sk1").find("schedule 'sometimes'"), std::string::npos);
  EXPECT_NE(refusal("128x256x64.s4.wg2.c2x1.static.g0.sk0").find("split-K = 0"), std::string::npos);
  EXPECT_NE(refusal("128x256x64.s4.wg2.c2x1.static.g-1.sk1").find("group = '-1'"), std::string::npos);
  EXPECT_NE(refusal("128x256x64.s4.wg1.c2x1.static.g0.sk1").find("BM = 128 needs 2 consumer warpgroups"),
            std::string::npos);
  EXPECT_NE(refusal("256x128x64.s4.wg4.c1x1.static.g0.sk1").find("BM = 256 needs 2 consumer warpgroups"),
            std::string::npos);
  EXPECT_NE(refusal("128x256x64.s9.wg2.c2x1.static.g0.sk1").find("not a compiled instance"), std::string::npos);
  EXPECT_NE(refusal("128x256x64.x4.wg2.c2x1.static.g0.sk1").find("must start with 's'"), std::string::npos);
  EXPECT_NE(refusal(std::string("128x256x64.s4.wg2.c2x1.static.g0.sk\x01", 36)).find("\\x01"), std::string::npos);
}

TEST(TuneConfig, EveryCompiledInstanceFitsSharedMemory) {
  // stages x (BM + BN) x BK x 2 bytes of ring + consumers x buffers x 64 x (64 or, for
  // a BN that is not a multiple of 64, 32, or for one that is not a multiple of 32,
  // 16, or for 168, 56) x 2 bytes of staging + 1 KiB for the barriers (rounded up) +
  // 1 KiB of alignment slack, which must fit sm_90's 227 KiB. Buffers: 2, or one per
  // box and consumer warpgroup where there are more than 2 boxes and they all fit next
  // to the ring with those 2 KiB, and each warpgroup holds one 64-row half (BM up to
  // 128). Consumers: one per 64 rows, two of 128 rows at BM = 256.
  for (const auto& c : compiled_instances()) {
    const int64_t ring = int64_t{c.stages} * (c.bm + c.bn) * c.bk * 2;
    const int box = c.bn % 64 == 0 ? 64 : c.bn % 32 == 0 ? 32 : c.bn % 16 == 0 ? 16 : c.bn % 56 == 0 ? 56 : 8;
    const int boxes = c.bn / box;
    const bool per_box =
        c.bm <= 128 && boxes > 2 && ring + int64_t{c.consumers} * boxes * 64 * box * 2 + 2048 <= 232448;
    const int64_t staging = int64_t{c.consumers} * (per_box ? boxes : 2) * 64 * box * 2;
    EXPECT_EQ(shared_memory_bytes(c), ring + staging + 2048) << to_string(c);
    EXPECT_LE(shared_memory_bytes(c), kSm90MaxSharedPerBlock) << to_string(c);
    EXPECT_EQ(c.consumers, c.bm == 64 ? 1 : 2) << to_string(c);
    EXPECT_TRUE(c.bk == 64 || c.bk == 128) << to_string(c);  // one or two 128-byte swizzle rows
  }
  // k08's own configuration is compiled (the tuner can always fall back to it).
  EXPECT_GE(instance_index(KernelConfig{}), 0);
}

// k10's staging buffers, counted by hand for the instances where the rule bites:
//   64x96x128 s5: 5 x (64 + 96) x 128 x 2 = 200 KiB of ring + 3 boxes x 4 KiB fit in
//   227 KiB: 3 buffers; 64x192x64 s6: 192 KiB + 3 x 8 KiB: 3; 64x256x64 s5: 200 KiB
//   + 4 x 8 KiB = 232 KiB do not: 2; 64x128: 2 boxes, 2 buffers either way.
//   Two consumer warpgroups need a buffer per box each: 128x192x64 s4: 160 KiB + 2 x 3
//   x 8 KiB = 208 KiB: 3; 128x160x64 s5 (32-column boxes): 180 KiB + 2 x 5 x 4 KiB =
//   220 KiB: 5; 128x168x64 s5 (56-column boxes): 185 KiB + 2 x 3 x 7 KiB = 227 KiB,
//   with the barriers and the slack over: 2; 128x256x64 s4: 192 + 64 KiB: 2.
// The batched epilogue (one barrier per warpgroup for the whole tile) runs where every
// box has its own buffer, except in ping-pong (a warpgroup's tile is two 64-row halves).
TEST(TuneConfig, StagingBuffersPerBoxWhereTheTileFits) {
  namespace ks = gemmscope::sm90;
  EXPECT_EQ(ks::k10_staging_buffers(64, 96, 128, 5), 3);
  EXPECT_EQ(ks::k10_staging_buffers(64, 96, 64, 10), 3);
  EXPECT_EQ(ks::k10_staging_buffers(64, 192, 64, 6), 3);
  EXPECT_EQ(ks::k10_staging_buffers(64, 256, 64, 5), 2);
  EXPECT_EQ(ks::k10_staging_buffers(64, 128, 64, 8), 2);
  EXPECT_EQ(ks::k10_staging_buffers(128, 192, 64, 4), 3);
  EXPECT_EQ(ks::k10_staging_buffers(128, 160, 64, 5), 5);
  EXPECT_EQ(ks::k10_staging_buffers(128, 168, 64, 5), 2);
  EXPECT_EQ(ks::k10_staging_buffers(128, 256, 64, 4), 2);
  EXPECT_EQ(ks::k10_staging_buffers(128, 224, 64, 4), 2);
  EXPECT_EQ(ks::k10_staging_buffers(128, 176, 64, 5), 2);
  EXPECT_TRUE(ks::k10_batched_epilogue(64, 96, 128, 5, false));
  EXPECT_TRUE(ks::k10_batched_epilogue(64, 128, 64, 8, false));
  EXPECT_TRUE(ks::k10_batched_epilogue(64, 64, 128, 6, false));
  EXPECT_FALSE(ks::k10_batched_epilogue(64, 256, 64, 5, false));
  EXPECT_TRUE(ks::k10_batched_epilogue(128, 128, 64, 6, false));
  EXPECT_FALSE(ks::k10_batched_epilogue(128, 128, 64, 6, true));
  EXPECT_TRUE(ks::k10_batched_epilogue(128, 192, 64, 4, false));
  EXPECT_TRUE(ks::k10_batched_epilogue(128, 160, 64, 5, false));
  EXPECT_FALSE(ks::k10_batched_epilogue(128, 168, 64, 5, false));
  EXPECT_FALSE(ks::k10_batched_epilogue(128, 256, 64, 4, false));
  // The deferred epilogue: the alternating cooperative tiles of 128 rows.
  EXPECT_TRUE(ks::k10_deferred_epilogue(128, 256, 64, 4, false));
  EXPECT_TRUE(ks::k10_deferred_epilogue(128, 224, 64, 4, false));
  EXPECT_TRUE(ks::k10_deferred_epilogue(128, 176, 64, 5, false));
  EXPECT_TRUE(ks::k10_deferred_epilogue(128, 168, 64, 5, false));
  EXPECT_FALSE(ks::k10_deferred_epilogue(64, 256, 64, 5, false));
  EXPECT_FALSE(ks::k10_deferred_epilogue(128, 128, 64, 6, true));
  EXPECT_FALSE(ks::k10_deferred_epilogue(128, 128, 64, 6, false));
  EXPECT_FALSE(ks::k10_deferred_epilogue(128, 192, 64, 4, false));
  for (const auto& c : compiled_instances()) {
    const int buffers = ks::k10_staging_buffers(c.bm, c.bn, c.bk, c.stages);
    const int boxes = c.bn / ks::store_box_cols(c.bn);
    EXPECT_TRUE(buffers == 2 || buffers == boxes) << to_string(c);
    EXPECT_EQ(ks::k10_deferred_epilogue(c.bm, c.bn, c.bk, c.stages, c.pingpong),
              !c.pingpong && boxes > buffers && c.bm == 128)
        << to_string(c);
    EXPECT_LE(ks::k10_shared_bytes(c.bm, c.bn, c.bk, c.stages, buffers), 232448) << to_string(c);
    EXPECT_EQ(ks::k10_batched_epilogue(c.bm, c.bn, c.bk, c.stages, c.pingpong),
              !c.pingpong && c.bm <= 128 && boxes <= buffers)
        << to_string(c);
  }
}

TEST(TuneConfig, ShapeRules) {
  const KernelConfig c = parse_config("128x256x64.s4.wg2.c2x1.static.g0.sk4");
  EXPECT_EQ(shape_rules(c, {128, 4096, 4096}), "");
  EXPECT_NE(shape_rules(c, {128, 4096, 4100}).find("K = 4100 must be a multiple of 8"), std::string::npos);
  EXPECT_NE(shape_rules(c, {128, 4100, 4096}).find("N = 4100 must be a multiple of 8"), std::string::npos);
  // K = 192: three 64-wide k-blocks, so at most 3 splits.
  EXPECT_NE(shape_rules(c, {128, 4096, 192}).find("split-K = 4 exceeds the 3 k-blocks"), std::string::npos);
  // BK = 128: K = 200 is two k-blocks (the second partly past K, zero-filled by TMA).
  const KernelConfig deep = parse_config("64x96x128.s5.wg1.c2x1.static.g0.sk3");
  EXPECT_GE(instance_index(deep), 0);
  EXPECT_EQ(decompose(deep, {128, 5376, 200}).k_blocks, 2);
  EXPECT_NE(shape_rules(deep, {128, 5376, 200}).find("split-K = 3 exceeds the 2 k-blocks of 128 in K = 200"),
            std::string::npos);
  EXPECT_EQ(shape_rules(deep, {128, 5376, 264}), "");
}

TEST(TuneConfig, Decomposition) {
  const KernelConfig c = parse_config("128x256x64.s4.wg2.c2x1.static.g0.sk3");
  const Decomposition d = decompose(c, {300, 1000, 1000});
  EXPECT_EQ(d.tiles_m, 3);   // ceil(300 / 128)
  EXPECT_EQ(d.tiles_n, 4);   // ceil(1000 / 256)
  EXPECT_EQ(d.units_m, 2);   // ceil(3 / 2): clusters of 2 along M
  EXPECT_EQ(d.k_blocks, 16); // ceil(1000 / 64)
  EXPECT_EQ(d.work, 2 * 4 * 3);
  // Clusters along N: pairs of N tiles share A.
  const Decomposition dn = decompose(parse_config("128x128x64.s6.wg2.c1x2.static.g0.sk1"), {300, 1000, 1000});
  EXPECT_EQ(dn.tiles_m, 3);
  EXPECT_EQ(dn.tiles_n, 8);   // ceil(1000 / 128)
  EXPECT_EQ(dn.units_m, 3);
  EXPECT_EQ(dn.units_n, 4);   // ceil(8 / 2)
  EXPECT_EQ(dn.work, 12);
}

TEST(TuneConfig, EvictFirstBWhereOneClusterRowReadsBOnceAndBIsAtMostFiveL2s) {
  constexpr int64_t kL2 = 50 << 20;  // the H200's 50 MiB
  const KernelConfig decode = parse_config("64x96x64.s10.wg1.c2x1.static.g0.sk1");  // 128 rows per cluster
  EXPECT_TRUE(evict_first_b(decode, {128, 5376, 4096}, kL2));    // one cluster row; B 44 MB
  EXPECT_TRUE(evict_first_b(decode, {100, 5376, 4096}, kL2));    // ragged M, still one row
  EXPECT_FALSE(evict_first_b(decode, {129, 5376, 4096}, kL2));   // two cluster rows: B is read twice
  EXPECT_TRUE(evict_first_b(decode, {128, 5376, 21504}, kL2));   // B 231 MB <= 250 MiB
  EXPECT_FALSE(evict_first_b(decode, {128, 8192, 28672}, kL2));  // B 470 MB > 250 MiB
  // B = 5 L2s exactly is in, one row more is out: n * k * 2 = 5 * 50 MiB at n = 2560, k = 51200.
  EXPECT_TRUE(evict_first_b(decode, {128, 2560, 51200}, kL2));
  EXPECT_FALSE(evict_first_b(decode, {128, 2561, 51200}, kL2));
  // 128-row tiles along N: one cluster row up to M = 128; 2x1 clusters of them up to 256.
  EXPECT_TRUE(evict_first_b(parse_config("128x256x64.s4.wg2.c1x2.static.g0.sk1"), {128, 28672, 4096}, kL2));
  EXPECT_FALSE(evict_first_b(parse_config("128x256x64.s4.wg2.c1x2.static.g0.sk1"), {256, 28672, 4096}, kL2));
  EXPECT_TRUE(evict_first_b(parse_config("128x128x64.s6.wg2.c2x1.static.g0.sk2"), {256, 4096, 4096}, kL2));
  EXPECT_FALSE(evict_first_b(parse_config("128x168x64.s5.wg2.c2x1.static.g0.sk1"), {512, 5376, 4096}, kL2));
}

RC_GTEST_PROP(TuneConfig, PrintParseRoundTrip, ()) {
  const auto& all = compiled_instances();
  KernelConfig c = all[*rc::gen::inRange<size_t>(0, all.size())];
  c.group = *rc::gen::inRange(0, 1 << 16);
  c.splits = *rc::gen::inRange(1, 65);
  if (c.schedule == Schedule::Static && *rc::gen::arbitrary<bool>()) c.splits = 1, c.stream_k = true;
  RC_ASSERT(parse_config(to_string(c)) == c);
}

RC_GTEST_PROP(TuneConfig, CandidatesAndHeuristicCanRun, ()) {
  const Shape s{*rc::gen::inRange<int64_t>(1, 20000), 8 * *rc::gen::inRange<int64_t>(1, 8000),
                8 * *rc::gen::inRange<int64_t>(1, 4000)};
  const int sms = *rc::gen::element(78, 114, 132);
  const auto list = candidates(s, sms);
  RC_ASSERT(!list.empty());
  std::set<std::string> names;
  for (const auto& c : list) {
    RC_ASSERT(shape_rules(c, s).empty());
    RC_ASSERT(instance_index(c) >= 0);
    RC_ASSERT(names.insert(to_string(c)).second);  // no duplicates
  }
  const KernelConfig h = heuristic(s, sms);
  RC_ASSERT(names.count(to_string(h)) == 1);
}

TEST(TuneConfig, CandidatesOfferSplitKOnlyWhereTheLastWaveIsPartial) {
  // 1024 x 8192 with 128 x 256 tiles in 2 x 1 clusters on 128 SMs: 4 x 32 = 128 work
  // tiles on 64 cluster slots, two whole waves: that instance gets no split-K.
  for (const auto& c : candidates({1024, 8192, 8192}, 128))
    if (c.bm == 128 && c.bn == 256 && c.cluster_m == 2 && c.cluster_n == 1) EXPECT_EQ(c.splits, 1) << to_string(c);
  // Wherever split-K is offered, the plan (with as many workers as SMs / cluster)
  // has tiles to split.
  for (const Shape s : {Shape{128, 4096, 4096}, Shape{8192, 8192, 8192}, Shape{512, 5376, 21504}})
    for (const auto& c : candidates(s, 132))
      if (c.splits > 1) EXPECT_GT(split_plan(c, s, 132 / (c.cluster_m * c.cluster_n)).split_tiles, 0) << to_string(c);
  // 128 x 4096 x 4096 with 128 x 256 tiles: 16 tiles for 132 SMs: split-K offered.
  bool split = false;
  for (const auto& c : candidates({128, 4096, 4096}, 132)) split |= c.splits > 1;
  EXPECT_TRUE(split);
  // 512 x 10240 x 8192 with 128 x 256 tiles in 2 x 1 clusters: 2 x 40 = 80 work tiles
  // on 66 cluster slots, a second wave 14/66 full: split-K offered for the remainder.
  bool ragged = false;
  for (const auto& c : candidates({512, 10240, 8192}, 132))
    ragged |= to_string(c) == "128x256x64.s4.wg2.c2x1.static.g0.sk2";
  EXPECT_TRUE(ragged);
}

TEST(TuneConfig, SplitPlan) {
  KernelConfig c = parse_config("128x64x64.s8.wg2.c1x1.static.g0.sk3");
  // 1100 x 1600: 9 x 25 = 225 tiles on 132 workers: one full wave of 132 whole
  // tiles, the other 93 split 3 ways: 132 + 279 units.
  SplitPlan p = split_plan(c, {1100, 1600, 1024}, 132);
  EXPECT_EQ(p.tiles, 225);
  EXPECT_EQ(p.dp_tiles, 132);
  EXPECT_EQ(p.split_tiles, 93);
  EXPECT_EQ(p.units, 132 + 93 * 3);
  // Fewer tiles than workers: all split.
  p = split_plan(c, {128, 1024, 4096}, 132);
  EXPECT_EQ(p.tiles, 16);
  EXPECT_EQ(p.dp_tiles, 0);
  EXPECT_EQ(p.split_tiles, 16);
  EXPECT_EQ(p.units, 48);
  // Whole waves only (264 = 2 x 132 tiles): nothing to split.
  p = split_plan(c, {128 * 11, 64 * 24, 4096}, 132);
  EXPECT_EQ(p.tiles, 264);
  EXPECT_EQ(p.split_tiles, 0);
  EXPECT_EQ(p.units, 264);
  // No split-K: every tile whole.
  c.splits = 1;
  p = split_plan(c, {1100, 1600, 1024}, 132);
  EXPECT_EQ(p.dp_tiles, 225);
  EXPECT_EQ(p.units, 225);
}

TEST(TuneConfig, InstanceNameDropsTheRunTimeFields) {
  EXPECT_EQ(instance_name("128x128x64.s6.wg2.c2x1.static.g8.sk2"), "128x128x64.s6.wg2.c2x1.static");
  EXPECT_EQ(instance_name("128x160x64.swap.s5.wg2.c1x1.static.g0.streamk"), "128x160x64.swap.s5.wg2.c1x1.static");
  // Not compiled here (a 64 x 32 tile of another build): the name alone is enough.
  EXPECT_EQ(instance_name("64x32x128.swap.s9.wg1.c1x1.static.g8.sk1"), "64x32x128.swap.s9.wg1.c1x1.static");
  EXPECT_EQ(instance_name("128x128x64.s6.wg2.c2x1.static"), "128x128x64.s6.wg2.c2x1.static");
}

TEST(TuneConfig, StreamKPlan) {
  const KernelConfig c = parse_config("128x64x64.s8.wg2.c1x1.static.g0.streamk");
  // 225 tiles on 132 workers: remainder 93 plus one full wave = 225 stream-K tiles,
  // none whole; 225 x 16 k-blocks over 132 workers.
  SplitPlan p = split_plan(c, {1100, 1600, 1024}, 132);
  EXPECT_EQ(p.dp_tiles, 0);
  EXPECT_EQ(p.sk_tiles, 225);
  EXPECT_EQ(p.sk_workers, 132);
  EXPECT_EQ(p.split_tiles, 0);
  EXPECT_EQ(p.units, 132);
  // 8 x 50 = 400 = 3 x 132 + 4 tiles: the remainder 4 and one full wave, 136 tiles,
  // are stream-K; the first 264 run whole.
  p = split_plan(c, {1024, 3200, 1024}, 132);
  EXPECT_EQ(p.tiles, 400);
  EXPECT_EQ(p.dp_tiles, 264);
  EXPECT_EQ(p.sk_tiles, 136);
  EXPECT_EQ(p.sk_workers, 132);
  // 16 tiles of 2 k-blocks (K = 128): 32 k-blocks, so only 32 workers take part.
  p = split_plan(c, {128, 1024, 128}, 132);
  EXPECT_EQ(p.sk_tiles, 16);
  EXPECT_EQ(p.sk_workers, 32);
  EXPECT_EQ(p.units, 32);
  // Whole waves: nothing to balance.
  p = split_plan(c, {128 * 11, 64 * 24, 4096}, 132);
  EXPECT_EQ(p.dp_tiles, 264);
  EXPECT_EQ(p.sk_tiles, 0);
  EXPECT_EQ(p.units, 132);
}

TEST(TuneConfig, CandidatesOfferStreamKWhereTheLastWaveIsPartial) {
  // 128 x 6144 x 4096: 48 tiles of 128 x 128 for 132 SMs: stream-K offered; never
  // with the dynamic schedule.
  bool offered = false;
  for (const auto& c : candidates({128, 6144, 4096}, 132)) {
    offered |= to_string(c) == "128x128x64.s6.wg2.c1x1.static.g0.streamk";
    if (c.stream_k) EXPECT_EQ(c.schedule, Schedule::Static) << to_string(c);
  }
  EXPECT_TRUE(offered);
  // Two whole waves for 128 x 256 in 2 x 1 clusters on 128 SMs: not for that instance.
  for (const auto& c : candidates({1024, 8192, 8192}, 128))
    if (c.bm == 128 && c.bn == 256 && c.cluster_m == 2 && c.cluster_n == 1) EXPECT_FALSE(c.stream_k) << to_string(c);
}

// The heuristic against what the GPUs measured (H200 unless a pair says otherwise;
// docs/experiments.md): where one configuration ran clearly faster than another on
// the same shape, the model must rank it faster too.
// The grouped order is credited only where it changes what a wave touches: at 7013 rows
// one wave of 2x1 clusters of 128 x 192 along M spans all 7013 rows of A and three
// columns of B (35 MB), a band of 8 work rows 2048 rows and nine columns (17 MB). A grid one
// work tile wide walks the same tiles in either order; one wave has nothing to reuse;
// and 1x1 clusters ran no faster grouped (grouped_order_pays).
TEST(TuneConfig, GroupedOrderCreditFollowsWhatAWaveTouches) {
  const KernelConfig grouped = parse_config("128x192x64.s4.wg2.c2x1.static.g8.sk1");
  EXPECT_TRUE(grouped_order_pays(grouped, {7013, 4352, 2304}, 132));
  EXPECT_FALSE(grouped_order_pays(parse_config("128x192x64.s4.wg2.c2x1.static.g0.sk1"), {7013, 4352, 2304}, 132));
  EXPECT_FALSE(grouped_order_pays(parse_config("128x192x64.s4.wg2.c1x1.static.g8.sk1"), {7013, 4352, 2304}, 132));
  EXPECT_FALSE(grouped_order_pays(grouped, {32768, 192, 4096}, 132));  // one work tile wide
  EXPECT_FALSE(grouped_order_pays(grouped, {4096, 768, 8192}, 132));   // 64 work tiles, one wave
  EXPECT_FALSE(grouped_order_pays(grouped, {2600, 6656, 1024}, 132));  // a wave touches 8 MB
}

TEST(TuneConfig, HeuristicRanksAsMeasured) {
  struct Measured {
    Shape shape;
    const char* faster;
    const char* slower;
  };
  const Measured pairs[] = {
      // Stream-K over 128 tiles of 128 x 256 lost to whole tiles: 0.810 vs 0.985.
      {{2048, 4096, 4096}, "128x256x64.s4.wg2.c2x1.static.g0.sk1", "128x256x64.s4.wg2.c2x1.static.g0.streamk"},
      // Long K, operands beyond L2: 0.813 (stream-K) vs 0.983 (128 x 192, split-K 2).
      {{2048, 5376, 21504}, "128x192x64.s4.wg2.c2x1.static.g0.sk2", "128x256x64.s4.wg2.c2x1.static.g0.streamk"},
      // Decode: 16 tiles split 8 ways lost to 128 x 64 tiles split 2 ways: 0.531 vs 0.841.
      {{128, 4096, 4096}, "128x64x64.s8.wg2.c1x1.static.g0.sk2", "128x256x64.s4.wg2.c1x1.static.g0.sk8"},
      // Stream-K on the same 128 x 128 tile lost to split-K 2: 0.648 vs 0.764.
      {{128, 6144, 4096}, "128x128x64.s6.wg2.c1x1.static.g0.sk2", "128x128x64.s6.wg2.c1x1.static.g0.streamk"},
      // Kernel version 4 (2026-11-30, the runs kept at `673f16c`): 896 tiles of
      // 128 x 128 in 6.8 waves beat 448 of 128 x 256 in 3.4 waves: 0.932 vs 0.884.
      {{512, 28672, 4096}, "128x128x64.s6.wg2.c2x1.static.g0.sk1", "128x256x64.s4.wg2.c2x1.static.g0.sk1"},
      // Stages of two k-blocks at decode (2026-11-30, one run, kept at `bc13f48`):
      // 64 x 96 in 5 stages of BK = 128 against 10 of BK = 64: 0.931 vs 0.869 at
      // 128x5376x4096; 64 x 64, 6 of 128 against 12 of 64: 1.001 vs 0.848 at 128x4096x4096.
      {{128, 5376, 4096}, "64x96x128.s5.wg1.c2x1.static.g0.sk1", "64x96x64.s10.wg1.c2x1.static.g0.sk1"},
      {{128, 4096, 4096}, "64x64x128.s6.wg1.c2x1.static.g0.sk1", "64x64x64.s12.wg1.c2x1.static.g0.sk1"},
      // The calibration set (bench/results/calibration, 2026-12-04), us: A multicast along N
      // fills the rows past M: 46.4 (64 x 128 in 2 x 1) vs 67.0 (128 x 256 in 1 x 2).
      {{5, 6656, 11776}, "64x128x128.s4.wg1.c2x1.static.g0.sk1", "128x256x64.s4.wg2.c1x2.static.g0.sk2"},
      // Decode: twice the tiles of 128 x 256 stream B faster, 21.3 vs 31.2.
      {{1, 12800, 2560}, "64x128x64.s8.wg1.c1x1.static.g0.sk1", "128x256x64.s4.wg2.c1x1.static.g0.sk1"},
      // Whole tiles on 100 SMs against split-K 2 of 128 x 256: 79.5 vs 91.9.
      {{9, 12800, 11776}, "64x128x64.s8.wg1.c1x1.static.g0.sk1", "128x256x64.s4.wg2.c1x2.static.g0.sk2"},
      // One consumer warpgroup where its tiles span clusters along M (H100, 2026-12-05;
      // bench/results/calibration, us): 128-row tiles split 2 ways at long K beat one
      // wave of 64-row tiles, 49.0 vs 63.5, and whole 128 x 64 tiles beat 64 x 128,
      // 13.5 vs 14.5.
      {{420, 2560, 11264}, "128x160x64.s5.wg2.c2x1.static.g0.sk2", "64x168x64.s7.wg1.c2x1.static.g0.sk1"},
      {{181, 3328, 2304}, "128x64x64.s8.wg2.c2x1.static.g0.sk1", "64x128x64.s8.wg1.c2x1.static.g0.sk1"},
      // Where one cluster of 64-row tiles covers M, they stay ahead: 39.2 vs 52.3.
      {{112, 6656, 6912}, "64x128x64.s8.wg1.c2x1.static.g0.sk1", "128x64x64.s8.wg2.c2x1.static.g0.sk1"},
      // 64 x 96 swapped in 4x2 clusters, where one cluster covers M (H100, 2026-12-06,
      // us): it beats the picks before it at M = 150-165, 16.0 vs 20.3 and 17.1 vs 18.3;
      // not past one wave of its clusters (16 of 15 at N = 4096), 14.5 vs 19.1, nor at
      // M = 120, where a 64-row tile covers M unswapped, 13.4 vs 14.8.
      {{150, 2816, 4096}, "64x96x64.swap.s10.wg1.c4x2.static.g0.sk1", "64x128x64.s8.wg1.c1x1.static.g0.sk2"},
      {{165, 3584, 4096}, "64x96x64.swap.s10.wg1.c4x2.static.g0.sk1", "128x64x64.s8.wg2.c2x1.static.g0.sk1"},
      {{160, 4096, 2560}, "128x64x64.s8.wg2.c2x1.static.g0.sk1", "64x96x64.swap.s10.wg1.c4x2.static.g0.sk1"},
      {{120, 3584, 3072}, "64x64x128.s6.wg1.c2x1.static.g0.sk1", "64x96x64.swap.s10.wg1.c4x2.static.g0.sk1"},
      // 128 x 80 swapped in 2x4 clusters (H200, 2026-12-06, us): ahead of one wave of
      // 64-row tiles at M = 300, 27.7 vs 36.0; behind them at M = 270, 33.9 vs 31.8, and
      // behind 128 x 64 where three of its four tiles along M hold rows, 20.3 vs 19.1.
      {{300, 3328, 6144}, "128x80x64.swap.s8.wg2.c2x4.static.g0.sk1", "64x128x64.s8.wg1.c1x1.static.g0.sk1"},
      {{270, 2816, 8192}, "64x128x64.s8.wg1.c2x1.static.g0.sk1", "128x80x64.swap.s8.wg2.c2x4.static.g0.sk1"},
      {{240, 3072, 4096}, "128x64x64.s8.wg2.c2x1.static.g0.sk1", "128x80x64.swap.s8.wg2.c2x4.static.g0.sk1"},
      // 128 x 96 swapped in 2x4 clusters, where four of its tiles along M cover 330-376
      // rows and its clusters fill one wave (H100, 2026-12-07; bench/results/calibration,
      // narrow mid M, us): ahead of 64 x 168 in 2x1, 23.5 vs 25.7 (both timed again in
      // the refine round) and 29.2 vs 33.3.
      {{330, 3328, 4608}, "128x96x64.swap.s7.wg2.c2x4.static.g0.sk1", "64x168x64.s7.wg1.c2x1.static.g0.sk1"},
      {{376, 3584, 5120}, "128x96x64.swap.s7.wg2.c2x4.static.g0.sk1", "64x168x64.s7.wg1.c2x1.static.g0.sk1"},
      // 128 x 64 in 1x2 behind the same tile in 2x1 where M spans few row tiles and both
      // run the same waves (H100, 2026-12-07; bench/results/calibration, narrow mid M,
      // us): 26.6 vs 22.5 and 17.5 vs 16.6.
      {{256, 2816, 5120}, "128x64x64.s8.wg2.c2x1.static.g0.sk1", "128x64x64.s8.wg2.c1x2.static.g0.sk1"},
      {{384, 1536, 3328}, "128x64x64.s8.wg2.c2x1.static.g0.sk1", "128x64x64.s8.wg2.c1x2.static.g0.sk1"},
      // The swapped decode tile loads M's rows of A only (8 of its 64 at M = 3): whole at
      // long K it streams B faster than split 3 ways, or than 64 x 128 split 3 ways
      // (H100, 2026-12-05; bench/results/calibration, us): 45.3 vs 50.2 and 49.4.
      {{3, 4608, 12800}, "64x64x128.swap.s6.wg1.c1x1.static.g8.sk1", "64x64x128.swap.s6.wg1.c1x1.static.g8.sk3"},
      {{3, 4608, 12800}, "64x64x128.swap.s6.wg1.c1x1.static.g8.sk1", "64x128x64.s8.wg1.c1x1.static.g0.sk3"},
      // The grouped order where a wave along M touches more of A and B than L2 keeps
      // (bench/results/calibration, us, H100 and H200): ahead at 7013 rows in 2x1, 190.0
      // vs 210.9 and 186.6 vs 196.2; behind in 1x1, where a grouped wave touches more too,
      // 150.8 vs 125.5 and 127.5 vs 121.0.
      {{7013, 4352, 2304}, "128x192x64.s4.wg2.c2x1.static.g8.sk1", "128x192x64.s4.wg2.c2x1.static.g0.sk1"},
      {{2077, 4352, 4864}, "128x192x64.s4.wg2.c1x1.static.g0.sk1", "128x192x64.s4.wg2.c1x1.static.g8.sk1"},
  };
  for (const Measured& m : pairs) {
    const double fast = modelled_time_us(parse_config(m.faster), m.shape, 132);
    const double slow = modelled_time_us(parse_config(m.slower), m.shape, 132);
    EXPECT_LT(fast, slow) << m.shape.m << "x" << m.shape.n << "x" << m.shape.k << ": " << m.faster << " " << fast
                          << " us vs " << m.slower << " " << slow << " us";
  }
}
