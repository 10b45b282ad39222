#pragma once
// The Hopper ladder's warp-specialized kernels k06-k09 (kernels/sm90/k06_*.cu ..
// k09_*.cu) declared on the pipeline API (model/pipeline.hpp): their barriers, stages,
// staging and schedule buffers, and one program role per producer and consumer
// warpgroup. The roles follow the kernels'
// producer and consumer branches action by action and call the shared
// __host__ __device__ code for every decision: PipelineState (stage, phase,
// empty_parity), StaticSchedule / DynamicSchedule, order_along_m /
// order_grouped_zigzag, multicast_mask_b / multicast_peers / multicast_peer_count,
// slice_b. The kernels' constants (128 x 256 x 64 tiles, two consumer warpgroups, two
// staging buffers from k07 on, two schedule slots in k08/k09, the ring depths) come
// from their CUDA-free headers, kernels/sm90/k06_config.hpp .. k09_config.hpp; the
// store boxes per 64-row half (the ladder's 256 / 64 = 4) are a parameter,
// store_boxes, below.
//
// With `pingpong` (persistent kernels only) the consumers are k10's ping-pong
// warpgroups (kernels/sm90/k10_tunable.cuh): they take the CTA's work units in turn
// (sm90::pingpong_turn), each computing and storing all 128 rows of its tile, and
// step their ring state over the other's units (PipelineState::advance(n)); each
// stage then has one reader, and one release per multicast peer. A consumer starts
// a unit (after the CTA's first) only when the other hands it the turn, once past
// the full barriers of the unit before; the named barrier (bar.arrive by the one,
// bar.sync by the other, never two arrivals ahead) is modelled as a one-arrival
// barrier per consumer whose phases the waiter counts.
//
// How a CTA leaves (Sm90Exit): a CTA's barriers and buffers belong to it, and once
// it has exited any operation on them is a violation (its shared memory is gone).
// k06-k09 end on a cluster barrier: a CTA leaves once every role of its cluster is
// done. The producer tail (k10's static schedules) has no exit barrier: the producer waits once more on
// each ring slot's empty barrier (the last releases, the peers' included), and a CTA
// leaves once its own roles are done.
//
// The epilogue (Sm90SimConfig::store_boxes, 4 by default: kBN / 64 columns; k10's
// BN = 168 has 3 boxes of 56): each 64-row half of a tile is stored as store_boxes
// boxes, one output key per box (the box's index, not its columns, so that any count
// 1..8 is a whole tile). k06 stages the whole half (a buffer per box) and stores it;
// k07+ alternate two staging buffers a box at a time, as k10's non-batched epilogue
// does (kernels/sm90/k10_tunable.cuh): each consumer counts the boxes it has stored
// across tiles (box_seq, never reset), and box i goes to staging buffer i % 2 after
// cp.async.bulk.wait_group.read<1> (all but the latest store have read their
// buffer). k07-k09 take box % 2 of the per-tile box index, the same buffer for an
// even count; for an odd one that rule (Sm90Mutations::staging_restarts_per_tile)
// puts a tile's box 0 into the buffer its predecessor's last box may still be stored
// from, which the wait does not cover.
//
// The deferred epilogue (deferred_epilogue: k10's kDeferEpilogue, cooperative
// consumers of the persistent kernels only): a consumer whose unit has a next one
// (the static walk has another unit; the dynamic schedule always, since it cannot
// tell) does not store its tile after the main loop: it holds it (held_tile,
// held_next: the next held box, store_boxes when nothing is held) and goes on, and
// during the next unit stores one held box after each k-block's wgmma issue (kHeldBox,
// right after the kWaitFull step's read and release; the kernel stores it before its
// wgmma_wait_group<1> and the release of the stage before, an order that changes no
// wait's outcome here, as the box's wait is on the store engine alone), each box
// behind the same running count and wait. Boxes still held when the main loop ends
// (a unit of fewer k-blocks than boxes) are stored right after its final release
// (kFlushHeld), before the consumer decides about its own tile; with no more work,
// before the final drain. The last unit of a static walk stores at once. The held
// tile, its next box and the running count are role state (role_state_key).
//
// Hardware added by the binding: TMA loads that land later (complete_tx on the
// full barrier of each destination CTA), TMA stores whose shared-memory reads end
// later and in issue order (cp.async.bulk.wait_group.read), the global atomic work
// counter of the dynamic schedule. Oracle, written plainly: which rows and K columns
// each stage part must hold, and the store_boxes boxes of every 64-row half of
// every CTA tile of C, each to be stored exactly once.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/sm90_cluster.hpp"
#include "common/sm90_pipeline.hpp"
#include "common/sm90_scheduler.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/pipeline.hpp"
#include "sm90/k06_config.hpp"
#include "sm90/k07_config.hpp"
#include "sm90/k08_config.hpp"
#include "sm90/k09_config.hpp"

