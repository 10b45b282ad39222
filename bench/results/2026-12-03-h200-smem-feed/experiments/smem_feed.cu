// Stand-alone experiment (not a product probe): what bounds the main loop of a
// 128-row tile at M = 512, where k10 and cuBLAS both take about 0.32 us per 64 of K
// (bench/results/2026-12-01-h200-tail, call 6) against 512 tensor cycles of work.
// One CTA = k10's 128 x BN cooperative layout: a producer warpgroup (one thread issues
// TMA), two consumer warpgroups, each 64 rows, one m64nBNk16 wgmma per 16 of K, a ring
// of 128B-swizzled stages (A 128 x 64, B BN x 64). Modes:
//   feed   k10's main loop: the producer fills the ring, the consumers wait for a
//          stage, issue its four wgmmas, keep one k-block in flight and release the
//          stage before it to every CTA that wrote into it
//   loads  the same ring with no wgmma: the consumers wait and release at once
//   mma    the wgmmas alone: the ring is filled once, then the consumers loop over its
//          stages with no waits and no TMA traffic
//   mma+tma  mma on half the ring while the producer keeps refilling the other half as
//          fast as TMA delivers (cluster 1 only): the wgmmas' shared-memory reads with
//          TMA's writes into the same SM at the same time
//   feed-early  feed with each stage released right after its full wait, before its
//          wgmmas (wrong for a GEMM: the refill may land under them; here only the
//          timing counts): the producer's lead one k-block longer
//   feed-pre  feed's consumer loop (full waits, releases) over a ring filled once, with
//          no refills: the barriers' own cost
//   feed-tr  feed with the next stage's full barrier tested after wait_group<1> and
//          before the previous stage's release (feed: release, then test)
//   feed-pt  feed with the test before wait_group<1> (k10's ping-pong order), then
//          the release
//   feed-w2  feed with two k-blocks of wgmmas in flight: wait_group<2>, then the
//          release of the stage two back
//   feed-rb  feed with the release of the stage two back (whose wgmmas the previous
//          wait_group<1> saw complete) before this stage's wgmmas, right after its
//          full wait: feed-early's order, correct for a GEMM
//   feed-ra  the same release after this stage's wgmmas are issued, before wait_group<1>
// feed, feed-early and feed-pre also count, on the first consumer thread, the k-blocks
// whose stage was not yet full when tested (k10's early mbarrier test) and the cycles
// then spent waiting.
// Tiles as k10 at 512xNxK: CTA pairs in 2x1 clusters share (multicast) B, each CTA its
// own 128 rows of A; with more CTAs than tiles, the extra ones take the next K slice
// (the split-K layout). "warm": K coordinates wrap inside a 1024-element window, so
// A (512 x 1024) and B (N x 1024) stay in L2; "cold": one pass over K = 4096 on buffers
// rotating over more than 3x L2, as `gemmscope bench` times.
// Per CTA, the first consumer thread reads clock64 when the first stage is ready and
// after the last k-block; the table gives the median over CTAs of cycles per k-block,
// against the tensor cores' 512 (BN = 128) or 1024 (BN = 256) per k-block at full rate.
// Built: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I build/generated
//        -o smem_feed smem_feed.cu -lcuda     (from the repository root, after tools/build)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

namespace gs = gemmscope;
using gs::sm90::mbarrier_wait;

enum Mode : int { kFeed = 0, kLoads = 1, kMma = 2, kMmaTma = 3, kFeedEarly = 4, kFeedPre = 5, kFeedTR = 6, kFeedPT = 7, kFeedW2 = 8, kFeedRB = 9, kFeedRA = 10 };
const char* mode_name(int m) {
  const char* names[] = {"feed", "loads", "mma", "mma+tma", "feed-early", "feed-pre", "feed-tr", "feed-pt", "feed-w2", "feed-rb", "feed-ra"};
  return names[m];
}

__global__ void spin_ns(uint64_t ns) {
  const uint64_t t0 = cuda::ptx::get_sreg_globaltimer();
  while (cuda::ptx::get_sreg_globaltimer() - t0 < ns) {
  }
}

