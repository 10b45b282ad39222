// Stand-alone experiment (not a product probe): how fast TMA streams B at the small
// decode shapes (M = 128) in the load patterns k10 uses, with nothing else in the
// kernel: no wgmma and (but for "+ C store") no epilogue. Each CTA's producer thread
// fills a ring of stages (128B-swizzled boxes of 64 K elements, k10's tensor-map form:
// L2 promotion 256B); one consumer warp per CTA waits for each stage and releases it to
// every CTA that writes into it, as k10's consumers do. Against it, plain 16-byte loads
// of the same bytes (launch_cost.cu's read_all). Timed the way `gemmscope bench` times:
// a 300 us spin kernel, then 4 launches, each between its own pair of CUDA events; 60
// batches, median of 240 launches, rotating over buffers that together exceed 3x L2.
// After each timing, one more launch records every CTA's start and end (globaltimer).
//
// Patterns (B is N x K, K contiguous; one B tile of R rows per CTA pair or CTA, one wave;
// BK64 / BK128: one or two 64-element boxes per operand per stage):
//   mc2       clusters of 2 along M; each CTA loads R/2 of the tile's rows and multicasts
//             them to both (k10's 64xR c2x1 decode instances), plus its own 64 rows of A
//   mc2-ef    the same with B's loads marked L2 evict_first (k10 at decode)
//   mc2-relcl mc2 with the stage release at .release.cluster instead of the default
//             semantics k10 uses
//   mc2-ef + C store  mc2-ef, then the CTA's 64 x R tile of C stored by TMA (R a
//             multiple of 64) and waited for: k10's epilogue without its arithmetic
//   nc2       128 x 64 tiles in clusters of 2 along N: A multicast, B plain (128x64 c1x2)
//   mc4-ef    2 x 2 clusters: B multicast along M, A along N (each stage released to
//             all four CTAs)
//   dup2      no clusters; two CTAs per B tile, each loads all R rows (64xR c1x1: B's
//             second read is an L2 hit), plus 64 rows of A
//   solo      no clusters; one CTA per B tile, all R rows, plus 128 rows of A (128xR c1x1)
//   solo-B    solo without A: B alone, one plain TMA stream per SM
//   linear    B read as consecutive 128-byte rows, 32 KiB boxes, a contiguous range per
//             CTA: TMA with no stride at all
//   read_tiles  plain 16-byte loads in the tile order (CTA c reads rows [cR, cR + R))
//             (where R = 64 the R64 line prints twice: the same launch)
//   balanced  TMA, B only, 64-row tiles, the (tile, k-block) units dealt evenly to all SMs
// Arguments NxKxR replace the built-in shapes.
// spin, read_all, fill and the timing loop are launch_cost.cu's (2026-12-02-h200-launch),
// copied so that this file builds alone with one nvcc command, as that one does.
// Built: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_stream tma_stream.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void spin(uint64_t ns) {
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}

__device__ __forceinline__ uint32_t smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void bar_init(uint32_t b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(n));
}
__device__ __forceinline__ void bar_wait(uint32_t b, uint32_t parity) {
  asm volatile(
      "{ .reg .pred p; W%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1, 10000000; @!p bra W%=; }" ::"r"(b),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void bar_expect(uint32_t b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive_cta(uint32_t b, uint32_t rank, bool release_cluster) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(b), "r"(rank));
  if (release_cluster)
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(r) : "memory");
  else  // default semantics (release at CTA scope), as k10's consumers release a stage
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(r) : "memory");
}
__device__ __forceinline__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ void tma(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void tma_mc(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar,
                                       uint16_t mask, bool ef, uint64_t pol) {
  if (ef)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::"
        "cache_hint [%0], [%1, {%2, %3}], [%4], %5, %6;" ::"r"(dst),
        "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask), "l"(pol)
        : "memory");
  else
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], "
        "[%1, {%2, %3}], [%4], %5;" ::"r"(dst),
        "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
        : "memory");
}

