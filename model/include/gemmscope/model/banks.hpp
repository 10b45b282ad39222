#pragma once
// Shared-memory bank model for one warp-level instruction.
// Facts (HARDWARE-FACTS.md, "Shared memory banks"): 32 banks of 4 bytes,
// bank = (byte_address / 4) mod 32; same 32-bit word = broadcast, no conflict.
// The phase rule (how a request is split into phases) is UNCONFIRMED on hardware
// and lives in one named, replaceable function: PhaseRule.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gemmscope::model {

inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;
inline constexpr int kWarpSize = 32;

constexpr int bank_of(uint64_t byte_address) { return static_cast<int>((byte_address / kBankBytes) % kBanks); }

enum class AccessKind { Load, Store };

// One warp-level shared-memory instruction.
struct WarpAccess {
  std::array<uint64_t, kWarpSize> address{};  // per-thread byte address (first byte accessed)
  uint32_t active_mask = 0xFFFFFFFFu;
  int width_bytes = 4;                         // 4, 8 or 16
  AccessKind kind = AccessKind::Load;
  std::string label;                           // free text: "ldmatrix.x4 row 0", ...
  void validate() const;                       // width in {4,8,16}, addresses aligned to width
};

// A phase: the lanes served together. The working model: 128 bytes of requested
// data per phase (4 B: one phase of 32 lanes; 8 B: 0-15,16-31; 16 B: 0-7,...,24-31).
using PhaseRule = std::function<std::vector<uint32_t>(const WarpAccess&)>;  // returns lane masks
std::vector<uint32_t> phases_128_bytes(const WarpAccess& access);
PhaseRule default_phase_rule();

struct BankCollision {
  int bank = 0;
  std::vector<int> lanes;          // lanes that touch this bank in this phase
  std::vector<uint64_t> words;     // distinct 32-bit word addresses (bytes) asked of it
};

struct PhaseCost {
  uint32_t lanes = 0;              // mask of lanes in this phase
  int wavefronts = 0;              // max over banks of distinct words asked of that bank
  std::vector<BankCollision> collisions;  // banks with more than one distinct word
};

struct AccessCost {
  std::vector<PhaseCost> phases;
  int wavefronts = 0;   // sum over phases
  int ideal = 0;        // fewest wavefronts for this many distinct bytes: ceil(unique words / 32) per phase, summed
  int conflicts() const { return wavefronts - ideal; }
};

AccessCost analyze(const WarpAccess& access, const PhaseRule& rule = default_phase_rule());

}  // namespace gemmscope::model