namespace gemmscope::testing::sim {

enum class Sm90Kernel { k06, k07, k08_static, k08_dynamic, k09_static, k09_dynamic };
inline const char* to_string(Sm90Kernel k) {
  switch (k) {
    case Sm90Kernel::k06: return "k06";
    case Sm90Kernel::k07: return "k07";
    case Sm90Kernel::k08_static: return "k08";
    case Sm90Kernel::k08_dynamic: return "k08_dyn";
    case Sm90Kernel::k09_static: return "k09";
    case Sm90Kernel::k09_dynamic: return "k09_dyn";
  }
  return "?";
}
// The ring depth each kernel compiles with.
inline constexpr uint32_t sm90_kernel_stages(Sm90Kernel k) {
  return k == Sm90Kernel::k06 ? sm90::k06::kStages
         : k == Sm90Kernel::k07 ? sm90::k07::kStages
         : (k == Sm90Kernel::k08_static || k == Sm90Kernel::k08_dynamic) ? sm90::k08::kStages
                                                                          : sm90::k09::kStages;
}

struct Sm90Mutations {
  bool producer_wrong_initial_phase = false;  // producer's ring counter starts one lap late
  bool consumer_wrong_initial_phase = false;  // consumers' ring counter starts one lap late
  bool consumer_missing_release = false;      // consumer 1 of rank 0 skips the last release of its first tile
  bool producer_stage_off_by_one = false;     // TMA writes stage + 1 (barriers of stage)
  bool staging_wait_off_by_one = false;       // wait_group.read<2> where <1> is needed (k07+)
  bool staging_restarts_per_tile = false;     // staging buffer box % 2 of the per-tile box, not of the running count
  bool scheduler_skips_tile = false;          // the first "next" work index is one too far
  bool scheduler_repeats_tile = false;        // the first "next" work index repeats the current one
  bool pingpong_no_step_over = false;         // ping-pong: a consumer does not step over the other's unit
  bool pingpong_no_turn = false;              // ping-pong: a consumer starts its unit without waiting its turn
};

// How a CTA leaves: after a cluster barrier at the end (k06-k09, k10's dynamic
// schedules); once its own roles are done, its producer having waited for its ring's
// last releases (k10's static schedules); or once its own roles are done with no wait
// at all (a mutation).
enum class Sm90Exit { cluster_barrier, producer_tail, none };
inline const char* to_string(Sm90Exit e) {
  switch (e) {
    case Sm90Exit::cluster_barrier: return "cluster barrier";
    case Sm90Exit::producer_tail: return "producer tail";
    case Sm90Exit::none: return "no exit wait";
  }
  return "?";
}

struct Sm90SimConfig {
  Sm90Kernel kernel = Sm90Kernel::k08_dynamic;
  uint32_t units_m = 1, units_n = 2;  // work tiles (cluster.m x 1 CTA tiles of 128 x 256)
  uint32_t k_blocks = 2;
  uint32_t cluster_m = 2;             // CTAs along M (k06/k07: 2)
  uint32_t workers = 1;               // persistent clusters (k08/k09); k06/k07 launch one per work tile
  uint32_t group = 2;                 // k09: work-tile rows per band
  bool pingpong = false;              // k10's ping-pong consumers (k08/k09 schedules only)
  uint32_t store_boxes = 4;           // store boxes per 64-row consumer half (1..8; the kernels: 256 / 64)
  bool deferred_epilogue = false;     // k10's deferred epilogue (cooperative k08/k09 only)
  Sm90Exit exit = Sm90Exit::cluster_barrier;
  Sm90Mutations mutations;
};

template <uint32_t Stages>
class Sm90ScheduleSim : public model::sim::Pipeline {
  using Pipe = sm90::PipelineState<Stages>;
  using SchedulePipe = sm90::PipelineState<sm90::k08::kScheduleSlots>;
  // k06-k09 share their tile and warpgroups, k07-k09 their staging: k08's values.
  static constexpr uint32_t kBM = sm90::k08::kBM, kBN = sm90::k08::kBN, kBK = sm90::k08::kBK;
  static constexpr uint32_t kConsumers = sm90::k08::kConsumers, kConsumerRows = sm90::k08::kConsumerRows;
  static constexpr uint32_t kStagingBuffers = sm90::k08::kStagingBuffers;  // k07+: the alternating staging buffers
  static_assert(sm90::k06::kBM == kBM && sm90::k07::kBM == kBM && sm90::k09::kBM == kBM &&
                    sm90::k06::kBN == kBN && sm90::k07::kBN == kBN && sm90::k09::kBN == kBN &&
                    sm90::k06::kBK == kBK && sm90::k07::kBK == kBK && sm90::k09::kBK == kBK &&
                    sm90::k06::kConsumers == kConsumers && sm90::k07::kConsumers == kConsumers &&
                    sm90::k09::kConsumers == kConsumers && sm90::k07::kStagingBuffers == kStagingBuffers &&
                    sm90::k09::kStagingBuffers == kStagingBuffers && sm90::k09::kScheduleSlots == 2,
                "k06-k09 share the binding's tile, warpgroups and staging");
  static constexpr uint32_t kStageBytes = (kBM + kBN) * kBK * 2;
  static constexpr uint32_t kThreadsPerConsumer = 128;
  static constexpr uint32_t kStoreDone = 1;  // custom async effect

