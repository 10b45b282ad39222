// The Blackwell kernel's schedule code (kernels/common/sm100_schedule.hpp,
// sm100_config.hpp, sm100_problem.hpp): pipeline phases against a plain mbarrier
// model, the cluster's multicast plan against what each CTA must hold, the grouped
// tile order against a second enumeration, and the cluster-launch-control walk in
// a host simulation of the hardware's cancel queue.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#if __has_include("common/sm100_schedule.hpp")
#include "common/sm100_config.hpp"
#include "common/sm100_problem.hpp"
#include "common/sm100_schedule.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/mbarrier.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"

namespace {
using namespace gemmscope;
using sm100::ClusterTile;
using sm100::TileGrid;

// ---- Pipeline state -------------------------------------------------------------

RC_GTEST_PROP(Sm100Pipeline, AdvanceCountsLapsModuloStages, ()) {
  const uint32_t steps = *rc::gen::inRange<uint32_t>(0, 1000);
  sm100::PipelineState<sm100::kStages> s;
  for (uint32_t i = 0; i < steps; ++i) s.advance();
  RC_ASSERT(s.index == steps % sm100::kStages);
  RC_ASSERT(s.phase == (steps / sm100::kStages) % 2);
  RC_ASSERT(s.full_phase() == s.phase);
  RC_ASSERT(s.empty_phase() == 1 - s.phase);
}

// A producer and a consumer share a ring through full/empty barriers (the model's
// mbarrier), waiting with the kernel's phase convention, interleaved at random. The consumer must see every
// item once, in order, and the producer must never refill a buffer that has not
// been consumed; neither may stall for good.
RC_GTEST_PROP(Sm100Pipeline, PhaseConventionDrivesARingCorrectly, ()) {
  constexpr uint32_t S = sm100::kStages;
  const uint32_t items = *rc::gen::inRange<uint32_t>(1, 40);
  std::vector<model::Mbarrier> full(S, model::Mbarrier(1)), empty(S, model::Mbarrier(1));
  std::vector<std::optional<uint32_t>> buffer(S);
  sm100::PipelineState<S> producer, consumer;
  uint32_t produced = 0, consumed = 0;
  while (consumed < items) {
    const bool producer_can = produced < items && empty[producer.index].try_wait_parity(producer.empty_phase());
    const bool consumer_can = full[consumer.index].try_wait_parity(consumer.full_phase());
    RC_ASSERT(producer_can || consumer_can);  // no deadlock
    const bool pick_producer = producer_can && (!consumer_can || *rc::gen::arbitrary<bool>());
    if (pick_producer) {
      RC_ASSERT(!buffer[producer.index].has_value());  // never overwrite unread data
      buffer[producer.index] = produced++;
      full[producer.index].arrive();
      producer.advance();
    } else {
      RC_ASSERT(buffer[consumer.index].has_value());
      RC_ASSERT(*buffer[consumer.index] == consumed);
      buffer[consumer.index].reset();
      ++consumed;
      empty[consumer.index].arrive();
      consumer.advance();
    }
  }
}

// ---- Cluster geometry, worked by hand for the 2 x 2 cluster -----------------------
TEST(Sm100Cluster, RolesAndMasksByHand) {
  // rank:            0       1       2       3
  const uint32_t leader[4] = {0, 0, 2, 2};
  const uint16_t pair[4] = {0b0011, 0b0011, 0b1100, 0b1100};
  const uint16_t a_mask[4] = {0b0101, 0b1010, 0b0101, 0b1010};
  for (uint32_t r = 0; r < 4; ++r) {
    EXPECT_EQ(sm100::leader_of(r), leader[r]) << r;
    EXPECT_EQ(sm100::is_leader(r), r % 2 == 0) << r;
    EXPECT_EQ(sm100::pair_mask(r), pair[r]) << r;
    EXPECT_EQ(sm100::a_multicast_mask(r), a_mask[r]) << r;
  }
  EXPECT_EQ(sm100::cluster_mask(), 0b1111);
}

// What lands in each CTA for one k-block, enumerating every CTA's TMA issues and
// their multicast masks: CTA (x, pair) must hold A rows tile.m*256 + 128x + r at
// row r of its stage tile (r = 0..127), and B rows (C columns) tile.n*512 +
// 256 pair + 128x + r, each exactly once; each pair's leader must be signalled
// exactly the pair's bytes: 2 CTAs x (128 A rows + 128 B rows) x 128 bytes.
RC_GTEST_PROP(Sm100Cluster, MulticastPlanFillsEveryStageExactlyOnce, ()) {
  const ClusterTile tile{*rc::gen::inRange<uint32_t>(0, 64), *rc::gen::inRange<uint32_t>(0, 64)};
  const uint32_t kb = *rc::gen::inRange<uint32_t>(0, 128);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> a_rows, b_rows;  // (dest, stage row) -> global row
  std::map<uint32_t, uint64_t> bytes_at_leader;
  for (uint32_t issuer = 0; issuer < sm100::kClusterSize; ++issuer) {
    for (const bool is_a : {true, false}) {
      const sm100::TmaLoad load = is_a ? sm100::a_load(issuer, tile, kb) : sm100::b_load(issuer, tile, kb);
      RC_ASSERT(load.k_elem == kb * 64);
      RC_ASSERT(load.smem_offset % 1024 == 0);  // 128B swizzle pattern starts aligned
      for (uint32_t dest = 0; dest < sm100::kClusterSize; ++dest) {
        if (!(load.cta_mask >> dest & 1)) continue;
        bytes_at_leader[dest / 2 * 2] += uint64_t{load.rows} * 64 * 2;
        for (uint32_t r = 0; r < load.rows; ++r) {
          const uint32_t stage_row = load.smem_offset / 128 + r;
          auto& rows = is_a ? a_rows : b_rows;
          RC_ASSERT(rows.count(std::make_pair(dest, stage_row)) == 0u);  // written once
          rows[{dest, stage_row}] = load.row + r;
        }
      }
    }
  }
  for (uint32_t dest = 0; dest < 4; ++dest) {
    const uint32_t x = dest % 2, pair = dest / 2;
    for (uint32_t r = 0; r < 128; ++r) {
      RC_ASSERT(a_rows.count(std::make_pair(dest, r)) == 1u);
      RC_ASSERT(a_rows[std::make_pair(dest, r)] == tile.m * 256 + 128 * x + r);
      RC_ASSERT(b_rows.count(std::make_pair(dest, r)) == 1u);
      RC_ASSERT(b_rows[std::make_pair(dest, r)] == tile.n * 512 + 256 * pair + 128 * x + r);
    }
  }
  RC_ASSERT(a_rows.size() == 4u * 128u);
  RC_ASSERT(b_rows.size() == 4u * 128u);
  RC_ASSERT(bytes_at_leader.size() == 2u);
  RC_ASSERT(bytes_at_leader[0] == 65536u);
  RC_ASSERT(bytes_at_leader[2] == 65536u);
  RC_ASSERT(sm100::kFullTxBytes == 65536u);
}

// The leader's full[s] in the model's mbarrier: the leader's arrive.expect_tx of
// kFullTxBytes and the complete_tx of every box that lands in the pair, in any
// order (bytes may land before the expect_tx): the phase completes exactly when
// the last of them is in, never before.
RC_GTEST_PROP(Sm100Cluster, FullBarrierCompletesExactlyWhenThePairIsLoaded, ()) {
  const uint32_t pair = *rc::gen::inRange<uint32_t>(0, 2);
  std::vector<uint32_t> events;  // 0: the leader's arrive.expect_tx; else bytes of one box
  events.push_back(0);
  for (uint32_t issuer = 0; issuer < sm100::kClusterSize; ++issuer) {
    for (const bool is_a : {true, false}) {
      const sm100::TmaLoad load = is_a ? sm100::a_load(issuer, {0, 0}, 0) : sm100::b_load(issuer, {0, 0}, 0);
      for (uint32_t dest = 0; dest < sm100::kClusterSize; ++dest)
        if ((load.cta_mask >> dest & 1) && dest / 2 == pair) events.push_back(load.rows * 64 * 2);
    }
  }
  // A random order (Fisher-Yates with generated indices).
  for (size_t i = events.size(); i > 1; --i) std::swap(events[i - 1], events[*rc::gen::inRange<size_t>(0, i)]);
  model::Mbarrier full(sm100::kFullArrivals);
  for (size_t i = 0; i < events.size(); ++i) {
    RC_ASSERT(full.completed_phases() == 0);
    if (events[i] == 0) {
      full.arrive_expect_tx(sm100::kFullTxBytes);
    } else {
      full.complete_tx(events[i]);
    }
  }
  RC_ASSERT(full.completed_phases() == 1);
  RC_ASSERT(full.try_wait_parity(0));
}

// The epilogue writes C[i][j] where the MMA put A row i times B row j: row r of the
// pair tile comes from A row r % 128 of CTA r / 128's stage; column c from B row
// c % 128 of CTA c / 128's stage (the even CTA holds the pair's N columns 0-127).
RC_GTEST_PROP(Sm100Cluster, OutputElementMatchesTheOperandRows, ()) {
  const ClusterTile tile{*rc::gen::inRange<uint32_t>(0, 64), *rc::gen::inRange<uint32_t>(0, 64)};
  const uint32_t rank = *rc::gen::inRange<uint32_t>(0, 4);
  const uint32_t row = *rc::gen::inRange<uint32_t>(0, 256), col = *rc::gen::inRange<uint32_t>(0, 256);
  const sm100::GlobalElement g = sm100::c_element(rank, tile, row, col);
  const uint32_t pair_first_rank = sm100::leader_of(rank);
  const sm100::TmaLoad a = sm100::a_load(pair_first_rank + row / 128, tile, 0);
  const sm100::TmaLoad b = sm100::b_load(pair_first_rank + col / 128, tile, 0);
  // a_load names the rows of one 64-row half; the CTA's 128 rows start 64 pair below.
  RC_ASSERT(g.row == a.row - sm100::pair_of(rank) * 64 + row % 128);
  RC_ASSERT(g.col == b.row + col % 128);
}

// ---- Grouped tile order ---------------------------------------------------------------

// Second enumeration, written as loops: groups of 4 tile rows; inside a group,
// column by column, rows top to bottom.
std::vector<std::pair<uint32_t, uint32_t>> grouped_order(uint32_t tiles_m, uint32_t tiles_n) {
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (uint32_t first = 0; first < tiles_m; first += 4)
    for (uint32_t n = 0; n < tiles_n; ++n)
      for (uint32_t m = first; m < std::min(first + 4, tiles_m); ++m) order.emplace_back(m, n);
  return order;
}

RC_GTEST_PROP(Sm100TileOrder, MatchesLoopEnumerationAndIsABijection, ()) {
  const TileGrid grid{*rc::gen::inRange<uint32_t>(1, 40), *rc::gen::inRange<uint32_t>(1, 40)};
  const auto expected = grouped_order(grid.tiles_m, grid.tiles_n);
  RC_ASSERT(expected.size() == grid.tiles());
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t id = 0; id < grid.tiles(); ++id) {
    const ClusterTile t = sm100::cluster_tile_of(id, grid);
    RC_ASSERT(t.m < grid.tiles_m);
    RC_ASSERT(t.n < grid.tiles_n);
    RC_ASSERT(std::make_pair(t.m, t.n) == expected[id]);
    seen.emplace(t.m, t.n);
  }
  RC_ASSERT(seen.size() == grid.tiles());
}

