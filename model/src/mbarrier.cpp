#include "gemmscope/model/mbarrier.hpp"

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

Mbarrier::Mbarrier(uint32_t expected_count) {
  require(expected_count >= 1 && expected_count <= kMbarrierCountLimit, "expected_count", expected_count,
          "must be in 1..1048575 (2^20-1)");
  expected_ = pending_ = expected_count;
}

void Mbarrier::complete_if_done() {
  if (pending_ == 0 && tx_count_ == 0) {
    ++completed_phases_;
    pending_ = expected_;
  }
}

void Mbarrier::arrive(uint32_t count) {
  require(count >= 1 && count <= kMbarrierCountLimit, "arrive count", count, "must be in 1..1048575 (2^20-1)");
  require(count <= pending_, "arrive count", count,
          "exceeds the pending arrivals (" + std::to_string(pending_) + ") of phase " +
              std::to_string(completed_phases_) + ": arrival underflow is undefined");
  pending_ -= count;
  complete_if_done();
}

void Mbarrier::expect_tx(uint32_t bytes) {
  require(bytes <= kMbarrierCountLimit, "expect_tx bytes", bytes, "must be in 0..1048575 (2^20-1)");
  const int64_t next = int64_t{tx_count_} + bytes;
  require(next <= kMbarrierCountLimit, "tx_count", next, "must stay in -1048575..1048575 (2^20-1) after expect_tx");
  tx_count_ = static_cast<int32_t>(next);
  complete_if_done();
}

void Mbarrier::arrive_expect_tx(uint32_t bytes) {
  // Check both steps before changing anything, so that a refusal leaves no trace.
  require(bytes <= kMbarrierCountLimit, "expect_tx bytes", bytes, "must be in 0..1048575 (2^20-1)");
  const int64_t next = int64_t{tx_count_} + bytes;
  require(next <= kMbarrierCountLimit, "tx_count", next, "must stay in -1048575..1048575 (2^20-1) after expect_tx");
  require(pending_ >= 1, "arrive count", 1,
          "exceeds the pending arrivals (0) of phase " + std::to_string(completed_phases_) +
              ": arrival underflow is undefined");
  tx_count_ = static_cast<int32_t>(next);
  --pending_;
  complete_if_done();
}

void Mbarrier::complete_tx(uint32_t bytes) {
  require(bytes <= kMbarrierCountLimit, "complete_tx bytes", bytes, "must be in 0..1048575 (2^20-1)");
  const int64_t next = int64_t{tx_count_} - bytes;
  require(next >= -kMbarrierCountLimit, "tx_count", next, "must stay in -1048575..1048575 (2^20-1) after complete_tx");
  tx_count_ = static_cast<int32_t>(next);
  complete_if_done();
}

bool Mbarrier::try_wait_parity(uint32_t parity) const {
  require(parity <= 1, "parity", parity, "must be 0 or 1");
  // The current phase has not completed; the one before it (other parity) has.
  return parity != phase_parity();
}

bool Mbarrier::try_wait_phase(int64_t phase) const {
  require(phase >= completed_phases_ - 1, "wait phase", phase,
          "is two or more behind the current phase " + std::to_string(completed_phases_) +
              ": try_wait.parity is undefined there (it would see the wrong parity)");
  require(phase <= completed_phases_, "wait phase", phase,
          "is ahead of the current phase " + std::to_string(completed_phases_) +
              ": its parity equals the preceding phase's, so try_wait.parity would pass at once");
  return phase < completed_phases_;
}

std::string Mbarrier::to_string() const {
  return "Mbarrier{phase=" + std::to_string(completed_phases_) + " (parity " + std::to_string(phase_parity()) +
         "), pending=" + std::to_string(pending_) + "/" + std::to_string(expected_) +
         ", tx_count=" + std::to_string(tx_count_) + "}";
}

}  // namespace gemmscope::model
