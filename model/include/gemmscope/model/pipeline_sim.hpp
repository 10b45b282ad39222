#pragma once
// The generic pipeline-simulation engine: warp roles as step functions, hardware
// agents (TMA copies, tensor-core commits, cluster-launch-control responses) as
// asynchronous operations, mbarriers from the model (mbarrier.hpp), and shadow
// buffers that know the ground truth of every shared-memory stage, accumulator and
// response buffer. A scheduler picks which role or async operation moves next:
// seeded random schedules for any configuration, depth-first search over all
// interleavings (with state hashing) for small ones.
//
// A pipeline is described on the engine with the declarative API of pipeline.hpp
// (Pipeline: barriers, stages, outputs, roles and their operations); the kernels'
// bindings (verify/lib/include/gemmscope/testing/*_binding.hpp) and the synthetic ring
// kernel are written on it. A role's step performs one
// action or, when its next action is a wait that does not pass, returns false and
// changes nothing: the scheduler may then try another role.
//
// Checks (each throws SimViolation with its kind and a message naming the object):
// a wait that never passes (deadlock); a buffer read before its write completed, or
// holding other data than the reader expects (wrong tile, K block out of order); a
// buffer written before all readers of its previous fill released it; an output
// produced twice or never; every misuse of an mbarrier the model flags (arrival
// underflow, tx-count range); at exit: a barrier left in the middle of a phase, an
// async operation still in flight, a buffer holding data nobody read.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "gemmscope/model/error.hpp"
#include "gemmscope/model/mbarrier.hpp"

namespace gemmscope::model::sim {

enum class Violation {
  none,
  deadlock,
  read_before_written,       // read a buffer whose write had not completed
  overwrite_before_drained,  // wrote a buffer that readers had not all released
  wrong_data,                // read a buffer holding other data than expected
  duplicate_output,          // an output tile computed twice
  missing_output,            // an output tile never computed
  barrier_misuse,            // the mbarrier model refused an operation
  unfinished_barrier,        // at exit a barrier is in the middle of a phase
  async_at_exit,             // at exit a copy or commit is still in flight
  unread_at_exit,            // at exit a buffer holds data nobody (fully) read
  access_after_exit,         // an operation on a barrier or buffer of an owner (a CTA) that has exited
  step_limit,
};
std::string_view to_string(Violation kind);

class SimViolation : public ModelError {
 public:
  SimViolation(Violation kind, const std::string& what) : ModelError(what), kind_(kind) {}
  Violation kind() const { return kind_; }

 private:
  Violation kind_;
};

// What an asynchronous operation does when it lands.
struct AsyncEffect {
  enum class Kind { arrive, complete_tx, finish_write, release_read, custom };
  Kind kind;
  uint32_t target;      // barrier id, buffer id, or a binding-defined code (custom)
  uint32_t amount = 1;  // arrivals, bytes, or a binding-defined value (custom)
};
struct AsyncOp {
  std::string label;
  std::string lane;  // timeline lane, e.g. "TMA", "tensor core"
  int queue = -1;    // operations of one queue >= 0 land in order; -1: any order
  int color = -1;    // stage index for the timeline (-1: none)
  std::vector<AsyncEffect> effects;
};

// One box on the timeline: a role's action, a role's wait, or an async landing.
struct SimEvent {
  enum class Kind { action, wait, async };
  uint64_t begin = 0, end = 0;  // scheduler steps
  uint32_t lane = 0;            // role index, or role_count() + async lane index
  Kind kind = Kind::action;
  std::string label;
  int color = -1;
};

struct SimResult {
  Violation violation = Violation::none;
  std::string message;
  uint64_t steps = 0;
  bool ok() const { return violation == Violation::none; }
};

class PipelineSim {
 public:
  virtual ~PipelineSim() = default;

  // ---- What a binding provides ----------------------------------------------------
  virtual uint32_t role_count() const = 0;
  virtual std::string role_name(uint32_t role) const = 0;
  virtual bool role_done(uint32_t role) const = 0;
  // One action of `role`; false (and no change) when the role is blocked on a wait.
  virtual bool step_role(uint32_t role) = 0;
  // The binding's part of the state, for exhaustive search (roles' program counters
  // and pipeline states, scheduler queues).
  virtual std::string role_state_key() const = 0;
  // Effects of kind custom (e.g. a cluster-launch-control response).
  virtual void fire_custom(const AsyncEffect& effect) { (void)effect; }
  // Checks at exit beyond the engine's own.
  virtual void finish_checks() {}

