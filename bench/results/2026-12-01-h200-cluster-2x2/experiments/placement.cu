// Experiment (not a product probe): where the H200 places the CTAs of a persistent,
// one-CTA-per-SM cluster launch like k10's. For clusters of 1, 2, 4, 8 and 16 CTAs
// (16: the non-portable size), launch cudaOccupancyMaxActiveClusters clusters of a
// kernel that spins 200 us with 200 KiB of shared memory, three times each, and print
// every CTA's blockIdx.x, %smid and start time (ns after the first CTA's start).
// A cluster's CTAs share a GPC, so clusters of 8 and 16 give the GPCs' SMs.
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a placement.cu -o placement
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e = (x);                                                                  \
    if (e != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__);    \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

__device__ __forceinline__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(uint64_t* start, uint32_t* smid) {
  extern __shared__ uint8_t smem[];
  const uint64_t t0 = now_ns();
  if (threadIdx.x == 0) {
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    start[blockIdx.x] = t0;
    smid[blockIdx.x] = id;
    smem[0] = 1;
  }
  while (now_ns() - t0 < 200000) {
  }
}

int main() {
  constexpr int kSmem = 200 * 1024, kThreads = 384;
  CHECK(cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CHECK(cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  uint64_t* start;
  uint32_t* smid;
  CHECK(cudaMalloc(&start, 1024 * sizeof(uint64_t)));
  CHECK(cudaMalloc(&smid, 1024 * sizeof(uint32_t)));
  std::printf("cluster_size,rep,clusters,block,smid,start_ns\n");
  for (int size : {1, 2, 4, 8, 16}) {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = size;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(size);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kSmem;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, spin, &cfg));
    cfg.gridDim = dim3(clusters * size);
    for (int rep = 0; rep < 3; ++rep) {
      CHECK(cudaLaunchKernelEx(&cfg, spin, start, smid));
      CHECK(cudaDeviceSynchronize());
      const int n = clusters * size;
      std::vector<uint64_t> t(n);
      std::vector<uint32_t> s(n);
      CHECK(cudaMemcpy(t.data(), start, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(s.data(), smid, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      const uint64_t first = *std::min_element(t.begin(), t.end());
      for (int b = 0; b < n; ++b)
        std::printf("%d,%d,%d,%d,%u,%llu\n", size, rep, clusters, b, s[b], static_cast<unsigned long long>(t[b] - first));
    }
  }
  return 0;
}
