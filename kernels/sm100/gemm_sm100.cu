// Blackwell (sm_100a) bf16 GEMM: C[M,N] = A[M,K] * B[N,K]^T, fp32 accumulate.
// NOTES: compiled here (ptxas validates it, tools/check-sm100-ptx checks its
// instructions and spills); it has NOT run on a Blackwell GPU. See README.md.
//
// The design of Modular's "Matrix Multiplication on NVIDIA's Blackwell" (kernels
// 5-9): a 2 x 2 cluster of CTAs; each CTA pair runs one 2-SM MMA (tcgen05.mma
// cta_group::2, 256 x 256 x 16) whose A and B halves sit in the two CTAs' shared
// memory; the two pairs share their A rows through TMA multicast; accumulators live
// in Tensor Memory as a two-slot ring (MMA fills one slot while the epilogue drains
// the other); the kernel is persistent through cluster launch control, with the
// next tile fetched while the current one runs; tiles are visited in grouped order.
//
// Reads top to bottom: 1 configuration checks, 2 shared-memory layout and device
// helpers, 3 the roles (TMA producer, MMA, scheduler, epilogue), 4 the kernel,
// 5 the launcher.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/bf16_pack.cuh"
#include "common/cluster_launch.cuh"
#include "common/sm100_config.hpp"
#include "common/sm100_descriptors.hpp"
#include "common/sm100_problem.hpp"
#include "common/sm100_schedule.hpp"
#include "common/sm100_tmem.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/sm100.hpp"
#include "host/tensor_map.hpp"

namespace gemmscope::sm100 {
namespace ptx = cuda::ptx;

// ===== 1. Configuration (values in common/sm100_config.hpp) =========================
static_assert(kClusterM == 2 && kMmaM == 256, "cta_group::2 with M = 256: 128 rows of A and of D per CTA");
static_assert(kMmaN >= 16 && kMmaN <= 256 && kMmaN % 16 == 0, "cta_group::2 takes N = 16..256 in steps of 16");
static_assert(kMmaK * kElemBytes == 32, "kind::f16 MMA K is 32 bytes");
static_assert(kBlockK * kElemBytes == 128, "one k-block row is one 128-byte swizzle row");
static_assert(kCtaRowsA == kTmemLanes, "each CTA's 128 accumulator rows fill its 128 TMEM lanes");
static_assert(kTmemColumns >= 32 && kTmemColumns <= 512 && (kTmemColumns & (kTmemColumns - 1)) == 0,
              "tcgen05.alloc takes a power of two from 32 to 512 columns");
static_assert(kClusterSize <= 8, "a portable cluster has at most 8 CTAs");
static_assert(kRowsAPerLoad >= 1 && kRowsAPerLoad <= 256 && kCtaRowsB <= 256, "TMA box dimensions are 1..256");
static_assert(kATileBytes % kSwizzleAlignBytes == 0 && kBTileBytes % kSwizzleAlignBytes == 0 &&
                  kALoadBytes % kSwizzleAlignBytes == 0 && kSmemBOffset % kSwizzleAlignBytes == 0,
              "128B-swizzled tiles start on 1024-byte boundaries (descriptor base offset 0)");
static_assert(kSmemBarrierOffset % 8 == 0 && kSmemClcResponseOffset % 16 == 0, "mbarriers 8-byte, responses 16-byte");
static_assert(kSmemBytes <= 232448, "sm_100 allows 227 KiB of dynamic shared memory per CTA");
static_assert(kFullTxBytes < (1u << 20), "mbarrier tx-count is below 2^20");
static_assert(kEpilogueWarps == 4 && kAccumColumns % kEpilogueColumnsPerLoad == 0,
              "one warpgroup covers the 4 TMEM lane quarters");
static_assert(kFirstEpilogueWarp + kEpilogueWarps == kWarps, "the epilogue warps are the last four: w % 4 takes each quarter once");

// ===== 2. Shared-memory layout and device helpers ===================================
// Barrier i of the block after kSmemBarrierOffset: full[kStages], empty[kStages],
// tmem_full[kAccumSlots], tmem_empty[kAccumSlots], clc_full[kClcStages],
// clc_empty[kClcStages].
struct Smem {
  uint8_t* base;  // 1024-byte aligned (shared-memory address)

