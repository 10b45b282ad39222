#pragma once
// Which problems the Blackwell kernel takes: a host-only check, kept apart from the
// launcher so the CPU tests can hold it to its rules without a GPU or nvcc.
#include <cstdint>
#include <string>

#include "common/sm100_config.hpp"
#include "common/sm100_schedule.hpp"

namespace gemmscope::sm100 {

// Empty when C[M,N] = A[M,K] * B[N,K]^T (row-major, contiguous) can run; else one
// line naming the value and the rule.
inline std::string problem_error(int64_t m, int64_t n, int64_t k, const void* a, const void* b, const void* c) {
  const auto named = [](const char* field, int64_t value, const char* rule) {
    return std::string(field) + " = " + std::to_string(value) + " " + rule;
  };
  if (m < 1) return named("M", m, "must be >= 1");
  if (n < 1) return named("N", n, "must be >= 1");
  if (k < 1) return named("K", k, "must be >= 1");
  constexpr int64_t kMaxDim = (int64_t{1} << 31) - 1;
  if (m > kMaxDim) return named("M", m, "must be below 2^31");
  if (n > kMaxDim) return named("N", n, "must be below 2^31");
  if (k > kMaxDim) return named("K", k, "must be below 2^31");
  // TMA: the global row stride (K * 2 bytes for A and B) must be a multiple of 16.
  if (k % 8 != 0) return named("K", k, "must be a multiple of 8 (TMA: the row stride K * 2 bytes must be a multiple of 16)");
  // The epilogue writes 16-byte vectors of 8 bf16; rows of C must keep them aligned.
  if (n % 8 != 0) return named("N", n, "must be a multiple of 8 (the epilogue stores 16-byte vectors of 8 bf16)");
  const TileGrid grid = tile_grid(static_cast<uint32_t>(m), static_cast<uint32_t>(n));
  const uint64_t grid_x = uint64_t{kClusterM} * grid.tiles_m * grid.tiles_n;
  if (grid_x > uint64_t{0x7FFFFFFF})
    return named("tiles", static_cast<int64_t>(grid_x / kClusterM), "of 256 x 512 need a grid.x below 2^31");
  const auto address = [](const void* p) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)); };
  if (a == nullptr) return "A = null must point to M * K bf16";
  if (b == nullptr) return "B = null must point to N * K bf16";
  if (c == nullptr) return "C = null must point to M * N bf16";
  if (address(a) % 16 != 0) return named("A address", address(a), "must be 16-byte aligned (TMA)");
  if (address(b) % 16 != 0) return named("B address", address(b), "must be 16-byte aligned (TMA)");
  if (address(c) % 16 != 0) return named("C address", address(c), "must be 16-byte aligned (16-byte stores)");
  return {};
}

}  // namespace gemmscope::sm100