enum Mode : int { kMc2 = 0, kMc2Ef = 1, kDup2 = 2, kSolo = 3, kSoloB = 4, kMc2RelCluster = 5, kLinear = 6, kBalanced = 7, kNc2 = 8, kMc4 = 9, kMc2EfStore = 10 };
constexpr int kMaxStages = 16;

// Ring of `stages` stages; a stage is `boxes` k-boxes of 64 of A (a_rows) and B (r rows).
// The pattern (kMode) and the boxes per stage are compile-time, so that each pattern's
// producer loop holds only its own instructions: with the choice made at run time, the
// 16 KiB-stage patterns ran 1.2-1.6x slower in an earlier version of this file (not kept):
// at such stages the producer's issue path is on the critical path.
template <int kClusterSize, int kMode, int kBoxes>
__global__ void __launch_bounds__(160) stream(const __grid_constant__ CUtensorMap map_a,
                                              const __grid_constant__ CUtensorMap map_b,
                                              const __grid_constant__ CUtensorMap map_c, int r, int a_rows,
                                              int stages, int k_blocks, uint64_t* stamps, int tiles_total) {
  constexpr int mode = kMode, boxes = kBoxes;
  extern __shared__ __align__(1024) unsigned char sm[];
  __shared__ uint64_t full[kMaxStages], empty[kMaxStages];
  if (stamps && threadIdx.x == 0) stamps[2 * blockIdx.x] = now_ns();
  uint32_t rank = 0;
  if constexpr (kClusterSize > 1) asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const int a_bytes = a_rows * 128, b_bytes = r * 128;  // per box
  const int stage_bytes = (a_bytes + b_bytes) * boxes;
  if (threadIdx.x == 0) {
    for (int i = 0; i < stages; ++i) {
      bar_init(smem(&full[i]), 1);
      bar_init(smem(&empty[i]), kClusterSize);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if constexpr (kClusterSize > 1) cluster_sync(); else __syncthreads();
  const int tile = (mode == kDup2)  ? blockIdx.x / 2
                   : (mode == kNc2) ? blockIdx.x
                   : (mode == kMc4) ? blockIdx.x / 4 * 2 + static_cast<int>(rank >> 1)
                                    : blockIdx.x / kClusterSize;
  const int n0 = (mode == kLinear) ? blockIdx.x * k_blocks * boxes * r : tile * r;
  const int m_half = (mode == kDup2) ? (blockIdx.x & 1) : static_cast<int>(rank);
  if (threadIdx.x == 128) {
    uint64_t pol = 0;
    if (mode == kMc2Ef || mode == kMc4 || mode == kMc2EfStore) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    int st = 0;
    uint32_t ph = 0;
    const long units = static_cast<long>(tiles_total) * k_blocks;
    const int u0 = (mode == kBalanced) ? static_cast<int>(units * blockIdx.x / gridDim.x) : 0;
    const int my_blocks =
        (mode == kBalanced) ? static_cast<int>(units * (blockIdx.x + 1) / gridDim.x) - u0 : k_blocks;
    for (int i = 0; i < my_blocks; ++i) {
      const int kb = (mode == kBalanced) ? (u0 + i) % k_blocks : i;
      const int bal_n0 = (mode == kBalanced) ? (u0 + i) / k_blocks * r : n0;
      bar_wait(smem(&empty[st]), ph ^ 1);
      const uint32_t f = smem(&full[st]);
      bar_expect(f, stage_bytes);
      unsigned char* base = sm + st * stage_bytes;
      for (int j = 0; j < boxes; ++j) {
        const int k0 = (mode == kLinear) ? 0 : (kb * boxes + j) * 64;
        const int row = (mode == kLinear) ? n0 + (kb * boxes + j) * r : bal_n0;
        unsigned char* a = base + j * (a_bytes + b_bytes);
        unsigned char* b = a + a_bytes;
        if constexpr (mode == kNc2) {
          // A's 128 rows, each CTA loads 64 and multicasts them to both; B its own.
          tma_mc(smem(a + rank * 64 * 128), &map_a, k0, rank * 64, f, 0x3, false, 0);
          tma(smem(b), &map_b, k0, row, f);
          continue;
        }
        if constexpr (mode == kMc4) {
          // 2 x 2: m = rank & 1 (A's 64-row half), nn = rank >> 1 (which B tile).
          // A: 32 of the half's rows, multicast to the CTA with the same m; B: half
          // of the tile's rows, multicast to the CTA with the same nn.
          const uint32_t m = rank & 1, nn = rank >> 1;
          tma_mc(smem(a + nn * 32 * 128), &map_a, k0, m * 64 + nn * 32, f, static_cast<uint16_t>(1u << m | 1u << (m + 2)),
                 false, 0);
          const int half = r / 2;
          tma_mc(smem(b + m * half * 128), &map_b, k0, n0 + m * half, f, static_cast<uint16_t>(3u << (2 * nn)), true, pol);
          continue;
        }
        if (a_rows) tma(smem(a), &map_a, k0, m_half * a_rows, f);
        if constexpr (kClusterSize > 1) {
          const int half = r / 2;
          tma_mc(smem(b + rank * half * 128), &map_b, k0, n0 + rank * half, f, 0x3,
                 mode == kMc2Ef || mode == kMc2EfStore, pol);
        } else {
          tma(smem(b), &map_b, k0, row, f);
        }
      }
      if (++st == stages) { st = 0; ph ^= 1; }
    }
  } else if (threadIdx.x < 32) {
    int st = 0;
    uint32_t ph = 0;
    const long units = static_cast<long>(tiles_total) * k_blocks;
    const int my_blocks = (mode == kBalanced) ? static_cast<int>(units * (blockIdx.x + 1) / gridDim.x) -
                                                    static_cast<int>(units * blockIdx.x / gridDim.x)
                                              : k_blocks;
    for (int kb = 0; kb < my_blocks; ++kb) {
      bar_wait(smem(&full[st]), ph);
      __syncwarp();
      if (threadIdx.x == 0) {
        if constexpr (kClusterSize > 1) {
          for (uint32_t c = 0; c < kClusterSize; ++c) bar_arrive_cta(smem(&empty[st]), c, mode == kMc2RelCluster);
        } else {
          asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&empty[st])) : "memory");
        }
      }
      if (++st == stages) { st = 0; ph ^= 1; }
    }
    if constexpr (mode == kMc2EfStore) {
      // k10's epilogue stand-in: this CTA's 64 x r tile of C stored by TMA in boxes of
      // 64 columns (128B swizzle), from stage 0 (its bytes: the store's cost is the
      // point, not its values), then waited for as k10 waits before it exits.
      if (threadIdx.x == 0) {
        for (int c = 0; c < r / 64; ++c)
          asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&map_c),
                       "r"(n0 + c * 64), "r"(static_cast<int>(rank) * 64), "r"(smem(sm + c * 64 * 128))
                       : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      }
    }
    if (stamps && threadIdx.x == 0) stamps[2 * blockIdx.x + 1] = now_ns();
  }
  // No CTA leaves while a peer may still arrive on its barriers or multicast into it.
  __syncwarp();
  if constexpr (kClusterSize > 1) cluster_sync();
}

