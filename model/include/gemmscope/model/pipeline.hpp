#pragma once
// Declare a warp-specialized pipeline and check it under many schedules.
//
// A Pipeline names its mbarriers (arrivals per phase), its shared-memory stages
// (slots that are written and read), the outputs it must produce exactly once, and
// its roles. A role is what one warp (or warpgroup) does, step by step, with the
// operations of Step: wait on a barrier's phase, arrive, expect or complete
// transaction bytes, write or read a slot, land a TMA copy later, produce an output.
// The simulation engine (pipeline_sim.hpp) then runs it under seeded random and
// exhaustive interleavings and reports deadlocks, reads before writes (or of
// overwritten data), lost and duplicated outputs; timeline_svg draws any run.
//
// Two kinds of role:
// - a script: `iterations` passes of a body that lists the role's operations for
//   pass i (a pure function of i). A wait starts a step; the operations after it, up
//   to the next wait, run in the same step once the wait passes. This is how a
//   pipeline whose roles follow a fixed sequence is written, in a few lines each.
// - a program (add_program_role + step_program in a class derived from Pipeline):
//   one step per call, for roles whose next action depends on data they read (a tile
//   index from a scheduler, a response of cluster launch control). The step performs
//   the same Step operations; after a wait that does not pass it returns false and
//   changes nothing. The built-in kernels' bindings (verify/lib) are programs.
//
// Example (a TMA producer, an MMA consumer, an epilogue; see docs/model.md):
//   Pipeline p;
//   auto full = p.barriers("full", 4, 1), empty = p.barriers("empty", 4, 1);
//   auto smem = p.stages("stage", 4, 1);
//   p.role("producer", tiles * k_blocks, [=](Step& s, uint32_t i) {
//     const RingSlot r = ring_slot(i, 4);
//     s.wait(empty[r.stage], r.phase ^ 1);
//     s.arrive_expect_tx(full[r.stage], 32768);
//     s.tma_load(smem[r.stage], "k-block " + std::to_string(i), full[r.stage], 32768);
//   });
//   ...
//   const PipelineReport report = check(p);
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gemmscope/model/pipeline_sim.hpp"

namespace gemmscope::model::sim {

// Where pass i of a ring of `stages` slots lands: the slot, and the phase (0, 1, 0,
// ...) of that slot's barriers it waits for. A consumer waits full with `phase`, a
// producer waits empty with `phase ^ 1` (the phase before phase 0 counts as done).
struct RingSlot {
  uint32_t stage = 0, phase = 0;
};
RingSlot ring_slot(uint32_t i, uint32_t stages);

// Where a TMA copy lands: a slot of one CTA, and the barrier whose transaction bytes
// it completes there (a multicast copy lands in several).
struct Landing {
  uint32_t slot;
  uint32_t barrier;
  uint32_t bytes;
};

class Pipeline;

// The operations of one step of a role. In a script only the operations of the
// current step run (the rest of the pass is listed again and skipped).
class Step {
 public:
  // try_wait.parity: true when the phase with `parity` has completed. In a script a
  // wait starts a step and the role blocks there until it passes; a program returns
  // false when it does not.
  bool wait(uint32_t barrier, uint32_t parity);
  void arrive(uint32_t barrier, uint32_t count = 1);
  void arrive_expect_tx(uint32_t barrier, uint32_t bytes);
  void expect_tx(uint32_t barrier, uint32_t bytes);
  void complete_tx(uint32_t barrier, uint32_t bytes);