  __device__ uint64_t* barrier(uint32_t i) const {
    return reinterpret_cast<uint64_t*>(base + kSmemBarrierOffset) + i;
  }
  __device__ uint64_t* full(uint32_t s) const { return barrier(s); }
  __device__ uint64_t* empty(uint32_t s) const { return barrier(kStages + s); }
  __device__ uint64_t* tmem_full(uint32_t slot) const { return barrier(2 * kStages + slot); }
  __device__ uint64_t* tmem_empty(uint32_t slot) const { return barrier(2 * kStages + kAccumSlots + slot); }
  __device__ uint64_t* clc_full(uint32_t s) const { return barrier(2 * kStages + 2 * kAccumSlots + s); }
  __device__ uint64_t* clc_empty(uint32_t s) const { return barrier(2 * kStages + 2 * kAccumSlots + kClcStages + s); }
  __device__ uint4* clc_response(uint32_t s) const {
    return reinterpret_cast<uint4*>(base + kSmemClcResponseOffset) + s;
  }
  __device__ uint32_t* tmem_base_slot() const { return reinterpret_cast<uint32_t*>(base + kSmemTmemBaseOffset); }
  __device__ uint32_t address(uint32_t offset) const {
    return static_cast<uint32_t>(__cvta_generic_to_shared(base)) + offset;
  }
};

// The same barrier in CTA `rank` of the cluster (a generic pointer into distributed
// shared memory; cuda::ptx turns it into the shared::cluster address).
__device__ __forceinline__ uint64_t* in_cta(uint64_t* local, uint32_t rank) {
  return cooperative_groups::this_cluster().map_shared_rank(local, rank);
}

__device__ __forceinline__ void wait_phase(uint64_t* barrier, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, barrier, parity)) {
  }
}

// Read the CLC response of clc.pipe (every lane that calls it), then, where
// `releases`, free the buffer: arrive on clc_empty in CTA 0, which issues the next
// try_cancel into it. The async proxy writes the buffer next, so order this read
// before that write with a proxy fence.
__device__ __forceinline__ ClcState read_clc_response(const Smem& smem, ClcState clc) {
  wait_phase(smem.clc_full(clc.pipe.index), clc.pipe.full_phase());
  const uint4 response = *smem.clc_response(clc.pipe.index);
  const bool cancelled = ptx::clusterlaunchcontrol_query_cancel_is_canceled(response);
  const uint32_t first_cta_x =
      cancelled ? ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(response) : 0u;
  return clc_after_response(clc, cancelled, first_cta_x);
}
__device__ __forceinline__ void release_clc_response(const Smem& smem, ClcState clc) {
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,
                       in_cta(smem.clc_empty(clc.pipe.index), 0));
}

// ===== 3. Roles =========================================================================

// TMA producer (one thread per CTA). Loads this CTA's share of every k-block into
// stage `stage`: its 64 multicast rows of A and its 128 rows of B. Completion goes to
// full[s] of the leader of each destination's pair (cta_group::2); the leader
// expects the pair's 64 KiB.
__device__ __forceinline__ void run_producer(const Smem& smem, const CUtensorMap* map_a, const CUtensorMap* map_b,
                                             uint32_t rank, TileGrid grid, uint32_t num_k_blocks) {
  PipelineState<kStages> stage;
  ClcState clc = clc_start(blockIdx.x);
  while (!clc.done) {
    const ClusterTile tile = cluster_tile_of(clc.cluster_id, grid);
    for (uint32_t kb = 0; kb < num_k_blocks; ++kb) {
      wait_phase(smem.empty(stage.index), stage.empty_phase());
      if (is_leader(rank)) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared,
                                       smem.full(stage.index), uint32_t{kFullTxBytes});
      }
      uint64_t* leader_full = in_cta(smem.full(stage.index), leader_of(rank));
      const TmaLoad a = a_load(rank, tile, kb);
      const int32_t a_coords[2] = {static_cast<int32_t>(a.k_elem), static_cast<int32_t>(a.row)};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, ptx::cta_group_2,
                                smem.base + smem_a_stage(stage.index) + a.smem_offset, map_a, a_coords, leader_full,
                                a.cta_mask);
      const TmaLoad b = b_load(rank, tile, kb);
      const int32_t b_coords[2] = {static_cast<int32_t>(b.k_elem), static_cast<int32_t>(b.row)};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, ptx::cta_group_2,
                                smem.base + smem_b_stage(stage.index) + b.smem_offset, map_b, b_coords, leader_full,
                                b.cta_mask);
      stage.advance();
    }
    const ClcState next = read_clc_response(smem, clc);
    release_clc_response(smem, clc);
    clc = next;
  }
  // Tail: wait until every stage is released, so that no MMA commit still targets
  // this CTA's shared memory when it exits.
  for (uint32_t i = 0; i < kStages; ++i) {
    wait_phase(smem.empty(stage.index), stage.empty_phase());
    stage.advance();
  }
}

