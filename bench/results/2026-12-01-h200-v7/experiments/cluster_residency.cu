// Co-residency probe: launch exactly cudaOccupancyMaxActiveClusters clusters
// and check whether every CTA starts before the first finishes.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__global__ void spin(unsigned long long* start, unsigned* smid, unsigned long long ns) {
  extern __shared__ char s[];
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  if (threadIdx.x == 0) {
    unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    start[blockIdx.x] = t0; smid[blockIdx.x] = id; s[0] = 1;
  }
  unsigned long long t;
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}
int main() {
  for (int smem : {100 * 1024, 200 * 1024, 227 * 1024})
  for (int cs : {1, 2, 4, 8}) {
    cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaLaunchConfig_t cfg{}; cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension; attr.val.clusterDim.x = cs; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
    cfg.blockDim = dim3(384); cfg.dynamicSmemBytes = smem; cfg.attrs = &attr; cfg.numAttrs = 1; cfg.gridDim = dim3(cs);
    int clusters = 0;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, spin, &cfg);
    if (e != cudaSuccess) { printf("occ error %s\n", cudaGetErrorString(e)); continue; }
    for (int extra : {0, 1}) {
      int n = (clusters + extra) * cs;
      unsigned long long* st; unsigned* sm;
      cudaMalloc(&st, n * 8); cudaMalloc(&sm, n * 4);
      cfg.gridDim = dim3(n);
      e = cudaLaunchKernelEx(&cfg, spin, st, sm, 200000ull);
      cudaDeviceSynchronize();
      std::vector<unsigned long long> h(n); std::vector<unsigned> hs(n);
      cudaMemcpy(h.data(), st, n * 8, cudaMemcpyDeviceToHost); cudaMemcpy(hs.data(), sm, n * 4, cudaMemcpyDeviceToHost);
      unsigned long long mn = *std::min_element(h.begin(), h.end());
      int late = 0; for (auto x : h) late += (x - mn) > 100000;
      std::sort(hs.begin(), hs.end()); int distinct = std::unique(hs.begin(), hs.end()) - hs.begin();
      printf("smem %3d KiB cluster %d: occupancy API %3d clusters; launched %3d clusters (%3d CTAs): %3d CTAs started >100us late, %3d distinct SMs, launch %s\n",
             smem / 1024, cs, clusters, clusters + extra, n, late, distinct, cudaGetErrorString(e));
      cudaFree(st); cudaFree(sm);
    }
  }
}