  // A write by the role's own threads (st.shared, stmatrix): the slot holds `tag` at once.
  void write(uint32_t slot, const std::string& tag);
  // A TMA copy of `tag` into the slot: issued now, it lands later (any order) and
  // completes `bytes` on `barrier`; until then the slot is being written.
  void tma_load(uint32_t slot, const std::string& tag, uint32_t barrier, uint32_t bytes);
  // A copy that lands in several slots (multicast); `label` names it on the timeline
  // (default "TMA <tag>").
  void tma_load(const std::string& tag, const std::vector<Landing>& landings, int color = -1,
                const std::string& label = "");
  // Read the slot, which must hold `tag`; release it once done with it (each fill has
  // the slot's readers_per_fill readers, each reads once and releases once).
  void read(uint32_t slot, const std::string& tag);
  void release(uint32_t slot);
  // An accumulator: begin a fill, add a piece to it (one per k-block), finish it.
  void begin_write(uint32_t slot, const std::string& tag);
  void accumulate(uint32_t slot, const std::string& piece);
  void finish_write(uint32_t slot);
  // An arrival that lands later, after the role's earlier commits (tcgen05.commit,
  // the end of an asynchronous MMA): on the named async lane, in issue order.
  void commit_arrive(uint32_t barrier, uint32_t count = 1, const std::string& lane = "tensor core");
  // Any other asynchronous operation of the engine.
  void post(AsyncOp op);

  // An output (a tile of C, a stored box): each declared output exactly once.
  void produce(const std::string& key);
  // The step's label on the timeline (a script labels its steps by their operations
  // when it gives none); color: the stage, -1 none.
  void label(std::string text, int color = -1);
  // A program role is done (a script is done after its last pass).
  void exit();

  uint32_t role() const { return role_; }
  Pipeline& pipeline() { return *pipe_; }

 private:
  friend class Pipeline;
  Step(Pipeline& pipe, uint32_t role, bool script, uint32_t target) : pipe_(&pipe), role_(role), script_(script), target_(target) {}
  // Script bookkeeping: is this operation part of the current step?
  bool live();
  void describe(const std::string& what, int color);

  Pipeline* pipe_;
  uint32_t role_;
  bool script_;
  uint32_t target_;          // script: the step (segment) of the pass to run
  uint32_t segment_ = 0;     // script: the segment the listed operations are in
  uint32_t ops_ = 0;         // script: operations listed so far in this pass
  bool blocked_ = false;     // the step's wait did not pass
  bool ran_ = false;         // an operation of the current step ran
  bool labelled_ = false;
  bool exited_ = false;
  std::string auto_label_;
  int auto_color_ = -1;
};

class Pipeline : public PipelineSim {
 public:
  using Body = std::function<void(Step&, uint32_t pass)>;

  // ---- Declarations ---------------------------------------------------------------------
  // owner: the CTA whose shared memory holds it (-1: none; see PipelineSim owners).
  uint32_t barrier(const std::string& name, uint32_t arrivals, int64_t owner = -1);
  // `count` barriers "name[0]" .. "name[count-1]"; barrier i is coloured as stage i.
  std::vector<uint32_t> barriers(const std::string& name, uint32_t count, uint32_t arrivals, int64_t owner = -1);
  // One slot with `readers` readers per fill.
  uint32_t slot(const std::string& name, uint32_t readers, int64_t owner = -1);
  // A ring of `count` slots "name 0" .. "name count-1", slot i coloured as stage i.
  std::vector<uint32_t> stages(const std::string& name, uint32_t count, uint32_t readers, int64_t owner = -1);
  // An output the pipeline must produce exactly once.
  void output(const std::string& key) { expect_output(key); }
  // A script role: `passes` passes of `body`.
  uint32_t role(const std::string& name, uint32_t passes, Body body);
  // A program role: step_program(role, step) moves it.
  uint32_t add_program_role(const std::string& name);

  // ---- PipelineSim ---------------------------------------------------------------------
  uint32_t role_count() const override { return static_cast<uint32_t>(roles_.size()); }
  std::string role_name(uint32_t role) const override { return shared_->roles.at(role).name; }
  bool role_done(uint32_t role) const override;
  bool step_role(uint32_t role) override;
  // Scripts' positions and programs' done flags; a derived class adds its programs' state.
  std::string role_state_key() const override;

 protected:
  // One step of a program role; false (and no change) when its wait does not pass.
  virtual bool step_program(uint32_t role, Step& step);