struct Params {
  int k_blocks;     // k-blocks per CTA
  int k_window;     // k-blocks of the K coordinate before it wraps
  int n_tiles;      // tiles of B along N
  long long* cycles;  // per CTA: cycles of its consumer loop, k-blocks that waited, cycles waited, ns of the loop (or null)
  float* sink;
};

template <int BN, int kStages, int kMode, int kCluster>
__global__ void __launch_bounds__(384, 1) feed(const __grid_constant__ CUtensorMap map_a,
                                               const __grid_constant__ CUtensorMap map_b, Params prm) {
  constexpr int kBytesA = 128 * 64 * 2, kBytesB = BN * 64 * 2, kStageBytes = kBytesA + kBytesB;
  extern __shared__ __align__(1024) unsigned char dyn[];
  unsigned char* sm = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(dyn) + 1023) & ~uintptr_t{1023});
  unsigned char* a_ring = sm;
  unsigned char* b_ring = sm + kStages * kBytesA;
  __shared__ uint64_t full[kStages], empty[kStages];
  const uint32_t rank = kCluster > 1 ? gs::sm90::cluster_ctarank() : 0u;
  const int warpgroup = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      cuda::ptx::mbarrier_init(&full[i], 1);
      cuda::ptx::mbarrier_init(&empty[i], 2 * kCluster);
    }
    gs::sm90::fence_mbarrier_inits();
  }
  if constexpr (kCluster > 1) gs::sm90::cluster_sync(); else __syncthreads();
  // Tiles: CTA b takes A's rows (b % 4) * 128 (a 2x1 cluster's two CTAs are b and b + 1,
  // the same B tile); group b / 4 takes B tile group % n_tiles and K slice group / n_tiles.
  const int group = blockIdx.x / 4;
  const int m_row = (blockIdx.x % 4) * 128;
  const int n_row = (group % prm.n_tiles) * BN;
  const int kb0 = (group / prm.n_tiles) * prm.k_blocks;
  auto load_stage = [&](int st, int kb) {
    const int k0 = ((kb0 + kb) % prm.k_window) * 64;
    gs::sm90::mbarrier_expect_bytes(&full[st], kStageBytes);
    gs::sm90::tma_load_2d(a_ring + st * kBytesA, &map_a, k0, m_row, &full[st]);
    if constexpr (kCluster > 1) {
      constexpr int kHalf = BN / 2;
      gs::sm90::tma_load_2d_multicast(b_ring + st * kBytesB + rank * kHalf * 128, &map_b, k0,
                                      n_row + static_cast<int>(rank) * kHalf, &full[st], 0x3);
    } else {
      gs::sm90::tma_load_2d(b_ring + st * kBytesB, &map_b, k0, n_row, &full[st]);
    }
  };
  if (warpgroup == 0) {
    if (threadIdx.x == 0) {
      if constexpr (kMode == kFeed || kMode == kLoads || kMode == kFeedEarly || kMode == kFeedTR || kMode == kFeedPT ||
                    kMode == kFeedW2 || kMode == kFeedRB || kMode == kFeedRA) {
        for (int kb = 0; kb < prm.k_blocks; ++kb) {
          const int st = kb % kStages;
          mbarrier_wait(&empty[st], ((kb / kStages) & 1) ^ 1);
          load_stage(st, kb);
        }
        for (int kb = prm.k_blocks; kb < prm.k_blocks + kStages; ++kb)  // the last releases
          mbarrier_wait(&empty[kb % kStages], ((kb / kStages) & 1) ^ 1);
      } else if constexpr (kMode == kMma || kMode == kFeedPre) {
        for (int st = 0; st < kStages; ++st) load_stage(st, st);
      } else {
        constexpr int kHalfRing = kStages / 2;
        for (int st = 0; st < kHalfRing; ++st) load_stage(st, st);
        // The other half refilled as fast as it lands, as many fills as there are k-blocks.
        for (int i = 0; i < prm.k_blocks; ++i) {
          const int st = kHalfRing + i % kHalfRing;
          if (i >= kHalfRing) mbarrier_wait(&full[st], ((i / kHalfRing) - 1) & 1);
          load_stage(st, i);
        }
        for (int st = kHalfRing; st < kStages; ++st)
          mbarrier_wait(&full[st], ((prm.k_blocks - 1 - (st - kHalfRing)) / kHalfRing) & 1);
      }
    }
  } else {
    const int consumer = warpgroup - 1;
    const uint32_t t = threadIdx.x % 128;
    float acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
    const uint64_t da = gs::sm90::desc_kmajor_sw128(gs::ptx::smem_u32(a_ring), consumer * 64, 0);
    const uint64_t db = gs::sm90::desc_kmajor_sw128(gs::ptx::smem_u32(b_ring), 0, 0);
    auto mma_stage = [&](int st) {
      gs::ptx::wgmma_fence();
#pragma unroll
      for (int k = 0; k < 4; ++k)
        gs::ptx::WgmmaBf16F32<BN>::mma(acc, gs::sm90::desc_advance(da, st * kBytesA + k * 32),
                              gs::sm90::desc_advance(db, st * kBytesB + k * 32), 1);
      gs::ptx::wgmma_commit_group();
    };
    auto release = [&](int st) {
      if (t == 0)
        for (uint32_t r = 0; r < kCluster; ++r) {
          if constexpr (kCluster > 1)
            gs::sm90::mbarrier_arrive_remote(&empty[st], r);
          else
            cuda::ptx::mbarrier_arrive(&empty[st]);
        }
    };
    long long c0 = 0, waits = 0, waited = 0;
    uint64_t g0 = 0;  // globaltimer (ns) at c0: the SM clock over the loop
    if constexpr (kMode != kMma && kMode != kMmaTma) {
      // feed-pre: the ring's one fill, whose phase (parity 0) every later test finds complete.
      auto parity = [&](int kb) { return kMode == kFeedPre ? 0u : static_cast<uint32_t>((kb / kStages) & 1); };
      // The stage released at step kb is kb - kLag.
      constexpr int kLag = kMode == kFeedW2 || kMode == kFeedRB || kMode == kFeedRA ? 2 : 1;
      bool tested = false, ready = false;  // the previous step tested this stage / found it full
      for (int kb = 0; kb < prm.k_blocks; ++kb) {
        const int st = kb % kStages;
        if (kb == 0) {
          mbarrier_wait(&full[st], parity(kb));
          c0 = clock64();
          g0 = cuda::ptx::get_sreg_globaltimer();
        } else {
          if (!tested) ready = gs::sm90::mbarrier_test(&full[st], parity(kb));
          if (!ready) {
            const long long w0 = clock64();
            mbarrier_wait(&full[st], parity(kb));
            waited += clock64() - w0;
            ++waits;
          }
        }
        tested = false;
        auto test_next = [&] {
          if (kb + 1 < prm.k_blocks) {
            ready = gs::sm90::mbarrier_test(&full[(kb + 1) % kStages], parity(kb + 1));
            tested = true;
          }
        };
        if constexpr (kMode == kFeedEarly) release(st);
        if constexpr (kMode == kFeedRB)
          if (kb >= kLag) release((kb - kLag) % kStages);
        if constexpr (kMode == kLoads) {
          release(st);
        } else {
          mma_stage(st);
          if constexpr (kMode == kFeedRA)
            if (kb >= kLag) release((kb - kLag) % kStages);
          if constexpr (kMode == kFeedPT) test_next();
          gs::ptx::wgmma_wait_group<kMode == kFeedW2 ? 2 : 1>();
          gs::ptx::fence_accumulators(acc);
          if constexpr (kMode == kFeedTR) test_next();
          if (kMode != kFeedEarly && kMode != kFeedRB && kMode != kFeedRA && kb >= kLag)
            release((kb - kLag) % kStages);
        }
      }
      if constexpr (kMode != kLoads) {
        gs::ptx::wgmma_wait_group<0>();
        gs::ptx::fence_accumulators(acc);
        if constexpr (kMode != kFeedEarly)
          for (int kb = prm.k_blocks > kLag ? prm.k_blocks - kLag : 0; kb < prm.k_blocks; ++kb) release(kb % kStages);
      }
    } else {
      constexpr int kRing = kMode == kMma ? kStages : kStages / 2;
      for (int st = 0; st < kRing; ++st) mbarrier_wait(&full[st], 0);
      c0 = clock64();
      g0 = cuda::ptx::get_sreg_globaltimer();
      for (int kb = 0; kb < prm.k_blocks; ++kb) {
        mma_stage(kb % kRing);
        gs::ptx::wgmma_wait_group<1>();
        gs::ptx::fence_accumulators(acc);
      }
      gs::ptx::wgmma_wait_group<0>();
      gs::ptx::fence_accumulators(acc);
    }
    const long long c1 = clock64();
    const uint64_t g1 = cuda::ptx::get_sreg_globaltimer();
    if (prm.cycles && t == 0 && consumer == 0) {
      prm.cycles[4 * blockIdx.x] = c1 - c0;
      prm.cycles[4 * blockIdx.x + 1] = waits;
      prm.cycles[4 * blockIdx.x + 2] = waited;
      prm.cycles[4 * blockIdx.x + 3] = static_cast<long long>(g1 - g0);
    }
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) sum += acc[i];
    if (sum == 12345.f) prm.sink[blockIdx.x] = sum;  // keeps the wgmmas' results live
  }
  __syncwarp();
  if constexpr (kCluster > 1) gs::sm90::cluster_sync();
}

