#pragma once
// k10_tunable's launch interface, shared by its part files (k10_tunable_p*.cu,
// device code) and the host dispatch (host/tunable.cpp).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/sm90_scheduler.hpp"
#include "gemmscope/gemm.hpp"
#include "tune/instances.hpp"

namespace gemmscope::sm90::k10 {

struct Problem {
  WorkGrid grid;          // cluster work tiles
  int k_blocks = 0;
  uint32_t group = 0;     // 0: along M; else grouped zig-zag band height
  uint32_t splits = 1;    // split-K factor
  int m = 0, n = 0;       // for the split-K partial stores
  float* partial = nullptr;    // [splits][M][N] fp32 when splits > 1
  uint32_t* counter = nullptr; // dynamic schedule's work counter (zeroed before the launch)
};

inline constexpr int kMaxDevices = 64;

struct Launch {
  CUtensorMap map_a, map_b, map_c;
  Problem prob;
  int device = 0;
  int sm_count = 0;
  cudaStream_t stream = nullptr;
};

using LaunchFn = void (*)(const Launch&);
inline constexpr int kParts = 3;  // k10_tunable_p0.cu .. p2.cu
LaunchFn part0_launcher(int row);
LaunchFn part1_launcher(int row);
LaunchFn part2_launcher(int row);

// Sums `splits` fp32 partials [splits][mn] in split order and rounds to bf16 (mn % 8 == 0).
void launch_split_reduce(const float* partial, bf16* c, int64_t mn, int splits, cudaStream_t stream);

}  // namespace gemmscope::sm90::k10