__global__ void __launch_bounds__(1024) read_all(const uint4* __restrict__ p, size_t n, uint32_t* out, uint64_t* stamps) {
  if (stamps && threadIdx.x == 0) stamps[2 * blockIdx.x] = now_ns();
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
  if (stamps) {
    __syncthreads();
    if (threadIdx.x == 0) stamps[2 * blockIdx.x + 1] = now_ns();
  }
}

// Plain loads in k10's tile order: CTA c reads B rows [c * r, c * r + r), k-block by
// k-block (r rows x 128 bytes), 4 k-block groups in flight per thread.
__global__ void __launch_bounds__(1024) read_tiles(const uint4* __restrict__ p, int n_rows, int k, int r,
                                                   uint32_t* out, uint64_t* stamps) {
  if (stamps && threadIdx.x == 0) stamps[2 * blockIdx.x] = now_ns();
  uint32_t acc = 0;
  const int chunks_per_kb = r * 8;                       // 16-byte chunks of one k-block of the tile
  const int per_iter = blockDim.x;                       // chunks per pass
  const long total = static_cast<long>(chunks_per_kb) * (k / 64);
  const long row_chunks = k / 8;                         // 16-byte chunks per B row
  const int row0 = blockIdx.x * r;
  for (long c = threadIdx.x; c < total; c += 4L * per_iter) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const long q = c + static_cast<long>(j) * per_iter;
      v[j] = make_uint4(0, 0, 0, 0);
      if (q < total) {
        const long kb = q / chunks_per_kb, w = q % chunks_per_kb;
        const int row = row0 + static_cast<int>(w / 8);
        if (row < n_rows) v[j] = __ldcs(p + row * row_chunks + kb * 8 + (w % 8));
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  acc = __reduce_xor_sync(0xffffffffu, acc);
  if ((threadIdx.x & 31) == 0) atomicXor(out + blockIdx.x % 128, acc);
  if (stamps) {
    __syncthreads();
    if (threadIdx.x == 0) stamps[2 * blockIdx.x + 1] = now_ns();
  }
}

__global__ void fill(uint4* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    p[i] = make_uint4(h, h * 747796405u + 1, h ^ 0x9e3779b9u, h * 2891336453u);
  }
}

