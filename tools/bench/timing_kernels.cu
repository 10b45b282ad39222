// The harness's small GPU helpers around a timed batch (harness.hpp):
// - spin_gpu: a kernel that keeps the GPU busy for a while, launched in front of each
//   timed batch: while it runs, the host queues the batch's events and launches, so
//   the events measure GPU time, not the host's launch overhead (nvbench's "blocking
//   kernel" idea done with a timed spin);
// - L2Cleaner: a read of twice L2 before a batch (bench --clean-l2);
// - measure_sm_clock_mhz: the SM clock as the silicon counts it (%clock64 over
//   %globaltimer), the independent check of what bench --clocks reads from NVML.
#include <cuda/ptx>

#include <cstdint>
#include <vector>

#include "bench/harness.hpp"

namespace gemmscope::harness {
namespace {
__global__ void spin(uint64_t nanoseconds) {
  const uint64_t start = cuda::ptx::get_sreg_globaltimer();
  while (cuda::ptx::get_sreg_globaltimer() - start < nanoseconds) {
  }
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
// Block b's thread 0 spins for `nanoseconds` of %globaltimer and writes the SM cycles
// and the nanoseconds that passed: out[2b], out[2b + 1].
__global__ void clock_rate(uint64_t nanoseconds, unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const uint64_t t0 = cuda::ptx::get_sreg_globaltimer();
  const uint64_t c0 = cuda::ptx::get_sreg_clock64();
  uint64_t t1 = t0;
  while (t1 - t0 < nanoseconds) t1 = cuda::ptx::get_sreg_globaltimer();
  const uint64_t c1 = cuda::ptx::get_sreg_clock64();
  out[2 * blockIdx.x] = c1 - c0;
  out[2 * blockIdx.x + 1] = t1 - t0;
}
}  // namespace

double measure_sm_clock_mhz(double microseconds) {
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  unsigned long long* out = nullptr;
  check_cuda(cudaMalloc(&out, 2 * sizeof(unsigned long long) * sms), "clock probe buffer");
  clock_rate<<<sms, 32>>>(static_cast<uint64_t>(microseconds * 1e3), out);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  std::vector<unsigned long long> host(2 * static_cast<size_t>(sms));
  if (err == cudaSuccess) err = cudaMemcpy(host.data(), out, host.size() * sizeof(host[0]), cudaMemcpyDeviceToHost);
  cudaFree(out);
  check_cuda(err, "clock probe");
  double cycles = 0, ns = 0;
  for (int b = 0; b < sms; ++b) cycles += static_cast<double>(host[2 * b]), ns += static_cast<double>(host[2 * b + 1]);
  return ns > 0 ? 1e3 * cycles / ns : 0;
}

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
