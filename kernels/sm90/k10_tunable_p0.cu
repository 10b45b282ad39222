// k10_tunable, part 0 of 3: the rows of tune/instances.hpp with row % 3 == 0
// (the kernel itself is in k10_tunable.cuh).
#include "sm90/k10_tunable.cuh"

namespace gemmscope::sm90::k10 {
LaunchFn part0_launcher(int row) { return part_launcher<0>(row); }
}  // namespace gemmscope::sm90::k10

namespace gemmscope::sm90::k10 {
namespace {
// Split-K's second pass: thread i owns 8 consecutive outputs; the splits are summed
// in order 0, 1, ..., so the result is the same on every run.
__global__ void split_reduce(const float* __restrict__ partial, bf16* __restrict__ c, int64_t mn, int splits) {
  const int64_t i = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * 8;
  if (i >= mn) return;
  float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int s = 0; s < splits; ++s) {
    const float4* p = reinterpret_cast<const float4*>(partial + s * mn + i);
    const float4 lo = p[0], hi = p[1];
    v[0] += lo.x, v[1] += lo.y, v[2] += lo.z, v[3] += lo.w;
    v[4] += hi.x, v[5] += hi.y, v[6] += hi.z, v[7] += hi.w;
  }
  uint4 out;
  out.x = pack_bf16x2(v[0], v[1]);
  out.y = pack_bf16x2(v[2], v[3]);
  out.z = pack_bf16x2(v[4], v[5]);
  out.w = pack_bf16x2(v[6], v[7]);
  *reinterpret_cast<uint4*>(c + i) = out;
}
}  // namespace

void launch_split_reduce(const float* partial, bf16* c, int64_t mn, int splits, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t blocks = (mn / 8 + kThreads - 1) / kThreads;
  split_reduce<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(partial, c, mn, splits);
  check_cuda(cudaGetLastError(), "k10 split-K reduction launch");
}
}  // namespace gemmscope::sm90::k10
