#pragma once
// The Blackwell kernel's schedule (kernels/sm100/gemm_sm100.cu, roles in section 3)
// declared on the pipeline API (model/pipeline.hpp): its barriers, stages, TMEM slots
// and CLC response buffers, and one program role per warp role. The roles below
// follow run_producer, run_mma, run_scheduler and run_epilogue action by action and
// call the kernel's own __host__ __device__ code for every decision: PipelineState
// (ring index, full/empty parity), ClcStateOf / clc_start / clc_after_response (the
// CLC walk), cluster_tile_of, cta_x_of, a_load / b_load (what each CTA loads, where
// it lands, to which CTAs it multicasts), pair_mask / cluster_mask, leader_of,
// accumulator_address, epilogue_element / c_element, and the barrier counts of
// sm100_config.hpp. The depths (ring stages, TMEM accumulator slots, CLC responses
// in flight, group rows) come from one type, sm100::KernelSchedule, which the kernel
// is built with; the binding takes it as its template argument, so a changed copy
// (KernelSchedule::with_stages<4>) changes what is simulated, with no number of
// the kernel's restated here.
//
// What the binding adds is the hardware the kernel talks to: TMA copies that land
// later (complete_tx on the leader's full barrier), tcgen05.commit arrivals that
// land later in issue order, and cluster launch control (a queue of clusters not yet
// launched; try_cancel takes the lowest, or fails when none is left). What it checks
// with a second, plain reading of the spec (not the kernel's functions): which rows
// and K columns the pair's MMA must find in each CTA's stage (docs/hardware.md#tmem-accumulator-layout: M=256,
// cta_group::2, the even CTA holds rows 0-127), and which 32 x 256 block of C each
// epilogue warp must write.
//
// Header-only, plain C++: the kernels' common/ headers compile without CUDA.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/sm100_config.hpp"
#include "common/sm100_schedule.hpp"
#include "common/sm100_tmem.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/pipeline.hpp"
#include "gemmscope/model/tmem.hpp"

namespace gemmscope::testing::sim {

// Mutations injected through the binding (the kernel's code stays as it is).
struct Sm100Mutations {
  bool producer_wrong_initial_phase = false;  // producer's ring state starts at phase 1
  bool mma_wrong_initial_phase = false;       // MMA's ring state starts at phase 1
  bool epilogue_wrong_initial_phase = false;  // epilogue's accumulator state starts at phase 1
  bool epilogue_missing_tmem_empty_arrive = false;  // rank 1's first epilogue warp skips its first arrive
  bool producer_stage_off_by_one = false;     // TMA writes into stage index + 1 (barriers of index)
  bool commit_over_arrives = false;           // the MMA's empty commit arrives kEmptyArrivals + 1 times
  bool scheduler_skips_tile = false;          // the first cancelled response is decoded one cluster too far
  bool scheduler_repeats_tile = false;        // the first cancelled response is decoded as the current tile
};

struct Sm100SimConfig {
  uint32_t tiles_m = 1, tiles_n = 2;  // cluster tiles (256 x 512 each)
  uint32_t k_blocks = 2;              // K / 64
  uint32_t resident_clusters = 1;     // clusters running at once; the rest wait in the CLC queue
  // One role per CTA for its four epilogue warps, which then move together (fewer
  // interleavings, for exhaustive search); false gives each warp its own role.
  bool epilogue_lockstep = false;
  Sm100Mutations mutations;
};

// `Sched`: the kernel's schedule depths (sm100::KernelSchedule), or a copy with one
// changed (sm100::KernelSchedule::with_stages<2>) to search a smaller space or to
// see the simulation follow the change.
template <class Sched = sm100::KernelSchedule>
class Sm100ScheduleSimOf : public model::sim::Pipeline {
  static constexpr uint32_t Stages = Sched::kStages;
  static constexpr uint32_t kAccumSlots = Sched::kAccumSlots;
  static constexpr uint32_t kClcStages = Sched::kClcStages;
  using Ring = sm100::PipelineState<Stages>;
  using AccumRing = sm100::PipelineState<kAccumSlots>;
  using Clc = sm100::ClcStateOf<Sched>;
  static constexpr uint32_t kCtas = sm100::kClusterSize;
  // Of a CTA's stage: its A loads (rows 0-63, 64-127), then B.
  static constexpr uint32_t kParts = sm100::kCtaRowsA / sm100::kRowsAPerLoad + 1;
  static constexpr uint32_t kTryCancel = 1;  // custom async effect code

