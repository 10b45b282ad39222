#pragma once
// k10_tunable's launch interface, shared by its part files (k10_tunable_p*.cu,
// device code) and the host dispatch (host/tunable.cpp).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/sm90_scheduler.hpp"
#include "gemmscope/gemm.hpp"
#include "tune/config.hpp"
#include "tune/instances.hpp"

namespace gemmscope::sm90::k10 {

struct Problem {
  WorkGrid grid;          // cluster work tiles
  int k_blocks = 0;
  uint32_t group = 0;     // 0: along M; else grouped zig-zag band height
  // Split-K (tune::SplitPlan): units [0, dp_tiles) are whole tiles; unit dp_tiles + j
  // is split j / split_tiles of tile dp_tiles + j % split_tiles.
  uint32_t splits = 1;
  uint32_t dp_tiles = 0, split_tiles = 0;
  // Stream-K (static schedule only, split_tiles = 0): after its whole tiles, each
  // worker walks its range of the stream-K tiles' k-blocks (sk.tiles = 0: none).
  StreamK sk{};
  // fp32 partials, [slot][cluster CTA][consumer][BN/2][128]: split-K slot
  // tile * splits + split, stream-K slot StreamK::slot (2 x sk.workers of them).
  float* workspace = nullptr;
  // [split or stream-K tile][cluster CTA][consumer], zero between launches.
  uint32_t* arrivals = nullptr;
  uint32_t* counter = nullptr;  // dynamic schedule's work counter (zeroed before the launch)
  // B's loads carry an L2 evict_first policy (tune::evict_first_b); A's never do.
  bool b_evict_first = false;
  // A's tiles past M (clusters along N of 1 only; 0: off): a CTA whose rows start at or
  // past a_rows loads no A; one whose BM rows run past it loads map_a_tail's box of
  // a_tail_rows rows (M mod BM, rounded up to 8) in place of BM. The rows it leaves
  // unloaded only feed C rows past M, which the TMA store drops. TMA's fill of a box's
  // rows past M ran at about half the speed of a load: at 1x8192x5376, 128 x 64 tiles
  // took 48.7 us against 26.8 us at M = 128 (H200, 2026-12-04; docs/experiments.md).
  int a_rows = 0;
  int a_tail_rows = 0;
  // Swapped operands where one tile covers the kernel's N (M < BN; 0: off): its B box,
  // map_b's, is b_rows rows (M rounded up to 8), not BN, so TMA fills no rows past M.
  // The stage's rows past b_rows keep what an earlier k-block left: they only feed
  // accumulator columns past M, which the TMA store drops.
  int b_rows = 0;
};

struct Launch {
  CUtensorMap map_a, map_a_tail, map_b, map_c;  // map_a_tail: Problem::a_tail_rows rows
  Problem prob;
  cudaStream_t stream = nullptr;
};

inline constexpr int kMaxDevices = 64;

// One compiled instance: how many of its clusters fit on the device at once (asked
// once per device), and the launch of `clusters` persistent clusters.
struct InstanceFns {
  int (*resident_clusters)(int device, int sm_count) = nullptr;
  void (*launch)(const Launch&, uint32_t clusters) = nullptr;
};
inline constexpr int kParts = 3;  // k10_tunable_p0.cu .. p2.cu
InstanceFns part0_instance(int row);
InstanceFns part1_instance(int row);
InstanceFns part2_instance(int row);

// The host half of a launch (tensor maps, split-K plan, scratch, grid) for configuration
// c, run on the instance `fns` of c's template arguments: the library's own (launch in
// ladder.hpp), or the timeline recording build's (k10_timeline.hpp).
void launch_with(const InstanceFns& fns, const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops,
                 cudaStream_t stream);

}  // namespace gemmscope::sm90::k10
