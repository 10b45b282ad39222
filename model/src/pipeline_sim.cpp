#include "gemmscope/model/pipeline_sim.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace gemmscope::model::sim {

std::string_view to_string(Violation kind) {
  switch (kind) {
    case Violation::none: return "none";
    case Violation::deadlock: return "deadlock";
    case Violation::read_before_written: return "read_before_written";
    case Violation::overwrite_before_drained: return "overwrite_before_drained";
    case Violation::wrong_data: return "wrong_data";
    case Violation::duplicate_output: return "duplicate_output";
    case Violation::missing_output: return "missing_output";
    case Violation::barrier_misuse: return "barrier_misuse";
    case Violation::unfinished_barrier: return "unfinished_barrier";
    case Violation::async_at_exit: return "async_at_exit";
    case Violation::unread_at_exit: return "unread_at_exit";
    case Violation::access_after_exit: return "access_after_exit";
    case Violation::step_limit: return "step_limit";
  }
  return "?";
}

// ---- Barriers -------------------------------------------------------------------------

PipelineSim::Fixed& PipelineSim::fixed() {
  if (names_.use_count() > 1) names_ = std::make_shared<Fixed>(*names_);
  return *names_;
}

uint32_t PipelineSim::add_barrier(std::string name, uint32_t expected_count, int64_t owner) {
  barriers_.push_back(Mbarrier(expected_count));
  fixed().barriers.push_back(std::move(name));
  fixed().barrier_owner.push_back(owner);
  return static_cast<uint32_t>(barriers_.size() - 1);
}

template <class Op>
void PipelineSim::barrier_op(uint32_t id, const char* what, Op op) {
  check_barrier_alive(id, what);
  Mbarrier& b = barriers_.at(id);
  try {
    op(b);
  } catch (const ModelError& e) {
    throw SimViolation(Violation::barrier_misuse, std::string(what) + " on " + barrier_name(id) + ": " + e.what());
  }
}

bool PipelineSim::try_wait(uint32_t id, uint32_t parity) {
  check_barrier_alive(id, "try_wait");
  const Mbarrier& b = barriers_.at(id);
  bool passed = false;
  try {
    passed = b.try_wait_parity(parity);
  } catch (const ModelError& e) {
    throw SimViolation(Violation::barrier_misuse, "try_wait on " + barrier_name(id) + ": " + e.what());
  }
  if (!passed && current_role_ >= 0) {
    const auto r = static_cast<size_t>(current_role_);
    waiting_barrier_[r] = static_cast<int64_t>(id);  // for a deadlock report, also while not logging
    waiting_parity_[r] = parity;
    if (logging_) {
      waiting_on_[r] = barrier_name(id) + " parity " + std::to_string(parity);
      if (blocked_since_[r] < 0) blocked_since_[r] = static_cast<int64_t>(step_);
    }
  }
  return passed;
}

void PipelineSim::arrive(uint32_t id, uint32_t count) {
  barrier_op(id, "arrive", [count](Mbarrier& m) { m.arrive(count); });
}
void PipelineSim::arrive_expect_tx(uint32_t id, uint32_t bytes) {
  barrier_op(id, "arrive.expect_tx", [bytes](Mbarrier& m) { m.arrive_expect_tx(bytes); });
}
void PipelineSim::expect_tx(uint32_t id, uint32_t bytes) {
  barrier_op(id, "expect_tx", [bytes](Mbarrier& m) { m.expect_tx(bytes); });
}
void PipelineSim::complete_tx(uint32_t id, uint32_t bytes) {
  barrier_op(id, "complete_tx", [bytes](Mbarrier& m) { m.complete_tx(bytes); });
}

// ---- Buffers --------------------------------------------------------------------------

uint32_t PipelineSim::add_buffer(std::string name, uint32_t readers_per_fill, int64_t owner) {
  require(readers_per_fill >= 1, "readers_per_fill of " + name, readers_per_fill, "must be at least 1");
  BufferSlot b;
  b.readers_per_fill = readers_per_fill;
  buffers_.push_back(std::move(b));
  fixed().buffers.push_back(std::move(name));
  fixed().buffer_owner.push_back(owner);
  return static_cast<uint32_t>(buffers_.size() - 1);
}