 public:
  explicit Sm100ScheduleSimOf(Sm100SimConfig config) : config_(config) {
    using model::require;
    require(config.tiles_m >= 1 && config.tiles_m <= 64, "tiles_m", config.tiles_m, "must be in 1..64");
    require(config.tiles_n >= 1 && config.tiles_n <= 64, "tiles_n", config.tiles_n, "must be in 1..64");
    require(config.k_blocks >= 1 && config.k_blocks <= 256, "k_blocks", config.k_blocks, "must be in 1..256");
    require(config.resident_clusters >= 1 && config.resident_clusters <= 8, "resident_clusters",
            config.resident_clusters, "must be in 1..8");
    grid_ = sm100::TileGrid{config.tiles_m, config.tiles_n};
    clusters_ = std::min(config.resident_clusters, grid_.tiles());
    next_unlaunched_ = clusters_;  // the hardware launched clusters 0 .. clusters_-1
    for (uint32_t c = 0; c < clusters_; ++c) build_cluster(c);
    // Every 32-row x 256-column block of C, from the tile grid alone.
    for (uint32_t m = 0; m < grid_.tiles_m; ++m)
      for (uint32_t n = 0; n < grid_.tiles_n; ++n)
        for (uint32_t row = 0; row < sm100::kClusterTileM; row += 32)
          for (uint32_t col = 0; col < sm100::kClusterTileN; col += sm100::kMmaN)
            output(c_block_key(m * sm100::kClusterTileM + row, n * sm100::kClusterTileN + col));
  }

  std::string role_state_key() const override {
    std::string key = Pipeline::role_state_key();
    for (const Role& r : roles_) {
      key += std::to_string(r.pc) + "," + std::to_string(r.stage.index) + std::to_string(r.stage.phase) + "," +
             std::to_string(r.accum.index) + std::to_string(r.accum.phase) + "," + std::to_string(r.clc.pipe.index) +
             std::to_string(r.clc.pipe.phase) + "," + std::to_string(r.clc.cluster_id) + (r.clc.done ? "d" : "") +
             "," + std::to_string(r.kb) + "," + std::to_string(r.responses_read) + ";";
    }
    key += "q" + std::to_string(next_unlaunched_) + ";";
    for (const Response& resp : responses_)
      key += std::to_string(resp.serial) + (resp.cancelled ? "c" : "f") + std::to_string(resp.first_cta_x) + ";";
    for (uint32_t n : responses_written_) key += std::to_string(n) + ",";
    return key;
  }

  bool step_program(uint32_t i, model::sim::Step& step) override {
    Role& r = roles_[i];
    bool moved = false;
    switch (r.kind) {
      case Kind::producer: moved = step_producer(r, step); break;
      case Kind::mma: moved = step_mma(r, step); break;
      case Kind::scheduler: moved = step_scheduler(r, step); break;
      case Kind::epilogue: moved = step_epilogue(r, step); break;
    }
    if (moved && r.pc == kDone) step.exit();
    return moved;
  }

  void fire_custom(const model::sim::AsyncEffect& e) override {
    if (e.target != kTryCancel) throw model::ModelError("unknown custom effect " + std::to_string(e.target));
    // clusterlaunchcontrol.try_cancel (multicast): the response lands in every CTA's
    // buffer `slot` and completes 16 bytes on each CTA's clc_full[slot].
    const uint32_t cluster = e.amount / kClcStages, slot = e.amount % kClcStages;
    Response value;
    value.serial = responses_written_[cluster]++;
    value.cancelled = next_unlaunched_ < grid_.tiles();
    // A cancelled cluster's first CTA (the launcher's grid: clusters along x).
    value.first_cta_x = value.cancelled ? sm100::cta_x_of(next_unlaunched_, 0) : 0;
    if (value.cancelled) ++next_unlaunched_;
    for (uint32_t rank = 0; rank < kCtas; ++rank) {
      const uint32_t buf = response_buffer(cluster, rank, slot);
      begin_write(buf, "response " + std::to_string(value.serial));
      finish_write(buf);
      responses_[cluster * kCtas * kClcStages + rank * kClcStages + slot] = value;
      complete_tx(clc_full(cluster, rank, slot), sm100::kClcResponseBytes);
    }
  }