 public:
  explicit Sm90ScheduleSim(Sm90SimConfig config) : config_(config) {
    using model::require;
    require(config.units_m >= 1 && config.units_m <= 64, "units_m", config.units_m, "must be in 1..64");
    require(config.units_n >= 1 && config.units_n <= 64, "units_n", config.units_n, "must be in 1..64");
    require(config.k_blocks >= 1 && config.k_blocks <= 256, "k_blocks", config.k_blocks, "must be in 1..256");
    require(config.cluster_m == 1 || config.cluster_m == 2, "cluster_m", config.cluster_m, "must be 1 or 2");
    require(!(!persistent() && config.cluster_m != 2), "cluster_m", config.cluster_m, "must be 2 for k06/k07");
    require(config.workers >= 1 && config.workers <= 16, "workers", config.workers, "must be in 1..16");
    require(config.group >= 1 && config.group <= 64, "group", config.group, "must be in 1..64");
    require(!(config.pingpong && !persistent()), "pingpong", 1, "needs a persistent kernel (k08/k09)");
    require(config.store_boxes >= 1 && config.store_boxes <= 8, "store_boxes", config.store_boxes, "must be in 1..8");
    require(!(config.deferred_epilogue && !persistent()), "deferred_epilogue", 1,
            "needs a persistent kernel (k08/k09)");
    require(!(config.deferred_epilogue && config.pingpong), "deferred_epilogue", 1,
            "is for cooperative consumers, not ping-pong");
    cluster_ = sm90::ClusterShape{config.cluster_m, 1};
    grid_ = sm90::WorkGrid{config.units_m, config.units_n};
    clusters_ = persistent() ? config.workers : grid_.total();
    for (uint32_t c = 0; c < clusters_; ++c) build_cluster(c);
    // Every store box of every 64-row half of every CTA tile of C, from the grid alone.
    for (uint32_t m = 0; m < grid_.units_m * cluster_.m; ++m)
      for (uint32_t n = 0; n < grid_.units_n; ++n)
        for (uint32_t row = 0; row < kBM; row += kConsumerRows)
          for (uint32_t box = 0; box < config.store_boxes; ++box) output(box_key(m * kBM + row, n * kBN, box));
  }

  std::string role_state_key() const override {
    std::string key = Pipeline::role_state_key();
    for (const Role& r : roles_)
      key += std::to_string(r.pc) + "," + std::to_string(r.pipe.stage()) + "," + std::to_string(r.pipe.phase()) + "," +
             std::to_string(r.slots.stage()) + "," + std::to_string(r.slots.phase()) + "," +
             std::to_string(r.tile) + "," + std::to_string(r.next) + "," + std::to_string(r.statik.linear) + "," +
             std::to_string(r.kb) + "," + std::to_string(r.previous) + "," + std::to_string(r.box) + "," +
             std::to_string(r.received) + "," + std::to_string(r.tiles_done) + "," + std::to_string(r.turn) + "," +
             std::to_string(r.turns.phase()) + "," + std::to_string(r.box_seq) + "," + std::to_string(r.held_tile) +
             "," + std::to_string(r.held_next) + ";";
    key += "ctr" + std::to_string(counter_) + ";";
    for (uint32_t v : schedule_value_) key += std::to_string(v) + ",";
    for (uint32_t v : published_) key += std::to_string(v) + ",";
    for (const auto& q : store_keys_) key += std::to_string(q.size()) + ",";
    return key;
  }
  bool step_program(uint32_t i, model::sim::Step& step) override {
    Role& r = roles_[i];
    const bool moved = r.consumer < 0 ? step_producer(r, step) : step_consumer(r, step);
    if (moved && r.pc == kDone) {
      step.exit();
      exit_ctas(r.cluster);
    }
    return moved;
  }
  void fire_custom(const model::sim::AsyncEffect& e) override {
    if (e.target != kStoreDone) throw model::ModelError("unknown custom effect " + std::to_string(e.target));
    auto& q = store_keys_.at(e.amount);
    record_output(q.front());
    q.pop_front();
  }

 private:
  enum : uint32_t {
    kNextTile = 0, kPublish, kReceive, kLoadOrWait, kTakeTurn, kWaitFull, kFinalRelease, kEpilogue, kDrainStores,
    kTail, kDone,
    kHeldBox,    // deferred epilogue: one held box after a k-block's wgmma issue, then on with the main loop
    kFlushHeld,  // deferred epilogue: the held boxes left after the main loop (or at the end of the work)
  };
  struct Role {
    uint32_t cluster = 0, rank = 0;
    int consumer = -1;  // -1: the producer
    uint32_t pc = kNextTile;
    Pipe pipe{};
    SchedulePipe slots{};
    sm90::StaticSchedule statik{};
    uint32_t tile = 0, next = 0, kb = 0, previous = 0, box = 0, received = 0, tiles_done = 0;
    uint32_t turn = 0;  // ping-pong: the CTA's units this consumer has seen
    sm90::PipelineState<1> turns{};  // ping-pong: phases of this consumer's turn barrier waited for
    uint32_t box_seq = 0;    // k07+: boxes this consumer has stored, across tiles (never reset)
    uint32_t held_tile = 0;  // deferred epilogue: the work index of the held tile
    uint32_t held_next = 0;  // deferred epilogue: its next box to store (store_boxes: nothing held)
    bool started = false;
  };