void PipelineSim::begin_write(uint32_t id, const std::string& tag) {
  check_buffer_alive(id, "write");
  BufferSlot& b = buffers_.at(id);
  if (b.state == BufferSlot::State::writing)
    throw SimViolation(Violation::overwrite_before_drained,
                       "write of [" + tag + "] into " + buffer_name(id) + " while [" + b.tag + "] is still being written");
  if (b.state == BufferSlot::State::full)
    throw SimViolation(Violation::overwrite_before_drained,
                       "write of [" + tag + "] into " + buffer_name(id) + " while [" + b.tag + "] is released by only " +
                           std::to_string(b.releases) + " of its " + std::to_string(b.readers_per_fill) + " readers");
  b.state = BufferSlot::State::writing;
  b.tag = tag;
  b.reads = b.releases = 0;
}

void PipelineSim::accumulate(uint32_t id, const std::string& piece) {
  check_buffer_alive(id, "accumulate");
  BufferSlot& b = buffers_.at(id);
  if (b.state != BufferSlot::State::writing)
    throw SimViolation(Violation::overwrite_before_drained,
                       "accumulate [" + piece + "] into " + buffer_name(id) + " which is not being written (" +
                           (b.state == BufferSlot::State::full ? "full: its readers have not drained it" : "free") +
                           ")");
  b.tag += piece;
}

void PipelineSim::finish_write(uint32_t id) {
  check_buffer_alive(id, "finish_write");
  BufferSlot& b = buffers_.at(id);
  require(b.state == BufferSlot::State::writing, "finish_write of " + buffer_name(id), 0, "without a write in flight");
  b.state = BufferSlot::State::full;
}

void PipelineSim::read(uint32_t id, const std::string& expected_tag) {
  check_buffer_alive(id, "read");
  BufferSlot& b = buffers_.at(id);
  if (b.state == BufferSlot::State::free)
    throw SimViolation(Violation::read_before_written,
                       "read of " + buffer_name(id) + " expecting [" + expected_tag + "] but nothing was written since it was freed");
  if (b.state == BufferSlot::State::writing)
    throw SimViolation(Violation::read_before_written, "read of " + buffer_name(id) + " expecting [" + expected_tag +
                                                           "] while [" + b.tag + "] is still being written");
  if (b.tag != expected_tag)
    throw SimViolation(Violation::wrong_data,
                       "read of " + buffer_name(id) + " expected [" + expected_tag + "] but it holds [" + b.tag + "]");
  if (b.reads >= b.readers_per_fill)
    throw SimViolation(Violation::wrong_data, "read of " + buffer_name(id) + " [" + b.tag + "] by more than its " +
                                                  std::to_string(b.readers_per_fill) + " readers");
  ++b.reads;
}

void PipelineSim::release_read(uint32_t id) {
  check_buffer_alive(id, "release");
  BufferSlot& b = buffers_.at(id);
  require(b.state == BufferSlot::State::full && b.releases < b.reads, "release of " + buffer_name(id), b.releases,
          "without a read to release");
  if (++b.releases == b.readers_per_fill) {
    b.state = BufferSlot::State::free;
    b.reads = b.releases = 0;
  }
}

// ---- Owners -----------------------------------------------------------------------------

void PipelineSim::owner_exits(uint32_t owner) { exited_owners_.insert(owner); }
bool PipelineSim::owner_exited(uint32_t owner) const { return exited_owners_.count(owner) != 0; }

// Called on every barrier and buffer operation: the message is built only when it throws.
void PipelineSim::check_alive(int64_t owner, const char* what, const char* prep, const std::string& name) const {
  if (owner >= 0 && exited_owners_.count(static_cast<uint32_t>(owner)))
    throw SimViolation(Violation::access_after_exit, std::string(what) + prep + name + " after its owner " +
                                                         std::to_string(owner) + " exited");
}
void PipelineSim::check_barrier_alive(uint32_t id, const char* what) const {
  check_alive(names_->barrier_owner.at(id), what, " on ", barrier_name(id));
}
void PipelineSim::check_buffer_alive(uint32_t id, const char* what) const {
  check_alive(names_->buffer_owner.at(id), what, " of ", buffer_name(id));
}

// ---- Outputs ----------------------------------------------------------------------------

void PipelineSim::expect_output(const std::string& key) { fixed().expected_outputs.insert(key); }

