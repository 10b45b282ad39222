// Stand-alone experiment (not a product probe): what a launch costs between its two CUDA
// events, timed the way `gemmscope bench` times (harness BatchTimer): a 300 us spin
// kernel, then 4 launches queued back to back, each between its own pair of events;
// 60 batches, median of the 240 launches. Step by step from a one-warp empty kernel to
// an empty kernel with k10's launch form (132 CTAs of 384 threads, 200 KiB of dynamic
// shared memory, clusters of 2, a 640-byte __grid_constant__ parameter, mbarrier inits
// and the cluster barrier), then plain streaming reads of B's size at the small decode
// shapes (132 blocks of 1024 threads, 16-byte __ldcs loads, 4 in flight per thread),
// rotating over buffers that together exceed 3x L2 so every read comes from HBM.
// Built: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o launch_cost launch_cost.cu
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void spin(uint64_t ns) {
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}

__global__ void empty() {}

struct Params { unsigned char bytes[640]; };

__global__ void __cluster_dims__(2, 1, 1) empty_cluster() {}

__global__ void __cluster_dims__(2, 1, 1) k10_like(const __grid_constant__ Params p, int* sink) {
  extern __shared__ __align__(1024) uint64_t bars[];
  if (threadIdx.x == 0) {
    for (int i = 0; i < 16; ++i) {
      const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&bars[i]));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(1));
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cg::this_cluster().sync();
  if (threadIdx.x == 0 && p.bytes[blockIdx.x % 640] == 0xff) *sink = 1;  // keeps p live
  cg::this_cluster().sync();
}

__global__ void __launch_bounds__(1024) read_all(const uint4* __restrict__ p, size_t n, uint32_t* out) {
  uint32_t acc = 0;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = __ldcs(p + i + j * stride);
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  for (; i < n; i += stride) { uint4 v = __ldcs(p + i); acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  acc = __reduce_xor_sync(0xffffffffu, acc);
  if ((threadIdx.x & 31) == 0) atomicXor(out + blockIdx.x, acc);
}

__global__ void fill(uint4* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    p[i] = make_uint4(h, h * 747796405u + 1, h ^ 0x9e3779b9u, h * 2891336453u);
  }
}

// Median and minimum, in microseconds, of 60 batches of 4 launches.
void time_it(const char* name, cudaStream_t s, const std::function<void(int)>& launch) {
  cudaEvent_t ev[8];
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  std::vector<float> us;
  int n = 0;
  for (int rep = 0; rep < 65; ++rep) {
    spin<<<1, 32, 0, s>>>(300000);
    for (int i = 0; i < 4; ++i) {
      CHECK(cudaEventRecord(ev[2 * i], s));
      launch(n++);
      CHECK(cudaEventRecord(ev[2 * i + 1], s));
    }
    CHECK(cudaEventSynchronize(ev[7]));
    CHECK(cudaGetLastError());
    for (int i = 0; i < 4; ++i) {
      float ms;
      CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      if (rep >= 5) us.push_back(ms * 1000.f);
    }
  }
  std::sort(us.begin(), us.end());
  std::printf("%-58s median %7.2f us  min %7.2f us\n", name, us[us.size() / 2], us.front());
  for (auto& e : ev) CHECK(cudaEventDestroy(e));
}

int main() {
  int sms = 0, l2 = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int* sink;
  CHECK(cudaMalloc(&sink, 4));
  constexpr int kSmem = 200 * 1024;
  CHECK(cudaFuncSetAttribute(empty, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CHECK(cudaFuncSetAttribute(empty_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CHECK(cudaFuncSetAttribute(k10_like, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  Params p{};
  std::printf("SMs %d, L2 %d bytes\n", sms, l2);
  time_it("empty <<<1, 32>>>", s, [&](int) { empty<<<1, 32, 0, s>>>(); });
  time_it("empty <<<132, 384>>>", s, [&](int) { empty<<<sms, 384, 0, s>>>(); });
  time_it("empty <<<132, 384>>>, 200 KiB smem", s, [&](int) { empty<<<sms, 384, kSmem, s>>>(); });
  time_it("empty <<<132, 384>>>, 200 KiB smem, clusters of 2", s,
          [&](int) { empty_cluster<<<sms, 384, kSmem, s>>>(); });
  time_it("k10-like: + 640 B param, mbarrier inits, 2 cluster barriers", s,
          [&](int) { k10_like<<<sms, 384, kSmem, s>>>(p, sink); });
  time_it("k10-like on 112 CTAs", s, [&](int) { k10_like<<<112, 384, kSmem, s>>>(p, sink); });

  // Plain reads of B's size at the decode shapes, from HBM.
  const size_t mb[] = {32, 42, 48, 84, 128, 160, 224};  // B of 128x4096x4096 ... 128x5376x21504 (MiB)
  uint32_t* out;
  CHECK(cudaMalloc(&out, sms * sizeof(uint32_t)));
  for (size_t m : mb) {
    const size_t bytes = m << 20;
    const int sets = std::max<int>(2, static_cast<int>((3ull * l2) / bytes) + 1);
    std::vector<uint4*> bufs(sets);
    for (auto& b : bufs) {
      CHECK(cudaMalloc(&b, bytes));
      fill<<<sms * 4, 256, 0, s>>>(b, bytes / 16, 7u);
    }
    CHECK(cudaStreamSynchronize(s));
    char name[96];
    std::snprintf(name, sizeof name, "read %zu MiB (132 x 1024 threads), %d buffers", m, sets);
    time_it(name, s, [&](int i) { read_all<<<sms, 1024, 0, s>>>(bufs[i % sets], bytes / 16, out); });
    std::snprintf(name, sizeof name, "read %zu MiB (264 x 1024 threads)", m);
    time_it(name, s, [&](int i) { read_all<<<2 * sms, 1024, 0, s>>>(bufs[i % sets], bytes / 16, out); });
    for (auto& b : bufs) CHECK(cudaFree(b));
  }
  return 0;
}
