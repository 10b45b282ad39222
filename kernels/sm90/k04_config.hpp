#pragma once
// k04_tma_store's constants (CUDA-free: the kernel includes them; host code and tests may).
namespace gemmscope::sm90::k04 {

constexpr int kBM = 128, kBN = 128, kBK = 64;
constexpr int kThreads = 128;  // one warpgroup
constexpr int kWgmmaM = 64, kWgmmaK = 16;
constexpr int kStoreCols = 64;  // one TMA store box: 64 bf16 = one 128-byte swizzle row
static_assert(kBK * 2 == 128 && kStoreCols * 2 == 128, "128-byte swizzle rows (bf16)");
static_assert(kBN % kStoreCols == 0 && kBN % 16 == 0, "the epilogue stores 16-column stmatrix.x4 pairs");
static_assert(kBM % kWgmmaM == 0 && kBK % kWgmmaK == 0, "tile must be whole wgmma steps");

}  // namespace gemmscope::sm90::k04