  // ---- Barriers (each operation forwards to the model's Mbarrier) --------------------
  // owner: the CTA whose shared memory holds it (see Owners below); -1: none.
  uint32_t add_barrier(std::string name, uint32_t expected_count, int64_t owner = -1);
  // try_wait.parity: true when the phase with this parity has completed. A false
  // result is remembered as what the current role waits on (deadlock report,
  // timeline) and changes nothing else.
  bool try_wait(uint32_t barrier, uint32_t parity);
  void arrive(uint32_t barrier, uint32_t count = 1);
  void arrive_expect_tx(uint32_t barrier, uint32_t bytes);
  void expect_tx(uint32_t barrier, uint32_t bytes);
  void complete_tx(uint32_t barrier, uint32_t bytes);
  const Mbarrier& barrier(uint32_t id) const { return barriers_.at(id); }
  const std::string& barrier_name(uint32_t id) const { return names_->barriers.at(id); }

  // ---- Shadow buffers: the ground truth of what a buffer holds ----------------------
  // A buffer is free, being written (tag known), or full; each fill is read by
  // `readers_per_fill` readers, each of which reads once and releases once; after the
  // last release it is free again.
  uint32_t add_buffer(std::string name, uint32_t readers_per_fill, int64_t owner = -1);
  void begin_write(uint32_t buffer, const std::string& tag);
  // Adds to the tag of a buffer being written (an accumulator: one piece per K block).
  void accumulate(uint32_t buffer, const std::string& piece);
  void finish_write(uint32_t buffer);
  // Checks the buffer is full and holds `expected_tag`.
  void read(uint32_t buffer, const std::string& expected_tag);
  void release_read(uint32_t buffer);
  const std::string& buffer_name(uint32_t id) const { return names_->buffers.at(id); }

  // ---- Owners: whose shared memory a barrier or buffer is ---------------------------
  // A binding gives barriers and buffers an owner (a CTA) when it adds them. Once it
  // reports that the owner has exited, every operation on them, by a role or by an
  // async operation landing, is a violation (access_after_exit): the CTA's shared
  // memory is gone, or already another CTA's. Those with no owner are never checked.
  void owner_exits(uint32_t owner);
  bool owner_exited(uint32_t owner) const;

  // ---- Outputs: each expected key produced exactly once -----------------------------
  void expect_output(const std::string& key);
  void record_output(const std::string& key);
  const std::vector<std::string>& outputs_in_order() const { return outputs_in_order_; }

  // ---- Async operations and timeline labels ------------------------------------------
  void post(AsyncOp op);
  // Names the current step on the timeline (the last mark of a step wins).
  void mark(std::string label, int color = -1);

  // ---- Running ------------------------------------------------------------------------
  // A candidate is a role (index < role_count()) or a pending async operation
  // (role_count() + its position); only the head of an ordered queue is one.
  std::vector<uint32_t> candidates() const;
  // Runs one candidate; false when it is a role that is blocked.
  bool step_candidate(uint32_t candidate);
  bool all_done() const;
  // Throws SimViolation (deadlock) naming every blocked role and its wait.
  [[noreturn]] void report_deadlock() const;
  // The engine's exit checks, then finish_checks().
  void check_exit();
  // The whole state (engine and binding), for exhaustive search.
  std::string state_key() const;

  uint64_t steps() const { return step_; }
  void set_logging(bool on) { logging_ = on; }
  const std::vector<SimEvent>& events() const { return events_; }
  const std::vector<std::string>& async_lanes() const { return async_lanes_; }

 private:
  struct BufferSlot {
    enum class State { free, writing, full };
    uint32_t readers_per_fill = 1;
    State state = State::free;
    std::string tag;
    uint32_t reads = 0, releases = 0;
  };
  template <class Op>
  void barrier_op(uint32_t id, const char* what, Op op);
  void fire(const AsyncOp& op);
  // access_after_exit when `owner` (-1: none) has exited: "<what><prep><name> after ...".
  void check_alive(int64_t owner, const char* what, const char* prep, const std::string& name) const;
  void check_barrier_alive(uint32_t barrier, const char* what) const;
  void check_buffer_alive(uint32_t buffer, const char* what) const;
  uint32_t async_lane(const std::string& name);

  // Names and expected outputs are fixed once the binding is built: shared between
  // the copies that exhaustive search makes (copied on write while building).
  struct Fixed {
    std::vector<std::string> barriers, buffers;
    std::vector<int64_t> barrier_owner, buffer_owner;  // -1: none
    std::set<std::string> expected_outputs;
  };
  Fixed& fixed();
  std::shared_ptr<Fixed> names_ = std::make_shared<Fixed>();
  std::vector<Mbarrier> barriers_;
  std::vector<BufferSlot> buffers_;
  std::set<std::string> outputs_;
  std::vector<std::string> outputs_in_order_;
  std::vector<AsyncOp> pending_;
  std::set<uint32_t> exited_owners_;