 private:
  friend class Step;
  struct RoleDecl {
    std::string name;
    uint32_t passes = 0;
    std::shared_ptr<const Body> body;  // null: a program
  };
  struct Decls {
    std::vector<RoleDecl> roles;
    std::vector<int> barrier_color, slot_color;
  };
  Decls& decls();
  // A barrier's or slot's stage colour (-1: none, or added by the engine's own calls).
  int barrier_color(uint32_t id) const;
  int slot_color(uint32_t id) const;
  struct RoleAt {
    uint32_t pass = 0, segment = 0;
    bool done = false;
  };
  std::shared_ptr<Decls> shared_ = std::make_shared<Decls>();
  std::vector<RoleAt> roles_;
};

// ---- Checking a pipeline ----------------------------------------------------------------
struct CheckOptions {
  uint32_t random_schedules = 100;  // seeds first_seed, first_seed + 1, ...
  uint64_t first_seed = 1;
  bool exhaustive = true;           // then every interleaving, up to max_states
  uint64_t max_states = 2'000'000;
};
struct PipelineReport {
  Violation violation = Violation::none;
  std::string message;
  std::string found_by;          // "seed 7", "exhaustive search after 12 steps"
  uint32_t random_schedules = 0; // run without a violation before the verdict
  uint64_t states = 0;           // exhaustive: distinct states searched
  bool complete = false;         // exhaustive: every interleaving searched
  bool ok() const { return violation == Violation::none; }
  std::string to_string() const;
};

// Seeded random schedules, then (options.exhaustive) every interleaving. `P` is the
// Pipeline, or a class derived from it (copied for each run).
template <class P>
PipelineReport check(const P& pipeline, const CheckOptions& options = {}) {
  PipelineReport report;
  for (uint32_t i = 0; i < options.random_schedules; ++i) {
    P run = pipeline;
    run.set_logging(false);
    const SimResult r = run_random(run, options.first_seed + i);
    if (!r.ok()) {
      report.violation = r.violation;
      report.message = r.message;
      report.found_by = "seed " + std::to_string(options.first_seed + i);
      return report;
    }
    ++report.random_schedules;
  }
  if (!options.exhaustive) return report;
  const ExploreResult e = explore(pipeline, options.max_states);
  report.states = e.states;
  report.complete = e.complete;
  if (!e.ok()) {
    report.violation = e.violation;
    report.message = e.message;
    report.found_by = "exhaustive search after " + std::to_string(e.trail.size()) + " steps";
  }
  return report;
}

// ---- A self-contained example kernel ------------------------------------------------------
// A Hopper-style warp-specialized GEMM reduced to its schedule: one TMA producer,
// `consumers` MMA consumers that each read every stage (each computes its own rows of
// the tile) and keep their accumulators in registers, `stages` ring slots with
// full/empty barriers, tiles handed out statically; written as script roles. The
// producer ends with one more wait on each slot's empty barrier (as a cluster kernel
// must, so that no peer still signals its barriers when it exits). The mutation
// switches break it on purpose so that tests can show each check fires.
struct SyntheticConfig {
  uint32_t stages = 2;
  uint32_t consumers = 2;
  uint32_t tiles = 2;
  uint32_t k_blocks = 3;
  uint32_t tile_bytes = 1024;  // bytes the TMA writes per stage
  // Mutations.
  bool producer_wrong_initial_phase = false;  // producer waits empty with parity 0 first
  bool consumer_wrong_initial_phase = false;  // consumer waits full with parity 1 first
  bool consumer_skips_empty_arrive = false;   // consumer 0 never releases its last stage
  bool producer_stage_off_by_one = false;     // producer writes slot stage+1
  bool scheduler_repeats_tile = false;        // the last tile is handed out as tile 0 again
};

class SyntheticRingSim : public Pipeline {
 public:
  explicit SyntheticRingSim(SyntheticConfig config);
};

}  // namespace gemmscope::model::sim
