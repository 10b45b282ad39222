#pragma once
// The mbarrier as a small value type (no global state), for tests and for the
// pipeline simulator. PTX ISA: "Parallel Synchronization and Communication
// Instructions: mbarrier" (phase, pending arrival count, tx-count, phase completion,
// try_wait.parity).
//
// Facts: the expected arrival count is 1..2^20-1; the tx-count lies in
// -(2^20-1)..2^20-1; a phase completes when pending arrivals and tx-count are both 0,
// then the parity flips and pending arrivals reload from the expected count.
// try_wait.parity(P) is true once the phase with parity P has completed, and is
// defined only for the current or the immediately preceding phase.
//
// Error policy: every use the PTX ISA leaves undefined throws ModelError, and a
// throwing call leaves the barrier unchanged (checks come before any change):
// arrival underflow (more arrivals than pending), tx-count leaving its range, an
// expected count out of range, waiting on a phase two or more behind (or ahead).
#include <cstdint>
#include <string>

namespace gemmscope::model {

inline constexpr int64_t kMbarrierCountLimit = (int64_t{1} << 20) - 1;  // 2^20 - 1

class Mbarrier {
 public:
  // mbarrier.init(count): phase 0, pending = count, tx-count 0.
  explicit Mbarrier(uint32_t expected_count);

  // mbarrier.arrive(count): pending -= count.
  void arrive(uint32_t count = 1);
  // mbarrier.expect_tx(bytes): tx-count += bytes.
  void expect_tx(uint32_t bytes);
  // mbarrier.arrive.expect_tx(bytes): expect_tx(bytes), then arrive(1), as one step.
  void arrive_expect_tx(uint32_t bytes);
  // complete-tx of a TMA or bulk copy: tx-count -= bytes.
  void complete_tx(uint32_t bytes);

  // try_wait.parity(P): true when the phase with parity P has completed, i.e. P is
  // the parity of the immediately preceding phase. Parity alone cannot tell the
  // preceding phase from one three behind, so this cannot flag a late waiter; use
  // try_wait_phase when the waiter's phase number is known.
  bool try_wait_parity(uint32_t parity) const;
  // The waiter's knowledge made explicit: phase numbers count from 0 at init; phase
  // -1 is the (virtual, completed) phase before init, which is what a producer's
  // first wait on parity 1 refers to. True when `phase` has completed; throws when
  // `phase` is two or more behind the current phase or ahead of it.
  bool try_wait_phase(int64_t phase) const;

  uint32_t phase_parity() const { return static_cast<uint32_t>(completed_phases_ & 1); }
  // Number of completed phases = the current phase's number.
  int64_t completed_phases() const { return completed_phases_; }
  uint32_t expected_count() const { return expected_; }
  uint32_t pending_arrivals() const { return pending_; }
  int32_t tx_count() const { return tx_count_; }
  std::string to_string() const;

  bool operator==(const Mbarrier&) const = default;

 private:
  void complete_if_done();
  uint32_t expected_ = 1;
  uint32_t pending_ = 1;
  int32_t tx_count_ = 0;
  int64_t completed_phases_ = 0;
};

}  // namespace gemmscope::model
