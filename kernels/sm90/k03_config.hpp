#pragma once
// k03_swizzle128's constants (CUDA-free: the kernel includes them; host code and tests may).
namespace gemmscope::sm90::k03 {

constexpr int kBM = 128, kBN = 128, kBK = 64;
constexpr int kThreads = 128;  // one warpgroup
constexpr int kWgmmaM = 64, kWgmmaK = 16;
static_assert(kBK * 2 == 128, "one K block (bf16) is one 128-byte swizzle row");
static_assert(kBM % kWgmmaM == 0 && kBK % kWgmmaK == 0, "tile must be whole wgmma steps");
static_assert(kBM <= 256 && kBN <= 256, "TMA box dimensions are at most 256");

}  // namespace gemmscope::sm90::k03