  void finish_checks() override {
    // The kernel frees its Tensor Memory after the last cluster barrier.
    for (auto& a : tmem_) {
      a.free(a.live().front().column, Sched::kTmemColumns, 2);
      a.check_all_freed();
    }
  }

  const Sm100SimConfig& config() const { return config_; }

 private:
  enum class Kind { producer, mma, scheduler, epilogue };
  // Program counters, one per action of the kernel's role loops.
  enum : uint32_t {
    kLoopTop = 0,
    kWaitEmpty,
    kIssueLoads,
    kWaitTmemEmpty,
    kWaitFull,
    kIssueMma,
    kWaitClcEmpty,
    kAskClc,
    kReadClc,
    kWaitTmemFull,
    kDrainTmem,
    kTail,
    kDone
  };
  struct Role {
    Kind kind;
    uint32_t cluster = 0, rank = 0;
    int warp = -1;  // epilogue warp id; -1: the four warps in lockstep
    uint32_t pc = kLoopTop;
    Ring stage{};
    AccumRing accum{};
    Clc clc{};
    uint32_t kb = 0;              // k-block of the current tile (tail: stages waited)
    uint32_t responses_read = 0;  // CLC responses this role has read
    bool first_tile = true;
  };
  struct Response {
    uint32_t serial = 0;
    bool cancelled = false;
    uint32_t first_cta_x = 0;
  };

  // ---- Construction ------------------------------------------------------------------
  std::string name_of(const Role& r) const {
    std::string where = (clusters_ > 1 ? "cl" + std::to_string(r.cluster) + " " : "") + "cta" + std::to_string(r.rank);
    switch (r.kind) {
      case Kind::producer: return where + " producer";
      case Kind::mma: return where + " mma";
      case Kind::scheduler: return where + " scheduler";
      case Kind::epilogue:
        return where + (r.warp < 0 ? " epilogue x4" : " epilogue w" + std::to_string(r.warp));
    }
    return "?";
  }
  // A program role of the pipeline, its state in roles_ (the same index).
  void add_role(const Role& r) {
    roles_.push_back(r);
    add_program_role(name_of(r));
  }
  uint32_t idx(uint32_t cluster, uint32_t rank, uint32_t i, uint32_t n) const {
    return (cluster * kCtas + rank) * n + i;
  }
  uint32_t full(uint32_t c, uint32_t r, uint32_t s) const { return full_[idx(c, r, s, Stages)]; }
  uint32_t empty(uint32_t c, uint32_t r, uint32_t s) const { return empty_[idx(c, r, s, Stages)]; }
  uint32_t tmem_full(uint32_t c, uint32_t r, uint32_t s) const { return tmem_full_[idx(c, r, s, kAccumSlots)]; }
  uint32_t tmem_empty(uint32_t c, uint32_t r, uint32_t s) const { return tmem_empty_[idx(c, r, s, kAccumSlots)]; }
  uint32_t clc_full(uint32_t c, uint32_t r, uint32_t s) const { return clc_full_[idx(c, r, s, kClcStages)]; }
  uint32_t clc_empty(uint32_t c, uint32_t r, uint32_t s) const { return clc_empty_[idx(c, r, s, kClcStages)]; }
  uint32_t stage_buffer(uint32_t c, uint32_t r, uint32_t s, uint32_t part) const {
    return stage_buffers_[idx(c, r, s, Stages) * kParts + part];
  }
  uint32_t accum_buffer(uint32_t c, uint32_t r, uint32_t slot) const {
    return accum_buffers_[idx(c, r, slot, kAccumSlots)];
  }
  uint32_t response_buffer(uint32_t c, uint32_t r, uint32_t s) const {
    return response_buffers_[idx(c, r, s, kClcStages)];
  }