TEST(Sm100TileOrder, GridCoversTheProblem) {
  // 4096 x 4096: 16 x 8 cluster tiles of 256 x 512, 2 CTAs per cluster along x.
  const TileGrid g = sm100::tile_grid(4096, 4096);
  EXPECT_EQ(g.tiles_m, 16u);
  EXPECT_EQ(g.tiles_n, 8u);
  EXPECT_EQ(sm100::grid_dim_x(g), 256u);
  EXPECT_EQ(sm100::grid_dim_y(), 2u);
  const TileGrid odd = sm100::tile_grid(257, 8);
  EXPECT_EQ(odd.tiles_m, 2u);
  EXPECT_EQ(odd.tiles_n, 1u);
  EXPECT_EQ(sm100::k_blocks(64), 1u);
  EXPECT_EQ(sm100::k_blocks(72), 2u);
}

// ---- Cluster launch control ----------------------------------------------------------

// The hardware, simplified: clusters 0..T-1 are launched in order while fewer than
// R run; a running cluster's try_cancel either takes some not-yet-launched cluster
// (which then never launches) or fails when none is left. Every role of a cluster
// walks the kernel's ClcState with the responses; each tile must be computed
// exactly once and every cluster must stop.
RC_GTEST_PROP(Sm100Clc, PersistentWalkComputesEveryTileOnce, ()) {
  const uint32_t tiles = *rc::gen::inRange<uint32_t>(1, 120);
  const uint32_t resident = *rc::gen::inRange<uint32_t>(1, tiles + 1);
  std::set<uint32_t> not_launched;
  for (uint32_t id = 0; id < tiles; ++id) not_launched.insert(id);
  std::vector<sm100::ClcState> running;
  std::vector<uint32_t> computed(tiles, 0);
  const auto launch_next = [&] {
    const uint32_t id = *not_launched.begin();
    not_launched.erase(not_launched.begin());
    // blockIdx.x of the cluster's first CTA, as the grid lays clusters out.
    running.push_back(sm100::clc_start(sm100::kClusterM * id + *rc::gen::inRange<uint32_t>(0, sm100::kClusterM)));
  };
  while (running.size() < resident && !not_launched.empty()) launch_next();
  uint32_t steps = 0;
  while (!running.empty()) {
    RC_ASSERT(++steps < 10 * tiles + 10);
    const size_t i = *rc::gen::inRange<size_t>(0, running.size());
    sm100::ClcState& c = running[i];
    ++computed[c.cluster_id];
    if (not_launched.empty()) {
      c = sm100::clc_after_response(c, false, 0);
    } else {
      // Any pending cluster may be the one cancelled.
      auto it = not_launched.begin();
      std::advance(it, *rc::gen::inRange<size_t>(0, not_launched.size()));
      const uint32_t first_cta_x = sm100::kClusterM * *it;  // the first CTA of that cluster
      not_launched.erase(it);
      c = sm100::clc_after_response(c, true, first_cta_x);
    }
    if (c.done) {
      running.erase(running.begin() + static_cast<long>(i));
      if (!not_launched.empty()) launch_next();
    }
  }
  for (uint32_t id = 0; id < tiles; ++id) RC_ASSERT(computed[id] == 1u);
}

