// A kernel that keeps the GPU busy for a while, launched in front of each timed
// batch (harness.hpp: spin_gpu): while it runs, the host queues the batch's events
// and launches, so the events measure GPU time, not the host's launch overhead.
// This is nvbench's "blocking kernel" idea done with a timed spin.
#include <cstdint>

#include "harness/harness.hpp"

namespace gemmscope::harness {
namespace {
__global__ void spin(uint64_t nanoseconds) {
  uint64_t start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}
}  // namespace

void spin_gpu(cudaStream_t stream, double microseconds) {
  spin<<<1, 32, 0, stream>>>(static_cast<uint64_t>(microseconds * 1e3));
  check_cuda(cudaGetLastError(), "spin kernel launch");
}
}  // namespace gemmscope::harness