  void build_cluster(uint32_t c) {
    const std::string cl = clusters_ > 1 ? "cl" + std::to_string(c) + " " : "";
    for (uint32_t r = 0; r < kCtas; ++r) {
      const std::string cta = cl + "cta" + std::to_string(r) + " ";
      // Barrier counts from sm100_config.hpp, as the kernel's thread 0 initialises them.
      for (uint32_t s = 0; s < Stages; ++s) {
        full_.push_back(barrier(cta + "full[" + std::to_string(s) + "]", sm100::kFullArrivals));
        empty_.push_back(barrier(cta + "empty[" + std::to_string(s) + "]", sm100::kEmptyArrivals));
        static const char* kPartNames[kParts] = {"A rows 0-63", "A rows 64-127", "B"};
        // Each fill of a stage is read by one MMA (the pair's leader).
        for (uint32_t p = 0; p < kParts; ++p)
          stage_buffers_.push_back(
              slot(cta + "stage " + std::to_string(s) + " " + kPartNames[p], 1));
      }
      // TMEM: the MMA warp of each CTA allocates all columns (cta_group::2).
      tmem_.emplace_back();
      const uint32_t base = tmem_.back().allocate(Sched::kTmemColumns, 2);
      for (uint32_t slot = 0; slot < kAccumSlots; ++slot) {
        tmem_full_.push_back(barrier(cta + "tmem_full[" + std::to_string(slot) + "]", sm100::kTmemFullArrivals));
        tmem_empty_.push_back(
            barrier(cta + "tmem_empty[" + std::to_string(slot) + "]", sm100::kTmemEmptyArrivals));
        const uint32_t first = model::tmem_column(sm100::accumulator_address(base, slot));
        const uint32_t last = first + sm100::kAccumColumns;
        model::require(last <= model::tmem_column(base) + Sched::kTmemColumns, "accumulator slot", slot,
                       "runs past the TMEM allocation");
        for (uint32_t other = 0; other < slot; ++other)
          model::require(model::tmem_column(sm100::accumulator_address(base, other)) + sm100::kAccumColumns <= first,
                         "accumulator slot", slot, "overlaps an earlier slot's columns");
        accum_buffers_.push_back(Pipeline::slot(cta + "TMEM cols " + std::to_string(first) + "-" +
                                                std::to_string(last - 1) + " (slot " + std::to_string(slot) + ")",
                                            sm100::kEpilogueWarps));
      }
      for (uint32_t s = 0; s < kClcStages; ++s) {
        clc_full_.push_back(barrier(cta + "clc_full[" + std::to_string(s) + "]", sm100::kClcFullArrivals));
        clc_empty_.push_back(barrier(cta + "clc_empty[" + std::to_string(s) + "]", sm100::kClcEmptyArrivals));
        // Readers of a response: producer, scheduler, the epilogue warps, and the MMA in a leader.
        const uint32_t readers = 2 + sm100::kEpilogueWarps + (sm100::is_leader(r) ? 1 : 0);
        response_buffers_.push_back(Pipeline::slot(cta + "clc response " + std::to_string(s), readers));
      }
      for (uint32_t s = 0; s < kClcStages; ++s) responses_.push_back(Response{});
    }
    // The readers above are clc_empty's arrivals: the kernel's count must match.
    uint32_t readers = 0;
    for (uint32_t r = 0; r < kCtas; ++r) readers += 2 + sm100::kEpilogueWarps + (sm100::is_leader(r) ? 1 : 0);
    model::require(readers == sm100::kClcEmptyArrivals, "clc_empty arrivals", sm100::kClcEmptyArrivals,
                   "must equal the readers of a CLC response");
    responses_written_.push_back(0);
    for (uint32_t r = 0; r < kCtas; ++r) {
      const uint32_t cta_x = sm100::cta_x_of(c, r);
      Role base{};
      base.cluster = c;
      base.rank = r;
      base.clc = sm100::clc_start<Sched>(cta_x);
      Role producer = base;
      producer.kind = Kind::producer;
      if (config_.mutations.producer_wrong_initial_phase) producer.stage.phase = 1;
      add_role(producer);
      if (sm100::is_leader(r)) {
        Role mma = base;
        mma.kind = Kind::mma;
        if (config_.mutations.mma_wrong_initial_phase) mma.stage.phase = 1;
        add_role(mma);
      }
      Role scheduler = base;
      scheduler.kind = Kind::scheduler;
      add_role(scheduler);
      Role epilogue = base;
      epilogue.kind = Kind::epilogue;
      if (config_.mutations.epilogue_wrong_initial_phase) epilogue.accum.phase = 1;
      if (config_.epilogue_lockstep) {
        add_role(epilogue);
      } else {
        for (uint32_t w = 0; w < sm100::kEpilogueWarps; ++w) {
          epilogue.warp = static_cast<int>(sm100::kFirstEpilogueWarp + w);
          add_role(epilogue);
        }
      }
    }
  }