void PipelineSim::record_output(const std::string& key) {
  if (!names_->expected_outputs.count(key))
    throw SimViolation(Violation::wrong_data, "output [" + key + "] is not one of the expected outputs");
  if (!outputs_.insert(key).second)
    throw SimViolation(Violation::duplicate_output, "output [" + key + "] computed a second time");
  outputs_in_order_.push_back(key);
}

// ---- Async operations, labels ----------------------------------------------------------

void PipelineSim::post(AsyncOp op) { pending_.push_back(std::move(op)); }

void PipelineSim::mark(std::string label, int color) {
  step_label_ = std::move(label);
  step_color_ = color;
}

uint32_t PipelineSim::async_lane(const std::string& name) {
  auto it = std::find(async_lanes_.begin(), async_lanes_.end(), name);
  if (it != async_lanes_.end()) return static_cast<uint32_t>(it - async_lanes_.begin());
  async_lanes_.push_back(name);
  return static_cast<uint32_t>(async_lanes_.size() - 1);
}

void PipelineSim::fire(const AsyncOp& op) {
  for (const AsyncEffect& e : op.effects) {
    switch (e.kind) {
      case AsyncEffect::Kind::arrive: arrive(e.target, e.amount); break;
      case AsyncEffect::Kind::complete_tx: complete_tx(e.target, e.amount); break;
      case AsyncEffect::Kind::finish_write: finish_write(e.target); break;
      case AsyncEffect::Kind::release_read: release_read(e.target); break;
      case AsyncEffect::Kind::custom: fire_custom(e); break;
    }
  }
}

// ---- Running ----------------------------------------------------------------------------

std::vector<uint32_t> PipelineSim::candidates() const {
  std::vector<uint32_t> out;
  const uint32_t roles = role_count();
  for (uint32_t r = 0; r < roles; ++r)
    if (!role_done(r)) out.push_back(r);
  std::vector<int> queues_seen;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const int q = pending_[i].queue;
    if (q >= 0) {
      if (std::find(queues_seen.begin(), queues_seen.end(), q) != queues_seen.end()) continue;
      queues_seen.push_back(q);
    }
    out.push_back(roles + static_cast<uint32_t>(i));
  }
  return out;
}

bool PipelineSim::step_candidate(uint32_t candidate) {
  const uint32_t roles = role_count();
  if (waiting_on_.size() != roles) {
    waiting_on_.assign(roles, "");
    blocked_since_.assign(roles, -1);
    waiting_barrier_.assign(roles, -1);
    waiting_parity_.assign(roles, 0);
  }
  step_label_.clear();
  step_color_ = -1;
  if (candidate < roles) {
    current_role_ = candidate;
    bool moved = false;
    try {
      moved = step_role(candidate);
    } catch (...) {
      current_role_ = -1;
      throw;
    }
    current_role_ = -1;
    if (!moved) return false;
    if (logging_) {
      if (blocked_since_[candidate] >= 0)
        events_.push_back(SimEvent{static_cast<uint64_t>(blocked_since_[candidate]), step_, candidate,
                                   SimEvent::Kind::wait, "wait " + waiting_on_[candidate], -1});
      events_.push_back(SimEvent{step_, step_ + 1, candidate, SimEvent::Kind::action, step_label_, step_color_});
    }
    blocked_since_[candidate] = -1;
    waiting_on_[candidate].clear();
    waiting_barrier_[candidate] = -1;
    ++step_;
    return true;
  }
  const size_t index = candidate - roles;
  AsyncOp op = pending_.at(index);
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
  fire(op);
  if (logging_)
    events_.push_back(
        SimEvent{step_, step_ + 1, roles + async_lane(op.lane), SimEvent::Kind::async, op.label, op.color});
  ++step_;
  return true;
}

bool PipelineSim::all_done() const {
  for (uint32_t r = 0; r < role_count(); ++r)
    if (!role_done(r)) return false;
  return pending_.empty();
}

void PipelineSim::report_deadlock() const {
  std::string msg = "no role can move:";
  for (uint32_t r = 0; r < role_count(); ++r) {
    if (role_done(r)) continue;
    msg += " " + role_name(r) + " waits ";
    // The last wait that did not pass (a role may also wait on no barrier: a binding's
    // own condition, such as stores still in flight).
    const bool known = r < waiting_barrier_.size() && waiting_barrier_[r] >= 0;
    msg += known ? barrier_name(static_cast<uint32_t>(waiting_barrier_[r])) + " parity " +
                       std::to_string(waiting_parity_[r])
                 : std::string("(not on a barrier)");
    msg += ";";
  }
  for (uint32_t i = 0; i < barriers_.size(); ++i) {
    const Mbarrier& b = barriers_[i];
    if (b.pending_arrivals() != b.expected_count() || b.tx_count() != 0)
      msg += " " + barrier_name(i) + " " + b.to_string() + ";";
  }
  throw SimViolation(Violation::deadlock, msg);
}

