#include "gemmscope/model/banks.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

std::string_view to_string(AccessKind kind) { return kind == AccessKind::Load ? "load" : "store"; }

void WarpAccess::validate() const {
  require(width_bytes == 4 || width_bytes == 8 || width_bytes == 16, "access width_bytes", width_bytes,
          "must be 4, 8 or 16");
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!active(lane)) continue;
    require(address[lane] % static_cast<uint64_t>(width_bytes) == 0, "address of lane " + std::to_string(lane),
            static_cast<long long>(address[lane]),
            "must be a multiple of the access width (" + std::to_string(width_bytes) + " bytes)");
  }
}

namespace {

// Lanes [first, first + count) as a mask.
uint32_t lane_range(int first, int count) {
  return (count >= kWarpSize ? 0xFFFFFFFFu : ((uint32_t{1} << count) - 1u)) << first;
}

// Every lane of [first, first + count) asks for the same address as its partner
// lane ^ 2 (both active, same address; or both inactive).
bool lanes_pair_by_xor2(const WarpAccess& access, int first, int count) {
  for (int lane = first; lane < first + count; ++lane) {
    const int partner = lane ^ 2;
    if (access.active(lane) != access.active(partner)) return false;
    if (access.active(lane) && access.address[lane] != access.address[partner]) return false;
  }
  return true;
}

}  // namespace

std::vector<uint32_t> phases_128_bytes(const WarpAccess& access) {
  // 128 bytes of requested data per phase: lanes_per_phase = 128 / width.
  const int lanes_per_phase = 128 / access.width_bytes;
  std::vector<uint32_t> masks;
  for (int first = 0; first < kWarpSize; first += lanes_per_phase) masks.push_back(lane_range(first, lanes_per_phase));
  return masks;
}

std::vector<uint32_t> phases_h200(const WarpAccess& access) {
  // docs/hardware.md#banks-repeats-across-phases (ncu on the H200, 388 cases of
  // traces/hw/banks_ncu.json): an 8/16-byte load whose lanes l and l ^ 2 ask for one
  // address costs the bank maximum of its 256-byte window, not the sum over the two
  // 128-byte phases (0 1 0 1 ... and 0000 1111 ... arrangements merge; 0 1 2 3 ...
  // and shuffled ones do not, even with the same address set). Stores never merge:
  // a uniform 8-byte store costs 2.
  if (access.kind != AccessKind::Load || access.width_bytes == 4) return phases_128_bytes(access);
  const int window_lanes = 256 / access.width_bytes, phase_lanes = 128 / access.width_bytes;
  std::vector<uint32_t> masks;
  for (int first = 0; first < kWarpSize; first += window_lanes) {
    if (lanes_pair_by_xor2(access, first, window_lanes)) {
      masks.push_back(lane_range(first, window_lanes));
    } else {
      masks.push_back(lane_range(first, phase_lanes));
      masks.push_back(lane_range(first + phase_lanes, phase_lanes));
    }
  }
  return masks;
}

std::vector<uint32_t> phases_h200_uniform_only(const WarpAccess& access) {
  // The previous default (the negative control). A uniform access (every active
  // lane, one address) is served at 256 requested bytes per phase: 8-byte broadcasts
  // cost 1 wavefront, 16-byte ones 2, where the 128-byte rule says 2 and 4 (ncu and
  // clock64 on the H200: w8_broadcast / w16_broadcast). Wrong for uniform stores and
  // for loads whose lanes pair up without being uniform (see phases_h200).
  bool uniform = access.active_mask != 0;
  uint64_t first_address = 0;
  bool seen = false;
  for (int lane = 0; lane < kWarpSize && uniform; ++lane) {
    if (!((access.active_mask >> lane) & 1u)) continue;
    if (!seen) first_address = access.address[lane], seen = true;
    else uniform = access.address[lane] == first_address;
  }
  if (!uniform) return phases_128_bytes(access);
  const int lanes_per_phase = std::min(kWarpSize, 256 / access.width_bytes);
  const uint32_t group = lanes_per_phase >= kWarpSize ? 0xFFFFFFFFu : ((uint32_t{1} << lanes_per_phase) - 1u);
  std::vector<uint32_t> masks;
  for (int first = 0; first < kWarpSize; first += lanes_per_phase) masks.push_back(group << first);
  return masks;
}

PhaseRule default_phase_rule() { return phases_h200; }

namespace {

PhaseCost analyze_phase(const WarpAccess& access, uint32_t lanes) {
  PhaseCost phase;
  phase.lanes = lanes;
  // bank -> word address -> lanes asking for it (std::map keeps both ascending).
  std::map<int, std::map<uint64_t, std::vector<int>>> by_bank;
  const int words_per_lane = access.width_bytes / kBankBytes;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!((lanes >> lane) & 1u)) continue;
    for (int k = 0; k < words_per_lane; ++k) {
      const uint64_t word = access.address[lane] + uint64_t(k) * kBankBytes;
      by_bank[bank_of(word)][word].push_back(lane);
    }
  }
  for (auto& [bank, words] : by_bank) {
    const int distinct = static_cast<int>(words.size());
    phase.distinct_words += distinct;
    phase.wavefronts = std::max(phase.wavefronts, distinct);
    if (distinct > 1) {
      BankCollision c;
      c.bank = bank;
      std::set<int> all_lanes;
      for (auto& [word, word_lanes] : words) {
        c.words.push_back(word);
        c.word_lanes.push_back(word_lanes);
        all_lanes.insert(word_lanes.begin(), word_lanes.end());
      }
      c.lanes.assign(all_lanes.begin(), all_lanes.end());
      phase.collisions.push_back(std::move(c));
    }
  }
  phase.ideal = (phase.distinct_words + kBanks - 1) / kBanks;
  return phase;
}

}  // namespace

AccessCost analyze(const WarpAccess& access, const PhaseRule& rule) {
  access.validate();
  const std::vector<uint32_t> masks = rule(access);
  // The rule must partition the warp: every lane in exactly one phase.
  uint32_t seen = 0;
  for (uint32_t m : masks) {
    if (seen & m)
      throw ModelError("phase rule returned overlapping phases (lane mask " + std::to_string(m) +
                       " repeats a lane); it must partition lanes 0-31");
    seen |= m;
  }
  if (seen != 0xFFFFFFFFu)
    throw ModelError("phase rule covers lane mask " + std::to_string(seen) +
                     "; it must partition all lanes 0-31 (mask 4294967295)");
  AccessCost cost;
  for (uint32_t m : masks) {
    const uint32_t lanes = m & access.active_mask;
    if (lanes == 0) continue;
    PhaseCost phase = analyze_phase(access, lanes);
    cost.wavefronts += phase.wavefronts;
    cost.ideal += phase.ideal;
    cost.phases.push_back(std::move(phase));
  }
  return cost;
}

SequenceCost analyze(const std::vector<WarpAccess>& accesses, const PhaseRule& rule) {
  SequenceCost total;
  for (const WarpAccess& a : accesses) {
    AccessCost c = analyze(a, rule);
    total.wavefronts += c.wavefronts;
    total.ideal += c.ideal;
    total.instructions.push_back(std::move(c));
  }
  return total;
}

}  // namespace gemmscope::model