// MMA issuer (one thread, leader CTA of each pair). Per tile: wait for an empty
// accumulator slot, then per k-block wait for the pair's data, issue 4 MMAs of
// K = 16 and commit: the commit frees the stage in all four CTAs (both pairs
// multicast into it); after the last k-block a commit tells both CTAs' epilogues
// that the slot is full.
__device__ __forceinline__ void run_mma(const Smem& smem, uint32_t rank, uint32_t tmem_base, uint32_t num_k_blocks) {
  constexpr uint32_t kInstrDesc = instr_desc_bf16_f32(kMmaM, kMmaN);
  PipelineState<kStages> stage;
  PipelineState<kAccumSlots> accum;
  ClcState clc = clc_start(blockIdx.x);
  while (!clc.done) {
    wait_phase(smem.tmem_empty(accum.index), accum.empty_phase());
    ptx::tcgen05_fence_after_thread_sync();
    const uint32_t d_tmem = accumulator_address(tmem_base, accum.index);
    for (uint32_t kb = 0; kb < num_k_blocks; ++kb) {
      wait_phase(smem.full(stage.index), stage.full_phase());
      ptx::tcgen05_fence_after_thread_sync();
      const uint64_t a_desc = desc_kmajor_sw128(smem.address(smem_a_stage(stage.index)), 0);
      const uint64_t b_desc = desc_kmajor_sw128(smem.address(smem_b_stage(stage.index)), 0);
#pragma unroll
      for (uint32_t kk = 0; kk < kMmasPerBlockK; ++kk) {
        const uint32_t step_bytes = kk * kMmaK * kElemBytes;
        ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_2, d_tmem, desc_advance_bytes(a_desc, step_bytes),
                         desc_advance_bytes(b_desc, step_bytes), kInstrDesc, kb > 0 || kk > 0);
      }
      ptx::tcgen05_commit_multicast(ptx::cta_group_2, smem.empty(stage.index), cluster_mask());
      stage.advance();
    }
    ptx::tcgen05_commit_multicast(ptx::cta_group_2, smem.tmem_full(accum.index), pair_mask(rank));
    accum.advance();
    const ClcState next = read_clc_response(smem, clc);
    release_clc_response(smem, clc);
    clc = next;
  }
}

// Scheduler (one thread per CTA). CTA 0 asks the hardware for the next cluster's
// work (clusterlaunchcontrol.try_cancel, multicast: the 16-byte response lands in
// every CTA); each CTA's scheduler expects those 16 bytes on its own clc_full. It
// reads each response itself before asking again: a try_cancel after a failed one
// is undefined (PTX ISA "clusterlaunchcontrol.try_cancel").
__device__ __forceinline__ void run_scheduler(const Smem& smem, uint32_t rank) {
  ClcState clc = clc_start(blockIdx.x);
  while (!clc.done) {
    const uint32_t s = clc.pipe.index;
    if (rank == 0) wait_phase(smem.clc_empty(s), clc.pipe.empty_phase());
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, smem.clc_full(s),
                                   uint32_t{kClcResponseBytes});
    if (rank == 0) ptx::clusterlaunchcontrol_try_cancel_multicast(smem.clc_response(s), smem.clc_full(s));
    const ClcState next = read_clc_response(smem, clc);
    release_clc_response(smem, clc);
    clc = next;
  }
}

