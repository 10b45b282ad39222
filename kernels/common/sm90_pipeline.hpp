#pragma once
// Pipeline state of the Hopper ladder's shared-memory rings (k06+), the very code
// the kernels and the host pipeline simulator run. A value type with no hidden
// state: one counter of slots used so far.
//   stage()  = count % Stages                      which ring slot
//   phase()  = (count / Stages) % 2                 parity of the slot's mbarrier phase
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
  // Power-of-two rings wrap the 32-bit counter without breaking the parity;
  // others would after 2^32 slots, which no launch reaches (K / 64 per tile).
  uint32_t count = 0;

  GEMMSCOPE_HD constexpr uint32_t stage() const { return count % Stages; }
  GEMMSCOPE_HD constexpr uint32_t phase() const { return (count / Stages) & 1u; }
  // Parity a producer waits on before refilling stage(): the consumers' release of
  // the previous round of this slot.
  GEMMSCOPE_HD constexpr uint32_t empty_parity() const { return phase() ^ 1u; }
  GEMMSCOPE_HD constexpr PipelineState advance() const { return PipelineState{count + 1u}; }
  GEMMSCOPE_HD constexpr PipelineState advance(uint32_t slots) const { return PipelineState{count + slots}; }
};

}  // namespace gemmscope::sm90