  bool persistent() const { return config_.kernel != Sm90Kernel::k06 && config_.kernel != Sm90Kernel::k07; }
  bool dynamic() const {
    return config_.kernel == Sm90Kernel::k08_dynamic || config_.kernel == Sm90Kernel::k09_dynamic;
  }
  bool double_buffered_staging() const { return config_.kernel != Sm90Kernel::k06; }
  // Consumer warpgroups that read, and release, each stage; the 64-row halves one
  // consumer stores per tile.
  uint32_t readers() const { return config_.pingpong ? 1 : kConsumers; }
  uint32_t halves() const { return config_.pingpong ? kBM / kConsumerRows : 1; }
  sm90::WorkCoord coord_of(uint32_t tile) const {
    const bool zigzag = config_.kernel == Sm90Kernel::k09_static || config_.kernel == Sm90Kernel::k09_dynamic;
    return zigzag ? sm90::order_grouped_zigzag(grid_, tile, config_.group) : sm90::order_along_m(grid_, tile);
  }
  uint32_t cta_index(uint32_t c, uint32_t r) const { return c * cluster_.size() + r; }
  uint32_t consumer_index(const Role& r) const {
    return cta_index(r.cluster, r.rank) * kConsumers + static_cast<uint32_t>(r.consumer);
  }
  uint32_t parts() const { return 1 + cluster_.m; }  // A, then cluster.m slices of B
  uint32_t full(uint32_t c, uint32_t r, uint32_t s) const { return full_[cta_index(c, r) * Stages + s]; }
  uint32_t empty(uint32_t c, uint32_t r, uint32_t s) const { return empty_[cta_index(c, r) * Stages + s]; }
  uint32_t stage_buffer(uint32_t c, uint32_t r, uint32_t s, uint32_t part) const {
    return stage_buffers_[(cta_index(c, r) * Stages + s) * parts() + part];
  }
  uint32_t boxes() const { return config_.store_boxes; }
  // Staging buffers per consumer: k06 stages a whole 64-row half (a buffer per box).
  uint32_t staging_count() const { return double_buffered_staging() ? kStagingBuffers : boxes(); }
  uint32_t staging_buffer(const Role& r, uint32_t b) const {
    return staging_buffers_[consumer_index(r) * staging_count() + b];
  }
  uint32_t schedule_full(uint32_t c, uint32_t r, uint32_t s) const { return schedule_full_[cta_index(c, r) * 2 + s]; }
  uint32_t schedule_empty(uint32_t c, uint32_t s) const { return schedule_empty_[c * 2 + s]; }
  uint32_t schedule_buffer(uint32_t c, uint32_t r, uint32_t s) const { return schedule_buffers_[cta_index(c, r) * 2 + s]; }
  uint32_t turn_barrier(const Role& r, uint32_t consumer) const {
    return turn_[cta_index(r.cluster, r.rank) * kConsumers + consumer];
  }

  bool cta_roles_done(uint32_t c, uint32_t rank) const {
    for (const Role& r : roles_)
      if (r.cluster == c && r.rank == rank && r.pc != kDone) return false;
    return true;
  }
  // After a role of cluster c finished: the CTAs of c that leave now.
  void exit_ctas(uint32_t c) {
    bool cluster_done = true;
    for (uint32_t rank = 0; rank < cluster_.size(); ++rank) cluster_done = cluster_done && cta_roles_done(c, rank);
    for (uint32_t rank = 0; rank < cluster_.size(); ++rank) {
      const uint32_t cta = cta_index(c, rank);
      const bool leaves = config_.exit == Sm90Exit::cluster_barrier ? cluster_done : cta_roles_done(c, rank);
      if (leaves) owner_exits(cta);  // a set: leaving twice is leaving once
    }
  }