// Epilogue (one warpgroup). Warp w reads TMEM lanes 32 (w % 4) .. +31, i.e. rows of
// this CTA's 128, 32 columns at a time (tcgen05.ld.32x32b.x32: thread t holds row
// 32 (w % 4) + t, register j column j), converts to bf16 and stores 16-byte vectors.
// After its last load a warp frees the slot in the leader's tmem_empty.
__device__ __forceinline__ void run_epilogue(const Smem& smem, uint32_t rank, uint32_t warp, uint32_t lane,
                                             uint32_t tmem_base, TileGrid grid, __nv_bfloat16* c, uint32_t m,
                                             uint32_t n) {
  PipelineState<kAccumSlots> accum;
  ClcState clc = clc_start(blockIdx.x);
  while (!clc.done) {
    const ClusterTile tile = cluster_tile_of(clc.cluster_id, grid);
    wait_phase(smem.tmem_full(accum.index), accum.full_phase());
    ptx::tcgen05_fence_after_thread_sync();
#pragma unroll 1
    for (uint32_t load = 0; load < kEpilogueLoadsPerSlot; ++load) {
      uint32_t cells[kEpilogueColumnsPerLoad];
      ptx::tcgen05_ld_32x32b(cells, epilogue_load_address(tmem_base, accum.index, warp, load));
      ptx::tcgen05_wait_ld();
      if (load + 1 == kEpilogueLoadsPerSlot) {
        ptx::tcgen05_fence_before_thread_sync();
        __syncwarp();
        if (lane == 0) {
          ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,
                               in_cta(smem.tmem_empty(accum.index), leader_of(rank)));
        }
      }
      const PairTileElement first = epilogue_element(cta_in_pair(rank), warp, lane, load, 0);
      const GlobalElement g = c_element(rank, tile, first.row, first.col);
      if (g.row < m) {
#pragma unroll
        for (uint32_t v = 0; v < kEpilogueColumnsPerLoad / 8; ++v) {
          const uint32_t col = g.col + 8 * v;
          if (col < n) {  // N % 8 == 0: a vector is all in or all out
            uint4 packed;
            uint32_t* words = reinterpret_cast<uint32_t*>(&packed);
#pragma unroll
            for (uint32_t i = 0; i < 4; ++i)
              words[i] = pack_bf16x2(__uint_as_float(cells[8 * v + 2 * i]), __uint_as_float(cells[8 * v + 2 * i + 1]));
            *reinterpret_cast<uint4*>(c + static_cast<uint64_t>(g.row) * n + col) = packed;
          }
        }
      }
    }
    accum.advance();
    const ClcState next = read_clc_response(smem, clc);
    __syncwarp();
    if (lane == 0) release_clc_response(smem, clc);
    clc = next;
  }
}