__global__ void fill_bf16(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed;
    h ^= h >> 13;
    // two bf16 in [-1, 1): sign, exponent 126 or 125, random mantissa
    const uint32_t lo = (h & 0x807Fu) | 0x3F00u, hi = ((h >> 16) & 0x807Fu) | 0x3E80u;
    p[i] = lo | hi << 16;
  }
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
  if (r != CUDA_SUCCESS) { std::fprintf(stderr, "tensor map: error %d (rows %lu, box rows %u)\n", (int)r, rows, box_rows); std::exit(1); }
  return m;
}

using Kern = void (*)(CUtensorMap, CUtensorMap, Params);

struct Case {
  int bn, stages, mode, cluster, ctas;
  bool warm;
  Kern k;
};

template <int BN, int S, int M, int C>
Case make_case(int ctas, bool warm) {
  const Kern k = feed<BN, S, M, C>;
  CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 - 1024));
  return Case{BN, S, M, C, ctas, warm, k};
}

int main(int argc, char** argv) {
  int sms = 0, l2 = 0, clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  const Encode enc = reinterpret_cast<Encode>(fn);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  std::printf("SMs %d, L2 %d bytes, max SM clock %d MHz\n", sms, l2, clock_khz / 1000);

  // M = 512, N = 4096; cold: K = 4096 (64 k-blocks, one pass); warm: 256 k-blocks in a
  // 1024-element window (A 1 MiB, B 8 MiB).
  const int N = 4096, K = 4096;
  const size_t a_bytes = size_t{512} * K * 2, b_bytes = size_t{N} * K * 2;
  const int sets = static_cast<int>((3ull * l2) / (a_bytes + b_bytes)) + 2;
  std::vector<void*> as(sets), bs(sets);
  std::vector<CUtensorMap> ma(sets), mb128(sets), mb64(sets), mb256(sets), mwa, mwb128, mwb64, mwb256;
  for (int i = 0; i < sets; ++i) {
    CHECK(cudaMalloc(&as[i], a_bytes));
    CHECK(cudaMalloc(&bs[i], b_bytes));
    fill_bf16<<<4 * sms, 256, 0, s>>>(static_cast<uint32_t*>(as[i]), a_bytes / 4, 11u + i);
    fill_bf16<<<4 * sms, 256, 0, s>>>(static_cast<uint32_t*>(bs[i]), b_bytes / 4, 97u + i);
    ma[i] = make_map(enc, as[i], 512, K, 128);
    mb64[i] = make_map(enc, bs[i], N, K, 64);
    mb128[i] = make_map(enc, bs[i], N, K, 128);
    mb256[i] = make_map(enc, bs[i], N, K, 256);
  }
  long long* cycles;
  float* sink;
  CHECK(cudaMalloc(&cycles, 4 * 1024 * sizeof(long long)));
  CHECK(cudaMalloc(&sink, 1024 * sizeof(float)));
  CHECK(cudaStreamSynchronize(s));

  std::vector<Case> cases;
  // `smem_feed clock` (run-5): the SM clock held up first (one spinning warp per SM for a
  // second), then only the 128-CTA cases that k10's 48-shape A/B ran against.
  const bool clock_set = argc > 1 && std::string(argv[1]) == "clock";
  if (clock_set) {
    spin_ns<<<sms, 32, 0, s>>>(1000000000ull);
    CHECK(cudaStreamSynchronize(s));
    for (bool warm : {true, false}) {
      cases.push_back(make_case<128, 6, kFeed, 2>(128, warm));
      cases.push_back(make_case<128, 6, kFeedRB, 2>(128, warm));
      cases.push_back(make_case<128, 6, kFeedEarly, 2>(128, warm));
      cases.push_back(make_case<128, 6, kMma, 2>(128, warm));
      cases.push_back(make_case<128, 6, kLoads, 2>(128, warm));
      cases.push_back(make_case<128, 5, kFeed, 2>(128, warm));
      cases.push_back(make_case<128, 5, kFeedRB, 2>(128, warm));
      cases.push_back(make_case<128, 6, kFeed, 1>(128, warm));
      cases.push_back(make_case<128, 6, kFeedRB, 1>(128, warm));
      cases.push_back(make_case<256, 4, kFeed, 2>(128, warm));
      cases.push_back(make_case<256, 4, kFeedRB, 2>(128, warm));
    }
  } else {
  // One SM: the release's place against the next stage's test and the wgmmas in flight.
  cases.push_back(make_case<128, 6, kFeed, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedTR, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedPT, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedW2, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedRB, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedRA, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedEarly, 1>(1, true));
  cases.push_back(make_case<128, 6, kFeedPre, 1>(1, true));
  cases.push_back(make_case<128, 6, kMma, 1>(1, true));
  cases.push_back(make_case<128, 6, kMmaTma, 1>(1, true));
  cases.push_back(make_case<128, 6, kLoads, 1>(1, true));
  // 128 CTAs, 2x1 (k10 at 512x4096x4096), warm and cold.
  for (bool warm : {true, false}) {
    cases.push_back(make_case<128, 6, kFeed, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedTR, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedW2, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedRB, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedRA, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedEarly, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeedPre, 2>(128, warm));
    cases.push_back(make_case<128, 6, kMma, 2>(128, warm));
    cases.push_back(make_case<128, 6, kLoads, 2>(128, warm));
    cases.push_back(make_case<128, 4, kFeed, 2>(128, warm));
    cases.push_back(make_case<128, 4, kFeedRB, 2>(128, warm));
    cases.push_back(make_case<128, 5, kFeedRB, 2>(128, warm));
    cases.push_back(make_case<128, 7, kFeedRB, 2>(128, warm));
    cases.push_back(make_case<128, 6, kFeed, 1>(128, warm));
    cases.push_back(make_case<128, 6, kFeedRB, 1>(128, warm));
    cases.push_back(make_case<256, 4, kFeed, 2>(128, warm));
    cases.push_back(make_case<256, 4, kFeedRB, 2>(128, warm));
    cases.push_back(make_case<256, 4, kFeedRA, 2>(128, warm));
  }
  }

  // waits/kb: of all CTAs' k-blocks, the share whose stage was not full when tested;
  // wait_cyc/kb: the cycles waited for them, per k-block (first consumer thread).
  std::printf("%-10s %-4s %-3s %-7s %-4s %5s | %9s %9s | %8s %8s %8s | %7s %9s | %6s %8s | %5s\n", "mode", "BN", "st",
              "cluster", "data", "CTAs", "median_us", "us/kblock", "cyc/kb", "cyc_p10", "cyc_p90", "tensor%",
              "B/clk/SM", "waits", "wait_cyc", "MHz");
  cudaEvent_t ev[8];
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  for (const Case& c : cases) {
    // Cold, 128 CTAs of 128 x 256: each CTA one half of K (32 k-blocks), as split-K 2 cuts it.
    const int per_cta_kb = c.warm ? 256 : (c.bn == 256 && c.ctas == 128 ? K / 64 / 2 : K / 64);
    const Params prm{per_cta_kb, c.warm ? 16 : K / 64, N / c.bn, nullptr, sink};
    const int smem = c.stages * (128 + c.bn) * 128 + 1024;
    auto launch = [&](int i, long long* cyc) {
      const int set = c.warm ? 0 : i % sets;
      const CUtensorMap& mb = c.cluster == 2 ? (c.bn == 128 ? mb64[set] : mb128[set]) : (c.bn == 128 ? mb128[set] : mb256[set]);
      Params p = prm;
      p.cycles = cyc;
      cudaLaunchConfig_t cfg{};
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = c.cluster;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      cfg.gridDim = dim3(c.ctas);
      cfg.blockDim = dim3(384);
      cfg.dynamicSmemBytes = smem;
      cfg.stream = s;
      cfg.attrs = attr;
      cfg.numAttrs = 1;
      CHECK(cudaLaunchKernelEx(&cfg, c.k, ma[set], mb, p));
    };
    std::vector<float> us;
    int n = 0;
    for (int rep = 0; rep < 45; ++rep) {
      spin_ns<<<1, 32, 0, s>>>(300000);
      for (int i = 0; i < 4; ++i) {
        CHECK(cudaEventRecord(ev[2 * i], s));
        launch(n++, nullptr);
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
    CHECK(cudaMemset(cycles, 0, 4 * 1024 * sizeof(long long)));
    spin_ns<<<1, 32, 0, s>>>(300000);
    launch(n, cycles);
    CHECK(cudaStreamSynchronize(s));
    std::vector<long long> raw(4 * c.ctas), h(c.ctas);
    std::vector<double> mhz(c.ctas);
    CHECK(cudaMemcpy(raw.data(), cycles, raw.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    double waits = 0, waited = 0;
    for (int i = 0; i < c.ctas; ++i) {
      h[i] = raw[4 * i];
      waits += raw[4 * i + 1];
      waited += raw[4 * i + 2];
      mhz[i] = raw[4 * i + 3] > 0 ? 1e3 * static_cast<double>(raw[4 * i]) / static_cast<double>(raw[4 * i + 3]) : 0.0;
    }
    std::sort(h.begin(), h.end());
    std::sort(mhz.begin(), mhz.end());
    const double per = static_cast<double>(h[h.size() / 2]) / prm.k_blocks;
    const double need = c.bn == 128 ? 512.0 : 1024.0;
    const double ingress = (128.0 + c.bn) * 128.0 / per;  // bytes landing in each SM per cycle
    const double kbs = static_cast<double>(c.ctas) * prm.k_blocks;
    std::printf("%-10s %-4d %-3d %-7s %-4s %5d | %9.2f %9.4f | %8.1f %8.1f %8.1f | %6.1f%% %9.1f | %6.3f %8.1f | %5.0f\n",
                mode_name(c.mode), c.bn, c.stages, c.cluster == 2 ? "2x1" : "1x1", c.warm ? "warm" : "cold", c.ctas,
                us[us.size() / 2], us[us.size() / 2] / prm.k_blocks, per,
                static_cast<double>(h[h.size() / 10]) / prm.k_blocks,
                static_cast<double>(h[h.size() * 9 / 10]) / prm.k_blocks, 100.0 * need / per, ingress, waits / kbs,
                waited / kbs, mhz[mhz.size() / 2]);
  }
  return 0;
}