  void build_cluster(uint32_t c) {
    const std::string cl = clusters_ > 1 ? "cl" + std::to_string(c) + " " : "";
    // Readers of each broadcast index (k08/k09 dynamic): the other CTAs' producers
    // and every consumer thread, as the kernel counts them.
    const uint32_t schedule_readers = (cluster_.m - 1) + cluster_.m * kConsumers * kThreadsPerConsumer;
    for (uint32_t r = 0; r < cluster_.size(); ++r) {
      const std::string cta = cl + "cta" + std::to_string(r) + " ";
      const uint32_t owner = cta_index(c, r);  // whose shared memory each barrier and buffer is
      for (uint32_t s = 0; s < Stages; ++s) {
        full_.push_back(barrier(cta + "full[" + std::to_string(s) + "]", 1, owner));
        empty_.push_back(barrier(cta + "empty[" + std::to_string(s) + "]",
                                     readers() * sm90::multicast_peer_count(cluster_), owner));
        stage_buffers_.push_back(Pipeline::slot(cta + "stage " + std::to_string(s) + " A", readers(), owner));
        for (uint32_t i = 0; i < cluster_.m; ++i)
          stage_buffers_.push_back(
              slot(cta + "stage " + std::to_string(s) + " B slice " + std::to_string(i), readers(), owner));
      }
      for (uint32_t k = 0; k < kConsumers; ++k)
        turn_.push_back(barrier(cta + "consumer " + std::to_string(k) + " turn", 1, owner));
      for (uint32_t k = 0; k < kConsumers; ++k) {
        for (uint32_t b = 0; b < staging_count(); ++b)
          staging_buffers_.push_back(Pipeline::slot(
              cta + "consumer " + std::to_string(k) + " staging " + std::to_string(b), 1, owner));
        store_keys_.emplace_back();
      }
      for (uint32_t s = 0; s < 2; ++s) {
        schedule_full_.push_back(barrier(cta + "schedule_full[" + std::to_string(s) + "]", 1, owner));
        schedule_buffers_.push_back(
            slot(cta + "schedule_tile[" + std::to_string(s) + "]", kConsumers + (r == 0 ? 0 : 1), owner));
        schedule_value_.push_back(0);
      }
    }
    for (uint32_t s = 0; s < 2; ++s)
      schedule_empty_.push_back(
          barrier(cl + "cta0 schedule_empty[" + std::to_string(s) + "]", schedule_readers, cta_index(c, 0)));
    published_.push_back(0);
    for (uint32_t r = 0; r < cluster_.size(); ++r) {
      for (int k = -1; k < static_cast<int>(kConsumers); ++k) {
        Role role;
        role.cluster = c;
        role.rank = r;
        role.consumer = k;
        const bool wrong = k < 0 ? config_.mutations.producer_wrong_initial_phase
                                 : config_.mutations.consumer_wrong_initial_phase;
        if (wrong) role.pipe = role.pipe.advance(Stages);  // one lap: the other parity
        role.statik = sm90::StaticSchedule::first(c, clusters_);
        role.held_next = config_.store_boxes;  // nothing held
        roles_.push_back(role);
        add_program_role((clusters_ > 1 ? "cl" + std::to_string(c) + " " : "") + "cta" + std::to_string(r) +
                         (k < 0 ? " producer" : " consumer " + std::to_string(k)));
      }
    }
  }

  // ---- Oracle ------------------------------------------------------------------------------
  static std::string box_tag(char operand, uint32_t k_elem, uint32_t row, uint32_t rows) {
    return std::string(1, operand) + " k" + std::to_string(k_elem) + " rows " + std::to_string(row) + "+" +
           std::to_string(rows);
  }
  // CTA `rank` of a cluster at work tile (m, n) computes C rows (m cluster.m + rank)
  // * 128 .. +127, columns n * 256 .. +255: A holds those rows, B those columns (as
  // rows of B), cut into cluster.m equal slices.
  uint32_t cta_row0(sm90::WorkCoord w, uint32_t rank) const { return (w.m * cluster_.m + rank) * kBM; }
  std::string expected_part(uint32_t rank, sm90::WorkCoord w, uint32_t part, uint32_t kb) const {
    const uint32_t k_elem = kb * kBK;
    if (part == 0) return box_tag('A', k_elem, cta_row0(w, rank), kBM);
    const uint32_t slice_rows = kBN / cluster_.m;
    return box_tag('B', k_elem, w.n * kBN + (part - 1) * slice_rows, slice_rows);
  }
  // Store box `box` of the 64 rows from `row` of the tile whose columns start at col0.
  std::string box_key(uint32_t row, uint32_t col0, uint32_t box) const {
    return "C rows " + std::to_string(row) + "+64 cols " + std::to_string(col0) + "+256 box " + std::to_string(box) +
           "/" + std::to_string(config_.store_boxes);
  }

  // ---- Work sequence ---------------------------------------------------------------------------
  // The static schedule's next index, with the scheduler mutations.
  uint32_t static_next(Role& r) {
    const uint32_t current = r.statik.linear;
    r.statik = r.statik.next();
    if (r.tiles_done == 0 && config_.mutations.scheduler_skips_tile) r.statik.linear += 1;
    if (r.tiles_done == 0 && config_.mutations.scheduler_repeats_tile) r.statik.linear = current;
    return r.statik.linear;
  }
  uint32_t claim() {
    const sm90::DynamicSchedule dyn{clusters_};
    uint32_t next = dyn.after_claim(counter_++);  // atomicAdd(counter, 1)
    if (counter_ == 1 && config_.mutations.scheduler_skips_tile) next += 1;
    if (counter_ == 1 && config_.mutations.scheduler_repeats_tile) next = dyn.first(0);
    return next;
  }