float time_it(const char* name, cudaStream_t s, const std::function<void(int)>& launch, double bytes) {
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
  const float med = us[us.size() / 2];
  std::printf("  %-44s median %7.2f us  min %7.2f us  %5.2f TB/s\n", name, med, us.front(), bytes / (med * 1e6));
  for (auto& e : ev) CHECK(cudaEventDestroy(e));
  return med;
}

using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                            const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                            CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

CUtensorMap make_map(Encode enc, void* p, uint64_t rows, uint64_t cols, uint32_t box_rows) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {cols, rows}, strides[1] = {cols * 2};
  const cuuint32_t box[2] = {64, box_rows}, es[2] = {1, 1};
  const CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, p, dims, strides, box, es,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { std::fprintf(stderr, "encode failed %d (rows %lu box %u)\n", (int)r, rows, box_rows); std::exit(1); }
  return m;
}

using Kern = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, int, int, int, int, uint64_t*, int);
template <int C, int M>
Kern pick(int boxes) {
  const Kern k = boxes == 1 ? stream<C, M, 1> : stream<C, M, 2>;
  CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024));
  return k;
}
// One launch of a pattern: `cluster` CTAs per cluster along x (1: no cluster attribute).
// C's tensor map (128 x N, for kMc2EfStore); the other patterns ignore it.
CUtensorMap g_map_c;
void launch(Kern k, int cluster, int grid, int smem_bytes, cudaStream_t s, const CUtensorMap& a, const CUtensorMap& b,
            int r, int a_rows, int stages, int k_blocks, uint64_t* stamps, int tiles_total = 0) {
  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(160);
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = cluster > 1 ? 1 : 0;
  CHECK(cudaLaunchKernelEx(&cfg, k, a, b, g_map_c, r, a_rows, stages, k_blocks, stamps, tiles_total));
}

