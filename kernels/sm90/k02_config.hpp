#pragma once
// k02_tma_wgmma's constants (CUDA-free: the kernel includes them; host code and tests may).
namespace gemmscope::sm90::k02 {

constexpr int kBM = 128, kBN = 128, kBK = 64;
constexpr int kThreads = 128;                 // one warpgroup
constexpr int kChunkElems = 8;                // one core-matrix row: 16 bytes of bf16
constexpr int kChunks = kBK / kChunkElems;    // TMA boxes per operand per K block
constexpr int kWgmmaM = 64, kWgmmaK = 16;
static_assert(kBM % kWgmmaM == 0 && kBK % kWgmmaK == 0, "tile must be whole wgmma steps");
static_assert(kBN % 8 == 0 && kBN <= 256, "wgmma N is 8..256 step 8");

}  // namespace gemmscope::sm90::k02