  // ---- The spec, written plainly (the oracle) -------------------------------------------
  static std::string box_tag(char operand, uint32_t k_elem, uint32_t row, uint32_t rows) {
    return std::string(1, operand) + " k" + std::to_string(k_elem) + " rows " + std::to_string(row) + "+" +
           std::to_string(rows);
  }
  // What the pair's 256 x 256 x 64 MMA step needs in CTA `cta_in_pair`'s stage part:
  // A: rows 128 x .. +127 of the tile's 256 (the even CTA rows 0-127), cut in two
  // 64-row halves; B: the pair's 256 columns of C, 128 per CTA (N-major rows of B).
  std::string expected_part(uint32_t pair, uint32_t cta_in_pair, uint32_t part, sm100::ClusterTile tile,
                            uint32_t kb) const {
    const uint32_t k_elem = kb * 64;
    if (part < 2) return box_tag('A', k_elem, tile.m * 256 + 128 * cta_in_pair + 64 * part, 64);
    return box_tag('B', k_elem, tile.n * 512 + 256 * pair + 128 * cta_in_pair, 128);
  }
  static std::string accum_tag(sm100::ClusterTile tile) {
    return "C tile " + std::to_string(tile.m) + "," + std::to_string(tile.n) + ":";
  }
  std::string full_accum_tag(sm100::ClusterTile tile) const {
    std::string tag = accum_tag(tile);
    for (uint32_t kb = 0; kb < config_.k_blocks; ++kb) tag += " k" + std::to_string(kb * 64);
    return tag;
  }
  static std::string c_block_key(uint32_t row, uint32_t col) {
    return "C rows " + std::to_string(row) + "+32 cols " + std::to_string(col) + "+256";
  }

  // tcgen05.commit arrivals of one MMA thread land in issue order.
  static int tensor_core_queue(uint32_t cluster, uint32_t rank) { return static_cast<int>(cluster * kCtas + rank); }

  // ---- Shared pieces of the roles ---------------------------------------------------------
  Clc after_response(const Role& r, const Response& resp) const {
    bool cancelled = resp.cancelled;
    uint32_t first_cta_x = resp.first_cta_x;
    // The first successful response (serial 0 of this cluster) is where mutations bite.
    if (cancelled && r.responses_read == 0) {
      if (config_.mutations.scheduler_skips_tile)
        first_cta_x = sm100::cta_x_of(sm100::cluster_id_of_cta_x(first_cta_x) + 1, 0);
      if (config_.mutations.scheduler_repeats_tile) first_cta_x = sm100::cta_x_of(r.clc.cluster_id, 0);
    }
    return sm100::clc_after_response(r.clc, cancelled, first_cta_x);
  }
  // read_clc_response + release_clc_response of the kernel: wait clc_full, read the
  // response, arrive on clc_empty in CTA 0.
  bool read_clc(Role& r, model::sim::Step& step, bool release = true) {
    const uint32_t s = r.clc.pipe.index;
    if (!step.wait(clc_full(r.cluster, r.rank, s), r.clc.pipe.full_phase())) return false;
    const uint32_t buf = response_buffer(r.cluster, r.rank, s);
    step.read(buf, "response " + std::to_string(r.responses_read));
    const Response& resp = responses_[r.cluster * kCtas * kClcStages + r.rank * kClcStages + s];
    const Clc next = after_response(r, resp);
    if (release) {
      step.release(buf);
      step.arrive(clc_empty(r.cluster, 0, s));
    }
    step.label("read clc response " + std::to_string(r.responses_read) +
         (resp.cancelled ? " -> cluster " + std::to_string(next.cluster_id) : " -> done"));
    ++r.responses_read;
    r.clc = next;
    r.first_tile = false;
    r.pc = kLoopTop;
    return true;
  }

