#pragma once
// Pipeline state of the Hopper ladder's shared-memory rings (k06+), the very code
// the kernels and the host pipeline simulator run. A value type with no hidden
// state: the ring slot and the parity of its barrier's phase, the position after
// `count` slots used so far (count % Stages, (count / Stages) % 2), kept as the
// pair so that a step is an add and a compare, not a division.
//   stage()  which ring slot
//   phase()  parity of the slot's mbarrier phase
//   advance() returns the state one slot later.
// A consumer waits full[stage()] with parity phase(). A producer waits empty[stage()]
// with parity phase() ^ 1: a fresh mbarrier sits in phase 0, and waiting for the
// parity of the phase *before* it (1) returns at once (PTX ISA "mbarrier.try_wait.parity":
// it tests whether the phase with that parity has completed), so the first Stages
// slots are free without any arrival.
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm90 {

template <uint32_t Stages>
struct PipelineState {
  static_assert(Stages >= 1, "a ring has at least one slot");
  uint32_t slot = 0, parity = 0;

  constexpr PipelineState() = default;
  // The state after `count` slots.
  GEMMSCOPE_HD constexpr explicit PipelineState(uint32_t count) : slot(count % Stages), parity((count / Stages) & 1u) {}

  GEMMSCOPE_HD constexpr uint32_t stage() const { return slot; }
  GEMMSCOPE_HD constexpr uint32_t phase() const { return parity; }
  // Parity a producer waits on before refilling stage(): the consumers' release of
  // the previous round of this slot.
  GEMMSCOPE_HD constexpr uint32_t empty_parity() const { return parity ^ 1u; }
  GEMMSCOPE_HD constexpr PipelineState advance() const {
    PipelineState next = *this;
    if (++next.slot == Stages) next.slot = 0, next.parity ^= 1u;
    return next;
  }
  GEMMSCOPE_HD constexpr PipelineState advance(uint32_t slots) const {
    PipelineState next{slot + slots};  // the state `slots` past slot 0 of this lap...
    next.parity ^= parity;             // ...on this lap's parity
    return next;
  }
  GEMMSCOPE_HD constexpr bool operator==(const PipelineState& o) const { return slot == o.slot && parity == o.parity; }
};

// Ping-pong consumers (k10's ping-pong instances): two consumer warpgroups take a
// CTA's work units in turn, unit i of the CTA's sequence (0, 1, 2, ...) to warpgroup
// i % 2. Both read the one ring in the producer's order: a warpgroup steps its
// PipelineState over the other's unit with advance(k-blocks of that unit).
GEMMSCOPE_HD constexpr bool pingpong_turn(uint32_t unit_index, uint32_t consumer) { return unit_index % 2u == consumer; }

}  // namespace gemmscope::sm90
