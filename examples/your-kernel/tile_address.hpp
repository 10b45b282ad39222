#pragma once
// The example kernel's own address code, for the device and for the host tests alike
// (plain C++: no CUDA needed to include it). A 64 x 64 bf16 tile is 64 rows of 128
// bytes, eight 16-byte chunks a row, stored with the 128-byte swizzle: chunk c of row
// r sits at chunk c ^ (r % 8) of that row. The tests hold this against gemmscope's
// model; the kernel never asks the model.
#include <cstdint>

#if defined(__CUDACC__)
#define YOUR_KERNEL_HD __host__ __device__
#else
#define YOUR_KERNEL_HD
#endif

namespace your_kernel {

inline constexpr uint32_t kTileM = 64, kTileN = 64, kTileK = 64;  // C tile and K step, in elements
inline constexpr uint32_t kThreads = 128;                         // 4 warps
inline constexpr uint32_t kRowBytes = kTileK * 2;                 // 128: one swizzle span
inline constexpr uint32_t kChunksPerRow = kRowBytes / 16;         // 8
inline constexpr uint32_t kTileBytes = kTileM * kRowBytes;        // 8192 (A tile; B tile the same)
inline constexpr uint32_t kStagingSteps = kTileM * kChunksPerRow / kThreads;  // 4 chunks per thread per tile
static_assert(kTileM == kTileN, "A and B tiles share one layout");
static_assert(kTileM * kChunksPerRow % kThreads == 0, "every thread stages the same number of chunks");

// Byte offset of 16-byte chunk `chunk` of tile row `row` (the tile starts 1024-aligned).
YOUR_KERNEL_HD constexpr uint32_t tile_offset(uint32_t row, uint32_t chunk) {
  return row * kRowBytes + ((chunk ^ (row % 8u)) * 16u);
}

// The deliberately broken variant: row 13 forgets the swizzle (the kind of slip a
// hand-written index makes). Reads still use tile_offset, so row 13 reads the wrong K.
inline constexpr uint32_t kBrokenRow = 13;
YOUR_KERNEL_HD constexpr uint32_t broken_tile_offset(uint32_t row, uint32_t chunk) {
  return row == kBrokenRow ? row * kRowBytes + chunk * 16u : tile_offset(row, chunk);
}

// Which chunk thread `thread` copies from global memory into shared memory at staging
// step `step` (0..kStagingSteps-1): eight consecutive threads take one row's eight chunks.
struct StagingChunk {
  uint32_t row, chunk;
};
YOUR_KERNEL_HD constexpr StagingChunk staging_chunk(uint32_t step, uint32_t thread) {
  const uint32_t i = step * kThreads + thread;
  return {i / kChunksPerRow, i % kChunksPerRow};
}

// The C cells thread `thread` computes: row thread % 64 of the tile, columns
// 32 * (thread / 64) .. +31. It reads its A row a chunk at a time (16 bytes, one load
// per lane: 32 lanes, 32 rows) and B's rows as broadcasts (one address per warp).
YOUR_KERNEL_HD constexpr uint32_t compute_row(uint32_t thread) { return thread % kTileM; }
YOUR_KERNEL_HD constexpr uint32_t compute_col0(uint32_t thread) { return 32u * (thread / kTileM); }

}  // namespace your_kernel