  // ---- Producer --------------------------------------------------------------------------------
  bool step_producer(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank;
    switch (r.pc) {
      case kNextTile: {
        if (!r.started) {
          r.started = true;
          r.tile = persistent() ? (dynamic() ? sm90::DynamicSchedule{clusters_}.first(c) : r.statik.linear) : c;
        } else if (!persistent()) {
          return leave(r, step);
        } else {
          r.tile = r.next;
        }
        if (dynamic()) {
          r.pc = rank == 0 ? kPublish : kReceive;
          return step_producer(r, step);
        }
        return start_tile(r, step);
      }
      case kPublish: {  // rank 0: broadcast this index (or the end) to every CTA of the cluster
        const uint32_t slot = r.slots.stage();
        if (!step.wait(schedule_empty(c, slot), r.slots.empty_parity())) return false;
        for (uint32_t dest = 0; dest < cluster_.size(); ++dest) {
          step.begin_write(schedule_buffer(c, dest, slot), "index " + std::to_string(published_[c]));
          step.finish_write(schedule_buffer(c, dest, slot));
          schedule_value_[cta_index(c, dest) * 2 + slot] = r.tile;
          step.arrive(schedule_full(c, dest, slot));
        }
        ++published_[c];
        r.slots = r.slots.advance();
        step.label("publish work " + std::to_string(r.tile));
        return start_tile(r, step);
      }
      case kReceive:
        if (!receive(r, step)) return false;
        step.label("receive work " + std::to_string(r.tile));
        return start_tile(r, step);
      case kTail: {
        if (r.kb == Stages) {
          r.pc = kDone;
          step.label("exit");
          return true;
        }
        if (!step.wait(empty(c, rank, r.pipe.stage()), r.pipe.empty_parity())) return false;
        step.label("tail: empty[" + std::to_string(r.pipe.stage()) + "] released", static_cast<int>(r.pipe.stage()));
        r.pipe = r.pipe.advance();
        ++r.kb;
        return true;
      }
      case kLoadOrWait: {
        const uint32_t st = r.pipe.stage();
        if (!step.wait(empty(c, rank, st), r.pipe.empty_parity())) return false;
        const uint32_t write_st = config_.mutations.producer_stage_off_by_one ? (st + 1) % Stages : st;
        const sm90::WorkCoord w = coord_of(r.tile);
        const uint32_t m0 = cta_row0(w, rank), n0 = w.n * kBN;
        step.arrive_expect_tx(full(c, rank, st), kStageBytes);
        // A: this CTA's own rows.
        const std::string a_tag = box_tag('A', r.kb * kBK, m0, kBM);
        step.tma_load(a_tag, {{stage_buffer(c, rank, write_st, 0), full(c, rank, st), kBM * kBK * 2}},
                      static_cast<int>(write_st), "TMA " + a_tag);
        // B: this CTA's slice, multicast to the CTAs that share the B tile.
        const sm90::TileSlice sb = sm90::slice_b(cluster_, rank, kBN);
        const uint16_t mask_b = sm90::multicast_mask_b(cluster_, rank);
        const std::string b_tag = box_tag('B', r.kb * kBK, n0 + sb.row0, sb.rows);
        const uint32_t part = 1 + sb.row0 / sb.rows;
        std::vector<model::sim::Landing> landings;
        for (uint32_t dest = 0; dest < cluster_.size(); ++dest)
          if (mask_b >> dest & 1u) landings.push_back({stage_buffer(c, dest, write_st, part), full(c, dest, st), sb.rows * kBK * 2});
        step.tma_load(b_tag, landings, static_cast<int>(write_st), "TMA " + b_tag + " multicast");
        step.label("load k-block " + std::to_string(r.kb) + " of work " + std::to_string(r.tile) + " into stage " +
                 std::to_string(write_st),
             static_cast<int>(st));
        r.pipe = r.pipe.advance();
        if (++r.kb == config_.k_blocks) {
          ++r.tiles_done;
          r.pc = kNextTile;
        }
        return true;
      }
    }
    throw model::ModelError("producer in an unknown state");
  }
  // The producer's end: done, or (producer tail) first one more wait on each ring
  // slot's empty barrier, from where the ring state stands (a slot never filled
  // passes at once).
  bool leave(Role& r, model::sim::Step& step) {
    if (config_.exit != Sm90Exit::producer_tail) {
      r.pc = kDone;
      step.label("exit");
      return true;
    }
    r.kb = 0;
    r.pc = kTail;
    step.label("no more work: tail");
    return true;
  }
  // After the index is known: stop at the end, else (rank 0, dynamic) claim the next.
  bool start_tile(Role& r, model::sim::Step& step) {
    if (r.tile >= grid_.total()) return leave(r, step);
    if (persistent()) {
      if (dynamic()) {
        if (r.rank == 0) r.next = claim();
      } else {
        r.next = static_next(r);
      }
    }
    r.kb = 0;
    r.pc = kLoadOrWait;
    return true;
  }
  // The dynamic schedule's reader: wait for the next broadcast index, read it, release
  // the slot in rank 0 (one arrival per reading thread).
  bool receive(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, slot = r.slots.stage();
    if (!step.wait(schedule_full(c, r.rank, slot), r.slots.phase())) return false;
    const uint32_t buf = schedule_buffer(c, r.rank, slot);
    step.read(buf, "index " + std::to_string(r.received));
    step.release(buf);
    r.tile = schedule_value_[cta_index(c, r.rank) * 2 + slot];
    step.arrive(schedule_empty(c, slot), r.consumer < 0 ? 1 : kThreadsPerConsumer);
    r.slots = r.slots.advance();
    ++r.received;
    return true;
  }