  // Bookkeeping of the run (not part of the state key).
  uint64_t step_ = 0;
  int64_t current_role_ = -1;
  std::vector<std::string> waiting_on_;  // per role: the last wait that did not pass
  std::vector<int64_t> blocked_since_;   // per role: step of the first failed wait, -1 none
  std::vector<int64_t> waiting_barrier_; // per role: the barrier of the last wait that did not pass, -1 none
  std::vector<uint32_t> waiting_parity_;
  std::string step_label_;
  int step_color_ = -1;
  bool logging_ = true;
  std::vector<SimEvent> events_;
  std::vector<std::string> async_lanes_;
};

// ---- Schedulers -------------------------------------------------------------------------
// One seeded random interleaving: at each step a candidate that can move is drawn
// uniformly. The same seed gives the same schedule.
SimResult run_random(PipelineSim& sim, uint64_t seed, uint64_t max_steps = 10'000'000);
// One fixed interleaving: always the first candidate that can move (roles in order).
SimResult run_in_order(PipelineSim& sim, uint64_t max_steps = 10'000'000);

struct ExploreResult {
  Violation violation = Violation::none;
  std::string message;
  uint64_t states = 0;          // distinct states visited
  uint64_t terminal_states = 0; // distinct end states that passed the exit checks
  bool complete = true;         // false when max_states cut the search short
  std::vector<uint32_t> trail;  // candidates taken from the start to the violation
  bool ok() const { return violation == Violation::none; }
};

// A 128-bit digest of a state key (two independent 64-bit hashes), so that search
// remembers visited states in 16 bytes each; a collision would need both to agree.
struct StateDigest {
  uint64_t a = 0, b = 0;
  bool operator==(const StateDigest&) const = default;
};
struct StateDigestHash {
  size_t operator()(const StateDigest& d) const { return static_cast<size_t>(d.a ^ (d.b * 0x9E3779B97F4A7C15ull)); }
};
StateDigest digest(const std::string& key);

// Depth-first search over every interleaving of a copyable binding `World`, visiting
// each distinct state (state_key) once. Stops at the first violation.
template <class World>
ExploreResult explore(const World& initial, uint64_t max_states = 2'000'000) {
  struct Node {
    World world;
    std::vector<uint32_t> trail;
  };
  ExploreResult result;
  std::unordered_set<StateDigest, StateDigestHash> seen;
  std::vector<Node> stack;
  stack.push_back(Node{initial, {}});
  stack.back().world.set_logging(false);
  seen.insert(digest(stack.back().world.state_key()));
  while (!stack.empty()) {
    Node node = std::move(stack.back());
    stack.pop_back();
    ++result.states;
    if (result.states > max_states) {
      result.complete = false;
      break;
    }
    bool moved = false;
    for (uint32_t c : node.world.candidates()) {
      World next = node.world;
      try {
        if (!next.step_candidate(c)) continue;
      } catch (const SimViolation& v) {
        result.violation = v.kind();
        result.message = v.what();
        result.trail = node.trail;
        result.trail.push_back(c);
        return result;
      }
      moved = true;
      if (seen.insert(digest(next.state_key())).second) {
        std::vector<uint32_t> trail = node.trail;
        trail.push_back(c);
        stack.push_back(Node{std::move(next), std::move(trail)});
      }
    }
    if (moved) continue;
    try {
      if (!node.world.all_done()) {
        // Nothing moved: try each role here too (a blocked step changes nothing) so that
        // the report names the wait each one is stuck on.
        for (uint32_t c : node.world.candidates()) (void)node.world.step_candidate(c);
        node.world.report_deadlock();
      }
      node.world.check_exit();
      ++result.terminal_states;
    } catch (const SimViolation& v) {
      result.violation = v.kind();
      result.message = v.what();
      result.trail = node.trail;
      return result;
    }
  }
  return result;
}

// ---- Timeline ---------------------------------------------------------------------------
// SVG text: one lane per role and per async lane, time (scheduler steps) left to right,
// actions coloured by stage, waits as grey hatched bars from the first failed
// try_wait to the step that passed it.
std::string timeline_svg(const PipelineSim& sim, const std::string& title);

}  // namespace gemmscope::model::sim