  // ---- run_producer -------------------------------------------------------------------------
  bool step_producer(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank;
    switch (r.pc) {
      case kLoopTop:
        r.kb = 0;
        r.pc = r.clc.done ? kTail : kWaitEmpty;
        return step_producer(r, step);
      case kWaitEmpty: {
        if (!step.wait(empty(c, rank, r.stage.index), r.stage.empty_phase())) return false;
        r.pc = kIssueLoads;
        return step_producer(r, step);  // a passed wait and the action after it are one step
      }
      case kIssueLoads: {
        const uint32_t s = r.stage.index;
        const uint32_t write_s = config_.mutations.producer_stage_off_by_one ? (s + 1) % Stages : s;
        const sm100::ClusterTile tile = sm100::cluster_tile_of<Sched>(r.clc.cluster_id, grid_);
        if (sm100::is_leader(rank)) step.arrive_expect_tx(full(c, rank, s), sm100::kFullTxBytes);
        const std::pair<char, sm100::TmaLoad> loads[2] = {{'A', sm100::a_load(rank, tile, r.kb)},
                                                          {'B', sm100::b_load(rank, tile, r.kb)}};
        for (const auto& [operand, load] : loads) {
          // Where the box lands: the kernel's smem_offset (A: which 64-row half).
          const uint32_t part = operand == 'A' ? load.smem_offset / sm100::kALoadBytes : 2;
          const uint32_t bytes = load.rows * sm100::kBlockK * sm100::kElemBytes;
          const std::string tag = box_tag(operand, load.k_elem, load.row, load.rows);
          std::vector<model::sim::Landing> landings;
          for (uint32_t dest = 0; dest < kCtas; ++dest)
            if (load.cta_mask & (1u << dest))  // cta_group::2: completion goes to the leader of the destination's pair
              landings.push_back({stage_buffer(c, dest, write_s, part), full(c, sm100::leader_of(dest), s), bytes});
          step.tma_load(tag, landings, static_cast<int>(write_s), "TMA " + tag + " from cta" + std::to_string(rank));
        }
        step.label("load k-block " + std::to_string(r.kb) + " of tile " + std::to_string(tile.m) + "," +
                 std::to_string(tile.n) + " into stage " + std::to_string(write_s),
             static_cast<int>(s));
        r.stage.advance();
        r.pc = ++r.kb == config_.k_blocks ? kReadClc : kWaitEmpty;
        return true;
      }
      case kReadClc: return read_clc(r, step);
      case kTail: {
        // Wait until every stage is released before exiting.
        if (r.kb == Stages) {
          r.pc = kDone;
          step.label("exit");
          return true;
        }
        if (!step.wait(empty(c, rank, r.stage.index), r.stage.empty_phase())) return false;
        step.label("tail: empty[" + std::to_string(r.stage.index) + "] released", static_cast<int>(r.stage.index));
        r.stage.advance();
        ++r.kb;
        return true;
      }
    }
    throw model::ModelError("producer in an unknown state");
  }

