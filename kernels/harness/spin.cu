// A kernel that keeps the GPU busy for a while, launched in front of each timed
// batch (harness.hpp: spin_gpu): while it runs, the host queues the batch's events
// and launches, so the events measure GPU time, not the host's launch overhead.
// This is nvbench's "blocking kernel" idea done with a timed spin.
#include <cstdint>
#include <map>
#include <mutex>

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

void clean_l2(cudaStream_t stream, int64_t l2_bytes) {
  // One zeroed scratch buffer of twice L2 per device, kept for the process.
  static std::mutex mutex;
  static std::map<int, std::pair<uint4*, uint32_t*>> scratch;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "clean_l2 device");
  const size_t count = 2 * static_cast<size_t>(l2_bytes) / sizeof(uint4);
  std::pair<uint4*, uint32_t*> buf;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = scratch.find(device);
    if (it == scratch.end()) {
      uint4* data = nullptr;
      uint32_t* sink = nullptr;
      check_cuda(cudaMalloc(&data, count * sizeof(uint4)), "clean_l2 scratch");
      check_cuda(cudaMemset(data, 0, count * sizeof(uint4)), "clean_l2 scratch zero");
      check_cuda(cudaMalloc(&sink, sizeof(uint32_t)), "clean_l2 sink");
      it = scratch.emplace(device, std::make_pair(data, sink)).first;
    }
    buf = it->second;
  }
  read_all<<<1024, 256, 0, stream>>>(buf.first, count, 1u, buf.second);
  check_cuda(cudaGetLastError(), "clean_l2 kernel launch");
}

void spin_gpu(cudaStream_t stream, double microseconds) {
  spin<<<1, 32, 0, stream>>>(static_cast<uint64_t>(microseconds * 1e3));
  check_cuda(cudaGetLastError(), "spin kernel launch");
}
}  // namespace gemmscope::harness