int main(int argc, char** argv) {
  int sms = 0, l2 = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  const Encode enc = reinterpret_cast<Encode>(fn);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  uint32_t* out;
  CHECK(cudaMalloc(&out, 4 * sms * sizeof(uint32_t)));
  uint64_t* stamps;
  CHECK(cudaMalloc(&stamps, 2 * 1024 * sizeof(uint64_t)));
  std::printf("SMs %d, L2 %d bytes\n", sms, l2);

  struct Shape { int n, k, r; const char* name; };
  // r: the B tile rows of the k10 pick at this shape (64xR c2x1), or 128 where R does not divide N well.
  const Shape shapes[] = {{4096, 4096, 64, "128x4096x4096"},   {6144, 4096, 96, "128x6144x4096"},
                          {5376, 4096, 96, "128x5376x4096"},   {8192, 5376, 128, "128x8192x5376"},
                          {8192, 8192, 128, "128x8192x8192"},  {10240, 8192, 192, "128x10240x8192"},
                          {8192, 8192, 64, "128x8192x8192 R64"}, {10240, 8192, 128, "128x10240x8192 R128"}};
  // Arguments NxKxR (e.g. 8192x512x128) replace the built-in shapes (M = 128 always).
  std::vector<Shape> list(std::begin(shapes), std::end(shapes));
  std::vector<std::string> names;
  if (argc > 1) {
    list.clear();
    names.reserve(argc);
    for (int i = 1; i < argc; ++i) {
      Shape sh{};
      if (std::sscanf(argv[i], "%dx%dx%d", &sh.n, &sh.k, &sh.r) != 3 || sh.n <= 0 || sh.k % 128 != 0 || sh.r <= 0 ||
          sh.r > 256 || sh.r % 16 != 0) {
        std::fprintf(stderr, "shape '%s': expected NxKxR with K a multiple of 128 and R a multiple of 16 up to 256\n",
                     argv[i]);
        return 2;
      }
      names.push_back("128x" + std::to_string(sh.n) + "x" + std::to_string(sh.k) + " R" + std::to_string(sh.r));
      list.push_back(sh);
    }
    for (size_t i = 0; i < list.size(); ++i) list[i].name = names[i].c_str();
  }
  for (const Shape& sh : list) {
    const size_t b_bytes = static_cast<size_t>(sh.n) * sh.k * 2, a_bytes = static_cast<size_t>(128) * sh.k * 2;
    const int sets = std::min<int>(256, std::max<int>(2, static_cast<int>((3ull * l2) / b_bytes) + 1));
    std::vector<void*> bs(sets), as(sets);
    std::vector<CUtensorMap> mb(sets), mb_half(sets), ma(sets), ma128(sets), mlin(sets), mb64(sets), ma32(sets);
    for (int i = 0; i < sets; ++i) {
      CHECK(cudaMalloc(&bs[i], b_bytes));
      CHECK(cudaMalloc(&as[i], a_bytes));
      fill<<<sms * 4, 256, 0, s>>>(static_cast<uint4*>(bs[i]), b_bytes / 16, 7u + i);
      fill<<<sms * 4, 256, 0, s>>>(static_cast<uint4*>(as[i]), a_bytes / 16, 99u + i);
      mb[i] = make_map(enc, bs[i], sh.n, sh.k, sh.r);
      mb_half[i] = make_map(enc, bs[i], sh.n, sh.k, sh.r / 2);
      ma[i] = make_map(enc, as[i], 128, sh.k, 64);
      ma128[i] = make_map(enc, as[i], 128, sh.k, 128);
      mb64[i] = make_map(enc, bs[i], sh.n, sh.k, 64);
      ma32[i] = make_map(enc, as[i], 128, sh.k, 32);
      mlin[i] = make_map(enc, bs[i], static_cast<uint64_t>(sh.n) * sh.k / 64, 64, 256);
    }
    void* c_buf;
    CHECK(cudaMalloc(&c_buf, static_cast<size_t>(128) * sh.n * 2));
    g_map_c = make_map(enc, c_buf, 128, sh.n, 64);
    CHECK(cudaStreamSynchronize(s));
    const int tiles = (sh.n + sh.r - 1) / sh.r;  // a ragged last tile: TMA fills its rows past N
    std::printf("%s: B %.1f MiB, R %d, %d B tiles, %d buffer sets\n", sh.name, b_bytes / 1048576.0, sh.r, tiles, sets);
    const double bytes = static_cast<double>(b_bytes + a_bytes);
    // Times a pattern, then runs it once more with per-CTA stamps (globaltimer at entry
    // and when the CTA's last stage was consumed) and prints when the CTAs ended.
    auto run = [&](const char* name, int ctas, double moved, const std::function<void(int, uint64_t*)>& launch) {
      time_it(name, s, [&](int i) { launch(i, nullptr); }, moved);
      CHECK(cudaMemset(stamps, 0, 2 * ctas * sizeof(uint64_t)));
      launch(0, stamps);
      CHECK(cudaStreamSynchronize(s));
      std::vector<uint64_t> h(2 * ctas);
      CHECK(cudaMemcpy(h.data(), stamps, h.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
      uint64_t t0 = ~0ull, s1 = 0;
      std::vector<double> ends;
      for (int c = 0; c < ctas; ++c) {
        t0 = std::min(t0, h[2 * c]);
        s1 = std::max(s1, h[2 * c]);
      }
      for (int c = 0; c < ctas; ++c) ends.push_back((h[2 * c + 1] - t0) / 1000.0);
      std::sort(ends.begin(), ends.end());
      std::printf("    %d CTAs: starts within %.2f us; ends (us after the first start) min %.2f p10 %.2f median %.2f "
                  "p90 %.2f max %.2f\n",
                  ctas, (s1 - t0) / 1000.0, ends.front(), ends[ends.size() / 10], ends[ends.size() / 2],
                  ends[ends.size() * 9 / 10], ends.back());
    };
    run("read_all 132 x 1024 (B's bytes)", sms, static_cast<double>(b_bytes), [&](int i, uint64_t* st) {
      read_all<<<sms, 1024, 0, s>>>(static_cast<const uint4*>(bs[i % sets]), b_bytes / 16, out, st);
    });
    for (int boxes : {1, 2}) {
      // k10's ring: up to ~200 KiB of stages.
      auto ring = [&](int per_box) { return std::min(kMaxStages, (200 * 1024) / (per_box * boxes)); };
      const int kbl = sh.k / (64 * boxes);
      char name[96];
      const int mc_stage = (64 + sh.r) * 128, solo_stage = (128 + sh.r) * 128, solob_stage = sh.r * 128;
      const int st_mc = ring(mc_stage), st_solo = ring(solo_stage), st_solob = ring(solob_stage);
      const Kern mc_k[] = {pick<2, kMc2>(boxes), pick<2, kMc2Ef>(boxes), pick<2, kMc2RelCluster>(boxes),
                           pick<2, kMc2EfStore>(boxes)};
      const char* mc_names[] = {"mc2", "mc2-ef", "mc2-relcl", "mc2-ef + C store"};
      for (int v = 0; v < 4; ++v) {
        if (v == 3 && sh.r % 64 != 0) continue;  // the store stand-in takes 64-column boxes
        std::snprintf(name, sizeof name, "%s BK%d s%d", mc_names[v], 64 * boxes, st_mc);
        run(name, 2 * tiles, bytes, [&](int i, uint64_t* st) {
          launch(mc_k[v], 2, 2 * tiles, st_mc * mc_stage * boxes, s, ma[i % sets], mb_half[i % sets], sh.r, 64, st_mc,
                 kbl, st);
        });
      }
      {
        // 128 x 64 tiles in clusters of 2 along N (A multicast, B plain): 128x64 c1x2.
        const int t64 = (sh.n + 63) / 64, st_nc = ring((128 + 64) * 128);
        std::snprintf(name, sizeof name, "nc2 R64 BK%d s%d", 64 * boxes, st_nc);
        const Kern k = pick<2, kNc2>(boxes);
        if (t64 % 2 == 0 && t64 <= sms)
          run(name, t64, bytes, [&](int i, uint64_t* st) {
            launch(k, 2, t64, st_nc * (128 + 64) * 128 * boxes, s, ma[i % sets], mb64[i % sets], 64, 128, st_nc, kbl,
                   st);
          });
        // 2 x 2 clusters: 64 x R tiles, B multicast along M, A along N.
        std::snprintf(name, sizeof name, "mc4-ef R%d BK%d s%d", sh.r, 64 * boxes, st_mc);
        const Kern k4 = pick<4, kMc4>(boxes);
        if (tiles % 2 == 0)
          run(name, 2 * tiles, bytes, [&](int i, uint64_t* st) {
            launch(k4, 4, 2 * tiles, st_mc * mc_stage * boxes, s, ma32[i % sets], mb_half[i % sets], sh.r, 64, st_mc,
                   kbl, st);
          });
      }
      std::snprintf(name, sizeof name, "dup2 BK%d s%d", 64 * boxes, st_mc);
      const Kern kd = pick<1, kDup2>(boxes), ks = pick<1, kSolo>(boxes), kb = pick<1, kSoloB>(boxes);
      run(name, 2 * tiles, bytes, [&](int i, uint64_t* st) {
        launch(kd, 1, 2 * tiles, st_mc * mc_stage * boxes, s, ma[i % sets], mb[i % sets], sh.r, 64, st_mc, kbl, st);
      });
      std::snprintf(name, sizeof name, "solo BK%d s%d", 64 * boxes, st_solo);
      run(name, tiles, bytes, [&](int i, uint64_t* st) {
        launch(ks, 1, tiles, st_solo * solo_stage * boxes, s, ma128[i % sets], mb[i % sets], sh.r, 128, st_solo, kbl,
               st);
      });
      std::snprintf(name, sizeof name, "solo-B BK%d s%d", 64 * boxes, st_solob);
      run(name, tiles, static_cast<double>(b_bytes), [&](int i, uint64_t* st) {
        launch(kb, 1, tiles, st_solob * solob_stage * boxes, s, ma128[i % sets], mb[i % sets], sh.r, 0, st_solob, kbl,
               st);
      });
    }
    // Linear: B read as consecutive 128-byte rows (a (N*K/64) x 64 view), 256 rows (32 KiB)
    // per box, each CTA a contiguous range: the TMA stream with no stride at all.
    const size_t lin_rows = static_cast<size_t>(sh.n) * sh.k / 64;
    for (int ctas : {128, 64}) {
      if (lin_rows % (static_cast<size_t>(ctas) * 256) != 0) {
        std::printf("  linear on %d CTAs: skipped (%zu rows do not split into boxes of 256)\n", ctas, lin_rows);
        continue;
      }
      const int kbl = static_cast<int>(lin_rows / ctas / 256);
      char name[96];
      std::snprintf(name, sizeof name, "linear 32 KiB boxes s6, %d CTAs", ctas);
      const Kern klin = pick<1, kLinear>(1);
      run(name, ctas, static_cast<double>(b_bytes), [&](int i, uint64_t* st) {
        launch(klin, 1, ctas, 6 * 256 * 128, s, ma128[i % sets], mlin[i % sets], 256, 0, 6, kbl, st);
      });
    }
    // Plain loads in the tile order of 64-row and R-row tiles; TMA in (tile, k-block)
    // units dealt evenly to all SMs (64-row tiles, B only).
    for (int rr : {64, sh.r}) {
      const int t = (sh.n + rr - 1) / rr;
      char name[96];
      std::snprintf(name, sizeof name, "read_tiles R%d, %d CTAs x 1024", rr, t);
      run(name, t, static_cast<double>(b_bytes), [&](int i, uint64_t* st) {
        read_tiles<<<t, 1024, 0, s>>>(static_cast<const uint4*>(bs[i % sets]), sh.n, sh.k, rr, out, st);
      });
    }
    {
      const int t = sh.n / 64;
      char name[96];
      std::snprintf(name, sizeof name, "balanced TMA R64 BK64 s16, %d CTAs", sms);
      const Kern kbal = pick<1, kBalanced>(1);
      run(name, sms, static_cast<double>(b_bytes), [&](int i, uint64_t* st) {
        launch(kbal, 1, sms, 16 * 64 * 128, s, ma128[i % sets], mb64[i % sets], 64, 0, 16, sh.k / 64, st, t);
      });
    }
    CHECK(cudaFree(c_buf));
    for (int i = 0; i < sets; ++i) {
      CHECK(cudaFree(bs[i]));
      CHECK(cudaFree(as[i]));
    }
  }
  return 0;
}