TEST(Sm100Clc, ResponsesUseTheRingInOrder) {
  sm100::ClcState s = sm100::clc_start(7);
  EXPECT_EQ(s.cluster_id, 3u);
  EXPECT_EQ(s.pipe.index, 0u);
  s = sm100::clc_after_response(s, true, 40);
  EXPECT_EQ(s.cluster_id, 20u);
  EXPECT_EQ(s.pipe.index, 1u);
  EXPECT_FALSE(s.done);
  s = sm100::clc_after_response(s, true, 2);
  EXPECT_EQ(s.pipe.index, 0u);
  EXPECT_EQ(s.pipe.phase, 1u);
  s = sm100::clc_after_response(s, false, 0);
  EXPECT_TRUE(s.done);
}

// ---- Shared memory, TMA boxes, barrier counts ------------------------------------

TEST(Sm100Layout, TilesAlignedForTheSwizzleAndFitSharedMemory) {
  const uint32_t align = model::swizzle_alignment_bytes(model::SwizzleMode::B128);
  for (uint32_t s = 0; s < sm100::kStages; ++s) {
    EXPECT_EQ(sm100::smem_a_stage(s) % align, 0u) << s;
    EXPECT_EQ(sm100::smem_b_stage(s) % align, 0u) << s;
    // A and B tiles do not overlap each other or the barriers.
    EXPECT_LE(sm100::smem_a_stage(s) + sm100::kATileBytes, sm100::kSmemBOffset);
    EXPECT_LE(sm100::smem_b_stage(s) + sm100::kBTileBytes, sm100::kSmemBarrierOffset);
  }
  EXPECT_EQ(sm100::smem_a_load_offset(1) % align, 0u);
  EXPECT_EQ(sm100::kSmemBarrierOffset % 8, 0u);
  EXPECT_EQ(sm100::kSmemClcResponseOffset % 16, 0u);
  EXPECT_GE(sm100::kSmemClcResponseOffset, sm100::kSmemBarrierOffset + 8 * (2 * 6 + 2 * 2 + 2 * 2));
  // sm_100: at most 227 KiB (232448 bytes) of dynamic shared memory per CTA.
  EXPECT_LE(sm100::kSmemBytes, 232448u);
}