  // ---- Consumer --------------------------------------------------------------------------------
  void release(Role& r, model::sim::Step& step, uint32_t st) {
    // The wgmma that read stage st has completed (wait_group): its reads end here.
    for (uint32_t part = 0; part < parts(); ++part) step.release(stage_buffer(r.cluster, r.rank, st, part));
    const bool skip = config_.mutations.consumer_missing_release && r.rank == 0 && r.consumer == 1 &&
                      r.pc == kFinalRelease && r.tiles_done == 0;
    const uint16_t peers = sm90::multicast_peers(cluster_, r.rank);
    for (uint32_t dest = 0; dest < cluster_.size(); ++dest)
      if ((peers >> dest & 1u) && !skip) step.arrive(empty(r.cluster, dest, st));
  }
  uint32_t stores_in_flight(const Role& r) const {
    return static_cast<uint32_t>(store_keys_[consumer_index(r)].size());
  }
  bool holding(const Role& r) const { return r.held_next < boxes(); }
  // k07+: cp.async.bulk.wait_group.read<kStagingBuffers - 1> before a box's stmatrix
  // (one more with the mutation).
  bool staging_wait_passes(const Role& r) const {
    const uint32_t allowed = kStagingBuffers - 1 + (config_.mutations.staging_wait_off_by_one ? 1 : 0);
    return stores_in_flight(r) <= allowed;
  }
  // k07+: the staging buffer of the consumer's next box, `box` its index in its tile
  // (a ping-pong tile's boxes count on through its second half).
  uint32_t next_staging(const Role& r, uint32_t box) const {
    return (config_.mutations.staging_restarts_per_tile ? box : r.box_seq) % kStagingBuffers;
  }
  // stmatrix of box `box` of the 64 rows from `row` of work tile w into staging buffer
  // `buffer`, then its TMA store, which reads the buffer until it lands.
  void store_box(Role& r, model::sim::Step& step, sm90::WorkCoord w, uint32_t row, uint32_t box, uint32_t buffer) {
    const std::string key = box_key(row, w.n * kBN, box);
    step.begin_write(staging_buffer(r, buffer), key);
    step.finish_write(staging_buffer(r, buffer));
    step.read(staging_buffer(r, buffer), key);  // the TMA store reads the staging buffer
    store_keys_[consumer_index(r)].push_back(key);
    step.post(model::sim::AsyncOp{"store " + key,
                             "TMA store",
                             static_cast<int>(consumer_index(r)),
                             -1,
                             {{model::sim::AsyncEffect::Kind::release_read, staging_buffer(r, buffer), 1},
                              {model::sim::AsyncEffect::Kind::custom, kStoreDone, consumer_index(r)}}});
  }
  // Deferred epilogue: the held tile's box held_next, once its buffer is free; false
  // (nothing changed) while the wait does not pass.
  bool store_held_box(Role& r, model::sim::Step& step) {
    if (!staging_wait_passes(r)) return false;
    const sm90::WorkCoord w = coord_of(r.held_tile);
    const uint32_t row = cta_row0(w, r.rank) + static_cast<uint32_t>(r.consumer) * kConsumerRows;
    const uint32_t buffer = next_staging(r, r.held_next);
    store_box(r, step, w, row, r.held_next, buffer);
    step.label("store held work " + std::to_string(r.held_tile) + " box " + std::to_string(r.held_next) + " from staging " +
         std::to_string(buffer));
    ++r.held_next;
    ++r.box_seq;
    return true;
  }
  // After the main loop (and any held boxes left): hold the tile when a next unit
  // follows (deferred epilogue), else store it now. `label`: the step's action so far.
  void finish_main_loop(Role& r, model::sim::Step& step, const std::string& label) {
    const bool next_follows = dynamic() || r.statik.valid(grid_);
    if (config_.deferred_epilogue && next_follows) {
      r.held_tile = r.tile;
      r.held_next = 0;
      ++r.tiles_done;
      r.pc = kNextTile;
      step.label(label + "; hold work " + std::to_string(r.tile));
      return;
    }
    r.box = 0;
    r.pc = kEpilogue;
  }

