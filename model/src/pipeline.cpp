#include "gemmscope/model/pipeline.hpp"

#include <utility>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model::sim {

RingSlot ring_slot(uint32_t i, uint32_t stages) {
  require(stages >= 1, "stages", stages, "must be at least 1");
  return RingSlot{i % stages, (i / stages) & 1u};
}

// ---- Step -------------------------------------------------------------------------------

// A script lists the operations of a whole pass; only those of the target step run.
bool Step::live() {
  if (!script_) return !exited_;
  ++ops_;
  return segment_ == target_ && !blocked_;
}

void Step::describe(const std::string& what, int color) {
  ran_ = true;
  if (!script_) return;
  auto_label_ += (auto_label_.empty() ? "" : ", ") + what;
  if (auto_color_ < 0) auto_color_ = color;
}

bool Step::wait(uint32_t barrier, uint32_t parity) {
  if (script_) {
    if (ops_ > 0) ++segment_;  // a wait starts a step
    ++ops_;
    if (segment_ != target_ || blocked_) return true;
  } else if (exited_) {
    return false;
  }
  if (!pipe_->try_wait(barrier, parity)) {
    blocked_ = true;
    return false;
  }
  describe("wait " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
  return true;
}

void Step::arrive(uint32_t barrier, uint32_t count) {
  if (!live()) return;
  pipe_->arrive(barrier, count);
  describe("arrive " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
}

void Step::arrive_expect_tx(uint32_t barrier, uint32_t bytes) {
  if (!live()) return;
  pipe_->arrive_expect_tx(barrier, bytes);
  describe("arrive.expect_tx " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
}

void Step::expect_tx(uint32_t barrier, uint32_t bytes) {
  if (!live()) return;
  pipe_->expect_tx(barrier, bytes);
  describe("expect_tx " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
}

void Step::complete_tx(uint32_t barrier, uint32_t bytes) {
  if (!live()) return;
  pipe_->complete_tx(barrier, bytes);
  describe("complete_tx " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
}

void Step::write(uint32_t slot, const std::string& tag) {
  if (!live()) return;
  pipe_->begin_write(slot, tag);
  pipe_->finish_write(slot);
  describe("write [" + tag + "] to " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::tma_load(uint32_t slot, const std::string& tag, uint32_t barrier, uint32_t bytes) {
  tma_load(tag, {Landing{slot, barrier, bytes}}, pipe_->slot_color(slot));
}

void Step::tma_load(const std::string& tag, const std::vector<Landing>& landings, int color, const std::string& label) {
  if (!live()) return;
  AsyncOp op{label.empty() ? "TMA " + tag : label, "TMA", -1, color, {}};
  std::string where;
  for (const Landing& l : landings) {
    pipe_->begin_write(l.slot, tag);
    op.effects.push_back({AsyncEffect::Kind::finish_write, l.slot, 1});
    op.effects.push_back({AsyncEffect::Kind::complete_tx, l.barrier, l.bytes});
    where += (where.empty() ? "" : ", ") + pipe_->buffer_name(l.slot);
  }
  if (landings.size() == 1 && label.empty()) op.label += " -> " + where;
  pipe_->post(std::move(op));
  describe("TMA [" + tag + "] -> " + where, color);
}

void Step::read(uint32_t slot, const std::string& tag) {
  if (!live()) return;
  pipe_->read(slot, tag);
  describe("read [" + tag + "] from " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::release(uint32_t slot) {
  if (!live()) return;
  pipe_->release_read(slot);
  describe("release " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::begin_write(uint32_t slot, const std::string& tag) {
  if (!live()) return;
  pipe_->begin_write(slot, tag);
  describe("begin [" + tag + "] in " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::accumulate(uint32_t slot, const std::string& piece) {
  if (!live()) return;
  pipe_->accumulate(slot, piece);
  describe("accumulate [" + piece + "] into " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::finish_write(uint32_t slot) {
  if (!live()) return;
  pipe_->finish_write(slot);
  describe("finish " + pipe_->buffer_name(slot), pipe_->slot_color(slot));
}

void Step::commit_arrive(uint32_t barrier, uint32_t count, const std::string& lane) {
  if (!live()) return;
  // One ordered queue per role, above the queue numbers the bindings use.
  const int queue = (1 << 20) + static_cast<int>(role_);
  pipe_->post(AsyncOp{"commit " + pipe_->barrier_name(barrier), lane, queue, pipe_->barrier_color(barrier),
                      {{AsyncEffect::Kind::arrive, barrier, count}}});
  describe("commit " + pipe_->barrier_name(barrier), pipe_->barrier_color(barrier));
}

void Step::post(AsyncOp op) {
  if (!live()) return;
  describe(op.label, op.color);
  pipe_->post(std::move(op));
}

void Step::produce(const std::string& key) {
  if (!live()) return;
  pipe_->record_output(key);
  describe("produce [" + key + "]", -1);
}

void Step::label(std::string text, int color) {
  if (script_ && (segment_ != target_ || blocked_)) return;
  labelled_ = true;
  pipe_->mark(std::move(text), color);
}

void Step::exit() {
  if (script_) return;
  exited_ = true;
}

// ---- Pipeline ---------------------------------------------------------------------------

Pipeline::Decls& Pipeline::decls() {
  if (shared_.use_count() > 1) shared_ = std::make_shared<Decls>(*shared_);
  return *shared_;
}

uint32_t Pipeline::barrier(const std::string& name, uint32_t arrivals, int64_t owner) {
  require(arrivals >= 1 && arrivals <= kMbarrierCountLimit, "arrivals of " + name, arrivals,
          "must be in 1..1048575 (the mbarrier's count range)");
  const uint32_t id = add_barrier(name, arrivals, owner);
  decls().barrier_color.push_back(-1);
  return id;
}

std::vector<uint32_t> Pipeline::barriers(const std::string& name, uint32_t count, uint32_t arrivals, int64_t owner) {
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < count; ++i) {
    ids.push_back(barrier(name + "[" + std::to_string(i) + "]", arrivals, owner));
    decls().barrier_color.back() = static_cast<int>(i);
  }
  return ids;
}

uint32_t Pipeline::slot(const std::string& name, uint32_t readers, int64_t owner) {
  const uint32_t id = add_buffer(name, readers, owner);
  decls().slot_color.push_back(-1);
  return id;
}

std::vector<uint32_t> Pipeline::stages(const std::string& name, uint32_t count, uint32_t readers, int64_t owner) {
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < count; ++i) {
    ids.push_back(slot(name + " " + std::to_string(i), readers, owner));
    decls().slot_color.back() = static_cast<int>(i);
  }
  return ids;
}

uint32_t Pipeline::role(const std::string& name, uint32_t passes, Body body) {
  require(static_cast<bool>(body), "body of role " + name, 0, "must be a function");
  decls().roles.push_back(RoleDecl{name, passes, std::make_shared<const Body>(std::move(body))});
  roles_.push_back(RoleAt{0, 0, passes == 0});
  return static_cast<uint32_t>(roles_.size() - 1);
}

uint32_t Pipeline::add_program_role(const std::string& name) {
  decls().roles.push_back(RoleDecl{name, 0, nullptr});
  roles_.push_back(RoleAt{});
  return static_cast<uint32_t>(roles_.size() - 1);
}

int Pipeline::barrier_color(uint32_t id) const {
  return id < shared_->barrier_color.size() ? shared_->barrier_color[id] : -1;
}
int Pipeline::slot_color(uint32_t id) const { return id < shared_->slot_color.size() ? shared_->slot_color[id] : -1; }

bool Pipeline::role_done(uint32_t role) const { return roles_.at(role).done; }

bool Pipeline::step_program(uint32_t role, Step&) {
  throw ModelError("role " + role_name(role) + " is a program but the pipeline does not define step_program");
}

bool Pipeline::step_role(uint32_t role) {
  const RoleDecl& decl = shared_->roles.at(role);
  RoleAt& at = roles_.at(role);
  if (!decl.body) {
    Step step(*this, role, false, 0);
    const bool moved = step_program(role, step);
    if (moved && step.exited_) at.done = true;
    return moved;
  }
  Step step(*this, role, true, at.segment);
  (*decl.body)(step, at.pass);
  if (step.blocked_) return false;
  if (!step.labelled_) mark(step.ran_ ? step.auto_label_ : "pass " + std::to_string(at.pass), step.auto_color_);
  if (step.segment_ > at.segment) {
    ++at.segment;  // the pass goes on at its next wait
  } else {
    at.segment = 0;
    if (++at.pass == decl.passes) at.done = true;
  }
  return true;
}

std::string Pipeline::role_state_key() const {
  std::string key;
  key.reserve(roles_.size() * 6);
  for (const RoleAt& r : roles_)
    key += std::to_string(r.pass) + "." + std::to_string(r.segment) + (r.done ? "d" : "") + ";";
  return key;
}

// ---- Reports ----------------------------------------------------------------------------

std::string PipelineReport::to_string() const {
  std::string s;
  if (ok()) {
    s = "ok: " + std::to_string(random_schedules) + " random schedules";
    if (states > 0)
      s += ", exhaustive search of " + std::to_string(states) + " states" + (complete ? " (complete)" : " (stopped at the state limit)");
    return s;
  }
  return std::string(sim::to_string(violation)) + " (" + found_by + "): " + message;
}

// ---- The synthetic kernel --------------------------------------------------------------------

SyntheticRingSim::SyntheticRingSim(SyntheticConfig config) {
  require(config.stages >= 1 && config.stages <= 64, "stages", config.stages, "must be in 1..64");
  require(config.consumers >= 1 && config.consumers <= 8, "consumers", config.consumers, "must be in 1..8");
  require(config.tiles >= 1 && config.tiles <= 100000, "tiles", config.tiles, "must be in 1..100000");
  require(config.k_blocks >= 1 && config.k_blocks <= 100000, "k_blocks", config.k_blocks, "must be in 1..100000");
  require(config.tile_bytes >= 1 && config.tile_bytes <= kMbarrierCountLimit, "tile_bytes", config.tile_bytes,
          "must be in 1..1048575 (the mbarrier tx-count range)");
  const SyntheticConfig c = config;
  const auto full = barriers("full", c.stages, 1), empty = barriers("empty", c.stages, c.consumers);
  const auto slots = stages("stage", c.stages, c.consumers);
  auto output_key = [](uint32_t tile, uint32_t consumer) {
    return "tile " + std::to_string(tile) + " rows of consumer " + std::to_string(consumer);
  };
  for (uint32_t t = 0; t < c.tiles; ++t)
    for (uint32_t k = 0; k < c.consumers; ++k) output(output_key(t, k));
  const uint32_t items = c.tiles * c.k_blocks;
  // The static schedule's tile of the index-th unit (with the mutation).
  auto tile_of = [c](uint32_t index) {
    return c.scheduler_repeats_tile && c.tiles > 1 && index == c.tiles - 1 ? 0 : index;
  };
  auto tag = [](uint32_t tile, uint32_t kb) { return "tile " + std::to_string(tile) + " k " + std::to_string(kb); };

  // Passes past `items`: the tail, one more wait on each slot's empty barrier.
  role("producer", items + c.stages, [=](Step& s, uint32_t i) {
    const RingSlot r = ring_slot(i, c.stages);
    s.wait(empty[r.stage], c.producer_wrong_initial_phase ? r.phase : r.phase ^ 1u);
    if (i >= items) {
      s.label("tail: empty[" + std::to_string(r.stage) + "] released", static_cast<int>(r.stage));
      return;
    }
    const uint32_t tile = tile_of(i / c.k_blocks), kb = i % c.k_blocks;
    const uint32_t write_stage = c.producer_stage_off_by_one ? (r.stage + 1) % c.stages : r.stage;
    s.arrive_expect_tx(full[r.stage], c.tile_bytes);
    s.tma_load(tag(tile, kb), {{slots[write_stage], full[r.stage], c.tile_bytes}}, static_cast<int>(write_stage));
    s.label("load " + tag(tile, kb) + " into stage " + std::to_string(write_stage), static_cast<int>(r.stage));
  });
  for (uint32_t k = 0; k < c.consumers; ++k)
    role("consumer " + std::to_string(k), items, [=](Step& s, uint32_t i) {
      const RingSlot r = ring_slot(i, c.stages);
      s.wait(full[r.stage], c.consumer_wrong_initial_phase ? r.phase ^ 1u : r.phase);
      const uint32_t tile = tile_of(i / c.k_blocks), kb = i % c.k_blocks;
      s.read(slots[r.stage], tag(tile, kb));
      s.release(slots[r.stage]);
      if (!(c.consumer_skips_empty_arrive && k == 0 && i + 1 == items)) s.arrive(empty[r.stage]);
      s.label("mma " + tag(tile, kb), static_cast<int>(r.stage));
      if (kb + 1 == c.k_blocks) s.produce(output_key(tile, k));
    });
}

}  // namespace gemmscope::model::sim