  // ---- run_mma (leader CTA of each pair) ----------------------------------------------------
  bool step_mma(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank;
    switch (r.pc) {
      case kLoopTop:
        r.kb = 0;
        if (r.clc.done) {
          r.pc = kDone;
          step.label("exit");
          return true;
        }
        r.pc = kWaitTmemEmpty;
        return step_mma(r, step);
      case kWaitTmemEmpty:
        if (!step.wait(tmem_empty(c, rank, r.accum.index), r.accum.empty_phase())) return false;
        step.label("wait tmem_empty[" + std::to_string(r.accum.index) + "] passed");
        r.pc = kWaitFull;
        return true;
      case kWaitFull:
        if (!step.wait(full(c, rank, r.stage.index), r.stage.full_phase())) return false;
        r.pc = kIssueMma;
        return step_mma(r, step);
      case kIssueMma: {
        const uint32_t s = r.stage.index, slot = r.accum.index, pair = sm100::pair_of(rank);
        const sm100::ClusterTile tile = sm100::cluster_tile_of<Sched>(r.clc.cluster_id, grid_);
        // The 2-SM MMA reads the stage in both CTAs of the pair and accumulates into
        // the slot in both CTAs' TMEM.
        model::sim::AsyncOp commit{"commit empty[" + std::to_string(s) + "] from cta" + std::to_string(rank),
                                   "tensor core", tensor_core_queue(c, rank), static_cast<int>(s), {}};
        for (uint32_t x = 0; x < sm100::kClusterM; ++x) {
          const uint32_t cta = rank + x;
          for (uint32_t part = 0; part < kParts; ++part) {
            step.read(stage_buffer(c, cta, s, part), expected_part(pair, x, part, tile, r.kb));
            commit.effects.push_back({model::sim::AsyncEffect::Kind::release_read, stage_buffer(c, cta, s, part), 1});
          }
          if (r.kb == 0) step.begin_write(accum_buffer(c, cta, slot), accum_tag(tile));
          step.accumulate(accum_buffer(c, cta, slot), " k" + std::to_string(r.kb * 64));
        }
        const uint32_t arrivals = config_.mutations.commit_over_arrives ? sm100::kEmptyArrivals + 1 : 1;
        for (uint32_t dest = 0; dest < kCtas; ++dest)
          if (sm100::cluster_mask() & (1u << dest))
            commit.effects.push_back({model::sim::AsyncEffect::Kind::arrive, empty(c, dest, s), arrivals});
        step.post(std::move(commit));
        step.label("mma k-block " + std::to_string(r.kb) + " from stage " + std::to_string(s) + " into slot " +
                 std::to_string(slot),
             static_cast<int>(s));
        r.stage.advance();
        if (++r.kb < config_.k_blocks) {
          r.pc = kWaitFull;
          return true;
        }
        model::sim::AsyncOp done{"commit tmem_full[" + std::to_string(slot) + "] from cta" + std::to_string(rank),
                                 "tensor core", tensor_core_queue(c, rank), -1, {}};
        for (uint32_t x = 0; x < sm100::kClusterM; ++x)
          done.effects.push_back({model::sim::AsyncEffect::Kind::finish_write, accum_buffer(c, rank + x, slot), 1});
        for (uint32_t dest = 0; dest < kCtas; ++dest)
          if (sm100::pair_mask(rank) & (1u << dest))
            done.effects.push_back({model::sim::AsyncEffect::Kind::arrive, tmem_full(c, dest, slot), 1});
        step.post(std::move(done));
        r.accum.advance();
        r.pc = kReadClc;
        return true;
      }
      case kReadClc: return read_clc(r, step);
    }
    throw model::ModelError("mma in an unknown state");
  }

  // ---- run_scheduler -------------------------------------------------------------------------
  bool step_scheduler(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank, s = r.clc.pipe.index;
    switch (r.pc) {
      case kLoopTop:
        if (r.clc.done) {
          r.pc = kDone;
          step.label("exit");
          return true;
        }
        r.pc = rank == 0 ? kWaitClcEmpty : kAskClc;
        return step_scheduler(r, step);
      case kWaitClcEmpty:
        if (!step.wait(clc_empty(c, 0, s), r.clc.pipe.empty_phase())) return false;
        r.pc = kAskClc;
        return step_scheduler(r, step);
      case kAskClc:
        step.arrive_expect_tx(clc_full(c, rank, s), sm100::kClcResponseBytes);
        if (rank == 0)
          step.post(model::sim::AsyncOp{"try_cancel -> response " + std::to_string(s),
                                   "cluster launch control",
                                   1000 + static_cast<int>(c),
                                   -1,
                                   {{model::sim::AsyncEffect::Kind::custom, kTryCancel, c * kClcStages + s}}});
        step.label(rank == 0 ? "try_cancel into response " + std::to_string(s) : "expect response " + std::to_string(s));
        r.pc = kReadClc;
        return true;
      case kReadClc: return read_clc(r, step);
    }
    throw model::ModelError("scheduler in an unknown state");
  }