void PipelineSim::check_exit() {
  if (!pending_.empty())
    throw SimViolation(Violation::async_at_exit, "every role finished while [" + pending_.front().label +
                                                     "] is still in flight (" + std::to_string(pending_.size()) +
                                                     " operations)");
  for (uint32_t i = 0; i < barriers_.size(); ++i) {
    const Mbarrier& b = barriers_[i];
    if (b.pending_arrivals() != b.expected_count() || b.tx_count() != 0)
      throw SimViolation(Violation::unfinished_barrier,
                         "at exit " + barrier_name(i) + " is in the middle of a phase: " + b.to_string());
  }
  for (uint32_t i = 0; i < buffers_.size(); ++i) {
    const BufferSlot& b = buffers_[i];
    if (b.state != BufferSlot::State::free)
      throw SimViolation(Violation::unread_at_exit,
                         "at exit " + buffer_name(i) + " holds [" + b.tag + "] read by " + std::to_string(b.releases) + " of " +
                             std::to_string(b.readers_per_fill) + " readers");
  }
  for (const auto& key : names_->expected_outputs)
    if (!outputs_.count(key)) throw SimViolation(Violation::missing_output, "output [" + key + "] never computed");
  finish_checks();
}

std::string PipelineSim::state_key() const {
  std::string key;
  key.reserve(256);
  for (const auto& b : barriers_) {
    key += std::to_string(b.completed_phases()) + "," + std::to_string(b.pending_arrivals()) + "," +
           std::to_string(b.tx_count()) + ";";
  }
  key += "|";
  for (const auto& b : buffers_) {
    key += std::to_string(static_cast<int>(b.state)) + b.tag + "," + std::to_string(b.reads) + "," +
           std::to_string(b.releases) + ";";
  }
  key += "|";
  for (const auto& o : outputs_) key += o + ";";
  key += "|";
  for (const auto& op : pending_) key += op.label + ";";
  key += "|";
  for (uint32_t o : exited_owners_) key += std::to_string(o) + ",";
  key += "|";
  key += role_state_key();
  return key;
}

StateDigest digest(const std::string& key) {
  // FNV-1a 64 and a multiply-rotate hash with another basis: independent enough that
  // a shared collision is out of reach for the state counts searched here.
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char ch : key) {
    a = (a ^ ch) * 0x100000001b3ull;
    b = (b + ch + 1) * 0x9E3779B97F4A7C15ull;
    b ^= b >> 29;
  }
  return StateDigest{a, b};
}

namespace {

// splitmix64: a small, portable generator, so that a seed means the same schedule
// on every standard library.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

template <class Order>
SimResult run_with(PipelineSim& sim, uint64_t max_steps, Order order) {
  SimResult result;
  try {
    while (true) {
      if (sim.steps() >= max_steps)
        throw SimViolation(Violation::step_limit, "stopped after " + std::to_string(max_steps) + " steps");
      std::vector<uint32_t> cands = sim.candidates();
      order(cands);
      bool moved = false;
      for (uint32_t c : cands) {
        if (sim.step_candidate(c)) {
          moved = true;
          break;
        }
      }
      if (moved) continue;
      if (!sim.all_done()) sim.report_deadlock();
      sim.check_exit();
      break;
    }
  } catch (const SimViolation& v) {
    result.violation = v.kind();
    result.message = v.what();
  }
  result.steps = sim.steps();
  return result;
}

}  // namespace

SimResult run_random(PipelineSim& sim, uint64_t seed, uint64_t max_steps) {
  SplitMix64 rng{seed};
  // A random permutation: its first candidate that can move is uniform among those.
  return run_with(sim, max_steps, [&rng](std::vector<uint32_t>& c) {
    for (size_t i = c.size(); i > 1; --i) std::swap(c[i - 1], c[rng.below(static_cast<uint32_t>(i))]);
  });
}

