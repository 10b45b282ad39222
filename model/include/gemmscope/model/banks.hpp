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
// CONFIRMED on the H200 for all 388 cases of the banks probe, loads and stores of 4,
// 8 and 16 bytes (ncu wavefront and conflict counters exactly:
// traces/hw/banks_ncu.json; clock64 at about one cycle per wavefront:
// banks_timing.json) with the phases_h200 rule below; there Nsight's
// l1tex__data_bank_conflicts_* equals wavefronts - ideal.
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
// The plain rule: 128 bytes of requested data per phase, by lane number: 4 B -> one
// phase of 32 lanes; 8 B -> lanes 0-15, 16-31; 16 B -> 0-7, 8-15, 16-23, 24-31. It
// ignores the active mask (a half-empty phase is not merged with the next). The H200
// follows it for every store and most loads; the loads it does not: phases_h200.
std::vector<uint32_t> phases_128_bytes(const WarpAccess& access);
// The default, fitted to the H200 (docs/hardware.md#banks-repeats-across-phases): a
// LOAD of 8 or 16 bytes serves a 256-byte window of lanes (8 B: lanes 0-31; 16 B:
// lanes 0-15 and 16-31) as one phase when every lane l of the window asks for the same
// address as lane l ^ 2, so only half of the window's lanes bring new addresses;
// otherwise, and for every store and 4-byte access, phases_128_bytes. A uniform load
// is the simplest such case (8 B: 1 wavefront, 16 B: 2). Not settled by the data (all
// 32 lanes were active in every probe case): a pair with one inactive lane counts as
// unmatched here (no discount); whether the 16-byte windows are judged separately or
// the warp as a whole (judged separately here).
std::vector<uint32_t> phases_h200(const WarpAccess& access);
// The previous default, kept as the negative control: phases_128_bytes, except that a
// uniform access (every active lane at one address), load or store, is served at 256
// requested bytes per phase. The H200 disagrees in 25 of the 388 probe cases (uniform
// stores; loads whose lanes pair up without being uniform).
std::vector<uint32_t> phases_h200_uniform_only(const WarpAccess& access);
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