// ===== 4. The kernel =====================================================================
__global__ void __cluster_dims__(kClusterM, kClusterN, 1) __launch_bounds__(kThreads, 1)
    gemm_sm100_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                      __nv_bfloat16* c, uint32_t m, uint32_t n, uint32_t k) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // The swizzle XORs absolute address bits: round the base up to 1024 bytes (the
  // same offset in every CTA, so multicast offsets agree).
  const uint32_t raw_address = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
  const Smem smem{smem_raw + ((kSwizzleAlignBytes - raw_address % kSwizzleAlignBytes) % kSwizzleAlignBytes)};

  const uint32_t warp = threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t rank = ptx::get_sreg_cluster_ctarank();
  const TileGrid grid = tile_grid(m, n);
  const uint32_t num_k_blocks = k_blocks(k);

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(smem.full(s), uint32_t{kFullArrivals});
      ptx::mbarrier_init(smem.empty(s), uint32_t{kEmptyArrivals});
    }
    for (uint32_t slot = 0; slot < kAccumSlots; ++slot) {
      ptx::mbarrier_init(smem.tmem_full(slot), uint32_t{kTmemFullArrivals});
      ptx::mbarrier_init(smem.tmem_empty(slot), uint32_t{kTmemEmptyArrivals});
    }
    for (uint32_t s = 0; s < kClcStages; ++s) {
      ptx::mbarrier_init(smem.clc_full(s), uint32_t{kClcFullArrivals});
      ptx::mbarrier_init(smem.clc_empty(s), uint32_t{kClcEmptyArrivals});
    }
    // Other CTAs arrive on these barriers: make the inits visible cluster-wide.
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  if (warp == kMmaWarp) {
    // cta_group::2: one warp of each CTA of the pair allocates; both get the same
    // columns, which the 2-SM MMA writes in both CTAs.
    ptx::tcgen05_alloc(ptx::cta_group_2, smem.tmem_base_slot(), uint32_t{kTmemColumns});
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_2);
  }
  ptx::tcgen05_fence_before_thread_sync();
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  ptx::tcgen05_fence_after_thread_sync();
  const uint32_t tmem_base = *smem.tmem_base_slot();

  if (warp == kProducerWarp) {
    if (lane == 0) run_producer(smem, &map_a, &map_b, rank, grid, num_k_blocks);
  } else if (warp == kMmaWarp) {
    if (lane == 0 && is_leader(rank)) run_mma(smem, rank, tmem_base, num_k_blocks);
  } else if (warp == kSchedulerWarp) {
    if (lane == 0) run_scheduler(smem, rank);
  } else {
    run_epilogue(smem, rank, warp, lane, tmem_base, grid, c, m, n);
  }
  __syncwarp();

  // Nobody exits while a peer may still signal its barriers or write its shared
  // memory; then the pair frees its Tensor Memory together.
  ptx::tcgen05_fence_before_thread_sync();
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  ptx::tcgen05_fence_after_thread_sync();
  if (warp == kMmaWarp) ptx::tcgen05_dealloc(ptx::cta_group_2, tmem_base, uint32_t{kTmemColumns});
#endif
}

// ===== 5. Launcher =======================================================================
namespace {

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

}  // namespace

std::string can_implement(int M, int N, int K, const bf16* A, const bf16* B, const bf16* C) {
  return problem_error(M, N, K, A, B, C);
}

void launch_gemm(const bf16* A, const bf16* B, bf16* C, int M, int N, int K, cudaStream_t stream) {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  int major = 0, minor = 0;
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
  if (major != 10 || minor != 0)
    throw std::runtime_error("this kernel needs compute capability 10.0; found " + std::to_string(major) + "." +
                             std::to_string(minor));
  if (const std::string error = can_implement(M, N, K, A, B, C); !error.empty()) throw std::invalid_argument(error);

  model::TmaBox box_a{kRowsAPerLoad, kBlockK, kElemBytes, model::SwizzleMode::B128, 0};
  model::TmaBox box_b{kCtaRowsB, kBlockK, kElemBytes, model::SwizzleMode::B128, 0};
  const CUtensorMap map_a = make_tensor_map_2d(A, M, K, uint64_t{kElemBytes} * K, box_a);
  const CUtensorMap map_b = make_tensor_map_2d(B, N, K, uint64_t{kElemBytes} * K, box_b);

  // Per device and cheap: set on every launch rather than once per process.
  check_cuda(cudaFuncSetAttribute(gemm_sm100_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
             "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");

  const TileGrid grid = tile_grid(static_cast<uint32_t>(M), static_cast<uint32_t>(N));
  // The cluster shape is compiled in (__cluster_dims__); no launch attribute needed.
  ClusterLaunch launch =
      ClusterLaunch::compiled_in(dim3(grid_dim_x(grid), grid_dim_y(), 1), dim3(kThreads, 1, 1), kSmemBytes, stream);
  check_cuda(launch.launch(gemm_sm100_kernel, map_a, map_b, C, static_cast<uint32_t>(M), static_cast<uint32_t>(N),
                           static_cast<uint32_t>(K)),
             "cudaLaunchKernelEx(gemm_sm100_kernel)");
}

}  // namespace gemmscope::sm100