SimResult run_in_order(PipelineSim& sim, uint64_t max_steps) {
  return run_with(sim, max_steps, [](std::vector<uint32_t>&) {});
}

// ---- Timeline SVG -------------------------------------------------------------------------

namespace {

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

// Stage colours: a qualitative palette (ColorBrewer Set3/Paired-like), cycled.
const char* stage_color(int stage) {
  static const char* kPalette[] = {"#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69",
                                   "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f", "#e5c494", "#a6cee3"};
  if (stage < 0) return "#d9d9d9";
  return kPalette[stage % 12];
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string timeline_svg(const PipelineSim& sim, const std::string& title) {
  const uint32_t roles = sim.role_count();
  const uint32_t lanes = roles + static_cast<uint32_t>(sim.async_lanes().size());
  uint64_t end = 1;
  int max_color = -1;
  for (const auto& e : sim.events()) {
    end = std::max(end, e.end);
    max_color = std::max(max_color, e.color);
  }
  const double label_w = 190, lane_h = 22, top = 46, plot_w = std::max(600.0, std::min(2400.0, end * 8.0));
  const double px = plot_w / static_cast<double>(end);
  const double legend_h = 30;
  const double width = label_w + plot_w + 20, height = top + lanes * lane_h + legend_h + 30;
  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(width) + "\" height=\"" + fmt(height) +
         "\" font-family=\"monospace\" font-size=\"11\">\n";
  svg +=
      "<defs><pattern id=\"wait\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f0f0f0\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" stroke-width=\"2\"/></pattern></defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" + escape_xml(title) + "</text>\n";
  svg += "<text x=\"8\" y=\"34\" fill=\"#555\">time = scheduler steps (" + std::to_string(end) +
         "); colour = ring stage; hatched = waiting on an mbarrier; hover a box for details</text>\n";
  for (uint32_t l = 0; l < lanes; ++l) {
    const double y = top + l * lane_h;
    const std::string name = l < roles ? sim.role_name(l) : "async: " + sim.async_lanes()[l - roles];
    if (l % 2 == 0)
      svg += "<rect x=\"0\" y=\"" + fmt(y) + "\" width=\"" + fmt(width) + "\" height=\"" + fmt(lane_h) +
             "\" fill=\"#fafafa\"/>\n";
    svg += "<text x=\"6\" y=\"" + fmt(y + lane_h * 0.7) + "\">" + escape_xml(name) + "</text>\n";
  }
  for (const auto& e : sim.events()) {
    const double x = label_w + e.begin * px, w = std::max(1.0, (e.end - e.begin) * px);
    const double y = top + e.lane * lane_h + 3, h = lane_h - 6;
    const std::string fill = e.kind == SimEvent::Kind::wait ? "url(#wait)" : stage_color(e.color);
    const std::string stroke = e.kind == SimEvent::Kind::async ? "#333" : "none";
    const double rect_y = e.kind == SimEvent::Kind::wait ? y + h * 0.25 : y;
    const double rect_h = e.kind == SimEvent::Kind::wait ? h * 0.5 : h;
    svg += "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(rect_y) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(rect_h) +
           "\" fill=\"" + fill + "\" stroke=\"" + stroke + "\" stroke-width=\"0.5\"><title>" +
           escape_xml("[" + std::to_string(e.begin) + "," + std::to_string(e.end) + ") " + e.label) +
           "</title></rect>\n";
  }
  const double ly = top + lanes * lane_h + 14;
  double lx = label_w;
  svg += "<text x=\"6\" y=\"" + fmt(ly + 10) + "\">stages:</text>\n";
  for (int c = 0; c <= max_color; ++c) {
    svg += "<rect x=\"" + fmt(lx) + "\" y=\"" + fmt(ly) + "\" width=\"14\" height=\"14\" fill=\"" + stage_color(c) +
           "\"/><text x=\"" + fmt(lx + 18) + "\" y=\"" + fmt(ly + 11) + "\">" + std::to_string(c) + "</text>\n";
    lx += 44;
  }
  svg += "<rect x=\"" + fmt(lx) + "\" y=\"" + fmt(ly + 3) + "\" width=\"28\" height=\"8\" fill=\"url(#wait)\"/><text x=\"" +
         fmt(lx + 32) + "\" y=\"" + fmt(ly + 11) + "\">wait</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace gemmscope::model::sim