TEST(Sm100Layout, TmaBoxesAreValidForTheModel) {
  // A: 64 rows x 64 bf16 (128 bytes, the 128B span); B: 128 rows x 64 bf16.
  model::TmaBox a{sm100::kRowsAPerLoad, sm100::kBlockK, 2, model::SwizzleMode::B128, 0};
  model::TmaBox b{sm100::kCtaRowsB, sm100::kBlockK, 2, model::SwizzleMode::B128, 0};
  EXPECT_NO_THROW(a.validate(true));
  EXPECT_NO_THROW(b.validate(true));
  EXPECT_EQ(a.bytes(), sm100::kALoadBytes);
  EXPECT_EQ(b.bytes(), sm100::kBTileBytes);
  EXPECT_EQ(2 * a.bytes(), sm100::kATileBytes);  // two multicast halves make one A tile
}

TEST(Sm100Layout, BarrierCountsByRole) {
  // empty[s]: one commit from each pair's leader.
  EXPECT_EQ(sm100::kEmptyArrivals, 2u);
  // tmem_empty: 4 epilogue warps in each of the 2 CTAs of the pair.
  EXPECT_EQ(sm100::kTmemEmptyArrivals, 8u);
  // clc_empty: per CTA producer + scheduler + 4 epilogue warps = 6, 4 CTAs = 24,
  // plus the MMA thread of the 2 leaders = 26.
  EXPECT_EQ(sm100::kClcEmptyArrivals, 26u);
  EXPECT_EQ(sm100::kThreads, 224u);
}

