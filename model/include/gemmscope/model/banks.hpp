#pragma once
// Shared-memory bank model for one warp-level instruction.
// Facts (docs/hardware.md#smem-banks; CUDA C++ Programming Guide,
// "Shared Memory" of compute capability 5.x+): 32 banks of 4 bytes,
// bank = (byte_address / 4) mod 32; several lanes reading the same 32-bit word are
// served by one broadcast; several lanes writing the same word store one of them.
//
// The phase rule (how a request is split into phases) lives in one named,
// replaceable function: PhaseRule. Within a phase the cost rule is: wavefronts =
// max over banks of the number of distinct 32-bit words asked of that bank.
// CONFIRMED on the H200 for the 28 crafted 4/8/16-byte load patterns of the
// banks probe (ncu wavefront and conflict counters exactly, clock64 at about one
// cycle per wavefront: traces/hw/banks_ncu.json, banks_timing.json) with the
// phases_h200 rule below; there Nsight's l1tex__data_bank_conflicts_* equals
// wavefronts - ideal (also confirmed by those traces).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::model {

inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;
inline constexpr int kWarpSize = 32;

constexpr int bank_of(uint64_t byte_address) { return static_cast<int>((byte_address / kBankBytes) % kBanks); }

enum class AccessKind { Load, Store };
std::string_view to_string(AccessKind kind);  // "load" / "store"

// One warp-level shared-memory instruction. Lane t accesses width_bytes consecutive
// bytes starting at address[t] (so 1, 2 or 4 consecutive 32-bit words) when bit t of
// active_mask is set. For ldmatrix/stmatrix, "active" means "the lane supplies a row
// address" (.x1: lanes 0-7, .x2: 0-15, .x4: all), and width_bytes is the 16-byte row.
struct WarpAccess {
  std::array<uint64_t, kWarpSize> address{};  // per-lane byte address (first byte accessed)
  uint32_t active_mask = 0xFFFFFFFFu;
  int width_bytes = 4;                         // 4, 8 or 16
  AccessKind kind = AccessKind::Load;
  std::string label;                           // free text: "ldmatrix.x4 m0-15 k0-15", ...
  // Throws ModelError: width not in {4, 8, 16}, or an active lane's address not a
  // multiple of the width (the message names the lane, the address and the width).
  void validate() const;
  bool active(int lane) const { return (active_mask >> lane) & 1u; }
};

// A phase: the lanes served together. The rule returns a partition of lanes 0-31 as
// lane masks, in service order; analyze() intersects each with the active mask and
// skips phases left empty.
using PhaseRule = std::function<std::vector<uint32_t>(const WarpAccess&)>;
// The working model (UNCONFIRMED): 128 bytes of requested data per phase, by lane
// number: 4 B -> one phase of 32 lanes; 8 B -> lanes 0-15, 16-31; 16 B -> 0-7, 8-15,
// 16-23, 24-31. It ignores the active mask (a half-empty phase is not merged with the
// next); for uniform 8/16 B accesses the H200 differs: phases_h200 (docs/hardware.md#banks-8b-phases).
std::vector<uint32_t> phases_128_bytes(const WarpAccess& access);
// The default, fitted to the H200: phases_128_bytes, except that a uniform access
// (every active lane at one address) is served at 256 requested bytes per phase
// (8-byte broadcast: 1 wavefront, 16-byte: 2). Stores were not probed: analyze()
// gives them the same phases and counts a word written by several lanes once. Open:
// 8/16-byte accesses whose few addresses repeat across phases, where the H200 has
// been seen below this rule (docs/hardware.md#banks-repeats-across-phases).
std::vector<uint32_t> phases_h200(const WarpAccess& access);
PhaseRule default_phase_rule();

// One bank asked for more than one distinct word in one phase.
struct BankCollision {
  int bank = 0;
  std::vector<int> lanes;                    // lanes that touch this bank in this phase, ascending
  std::vector<uint64_t> words;               // distinct 32-bit word addresses (bytes), ascending
  std::vector<std::vector<int>> word_lanes;  // word_lanes[i]: the lanes asking for words[i]
};

struct PhaseCost {
  uint32_t lanes = 0;       // mask of the active lanes in this phase
  int distinct_words = 0;   // distinct 32-bit words requested in this phase
  int wavefronts = 0;       // max over banks of distinct words asked of that bank
  int ideal = 0;            // ceil(distinct_words / 32)
  std::vector<BankCollision> collisions;  // banks with more than one distinct word, by bank
  int conflicts() const { return wavefronts - ideal; }
};

// "Ideal" is the fewest wavefronts the bytes requested could need if they were spread
// perfectly over the banks: per phase, ceil(distinct 32-bit words / 32); summed over
// phases. Broadcast (same word, several lanes) is never counted as a conflict.
struct AccessCost {
  std::vector<PhaseCost> phases;  // non-empty phases only
  int wavefronts = 0;             // sum over phases
  int ideal = 0;                  // sum over phases
  int conflicts() const { return wavefronts - ideal; }
};

AccessCost analyze(const WarpAccess& access, const PhaseRule& rule = default_phase_rule());

// A pattern is usually several instructions (one warp walking a tile): costs add.
struct SequenceCost {
  std::vector<AccessCost> instructions;
  int wavefronts = 0;
  int ideal = 0;
  int conflicts() const { return wavefronts - ideal; }
};
SequenceCost analyze(const std::vector<WarpAccess>& accesses, const PhaseRule& rule = default_phase_rule());

}  // namespace gemmscope::model
