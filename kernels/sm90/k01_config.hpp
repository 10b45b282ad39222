#pragma once
// k01_naive's constants (CUDA-free: the kernel includes them; host code and tests may).
namespace gemmscope::sm90::k01 {

constexpr int kTile = 16;  // a 16x16 block of threads, one per output element

}  // namespace gemmscope::sm90::k01
