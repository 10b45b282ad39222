// Call 2's stand-alone experiment (not a product probe): the HBM read rate this GPU
// reaches, the ceiling for the decode shapes, which stream B once.
// Reads N bytes of fresh random words with 16-byte loads (grid-stride, 4 in flight per
// thread), XORs them into one word per block so no load is dead, and times 20 launches
// with CUDA events after 3 warm-ups; prints the median and best rate per size and grid.
// Sizes: 462 MB (B of 128x43008x5376), 939 MB (B of 128x57344x8192), 4 GB.
// Then the 462 MB read by one block of 1024 threads per SM (200 KiB of shared memory each
// keeps a second block off) on 132, 92 and 66 SMs: can a partial last wave still draw the
// whole rate? (92: the SMs busy in the second wave of 224 tiles of 128 x 192 at N = 43008.)
// Built: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o read_bw read_bw.cu
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void fill(uint4* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed;
    p[i] = make_uint4(h, h * 747796405u + 1, h ^ 0x9e3779b9u, h * 2891336453u);
  }
}

__global__ void __launch_bounds__(1024) read_all(const uint4* __restrict__ p, size_t n, uint32_t* out) {
  uint32_t acc = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = __ldcs(p + i + j * stride);  // streaming: evict first
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  for (; i < n; i += stride) { uint4 v = __ldcs(p + i); acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  acc = __reduce_xor_sync(0xffffffffu, acc);
  if ((threadIdx.x & 31) == 0) atomicXor(out + blockIdx.x, acc);
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t sizes[] = {462ull << 20, 939ull << 20, 4096ull << 20};
  const size_t max_bytes = sizes[2];
  uint4* buf;
  uint32_t* out;
  CHECK(cudaMalloc(&buf, max_bytes));
  CHECK(cudaMalloc(&out, 64 * 1024 * sizeof(uint32_t)));
  fill<<<sms * 8, 512>>>(buf, max_bytes / 16, 12345u);
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::printf("bytes_mb,blocks_per_sm,median_tb_s,best_tb_s\n");
  for (size_t bytes : sizes) {
    for (int per_sm : {2, 4}) {
      // Rotate the start through the 4 GB buffer so no launch finds the last one's lines in L2.
      std::vector<float> ms;
      for (int r = 0; r < 23; ++r) {
        const size_t offset = (bytes == max_bytes) ? 0 : ((size_t)r * (bytes + (64u << 20))) % (max_bytes - bytes);
        const uint4* p = buf + (offset / 16);
        CHECK(cudaEventRecord(a));
        read_all<<<sms * per_sm, 512>>>(p, bytes / 16, out);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, a, b));
        if (r >= 3) ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      std::printf("%zu,%d,%.3f,%.3f\n", bytes >> 20, per_sm, bytes / (ms[ms.size() / 2] * 1e-3) / 1e12,
                  bytes / (ms[0] * 1e-3) / 1e12);
    }
  }
  CHECK(cudaFuncSetAttribute(read_all, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  std::printf("bytes_mb,blocks_one_per_sm,median_tb_s,best_tb_s\n");
  for (int blocks : {132, 92, 66}) {
    const size_t bytes = sizes[0];
    std::vector<float> ms;
    for (int r = 0; r < 23; ++r) {
      const size_t offset = ((size_t)r * (bytes + (64u << 20))) % (max_bytes - bytes);
      CHECK(cudaEventRecord(a));
      read_all<<<blocks, 1024, 200 * 1024>>>(buf + offset / 16, bytes / 16, out);
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, a, b));
      if (r >= 3) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%zu,%d,%.3f,%.3f\n", bytes >> 20, blocks, bytes / (ms[ms.size() / 2] * 1e-3) / 1e12,
                bytes / (ms[0] * 1e-3) / 1e12);
  }
  return 0;
}