  // ---- run_epilogue ---------------------------------------------------------------------------
  bool step_epilogue(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank;
    switch (r.pc) {
      case kLoopTop:
        if (r.clc.done) {
          r.pc = kDone;
          step.label("exit");
          return true;
        }
        r.pc = kWaitTmemFull;
        return step_epilogue(r, step);
      case kWaitTmemFull:
        if (!step.wait(tmem_full(c, rank, r.accum.index), r.accum.full_phase())) return false;
        r.pc = kDrainTmem;
        return step_epilogue(r, step);
      case kDrainTmem: {
        const uint32_t slot = r.accum.index;
        const sm100::ClusterTile tile = sm100::cluster_tile_of<Sched>(r.clc.cluster_id, grid_);
        const uint32_t first_warp = r.warp < 0 ? sm100::kFirstEpilogueWarp : static_cast<uint32_t>(r.warp);
        const uint32_t warps = r.warp < 0 ? sm100::kEpilogueWarps : 1;
        for (uint32_t warp = first_warp; warp < first_warp + warps; ++warp) {
          step.read(accum_buffer(c, rank, slot), full_accum_tag(tile));
          // The warp's 8 loads cover 32 rows x 256 columns of the pair tile: from the
          // kernel's own maps, held to one contiguous block of C here.
          const sm100::PairTileElement first = sm100::epilogue_element(sm100::cta_in_pair(rank), warp, 0, 0, 0);
          const sm100::GlobalElement g = sm100::c_element(rank, tile, first.row, first.col);
          for (uint32_t load = 0; load < sm100::kEpilogueLoadsPerSlot; ++load) {
            const sm100::PairTileElement e =
                sm100::epilogue_element(sm100::cta_in_pair(rank), warp, 31, load, sm100::kEpilogueColumnsPerLoad - 1);
            const sm100::GlobalElement ge = sm100::c_element(rank, tile, e.row, e.col);
            if (ge.row != g.row + 31 || ge.col != g.col + 32 * load + 31)
              throw model::sim::SimViolation(model::sim::Violation::wrong_data,
                                             "epilogue warp " + std::to_string(warp) + " load " +
                                                 std::to_string(load) + " leaves its 32 x 256 block of C");
          }
          // After its last load the warp frees the slot in the leader's tmem_empty.
          step.release(accum_buffer(c, rank, slot));
          const bool skip = config_.mutations.epilogue_missing_tmem_empty_arrive && rank == 1 &&
                            warp == sm100::kFirstEpilogueWarp && r.first_tile;
          if (!skip) step.arrive(tmem_empty(c, sm100::leader_of(rank), slot));
          step.produce(c_block_key(g.row, g.col));
        }
        step.label("drain slot " + std::to_string(slot) + ", store tile " + std::to_string(tile.m) + "," +
             std::to_string(tile.n));
        r.accum.advance();
        r.pc = kReadClc;
        return true;
      }
      case kReadClc: {
        // Every lane reads; lane 0 releases (one arrival per warp).
        const bool moved = read_clc(r, step, r.warp >= 0);
        if (moved && r.warp < 0) {
          // Lockstep: the four warps each read and release.
          const uint32_t s = (r.clc.pipe.index + kClcStages - 1) % kClcStages;
          const uint32_t buf = response_buffer(c, rank, s);
          for (uint32_t w = 1; w < sm100::kEpilogueWarps; ++w) step.read(buf, "response " + std::to_string(r.responses_read - 1));
          for (uint32_t w = 0; w < sm100::kEpilogueWarps; ++w) {
            step.release(buf);
            step.arrive(clc_empty(c, 0, s));
          }
        }
        return moved;
      }
    }
    throw model::ModelError("epilogue in an unknown state");
  }

  Sm100SimConfig config_;
  sm100::TileGrid grid_{};
  uint32_t clusters_ = 1;
  uint32_t next_unlaunched_ = 1;
  std::vector<uint32_t> full_, empty_, tmem_full_, tmem_empty_, clc_full_, clc_empty_;
  std::vector<uint32_t> stage_buffers_, accum_buffers_, response_buffers_;
  std::vector<Response> responses_;
  std::vector<uint32_t> responses_written_;
  std::vector<model::TmemAllocator> tmem_;
  std::vector<Role> roles_;
};

// The kernel's schedule with `Stages` ring stages (the kernel's own by default).
template <uint32_t Stages = sm100::kStages>
using Sm100ScheduleSim = Sm100ScheduleSimOf<sm100::KernelSchedule::with_stages<Stages>>;
static_assert(std::is_same_v<Sm100ScheduleSim<>, Sm100ScheduleSimOf<sm100::KernelSchedule>>);

}  // namespace gemmscope::testing::sim
