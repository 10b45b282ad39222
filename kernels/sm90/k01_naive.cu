// k01_naive: one thread per output element, fp32 accumulation, no tensor cores.
// The baseline every later step is measured against.
#include "sm90/k01_config.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope::sm90::k01 {

// ---- config: sm90/k01_config.hpp ------------------------------------------

// ---- kernel --------------------------------------------------------------
__global__ void __launch_bounds__(kTile * kTile) k01_naive(const bf16* A, const bf16* B, bf16* C, int M, int N, int K) {
  const int col = blockIdx.x * kTile + threadIdx.x;
  const int row = blockIdx.y * kTile + threadIdx.y;
  if (row >= M || col >= N) return;
  const bf16* a = A + static_cast<int64_t>(row) * K;
  const bf16* b = B + static_cast<int64_t>(col) * K;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += __bfloat162float(a[k]) * __bfloat162float(b[k]);
  C[static_cast<int64_t>(row) * N + col] = __float2bfloat16_rn(acc);
}

// ---- launcher ------------------------------------------------------------
std::string can_implement(const GemmShape& shape, const GemmOperands&) {
  if (shape.m > int64_t{65535} * kTile) return "M = " + std::to_string(shape.m) + " exceeds k01's grid limit of 1048560";
  if (shape.n > int64_t{1} << 30 || shape.k > int64_t{1} << 30 || shape.m * shape.k > (int64_t{1} << 62))
    return "shape too large for k01's 32-bit loop counters";
  return {};
}

void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const dim3 block(kTile, kTile);
  const dim3 grid(static_cast<unsigned>((s.n + kTile - 1) / kTile), static_cast<unsigned>((s.m + kTile - 1) / kTile));
  k01_naive<<<grid, block, 0, stream>>>(ops.a, ops.b, ops.c, static_cast<int>(s.m), static_cast<int>(s.n),
                                        static_cast<int>(s.k));
  check_cuda(cudaGetLastError(), "k01_naive launch");
}

}  // namespace gemmscope::sm90::k01
