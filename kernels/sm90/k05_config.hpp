#pragma once
// k05_multicast's constants (CUDA-free: the kernel includes them; host code and tests may).
#include <cstdint>

#include "common/sm90_cluster.hpp"

namespace gemmscope::sm90::k05 {

constexpr int kBM = 128, kBN = 128, kBK = 64;
constexpr int kThreads = 128;  // one warpgroup
constexpr int kWgmmaM = 64, kWgmmaK = 16;
constexpr int kStoreCols = 64;
static_assert(kBK * 2 == 128 && kStoreCols * 2 == 128, "128-byte swizzle rows (bf16)");
static_assert(kBN % kStoreCols == 0 && kBN % 16 == 0, "the epilogue stores 16-column stmatrix.x4 pairs");
static_assert(kBM % kWgmmaM == 0 && kBK % kWgmmaK == 0, "tile must be whole wgmma steps");

// The cluster shapes (2 x 1 and 2 x 2 are launched) and the operand slices each CTA loads.
template <uint32_t ClusterM, uint32_t ClusterN>
struct Config {
  static constexpr ClusterShape kCluster{ClusterM, ClusterN};
  static constexpr uint32_t kSliceRowsA = kBM / ClusterN, kSliceRowsB = kBN / ClusterM;
  // A slice starts at slice_row0 * 128 bytes: whole 8-row swizzle atoms (1024 bytes)
  // keep the 128B swizzle pattern of the tile (docs/hardware.md#swizzle-absolute-address).
  static_assert(kSliceRowsA % 8 == 0 && kSliceRowsB % 8 == 0, "slices must be whole 8-row swizzle atoms");
  static_assert(ClusterM * ClusterN <= 8, "portable cluster size");
};

}  // namespace gemmscope::sm90::k05
