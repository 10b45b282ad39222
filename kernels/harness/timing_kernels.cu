// The harness's small GPU helpers around a timed batch (harness.hpp):
// - spin_gpu: a kernel that keeps the GPU busy for a while, launched in front of each
//   timed batch: while it runs, the host queues the batch's events and launches, so
//   the events measure GPU time, not the host's launch overhead (nvbench's "blocking
//   kernel" idea done with a timed spin);
// - L2Cleaner: a read of twice L2 before a batch (bench --clean-l2).
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
// Reads every 16 bytes of the buffer once. The sum is stored only if it equals a value
// no input makes (the buffer is zeros), so the loads stay and nothing is written.
__global__ void read_all(const uint4* data, size_t count, uint32_t never, uint32_t* sink) {
  uint32_t sum = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    const uint4 v = data[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == never) *sink = sum;
}
}  // namespace

L2Cleaner::L2Cleaner(int64_t l2_bytes) : bytes_(2 * static_cast<size_t>(l2_bytes) / sizeof(uint4) * sizeof(uint4)) {
  check_cuda(cudaMalloc(&data_, bytes_), "L2 cleaner scratch");
  check_cuda(cudaMemset(data_, 0, bytes_), "L2 cleaner scratch zero");
  check_cuda(cudaMalloc(&sink_, sizeof(uint32_t)), "L2 cleaner sink");
}

L2Cleaner::~L2Cleaner() {
  cudaFree(data_);  // an error here was reported by the call that caused it
  cudaFree(sink_);
}

void L2Cleaner::run(cudaStream_t stream) const {
  read_all<<<1024, 256, 0, stream>>>(static_cast<const uint4*>(data_), bytes_ / sizeof(uint4), 1u, sink_);
  check_cuda(cudaGetLastError(), "L2 cleaner launch");
}

void spin_gpu(cudaStream_t stream, double microseconds) {
  spin<<<1, 32, 0, stream>>>(static_cast<uint64_t>(microseconds * 1e3));
  check_cuda(cudaGetLastError(), "spin kernel launch");
}
}  // namespace gemmscope::harness