// ---- Which problems the kernel takes --------------------------------------------------
TEST(Sm100Problem, AcceptsAlignedShapesAndNamesTheRuleOtherwise) {
  alignas(16) static char buffer[64];
  const void* p = buffer;
  EXPECT_EQ(sm100::problem_error(4096, 4096, 4096, p, p, p), "");
  EXPECT_EQ(sm100::problem_error(1, 8, 8, p, p, p), "");
  EXPECT_EQ(sm100::problem_error(0, 8, 8, p, p, p), "M = 0 must be >= 1");
  EXPECT_EQ(sm100::problem_error(8, -3, 8, p, p, p), "N = -3 must be >= 1");
  EXPECT_EQ(sm100::problem_error(8, 8, 100, p, p, p).rfind("K = 100 must be a multiple of 8", 0), 0u);
  EXPECT_EQ(sm100::problem_error(8, 12, 8, p, p, p).rfind("N = 12 must be a multiple of 8", 0), 0u);
  EXPECT_EQ(sm100::problem_error(8, 8, 8, nullptr, p, p), "A = null must point to M * K bf16");
  const std::string misaligned = sm100::problem_error(8, 8, 8, p, buffer + 8, p);
  EXPECT_EQ(misaligned.rfind("B address = ", 0), 0u) << misaligned;
  EXPECT_NE(misaligned.find("must be 16-byte aligned"), std::string::npos);
}

}  // namespace

#else
TEST(Sm100Schedule, NeedsKernelHeaders) {
  GTEST_SKIP() << "kernels/common is not on the include path (GEMMSCOPE_BUILD_KERNELS=OFF)";
}
#endif