  bool step_consumer(Role& r, model::sim::Step& step) {
    const uint32_t c = r.cluster, rank = r.rank;
    switch (r.pc) {
      case kNextTile: {
        if (persistent()) {
          if (dynamic()) {
            if (!receive(r, step)) return false;
          } else {
            r.tile = r.statik.linear;
            static_next(r);
          }
        } else {
          r.tile = r.tiles_done == 0 ? c : grid_.total();
        }
        const uint32_t me = static_cast<uint32_t>(r.consumer);
        if (r.tile >= grid_.total()) {
          // Ping-pong: take the turn the CTA's last unit handed to this consumer.
          r.pc = config_.pingpong && r.turn > 0 && sm90::pingpong_turn(r.turn, me) ? kTakeTurn
                 : holding(r)                                                   ? kFlushHeld
                                                                                : kDrainStores;
          step.label("no more work");
          return true;
        }
        r.kb = 0;
        r.pc = kWaitFull;
        if (config_.pingpong) {
          if (!sm90::pingpong_turn(r.turn, me)) {
            // The other consumer's unit: step over its k-blocks in the ring.
            ++r.turn;
            if (!config_.mutations.pingpong_no_step_over) r.pipe = r.pipe.advance(config_.k_blocks);
            r.pc = kNextTile;
            step.label("pass work " + std::to_string(r.tile) + " to the other consumer");
            return true;
          }
          if (r.turn > 0 && !config_.mutations.pingpong_no_turn) r.pc = kTakeTurn;
          ++r.turn;
        }
        step.label("start work " + std::to_string(r.tile));
        return true;
      }
      case kTakeTurn: {  // bar.sync on this consumer's turn barrier: before a unit, or the last hand-off
        if (!step.wait(turn_barrier(r, static_cast<uint32_t>(r.consumer)), r.turns.phase())) return false;
        r.turns = r.turns.advance();
        const bool last = r.tile >= grid_.total();
        r.pc = last ? kDrainStores : kWaitFull;
        step.label(last ? std::string("take the last turn") : "take the turn for work " + std::to_string(r.tile));
        return true;
      }
      case kWaitFull: {
        const uint32_t st = r.pipe.stage();
        if (!step.wait(full(c, rank, st), r.pipe.phase())) return false;
        const sm90::WorkCoord w = coord_of(r.tile);
        for (uint32_t part = 0; part < parts(); ++part)
          step.read(stage_buffer(c, rank, st, part), expected_part(rank, w, part, r.kb));
        // wgmma_wait_group<1>: the previous stage's wgmma is done; hand its stage back.
        if (r.kb > 0) release(r, step, r.previous);
        step.label("wgmma k-block " + std::to_string(r.kb) + " from stage " + std::to_string(st), static_cast<int>(st));
        r.previous = st;
        r.pipe = r.pipe.advance();
        if (++r.kb == config_.k_blocks) {
          r.pc = kFinalRelease;
          // Ping-pong: past this unit's last full barrier, hand the turn to the other (bar.arrive).
          if (config_.pingpong) step.arrive(turn_barrier(r, 1u - static_cast<uint32_t>(r.consumer)));
        }
        // Deferred epilogue: one held box behind this k-block's wgmmas.
        if (holding(r)) r.pc = kHeldBox;
        return true;
      }
      case kHeldBox:
        if (!store_held_box(r, step)) return false;
        r.pc = r.kb == config_.k_blocks ? kFinalRelease : kWaitFull;
        return true;
      case kFinalRelease:
        release(r, step, r.previous);  // wgmma_wait_group<0>
        step.label("release stage " + std::to_string(r.previous), static_cast<int>(r.previous));
        // Deferred epilogue: a unit of fewer k-blocks than boxes leaves held boxes.
        if (holding(r)) r.pc = kFlushHeld;
        else finish_main_loop(r, step, "release stage " + std::to_string(r.previous));
        return true;
      case kFlushHeld:
        if (!store_held_box(r, step)) return false;
        if (!holding(r)) {
          if (r.tile >= grid_.total()) r.pc = kDrainStores;  // no more work
          else finish_main_loop(r, step, "store held work " + std::to_string(r.held_tile) + " box " +
                                       std::to_string(boxes() - 1));
        }
        return true;
      case kEpilogue: {
        // k06: stmatrix into the whole-tile staging, then every box's store; k07+: one
        // box at a time into buffer box_seq % 2 (the running count), after
        // wait_group.read<1>. Ping-pong: boxes 0..store_boxes-1 are the tile's first 64
        // rows, then its second.
        const sm90::WorkCoord w = coord_of(r.tile);
        const uint32_t half = r.box / boxes();
        const uint32_t row =
            cta_row0(w, rank) + (config_.pingpong ? half : static_cast<uint32_t>(r.consumer)) * kConsumerRows;
        const uint32_t first_box = r.box, count = double_buffered_staging() ? 1 : boxes();
        if (double_buffered_staging() && !staging_wait_passes(r)) return false;  // cp.async.bulk.wait_group.read
        std::string buffers;
        for (uint32_t box = first_box; box < first_box + count; ++box) {
          const uint32_t buffer = double_buffered_staging() ? next_staging(r, box) : box;
          store_box(r, step, w, row, box % boxes(), buffer);
          buffers += (buffers.empty() ? "" : ",") + std::to_string(buffer);
          ++r.box_seq;
        }
        step.label("epilogue box " + std::to_string(first_box) + (count > 1 ? "-" + std::to_string(boxes() - 1) : "") +
             " from staging " + buffers);
        r.box += count;
        if (r.box == boxes() * halves()) {
          ++r.tiles_done;
          r.pc = persistent() ? kNextTile : kDrainStores;
          if (!persistent()) r.tile = grid_.total();
        }
        return true;
      }
      case kDrainStores:
        if (stores_in_flight(r) > 0) return false;  // cp.async.bulk.wait_group.read<0>
        r.pc = kDone;
        step.label("stores drained; exit");
        return true;
    }
    throw model::ModelError("consumer in an unknown state");
  }

  Sm90SimConfig config_;
  sm90::ClusterShape cluster_{};
  sm90::WorkGrid grid_{};
  uint32_t clusters_ = 1;
  uint32_t counter_ = 0;  // the global atomic work counter (dynamic)
  std::vector<uint32_t> full_, empty_, stage_buffers_, staging_buffers_;
  std::vector<uint32_t> schedule_full_, schedule_empty_, schedule_buffers_, schedule_value_, published_;
  std::vector<uint32_t> turn_;  // [CTA][consumer]: ping-pong turn barriers
  std::vector<std::deque<std::string>> store_keys_;
  std::vector<Role> roles_;
};

}  // namespace gemmscope::testing::sim
